// SPDX-License-Identifier: GPL-3.0-or-later
// TrainingSession, the one place a run is set up (model/session): a new model
// from settings and a corpus, the same model trained further, and settings
// refused before anything is allocated.
#include <torch/torch.h>

#include "model/io/Checkpoint.h"
#include "model/nn/CharGPT.h"
#include "model/record/RunRecorder.h"
#include "model/runtime/Error.h"
#include "model/runtime/Runtime.h"
#include "model/session/LearningRateFinder.h"
#include "model/session/TrainingSession.h"
#include "model/text/Corpus.h"
#include "model/train/Learning.h"
#include "model/train/RunConfig.h"

#include "TestProgram.h"
#include "TrainingFixtures.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include <QElapsedTimer>
#include <QTemporaryDir>

namespace tst_session {

using namespace chargpt;
using namespace training_fixtures;

class TestSession : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void sessionBuildsAndContinues();
    void sessionRefusesBadSettings();
    void noBestStepRoundTrips();
    void learningRateFinderSweepsAndSuggests();
};

void TestSession::initTestCase() {
    const int threads = initThreads(0);
    QVERIFY(threads >= 1);
    if (environmentThreads() > 0) QCOMPARE(threads, environmentThreads());  // OMP_NUM_THREADS=1 under TSan
}

// The one set-up of a run: a new model from settings and a corpus, then the
// same model trained further with its step, history and optimizer moments.
void TestSession::sessionBuildsAndContinues() {
    const Corpus corpus = Corpus::fromUtf8(std::string(2000, 'a') + "bcd", "letters");
    RunConfig config = *RunConfig::preset("tiny");
    config.max_steps = 4;
    SessionOptions options;
    options.onComputeDevice = false;
    TrainingSession first(config, corpus, options);
    QCOMPARE(first.config().vocab_size, int64_t(first.tokenizer().vocabSize()));
    QCOMPARE(first.trainer().step(), int64_t(0));
    QCOMPARE(reasonText(first.trainer().run().reason), reasonText(EndReason::Finished));
    const Checkpoint after = first.checkpoint();
    QCOMPARE(after.step, int64_t(4));
    QVERIFY(after.optimizerStep > 0);

    // The same seed gives the same first weights.
    TrainingSession again(config, corpus, options);
    torch::manual_seed(config.seed);
    QVERIFY(sameWeights(weightsOf(again.model()), weightsOf(CharGPT(again.config()))));

    // Continuing: the model reached max_steps, so it trains that many more.
    TrainingSession second(config, after, corpus, options);
    QVERIFY(second.model().get() == first.model().get());  // shared, not copied
    QCOMPARE(second.trainer().step(), int64_t(4));
    QCOMPARE(second.config().max_steps, int64_t(8));
    QCOMPARE(second.trainer().optimizer().stepCount(), after.optimizerStep);
    QCOMPARE(second.trainer().history().steps.size(), std::size_t(4));
    second.trainer().run();
    QCOMPARE(second.trainer().step(), int64_t(8));
    QCOMPARE(second.trainer().history().steps.size(), std::size_t(8));

    // Another architecture is refused rather than trained on the old model.
    RunConfig wider = config;
    wider.emb_size = 64;
    QVERIFY_THROWS_EXCEPTION(Error, (TrainingSession{wider, after, corpus, options}));
}

void TestSession::sessionRefusesBadSettings() {
    const Corpus corpus = Corpus::fromUtf8(std::string(500, 'x') + "yz", "letters");
    RunConfig config = *RunConfig::preset("tiny");
    config.head_size = 5;  // 32 is not a multiple of 5
    try {
        TrainingSession session(config, corpus);
        QFAIL("bad settings were accepted");
    } catch (const Error& e) {
        QCOMPARE(QString::fromUtf8(e.what()), QStringLiteral("emb_size (32) must be divisible by head_size (5)."));
    }
    config = *RunConfig::preset("tiny");
    SessionOptions small;
    small.availableMemoryBytes = 1 << 20;
    try {
        TrainingSession session(config, corpus, small);
        QFAIL("settings too large for the memory were accepted");
    } catch (const Error& e) {
        QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("this machine has 1 MiB")), e.what());
    }
    // Settings whose model could not be opened again (the budget of a model
    // read from a file: a context of 4,096 in 64 heads of 8 needs 8.6 GB
    // beyond its weights) are refused before anything is built, even where
    // the machine has the memory to train them.
    RunConfig wide = *RunConfig::preset("tiny");
    wide.sequence_len = 4096;
    wide.emb_size = 512;
    wide.head_size = 8;
    wide.n_layer = 1;
    wide.batch_size = 1;
    SessionOptions plenty;
    plenty.availableMemoryBytes = 1e15;
    QElapsedTimer clock;
    clock.start();
    try {
        TrainingSession session(wide, corpus, plenty);
        QFAIL("settings past the budget of a model read from a file were accepted");
    } catch (const Error& e) {
        QCOMPARE(QString::fromUtf8(e.what()),
                 QStringLiteral("these settings make a model whose checkpoint could not be opened again: its "
                                "settings (context 4096, 1 layer of 64 heads of 8) need about 8.6 GB beyond their "
                                "weights to run over the whole context; a model read from a file may take up to "
                                "4.3 GB for that."));
    }
    QVERIFY2(clock.elapsed() < 2000, qPrintable(QStringLiteral("%1 ms").arg(clock.elapsed())));
    // The learning-rate floor follows the rate: at most a tenth of it.
    config.setLearningRate(1e-4);
    QCOMPARE(config.min_learning_rate, 1e-5);
    config.setLearningRate(1.0);
    QCOMPARE(config.min_learning_rate, 1e-5);
}

// The learning-rate finder on a small text: each step's rate grows
// exponentially from the sweep's first to its last; the smoothed loss falls
// from the uniform guess while the rate is small; the suggestions lie inside
// the sweep, the steepest fall before the lowest loss, the suggestion a tenth
// of the latter; and a stop ends the sweep where it is.
void TestSession::learningRateFinderSweepsAndSuggests() {
    std::string text;
    for (int i = 0; i < 400; ++i) text += "the quick brown fox jumps over the lazy dog. ";
    const Corpus corpus = Corpus::fromUtf8(text, "fox");
    const RunConfig tiny = *RunConfig::preset("tiny");
    LearningRateSweep sweep;
    sweep.steps = 60;
    const LearningRateFinding found = findLearningRate(tiny, corpus, sweep);
    QVERIFY(found.rates.size() >= 10 && found.rates.size() <= 60);
    QVERIFY(std::abs(found.rates.front() - 1e-5) < 1e-12);
    const double ratio = std::pow(1.0 / 1e-5, 1.0 / 59.0);
    for (std::size_t i = 1; i < found.rates.size(); ++i)
        QVERIFY(std::abs(found.rates[i] / found.rates[i - 1] - ratio) < 1e-9);
    const double lowest = *std::min_element(found.smoothed.begin(), found.smoothed.end());
    QVERIFY2(lowest < found.smoothed.front() - 0.2, qPrintable(QStringLiteral("%1 from %2").arg(lowest).arg(found.smoothed.front())));
    QVERIFY(found.steepest >= 1e-5 && found.steepest <= found.lowest && found.lowest <= 1.0);
    QCOMPARE(found.suggested, found.lowest / 10.0);

    LearningRateSweep stopped = sweep;
    stopped.control = std::make_shared<TrainerControl>();
    const LearningRateFinding early = findLearningRate(tiny, corpus, stopped, [&](int64_t step, double, double) {
        if (step == 20) stopped.control->stop();
    });
    QCOMPARE(early.rates.size(), std::size_t(20));
    LearningRateSweep tooShort;
    tooShort.steps = 5;
    QVERIFY_THROWS_EXCEPTION(Error, findLearningRate(tiny, corpus, tooShort));
}

CHARGPT_TEST_GUILESS_MAIN(TestSession)

// "No best evaluation yet" and "not memorising" are none, not a step: before a
// run, through a checkpoint (which keeps the history, not the best weights)
// and in the session built from it.
void TestSession::noBestStepRoundTrips() {
    const Corpus corpus = Corpus::fromUtf8(std::string(2000, 'a') + "bcd", "letters");
    RunConfig config = *RunConfig::preset("tiny");
    config.max_steps = 4;
    SessionOptions options;
    options.onComputeDevice = false;
    TrainingSession fresh(config, corpus, options);
    QVERIFY(!fresh.trainer().bestStep());
    QVERIFY(!fresh.trainer().overfitting().sinceStep && !fresh.trainer().overfitting().bestStep);

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string untrained = dir.filePath("untrained.pt").toStdString();
    saveCheckpoint(untrained, fresh.checkpoint());
    const Checkpoint opened = loadCheckpoint(untrained);
    QCOMPARE(opened.weightsStep, int64_t(0));  // the file says step 0, as before
    QVERIFY(!detectOverfitting(opened.history).bestStep);
    QVERIFY(!TrainingSession(config, opened, corpus, options).trainer().bestStep());

    std::optional<int64_t> firstBest;
    fresh.trainer().onEval = [&](const StepFigures& s) {
        if (!firstBest) firstBest = s.bestStep;
        QVERIFY(!s.overfittingSince);
    };
    fresh.trainer().run();
    QCOMPARE(firstBest, std::optional<int64_t>(0));  // the evaluation before the first step
    QVERIFY(fresh.trainer().bestStep());
    const std::string trained = dir.filePath("trained.pt").toStdString();
    saveCheckpoint(trained, fresh.checkpoint());
    const Checkpoint reopened = loadCheckpoint(trained);
    QCOMPARE(detectOverfitting(reopened.history).bestStep, fresh.trainer().overfitting().bestStep);
    QVERIFY(!detectOverfitting(reopened.history).sinceStep);
    QVERIFY(!TrainingSession(config, reopened, corpus, options).trainer().bestStep());
}

}  // namespace tst_session
#include "tst_session.moc"
