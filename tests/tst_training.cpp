// SPDX-License-Identifier: GPL-3.0-or-later
// Trainer: learning, stop/pause, divergence handling, reproducibility, schedule
// (the session that sets a run up is tst_session's).
#include <torch/torch.h>

#include "model/io/Checkpoint.h"
#include "model/nn/CharGPT.h"
#include "model/text/CharTokenizer.h"
#include "model/text/Corpus.h"
#include "model/train/Dataset.h"
#include "model/runtime/Error.h"
#include "model/train/RunConfig.h"
#include "model/runtime/Runtime.h"
#include "model/train/Trainer.h"
#include "model/session/TrainingSession.h"

#include "TestProgram.h"
#include "TrainingFixtures.h"

#include <atomic>
#include <chrono>
#include <cmath>
#include <future>
#include <map>
#include <memory>
#include <thread>

namespace tst_training {

using namespace chargpt;
using namespace training_fixtures;

namespace {

struct Setup {
    CharTokenizer tokenizer;
    std::shared_ptr<const Dataset> data;
    RunConfig config;
};

Setup makeSetup(const std::string& text, int repeat) {
    std::string all;
    for (int i = 0; i < repeat; ++i) all += text;
    const Corpus corpus = Corpus::fromUtf8(all, "repetitive");
    Setup s;
    s.tokenizer = corpus.buildTokenizer();
    s.config = *RunConfig::preset("tiny");
    s.config.vocab_size = s.tokenizer.vocabSize();
    s.data = std::make_shared<const Dataset>(corpus.encode(s.tokenizer), s.config.sequence_len,
                                             s.config.val_fraction);
    return s;
}

bool allFinite(const CharGPT& model) {
    for (const torch::Tensor& p : model->parameters())
        if (!torch::isfinite(p).all().item<bool>()) return false;
    return true;
}

}  // namespace

class TestTraining : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void threadsFromEnvironment_data();
    void threadsFromEnvironment();
    void learnsRepetitiveText();
    void stopFromCallback();
    void stopWhilePaused();
    void pauseExcludedFromElapsed();
    void timeLimit();
    void nonFiniteLossKeepsFiniteWeights();
    void sameSeedSameLosses();
    void earlyEvaluationSteps();
    void learningRateSchedule();
    void savePausedKeepsItsStep();
    void postedWorkRunsBetweenSteps();
};

void TestTraining::initTestCase() {
    const int threads = initThreads(0);
    QVERIFY(threads >= 1);
    if (environmentThreads() > 0) QCOMPARE(threads, environmentThreads());  // OMP_NUM_THREADS=1 under TSan
    QCOMPARE(initThreads(7), threads);  // later calls change nothing
    // Every stop reason has its own name (the comparisons below rely on it).
    QSet<QString> names;
    for (EndReason r :
         {EndReason::Finished, EndReason::TimeLimit, EndReason::Stopped, EndReason::NonFiniteLoss})
        names.insert(reasonText(r));
    QCOMPARE(names.size(), 4);
    QVERIFY(!names.contains(QString()));
}

void TestTraining::learnsRepetitiveText() {
    Setup s = makeSetup("abcdefgh\n", 300);
    QCOMPARE(s.tokenizer.vocabSize(), int64_t(10));
    s.config.max_steps = 300;
    s.config.eval_interval = 100;
    torch::manual_seed(1);
    CharGPT model(s.config);
    Trainer trainer(model, s.data, s.config);

    const double initial = trainer.evaluate(Split::Validation);
    QVERIFY2(std::abs(initial - std::log(10.0)) < 0.5, qPrintable(QString::number(initial)));
    QCOMPARE(trainer.evaluate(Split::Validation), initial);  // fixed evaluation batches

    int steps = 0, evals = 0;
    int64_t lastStep = 0;
    bool increasing = true;
    trainer.onStep = [&](const StepFigures& snap) {
        ++steps;
        increasing = increasing && snap.step == lastStep + 1;
        lastStep = snap.step;
    };
    trainer.onEval = [&](const StepFigures& snap) {
        ++evals;
        QVERIFY(std::isfinite(snap.valLoss));
    };
    const TrainResult result = trainer.run();

    QCOMPARE(reasonText(result.reason), reasonText(EndReason::Finished));
    QCOMPARE(steps, 300);
    QVERIFY(increasing);
    QCOMPARE(trainer.step(), int64_t(300));
    QCOMPARE(result.last.step, int64_t(300));
    QCOMPARE(trainer.tokensSeen(), int64_t(300) * s.config.batch_size * s.config.sequence_len);
    QCOMPARE(trainer.history().steps.size(), std::size_t(300));
    QCOMPARE(trainer.history().trainLoss.size(), std::size_t(300));
    QCOMPARE(trainer.history().learningRate.size(), std::size_t(300));
    QCOMPARE(int(trainer.history().evalSteps.size()), evals);
    QVERIFY(evals >= 3);
    QCOMPARE(trainer.history().evalSteps.back(), int64_t(300));

    const double val = trainer.evaluate(Split::Validation);
    qInfo("validation loss %.4f -> %.4f after 300 steps", initial, val);
    QVERIFY2(val < 0.3, qPrintable(QStringLiteral("validation loss %1 after 300 steps (from %2)").arg(val).arg(initial)));
    QVERIFY(std::abs(result.last.valLoss - val) < 1e-4);
    QVERIFY(trainer.history().trainLoss.back() < 0.5f);
    QVERIFY(allFinite(model));

    // The trained model predicts the next character of the pattern.
    torch::NoGradGuard noGrad;
    model->eval();
    const std::vector<int64_t> prompt = s.tokenizer.encode(U"cdefgh\nabcde");
    const torch::Tensor logits = model->forward(torch::tensor(prompt).unsqueeze(0));
    QCOMPARE(logits.select(1, int64_t(prompt.size()) - 1).argmax(-1).item<int64_t>(), s.tokenizer.id(U'f'));
}

// initThreads(0) takes OMP_NUM_THREADS when it is a plain positive number.
void TestTraining::threadsFromEnvironment_data() {
    QTest::addColumn<QByteArray>("value");
    QTest::addColumn<int>("threads");
    QTest::newRow("1") << QByteArray("1") << 1;
    QTest::newRow("3") << QByteArray("3") << 3;
    QTest::newRow("0") << QByteArray("0") << 0;
    QTest::newRow("negative") << QByteArray("-2") << 0;
    QTest::newRow("list") << QByteArray("4,2") << 0;
    QTest::newRow("word") << QByteArray("many") << 0;
    QTest::newRow("empty") << QByteArray("") << 0;
    QTest::newRow("too many") << QByteArray("100000") << 0;
}

void TestTraining::threadsFromEnvironment() {
    QFETCH(QByteArray, value);
    QFETCH(int, threads);
    const bool wasSet = qEnvironmentVariableIsSet("OMP_NUM_THREADS");
    const QByteArray before = qgetenv("OMP_NUM_THREADS");
    qputenv("OMP_NUM_THREADS", value);
    const int got = environmentThreads();
    if (wasSet) qputenv("OMP_NUM_THREADS", before);
    else qunsetenv("OMP_NUM_THREADS");
    QCOMPARE(got, threads);
}

void TestTraining::stopFromCallback() {
    Setup s = makeSetup("the cat sat on the mat. ", 40);
    s.config.max_steps = 200;
    torch::manual_seed(2);
    CharGPT model(s.config);
    Trainer trainer(model, s.data, s.config);
    trainer.onStep = [&](const StepFigures& snap) {
        if (snap.step == 5) trainer.stop();
    };
    const TrainResult result = trainer.run();
    QCOMPARE(reasonText(result.reason), reasonText(EndReason::Stopped));
    QCOMPARE(trainer.step(), int64_t(5));
    QCOMPARE(trainer.history().steps.size(), std::size_t(5));
    QVERIFY(allFinite(model));

    // A later run continues from where it stopped.
    trainer.onStep = [&](const StepFigures& snap) {
        if (snap.step == 8) trainer.stop();
    };
    const TrainResult again = trainer.run();
    QCOMPARE(reasonText(again.reason), reasonText(EndReason::Stopped));
    QCOMPARE(trainer.step(), int64_t(8));
    QCOMPARE(trainer.history().steps.size(), std::size_t(8));
}

void TestTraining::stopWhilePaused() {
    Setup s = makeSetup("the cat sat on the mat. ", 40);
    s.config.max_steps = 200;
    torch::manual_seed(3);
    CharGPT model(s.config);
    Trainer trainer(model, s.data, s.config);
    std::thread stopper;
    trainer.onStep = [&](const StepFigures& snap) {
        if (snap.step == 2) {
            trainer.pause();
            stopper = std::thread([&] {
                std::this_thread::sleep_for(std::chrono::milliseconds(100));
                trainer.stop();
            });
        }
    };
    const TrainResult result = trainer.run();
    if (stopper.joinable()) stopper.join();
    QCOMPARE(reasonText(result.reason), reasonText(EndReason::Stopped));
    QCOMPARE(trainer.step(), int64_t(2));
}

void TestTraining::pauseExcludedFromElapsed() {
    Setup s = makeSetup("the cat sat on the mat. ", 40);
    s.config.max_steps = 8;
    torch::manual_seed(4);
    CharGPT model(s.config);
    Trainer trainer(model, s.data, s.config);
    std::thread resumer;
    trainer.onStep = [&](const StepFigures& snap) {
        if (snap.step == 3) {
            trainer.pause();
            QVERIFY(trainer.paused());
            resumer = std::thread([&] {
                std::this_thread::sleep_for(std::chrono::milliseconds(600));
                trainer.resume();
            });
        }
    };
    const auto start = std::chrono::steady_clock::now();
    const TrainResult result = trainer.run();
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (resumer.joinable()) resumer.join();
    QCOMPARE(reasonText(result.reason), reasonText(EndReason::Finished));
    QCOMPARE(trainer.step(), int64_t(8));
    QVERIFY(!trainer.paused());
    QVERIFY2(wall >= 0.6, qPrintable(QString::number(wall)));
    QVERIFY2(result.last.elapsedSeconds <= wall - 0.5,
             qPrintable(QStringLiteral("elapsed %1 s of %2 s wall").arg(result.last.elapsedSeconds).arg(wall)));
}

void TestTraining::timeLimit() {
    Setup s = makeSetup("the cat sat on the mat. ", 40);
    s.config.max_steps = 0;
    s.config.time_limit_s = 0.4;
    QCOMPARE(QString::fromStdString(s.config.validate().message()), QString());
    torch::manual_seed(5);
    CharGPT model(s.config);
    Trainer trainer(model, s.data, s.config);
    const auto start = std::chrono::steady_clock::now();
    const TrainResult result = trainer.run();
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    QCOMPARE(reasonText(result.reason), reasonText(EndReason::TimeLimit));
    QVERIFY(trainer.step() > 0);
    QVERIFY2(wall >= 0.4 && wall < 10.0, qPrintable(QString::number(wall)));
}

void TestTraining::nonFiniteLossKeepsFiniteWeights() {
    Setup s = makeSetup("the cat sat on the mat. ", 40);
    s.config.learning_rate = 1e6;  // with weight decay 0.1 the weights grow ~1e5x per step
    s.config.min_learning_rate = 1e5;
    s.config.weight_decay = 0.1;
    s.config.grad_clip = 0.0;
    s.config.warmup_steps = 0;
    s.config.max_steps = 100;
    QCOMPARE(QString::fromStdString(s.config.validate().message()), QString());
    torch::manual_seed(6);
    CharGPT model(s.config);
    Trainer trainer(model, s.data, s.config);
    // The weights at the start and after every step.
    auto weights = [&] {
        std::vector<torch::Tensor> w;
        for (const torch::Tensor& p : model->parameters()) w.push_back(p.detach().clone());
        return w;
    };
    std::vector<std::vector<torch::Tensor>> reached{weights()};
    trainer.onStep = [&](const StepFigures&) { reached.push_back(weights()); };
    const TrainResult result = trainer.run();

    QVERIFY2(result.reason == EndReason::NonFiniteLoss,
             "a learning rate of 1e6 without clipping must make the loss non-finite");
    QVERIFY(!result.message.empty());
    QVERIFY2(QString::fromStdString(result.message).contains(QRegularExpression("nan|inf|finite|diverg", QRegularExpression::CaseInsensitiveOption)),
             result.message.c_str());
    QVERIFY(trainer.step() < 100);
    QVERIFY2(allFinite(model), "non-finite weights were kept after the loss diverged");
    for (float loss : trainer.history().trainLoss) QVERIFY(std::isfinite(loss));
    // The kept weights are ones the run went through, and they still give a finite loss.
    const std::vector<torch::Tensor> kept = weights();
    bool found = false;
    for (const auto& w : reached) {
        bool same = w.size() == kept.size();
        for (std::size_t i = 0; same && i < w.size(); ++i) same = torch::equal(w[i], kept[i]);
        found = found || same;
    }
    QVERIFY2(found, "the kept weights are not those of any step");
    const double loss = trainer.evaluate(Split::Train);
    QVERIFY2(std::isfinite(loss), qPrintable(QStringLiteral("the kept weights give a loss of %1").arg(loss)));
}

void TestTraining::sameSeedSameLosses() {
    Setup s = makeSetup("to be or not to be, that is the question. ", 30);
    s.config.max_steps = 20;
    s.config.dropout = 0.1;  // dropout masks must be reproducible too
    auto train = [&](uint64_t seed, std::vector<float>& losses, std::vector<torch::Tensor>& weights) {
        RunConfig c = s.config;
        c.seed = seed;
        torch::manual_seed(99);  // same initial weights
        CharGPT model(c);
        Trainer trainer(model, s.data, c);
        const TrainResult r = trainer.run();
        QCOMPARE(reasonText(r.reason), reasonText(EndReason::Finished));
        losses = trainer.history().trainLoss;
        weights = model->parameters();
    };
    std::vector<float> a, b, c;
    std::vector<torch::Tensor> wa, wb, wc;
    train(12046, a, wa);
    train(12046, b, wb);
    train(777, c, wc);
    QCOMPARE(a.size(), std::size_t(20));
    QVERIFY2(a == b, "the same seed gave different losses");
    QCOMPARE(wa.size(), wb.size());
    for (std::size_t i = 0; i < wa.size(); ++i) QVERIFY(torch::equal(wa[i], wb[i]));
    QVERIFY2(a != c, "another seed gave the same losses");
}

void TestTraining::earlyEvaluationSteps() {
    // The fast preset's interval: 16, 32, 64, 128 before 200, then every 200.
    std::vector<int64_t> early;
    for (int64_t step = 0; step <= 1000; ++step)
        if (isEarlyEvaluationStep(step, 200)) early.push_back(step);
    QCOMPARE(early, (std::vector<int64_t>{16, 32, 64, 128}));
    QVERIFY(!isEarlyEvaluationStep(200, 200));  // an evaluation of the interval's own
    QVERIFY(!isEarlyEvaluationStep(256, 200));
    QVERIFY(isEarlyEvaluationStep(1, 10));
    QVERIFY(!isEarlyEvaluationStep(1, 1));  // every step is evaluated anyway
}

void TestTraining::learningRateSchedule() {
    Setup s = makeSetup("abcabc\n", 20);
    s.config.learning_rate = 1e-3;
    s.config.min_learning_rate = 1e-4;
    s.config.warmup_steps = 10;
    s.config.max_steps = 110;
    torch::manual_seed(8);
    CharGPT model(s.config);
    const Trainer trainer(model, s.data, s.config);

    // Warm-up: rising, below the peak.
    for (int64_t step = 1; step < 10; ++step) {
        QVERIFY(trainer.learningRateAt(step, 0.0) > trainer.learningRateAt(step - 1, 0.0));
        QVERIFY(trainer.learningRateAt(step, 0.0) <= 1e-3 + 1e-12);
    }
    QVERIFY(trainer.learningRateAt(0, 0.0) > 0.0);
    QVERIFY(trainer.learningRateAt(0, 0.0) < 1e-3);
    // Peak at the end of warm-up, then cosine decay down to the floor.
    QVERIFY(std::abs(trainer.learningRateAt(10, 0.0) - 1e-3) < 1e-9);
    QVERIFY(std::abs(trainer.learningRateAt(60, 0.0) - 0.5 * (1e-3 + 1e-4)) < 1e-9);
    QVERIFY(std::abs(trainer.learningRateAt(110, 0.0) - 1e-4) < 1e-9);
    for (int64_t step = 11; step <= 110; ++step)
        QVERIFY(trainer.learningRateAt(step, 0.0) <= trainer.learningRateAt(step - 1, 0.0));
}

// Paused at step N, a save asked for from another thread is done while the
// run stays paused: the file holds step N and exactly the weights of step N,
// and no step is taken until it resumes.
void TestTraining::savePausedKeepsItsStep() {
    Setup s = makeSetup("the cat sat on the mat. ", 40);
    s.config.max_steps = 200;
    torch::manual_seed(9);
    CharGPT model(s.config);
    Trainer trainer(model, s.data, s.config);
    constexpr int64_t kPauseAt = 5;
    std::map<std::string, torch::Tensor> weightsAtPause;
    std::atomic<int> stepsWhilePaused{0};
    trainer.onStep = [&](const StepFigures& snap) {
        if (trainer.paused()) ++stepsWhilePaused;
        if (snap.step == kPauseAt) {
            weightsAtPause = weightsOf(model);
            trainer.pause();
        }
    };
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string path = dir.filePath(QStringLiteral("paused.pt")).toStdString();

    // Another thread (the window's, say) waits for the pause, then saves
    // through the trainer's queue and looks again a while later.
    int64_t savedAt = -1, stepLater = -1;
    bool pausedLater = false;
    std::thread window([&] {
        while (!trainer.paused()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        std::promise<void> saved;
        trainer.post([&] {
            saveCheckpoint(path, checkpointFromTrainer(trainer, s.tokenizer));
            savedAt = trainer.step();
            saved.set_value();
        });
        saved.get_future().wait();
        std::this_thread::sleep_for(std::chrono::milliseconds(300));  // time for a step it must not take
        std::promise<void> looked;
        trainer.post([&] {
            stepLater = trainer.step();
            looked.set_value();
        });
        looked.get_future().wait();
        pausedLater = trainer.paused();
        trainer.stop();
    });
    const TrainResult result = trainer.run();
    window.join();
    QCOMPARE(savedAt, kPauseAt);
    QCOMPARE(stepLater, kPauseAt);
    QVERIFY(pausedLater);

    QCOMPARE(reasonText(result.reason), reasonText(EndReason::Stopped));
    QCOMPARE(trainer.step(), kPauseAt);
    QCOMPARE(trainer.history().steps.size(), std::size_t(kPauseAt));
    QCOMPARE(stepsWhilePaused.load(), 0);
    const Checkpoint saved = loadCheckpoint(path);
    QCOMPARE(saved.step, kPauseAt);
    QCOMPARE(saved.history.steps.size(), std::size_t(kPauseAt));
    QVERIFY2(sameWeights(weightsOf(saved.model), weightsAtPause), "the saved weights are not those of the paused step");
    QVERIFY(sameWeights(weightsOf(model), weightsAtPause));
}

// Work posted during a run runs on the training thread after the current step;
// work posted with no run in progress waits for the next run or runPosted().
void TestTraining::postedWorkRunsBetweenSteps() {
    Setup s = makeSetup("the cat sat on the mat. ", 40);
    s.config.max_steps = 6;
    torch::manual_seed(10);
    CharGPT model(s.config);
    Trainer trainer(model, s.data, s.config);
    std::vector<int64_t> ranAt;
    std::thread::id ranOn;
    trainer.onStep = [&](const StepFigures& snap) {
        if (snap.step == 3)
            trainer.post([&] {
                ranAt.push_back(trainer.step());
                ranOn = std::this_thread::get_id();
            });
    };
    trainer.post([&] { ranAt.push_back(-trainer.step() - 100); });  // before any run: the run does it first
    QVERIFY(!trainer.control()->running());
    const TrainResult result = trainer.run();
    QCOMPARE(reasonText(result.reason), reasonText(EndReason::Finished));
    QCOMPARE(ranAt, (std::vector<int64_t>{-100, 3}));
    QVERIFY(ranOn == std::this_thread::get_id());

    bool done = false;
    trainer.post([&] { done = true; });
    QVERIFY(!done);
    trainer.control()->runPosted();
    QVERIFY(done);
}

CHARGPT_TEST_GUILESS_MAIN(TestTraining)
}  // namespace tst_training
#include "tst_training.moc"
