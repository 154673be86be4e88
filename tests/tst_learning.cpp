// SPDX-License-Identifier: GPL-3.0-or-later
// How learning is measured: passes over the text, the unigram entropy, the
// overfitting detector, the preset fitted to a text, validation at step 0, the
// best weights kept and put back, and the `train` command's part of them.
#include <torch/torch.h>

#include "model/io/Checkpoint.h"
#include "model/runtime/Error.h"
#include "model/text/BuiltinCorpora.h"
#include "model/text/Corpus.h"
#include "model/runtime/Runtime.h"
#include "model/train/Dataset.h"
#include "model/train/Learning.h"
#include "model/train/RunConfig.h"
#include "model/train/Trainer.h"
#include "model/session/TrainingSession.h"

#include <QJsonObject>
#include <QTemporaryDir>
#include "TestProgram.h"

#include <cmath>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "CliRun.h"

namespace tst_learning {

using namespace chargpt;

namespace {

// A history of evaluations at steps 0, 100, 200, ...
LossHistory historyOf(const std::vector<float>& train, const std::vector<float>& val) {
    LossHistory h;
    for (std::size_t i = 0; i < val.size(); ++i) {
        h.evalSteps.push_back(int64_t(i) * 100);
        h.evalTrainLoss.push_back(train[i]);
        h.evalValLoss.push_back(val[i]);
    }
    return h;
}

// Random letters: nothing in them can be learned beyond their frequencies, so
// a model can only memorise its training part, and validation loss rises.
std::string randomLetters(std::size_t n, uint64_t seed, int letters = 12) {
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<int> letter(0, letters - 1);
    std::string s;
    for (std::size_t i = 0; i < n; ++i) s += char('a' + letter(rng));
    return s;
}

// English-like text made of a small vocabulary of words in lines, seeded.
std::string wordText(std::size_t bytes, uint64_t seed) {
    static const char* const words[] = {
        "the",   "king",  "queen", "of",    "and",   "to",     "my",    "lord",  "what",  "is",   "thou",
        "art",   "good",  "sir",   "shall", "we",    "not",    "a",     "man",   "love",  "with", "her",
        "his",   "that",  "this",  "come",  "go",    "now",    "hath",  "be",    "there", "here", "speak",
        "night", "day",   "sweet", "heart", "blood", "crown",  "fair",  "death", "life",  "well", "know"};
    constexpr int kWords = int(sizeof words / sizeof *words);
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<int> pick(0, kWords - 1), lineLength(4, 10), name(0, 3);
    static const char* const names[] = {"KING:\n", "QUEEN:\n", "LORD:\n", "FOOL:\n"};
    std::string s;
    while (s.size() < bytes) {
        s += names[name(rng)];
        const int lines = 1 + name(rng);
        for (int l = 0; l < lines; ++l) {
            const int n = lineLength(rng);
            for (int w = 0; w < n; ++w) {
                std::string word = words[pick(rng)];
                if (w == 0) word[0] = char(std::toupper(static_cast<unsigned char>(word[0])));
                s += word;
                s += w + 1 < n ? " " : (l + 1 < lines ? ",\n" : ".\n\n");
            }
        }
    }
    s.resize(bytes);
    return s;
}

std::vector<torch::Tensor> weightsOf(const CharGPT& model) {
    std::vector<torch::Tensor> out;
    for (const auto& p : model->parameters()) out.push_back(p.detach().cpu().clone());
    return out;
}

bool identical(const std::vector<torch::Tensor>& a, const std::vector<torch::Tensor>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (!torch::equal(a[i], b[i])) return false;
    return true;
}

// A tiny run on 400 random letters with a high learning rate: it memorises
// them, and its validation loss rises from step 25 on.
RunConfig memorisingConfig() {
    RunConfig c = *RunConfig::preset("tiny");
    c.setLearningRate(1e-2);
    c.min_learning_rate = 1e-3;
    c.emb_size = 64;
    c.max_steps = 300;
    c.eval_interval = 25;
    c.eval_iters = 4;
    return c;
}

}  // namespace

class TestLearning : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void passesArithmetic();
    void unigramEntropyOfKnownText();
    void detectorFiresOnRise();
    void detectorQuietOnNoiseAndPlateau_data();
    void detectorQuietOnNoiseAndPlateau();
    void fittedPreset();
    void validationAtStepZero();
    void bestWeightsRestored();
    void checkpointWithoutWeightsStepLoads();
    void cliKeepBest();
    void cliDefaultCorpus();
    void smallTextNeverOverfitsSilently();
};

void TestLearning::initTestCase() {
    // The threads and the caching allocator the app and the CLI train with.
    QVERIFY(chargpt::initThreads(0) >= 1);
}

void TestLearning::passesArithmetic() {
    QCOMPARE(chargpt::passesOverText(100, 8, 64, 5120), 10.0);
    QCOMPARE(chargpt::passesOverText(1, 32, 64, 4096), 0.5);
    QCOMPARE(chargpt::passesOverText(100, 8, 64, 0), 0.0);
    QCOMPARE(chargpt::passesOverText(100, 8, 64, -5), 0.0);
    QCOMPARE(chargpt::passesOverText(0, 8, 64, 5120), 0.0);
    QVERIFY(kManyPasses >= 10.0 && kManyPasses <= 30.0);

    // A trainer's snapshots count passes over its training part.
    const Corpus corpus = Corpus::fromUtf8(randomLetters(3000, 1), "letters");
    RunConfig c = *RunConfig::preset("tiny");
    c.max_steps = 10;
    TrainingSession session(c, corpus);
    const int64_t train = session.data().size(Split::Train);
    QCOMPARE(train, Dataset::trainSize(int64_t(corpus.tokenCount()), c.sequence_len, c.val_fraction));
    const TrainResult result = session.trainer().run();
    QCOMPARE(result.last.passes, 10.0 * double(c.batch_size * c.sequence_len) / double(train));
    QCOMPARE(session.trainer().passes(10), result.last.passes);
}

void TestLearning::unigramEntropyOfKnownText() {
    QCOMPARE(unigramEntropy({}), 0.0);
    QCOMPARE(unigramEntropy({7}), 0.0);
    QVERIFY(std::abs(unigramEntropy({5, 5}) - std::log(2.0)) < 1e-12);
    QVERIFY(std::abs(unigramEntropy({3, 0, 3, 3, 3}) - std::log(4.0)) < 1e-12);
    // p = 1/2, 1/4, 1/4: 1.5 bits.
    QVERIFY(std::abs(unigramEntropy({2, 1, 1}) - 1.5 * std::log(2.0)) < 1e-12);

    // The data set's is that of its training part only: 900 tokens of
    // "0 0 1 2" repeated, then 100 tokens of 3 for validation.
    std::vector<int64_t> tokens;
    for (int i = 0; i < 225; ++i) tokens.insert(tokens.end(), {0, 0, 1, 2});
    tokens.insert(tokens.end(), 100, 3);
    QCOMPARE(Dataset::trainSize(1000, 8, 0.1), int64_t(900));
    const Dataset data(tokens, 8, 0.1);
    QCOMPARE(data.size(Split::Train), int64_t(900));
    QVERIFY(std::abs(data.unigramEntropy() - 1.5 * std::log(2.0)) < 1e-9);
}

void TestLearning::detectorFiresOnRise() {
    // Validation falls to 1.50 at step 300, then rises while training falls.
    const LossHistory h = historyOf({4.0f, 2.5f, 2.0f, 1.6f, 1.4f, 1.2f, 1.0f, 0.8f},
                                    {4.0f, 2.6f, 2.0f, 1.5f, 1.52f, 1.56f, 1.6f, 1.7f});
    const Overfitting o = detectOverfitting(h);
    QVERIFY(o.detected());
    QCOMPARE(o.sinceStep, std::optional<int64_t>(300));
    QCOMPARE(o.bestStep, std::optional<int64_t>(300));
    QCOMPARE(o.bestValLoss, double(1.5f));

    // Not yet with two evaluations after the best, or when only the last one is high.
    QVERIFY(!detectOverfitting(historyOf({4.0f, 2.5f, 2.0f, 1.6f, 1.4f, 1.2f}, {4.0f, 2.6f, 2.0f, 1.5f, 1.6f, 1.7f}))
                 .detected());
    QVERIFY(!detectOverfitting(historyOf({4.0f, 2.5f, 2.0f, 1.6f, 1.4f, 1.2f, 1.1f},
                                         {4.0f, 2.6f, 2.0f, 1.5f, 1.51f, 1.52f, 1.7f}))
                 .detected());
    // A rise of training loss too is a run going wrong, not memorising.
    QVERIFY(!detectOverfitting(historyOf({4.0f, 2.5f, 2.0f, 1.6f, 1.7f, 1.8f, 1.9f},
                                         {4.0f, 2.6f, 2.0f, 1.5f, 1.6f, 1.7f, 1.8f}))
                 .detected());
    // A new best ends it.
    QVERIFY(!detectOverfitting(historyOf({4.0f, 2.5f, 2.0f, 1.6f, 1.4f, 1.2f, 1.0f, 0.8f, 0.7f},
                                         {4.0f, 2.6f, 2.0f, 1.5f, 1.6f, 1.7f, 1.8f, 1.9f, 1.45f}))
                 .detected());
    // Evaluations that are not finite are left out.
    LossHistory withNan = h;
    withNan.evalSteps.push_back(800);
    withNan.evalTrainLoss.push_back(std::nanf(""));
    withNan.evalValLoss.push_back(std::nanf(""));
    QCOMPARE(detectOverfitting(withNan).sinceStep, std::optional<int64_t>(300));
    // Nothing to say about an empty history.
    const Overfitting none = detectOverfitting(LossHistory{});
    QVERIFY(!none.detected());
    QVERIFY(!none.bestStep);
    QVERIFY(!none.sinceStep);
    QVERIFY(std::isnan(none.bestValLoss));
}

void TestLearning::detectorQuietOnNoiseAndPlateau_data() {
    QTest::addColumn<int>("kind");
    QTest::newRow("noisy falling curve") << 0;
    QTest::newRow("noisy plateau") << 1;
    QTest::newRow("slowly falling, noisy training") << 2;
}

void TestLearning::detectorQuietOnNoiseAndPlateau() {
    QFETCH(int, kind);
    std::mt19937_64 rng(42 + uint64_t(kind));
    std::uniform_real_distribution<float> noise(-0.02f, 0.02f);
    std::vector<float> train, val;
    for (int i = 0; i < 40; ++i) {
        const float t = float(i) / 40.0f;
        if (kind == 0) {
            train.push_back(3.0f - 1.5f * t + noise(rng));
            val.push_back(3.1f - 1.4f * t + noise(rng));
        } else if (kind == 1) {
            train.push_back(1.6f - 0.3f * t + noise(rng));
            val.push_back(1.7f + noise(rng));
        } else {
            train.push_back(2.0f - 0.2f * t + 2.0f * noise(rng));
            val.push_back(2.1f - 0.1f * t + noise(rng));
        }
        // No prefix of the run raises an alarm either.
        QVERIFY2(!detectOverfitting(historyOf(train, val)).detected(), qPrintable(QString::number(i)));
    }
}

void TestLearning::fittedPreset() {
    // Without a size, or for a large text, the presets stay as they are.
    for (const std::string& name : RunConfig::presetNames()) {
        const RunConfig plain = *RunConfig::preset(name);
        const RunConfig fitted = *RunConfig::preset(name, 0);
        QCOMPARE(fitted.max_steps, plain.max_steps);
        QCOMPARE(fitted.batch_size, plain.batch_size);
        QCOMPARE(fitted.eval_interval, plain.eval_interval);
    }
    QVERIFY(!RunConfig::preset("nonsense", 1000));
    QCOMPARE(RunConfig::presetNames(), (std::vector<std::string>{"book", "fast", "tiny"}));

    const RunConfig fast = *RunConfig::preset("fast");
    const RunConfig large = *RunConfig::preset("fast", 4'000'000);  // builtin:python's size
    QCOMPARE(large.max_steps, fast.max_steps);
    QCOMPARE(large.batch_size, fast.batch_size);
    QCOMPARE(large.dropout, fast.dropout);
    QCOMPARE(large.eval_interval, int64_t(200));  // 15 evaluations of 3000 steps
    QVERIFY(chargpt::passesOverText(large.max_steps, large.batch_size, large.sequence_len, 4'000'000) < 2.0);

    // A 20 KB text: smaller batches, at most kFitPasses passes, dropout, 12-20 evaluations.
    const int64_t small = 18'000;
    const RunConfig fitted = *RunConfig::preset("fast", small);
    QCOMPARE(fitted.batch_size, RunConfig::kFitMinBatch);
    QCOMPARE(fitted.max_steps, int64_t(703));  // 20 * 18000 / (8 * 64)
    // Never past the warning: a fitted preset is not warned about.
    QVERIFY(chargpt::passesOverText(fitted.max_steps, fitted.batch_size, fitted.sequence_len, small) <= kManyPasses);
    const int64_t poems = 26'619;  // builtin:tang300's training part: 1039.8 steps of 8 x 64 for 20 passes
    const RunConfig poemsFitted = *RunConfig::preset("fast", poems);
    QCOMPARE(poemsFitted.max_steps, int64_t(1039));
    QVERIFY(chargpt::passesOverText(poemsFitted.max_steps, poemsFitted.batch_size, poemsFitted.sequence_len, poems) <=
            kManyPasses);
    QCOMPARE(fitted.dropout, RunConfig::kFitDropout);
    const int64_t evaluations = fitted.max_steps / fitted.eval_interval;
    QVERIFY2(evaluations >= 12 && evaluations <= 20, qPrintable(QString::number(evaluations)));
    QVERIFY(fitted.warmup_steps <= fitted.max_steps / 10);
    QVERIFY(!fitted.validate());

    // A very small text keeps a minimum of steps (and is then warned about).
    const RunConfig tinyText = *RunConfig::preset("fast", 1000);
    QCOMPARE(tinyText.max_steps, RunConfig::kFitMinSteps);
    QVERIFY(chargpt::passesOverText(tinyText.max_steps, tinyText.batch_size, tinyText.sequence_len, 1000) > kManyPasses);
    // A medium text: full batches, fewer steps.
    const RunConfig medium = *RunConfig::preset("fast", 1'000'000);
    QCOMPARE(medium.batch_size, fast.batch_size);
    QVERIFY(medium.max_steps <= fast.max_steps);
}

void TestLearning::validationAtStepZero() {
    const Corpus corpus = Corpus::fromUtf8(randomLetters(3000, 2), "letters");
    RunConfig c = *RunConfig::preset("tiny");
    c.max_steps = 20;
    c.eval_interval = 10;
    Checkpoint first;
    {
        TrainingSession session(c, corpus);
        std::vector<int64_t> evalSteps;
        session.trainer().onEval = [&](const StepFigures& s) {
            evalSteps.push_back(s.step);
            QVERIFY(std::isfinite(s.valLoss) && std::isfinite(s.evalTrainLoss));
        };
        session.trainer().run();
        // Before the first interval, the early evaluations at 1, 2, 4, 8.
        QCOMPARE(evalSteps, (std::vector<int64_t>{0, 1, 2, 4, 8, 10, 20}));
        const LossHistory& h = session.trainer().history();
        QCOMPARE(h.evalSteps, (std::vector<int64_t>{0, 1, 2, 4, 8, 10, 20}));
        QCOMPARE(h.steps.size(), std::size_t(20));  // step 0 is an evaluation, not a step
        // A fresh model guesses about uniformly: ln V at step 0.
        const double uniform = std::log(double(session.tokenizer().vocabSize()));
        QVERIFY2(std::abs(h.evalValLoss[0] - uniform) < 0.5, qPrintable(QString::number(h.evalValLoss[0])));
        first = session.checkpoint();
    }
    // Trained further: step 20 already has its evaluation.
    c.max_steps = 30;
    TrainingSession further(c, first, corpus);
    further.trainer().run();
    QCOMPARE(further.trainer().history().evalSteps, (std::vector<int64_t>{0, 1, 2, 4, 8, 10, 20, 30}));
}

void TestLearning::bestWeightsRestored() {
    const Corpus corpus = Corpus::fromUtf8(randomLetters(400, 3, 8), "letters");
    TrainingSession session(memorisingConfig(), corpus);
    Trainer& trainer = session.trainer();
    QVERIFY(!trainer.restoreBest());  // nothing kept yet
    QVERIFY(!trainer.bestStep());

    std::map<int64_t, std::vector<torch::Tensor>> atEvaluation;
    int64_t firedAt = -1;
    std::optional<int64_t> firedSince;
    trainer.onEval = [&](const StepFigures& s) {
        atEvaluation[s.step] = weightsOf(trainer.model());
        QCOMPARE(s.bestStep, trainer.bestStep());
        if (s.overfittingSince && firedAt < 0) {
            firedAt = s.step;
            firedSince = s.overfittingSince;
        }
    };
    trainer.run();
    const LossHistory& h = trainer.history();
    const std::size_t best = std::min_element(h.evalValLoss.begin(), h.evalValLoss.end()) - h.evalValLoss.begin();
    QVERIFY(trainer.bestStep());
    const int64_t bestStep = *trainer.bestStep();
    QCOMPARE(bestStep, h.evalSteps[best]);
    QCOMPARE(float(trainer.bestValLoss()), h.evalValLoss[best]);
    // Random letters are memorised: validation rises and the detector says so.
    QVERIFY2(bestStep < trainer.step(), qPrintable(QString::number(bestStep)));
    QVERIFY2(firedAt > 0, "the detector did not fire on a memorising run");
    QCOMPARE(firedSince, trainer.bestStep());
    QVERIFY(trainer.overfitting().detected());

    QCOMPARE(trainer.weightsStep(), trainer.step());
    const std::vector<torch::Tensor> last = weightsOf(trainer.model());
    QVERIFY(trainer.restoreBest());
    QCOMPARE(trainer.weightsStep(), bestStep);
    QCOMPARE(trainer.step(), int64_t(300));
    QVERIFY(identical(weightsOf(trainer.model()), atEvaluation.at(bestStep)));
    QVERIFY(!identical(weightsOf(trainer.model()), last));
    QCOMPARE(trainer.evaluate(Split::Validation), trainer.bestValLoss());

    // The checkpoint says from which step its weights are.
    QTemporaryDir dir;
    const std::string path = dir.filePath("best.pt").toStdString();
    saveCheckpoint(path, session.checkpoint());
    const Checkpoint loaded = loadCheckpoint(path);
    QCOMPARE(loaded.step, int64_t(300));
    QCOMPARE(loaded.weightsStep, bestStep);
    QVERIFY(identical(weightsOf(loaded.model), atEvaluation.at(bestStep)));
    // Trained further from it, the weights' step carries over until the next step.
    RunConfig more = memorisingConfig();
    more.max_steps = 300;
    TrainingSession further(more, loaded, corpus);
    QCOMPARE(further.trainer().weightsStep(), bestStep);
}

void TestLearning::checkpointWithoutWeightsStepLoads() {
    const Corpus corpus = Corpus::fromUtf8(randomLetters(2000, 4), "letters");
    RunConfig c = *RunConfig::preset("tiny");
    c.max_steps = 5;
    TrainingSession session(c, corpus);
    session.trainer().run();
    QTemporaryDir dir;
    const std::string path = dir.filePath("new.pt").toStdString();
    saveCheckpoint(path, session.checkpoint());
    const QByteArray bytes = cli_run::readFile(QString::fromStdString(path));
    QVERIFY(!bytes.isEmpty());

    // The same file as an older version wrote it: no "weights_step".
    torch::IValue root = torch::pickle_load(std::vector<char>(bytes.begin(), bytes.end()));
    c10::impl::GenericDict dict = root.toGenericDict();
    QCOMPARE(dict.at("weights_step").toInt(), int64_t(5));
    QVERIFY(dict.erase("weights_step"));
    const std::vector<char> old = torch::pickle_save(dict);
    const QString oldPath = dir.filePath("old.pt");
    QVERIFY(cli_run::writeFile(oldPath, QByteArray(old.data(), int(old.size()))));
    const Checkpoint loaded = loadCheckpoint(oldPath.toStdString());
    QCOMPARE(loaded.step, int64_t(5));
    QCOMPARE(loaded.weightsStep, int64_t(5));

    // A weights_step after the checkpoint's step is refused.
    dict.insert("weights_step", int64_t(6));
    const std::vector<char> bad = torch::pickle_save(dict);
    const QString badPath = dir.filePath("bad.pt");
    QVERIFY(cli_run::writeFile(badPath, QByteArray(bad.data(), int(bad.size()))));
    bool refused = false;
    try {
        loadCheckpoint(badPath.toStdString());
    } catch (const chargpt::Error&) {
        refused = true;
    }
    QVERIFY(refused);
}

void TestLearning::cliKeepBest() {
    QTemporaryDir dir;
    const QString corpus = dir.filePath("letters.txt");
    QVERIFY(cli_run::writeFile(corpus, QByteArray::fromStdString(randomLetters(400, 3, 8))));
    const QString out = dir.filePath("best.pt");
    // The settings of memorisingConfig(), from the command line.
    const auto r = cli_run::runCli({"train", corpus, "--preset", "tiny", "--steps", "300", "--lr", "0.01", "--threads",
                                    "2", "--keep-best", "--out", out});
    QVERIFY2(r.finished && r.exitCode == 0, qPrintable(r.err));
    const QJsonObject json = cli_run::lastJsonLine(r.out);
    for (const char* key : {"best_step", "best_val_loss", "weights_step", "passes", "overfitting_since"})
        QVERIFY2(json.contains(QLatin1String(key)), key);
    const qint64 bestStep = json.value("best_step").toInteger(-1);
    QVERIFY(bestStep >= 0 && bestStep < 300);
    QCOMPARE(json.value("weights_step").toInteger(-1), bestStep);
    QVERIFY(json.value("best_val_loss").toDouble() < json.value("val_loss").toDouble());
    QVERIFY(json.value("passes").toDouble() > kManyPasses);
    // The run passes too often over its text: warned before it starts.
    QVERIFY2(r.err.contains("warning: this run passes about"), qPrintable(r.err));
    // 213 passes over 360 random letters: the detector fires, and the moment
    // it did one line said what it means.
    QVERIFY(!json.value("overfitting_since").isNull());
    QCOMPARE(json.value("overfitting_since").toInteger(-1), bestStep);
    QCOMPARE(r.err.count("the model is memorising its training text"), 1);
    QVERIFY(r.err.contains("--keep-best keeps the weights of step " + QString::number(bestStep)));
    // The progress lines count passes.
    QVERIFY(r.err.contains(" passes  loss "));

    const auto info = cli_run::runCli({"info", out});
    QVERIFY2(info.finished && info.exitCode == 0, qPrintable(info.err));
    QVERIFY2(info.out.contains("weights_step    " + QString::number(bestStep)), qPrintable(info.out));
    QVERIFY(info.out.contains("step            300"));

    // Without the flag the last step's weights are saved, and info says nothing more.
    const QString last = dir.filePath("last.pt");
    const auto plain = cli_run::runCli({"train", corpus, "--preset", "tiny", "--steps", "20", "--threads", "2",
                                        "--out", last});
    QVERIFY2(plain.finished && plain.exitCode == 0, qPrintable(plain.err));
    QCOMPARE(cli_run::lastJsonLine(plain.out).value("weights_step").toInteger(-1), qint64(20));
    const auto plainInfo = cli_run::runCli({"info", last});
    QVERIFY(!plainInfo.out.contains("weights_step"));
}

void TestLearning::cliDefaultCorpus() {
    if (pythonLibraryPath().empty()) QSKIP("no Python standard library installed for builtin:python");
    QTemporaryDir dir;
    const QString out = dir.filePath("default.pt");
    const auto r = cli_run::runCli({"train", "--preset", "tiny", "--steps", "2", "--threads", "2", "--out", out});
    QVERIFY2(r.finished && r.exitCode == 0, qPrintable(r.err));
    QCOMPARE(cli_run::lastJsonLine(r.out).value("corpus").toString(), QStringLiteral("builtin:python"));
    QVERIFY(loadCheckpoint(out.toStdString()).tokenizer.vocabSize() > 50);
}

void TestLearning::smallTextNeverOverfitsSilently() {
    // The default preset, fitted to a 20 KB text: either validation ends near
    // its best, or the run said it memorises and --keep-best saved the best.
    QTemporaryDir dir;
    const QString corpus = dir.filePath("small.txt");
    QVERIFY(cli_run::writeFile(corpus, QByteArray::fromStdString(wordText(20000, 5))));
    const QString out = dir.filePath("small.pt");
    QElapsedTimer timer;
    timer.start();
    const auto r = cli_run::runCli({"train", corpus, "--threads", "2", "--keep-best", "--out", out}, 300000);
    QVERIFY2(r.finished && r.exitCode == 0, qPrintable(r.err));
    const QJsonObject json = cli_run::lastJsonLine(r.out);
    const double val = json.value("val_loss").toDouble(), best = json.value("best_val_loss").toDouble();
    const bool nearBest = val <= best + 0.05;
    const bool reported = !json.value("overfitting_since").isNull() && r.err.contains("memorising") &&
                          json.value("weights_step").toInteger(-1) == json.value("best_step").toInteger(-2);
    qInfo("20 KB text, fitted default preset: val %.4f, best %.4f at step %lld, %.1f passes, %lld ms", val, best,
          json.value("best_step").toInteger(), json.value("passes").toDouble(), timer.elapsed());
    QVERIFY2(nearBest || reported, qPrintable(r.err));
    QVERIFY(json.value("passes").toDouble() <= RunConfig::kFitPasses + 0.01);
    QVERIFY(!r.err.contains("warning: this run passes"));
    QCOMPARE(loadCheckpoint(out.toStdString()).weightsStep, qint64(json.value("weights_step").toInteger()));
}

CHARGPT_TEST_GUILESS_MAIN(TestLearning)
}  // namespace tst_learning
#include "tst_learning.moc"
