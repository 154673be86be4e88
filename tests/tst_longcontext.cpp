// SPDX-License-Identifier: GPL-3.0-or-later
// Small checkpoints that claim a long context or many layers. A model built
// from settings allocates its weights and nothing the size of its context
// (every layer once built a context x context mask: a 2.2 MB file claiming a
// context of 16,384 cost `chargpt info` 29 s and 3.8 GB, a 1.3 MB one with
// 1,024 layers of context 2,048 47 s and 7.1 GB); settings whose run would
// need more than the stated budget are refused before anything is built, and
// so is a pass asked for more attention maps than the budget holds.
#include <torch/torch.h>

#include <QElapsedTimer>
#include <QTemporaryDir>

#include "model/io/Checkpoint.h"
#include "model/io/PyTorchInterop.h"
#include "model/nn/CharGPT.h"
#include "model/runtime/Error.h"
#include "model/runtime/Runtime.h"
#include "model/text/Corpus.h"
#include "model/train/RunConfig.h"

#include "CliRun.h"
#include "TestProgram.h"

#include <sys/resource.h>

#include <string>
#include <tuple>

namespace tst_longcontext {

using namespace chargpt;
using namespace cli_run;

namespace {

// The tiny preset's settings with this shape, over an 11-letter vocabulary
// (12 tokens with the end of text).
RunConfig shaped(int64_t context, int64_t layers, int64_t width, int64_t headSize) {
    RunConfig c = *RunConfig::preset("tiny");
    c.vocab_size = 12;
    c.sequence_len = context;
    c.n_layer = layers;
    c.emb_size = width;
    c.head_size = headSize;
    return c;
}

// A checkpoint of that shape, its weights as built.
Checkpoint claiming(int64_t context, int64_t layers, int64_t width, int64_t headSize) {
    Checkpoint k;
    k.tokenizer = Corpus::fromUtf8("abcdefghijk", "letters").buildTokenizer();
    k.config = shaped(context, layers, width, headSize);
    k.config.vocab_size = k.tokenizer.vocabSize();
    torch::manual_seed(3);
    k.model = CharGPT(k.config);
    return k;
}

// The largest peak memory (resident, MB) of the programs this test program
// has run and waited for so far: read after a run of `chargpt`, a bound on
// that run's own peak.
long childrenPeakMb() {
    rusage usage{};
    getrusage(RUSAGE_CHILDREN, &usage);
    return usage.ru_maxrss / 1024;
}

// Well under what the mask of every layer took (3.8 GB, 7.1 GB): LibTorch
// starting takes about 170 MB.
constexpr long kChildPeakLimitMb = 1024;

QString refusal(const std::string& path) {
    try {
        loadCheckpoint(path);
    } catch (const Error& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

}  // namespace

class TestLongContext : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void longContextIsRefusedBeforeAnythingIsBuilt();
    void longContextStateDictIsRefused();
    void manyLayersLoadWithoutTheirContext();
    void attentionMapsBeyondTheBudgetAreRefused();
    void headRolesCountEveryMapTheyKeep();
    void attentionPicturesPastTheirSideAreRefused();
    void thePresetsFitTheBudget();

private:
    QTemporaryDir dir_;
};

void TestLongContext::initTestCase() {
    QVERIFY(dir_.isValid());
    initThreads(0);
}

void TestLongContext::longContextIsRefusedBeforeAnythingIsBuilt() {
    // Context 16,384 with 4 heads of 8: 2.1 MB of weights, and one layer's
    // attention over the whole context alone would take 8.6 GB.
    const std::string path = dir_.filePath("long.pt").toStdString();
    QElapsedTimer clock;
    clock.start();
    saveCheckpoint(path, claiming(16384, 1, 32, 8));
    QVERIFY2(clock.elapsed() < 10000, qPrintable(QStringLiteral("built and saved in %1 ms").arg(clock.elapsed())));
    clock.restart();
    const QString message = refusal(path);
    // One line that names the file, the figure and the budget.
    QCOMPARE(message, QString::fromStdString(path) +
                          QLatin1String(" is refused: its settings (context 16384, 1 layer of 4 heads of 8) need about "
                                        "8.6 GB beyond their weights to run over the whole context; a model read from "
                                        "a file may take up to 4.3 GB for that."));
    QVERIFY2(clock.elapsed() < 5000, qPrintable(QStringLiteral("%1 ms").arg(clock.elapsed())));

    const Result info = runCli({"info", QString::fromStdString(path)});
    QVERIFY2(info.finished && info.exitCode == 1, qPrintable(describe(info)));
    QVERIFY2(info.err.startsWith(QLatin1String("chargpt: ") + QString::fromStdString(path) +
                                 QLatin1String(" is refused: its settings (context 16384, 1 layer of 4 heads of 8) "
                                               "need about 8.6 GB beyond their weights")),
             qPrintable(describe(info)));
    QVERIFY2(info.err.count('\n') == 1, qPrintable(describe(info)));
    QVERIFY2(info.ms < 20000, qPrintable(describe(info)));  // 29 s and 3.8 GB before, in Release
    QVERIFY2(childrenPeakMb() < kChildPeakLimitMb, qPrintable(QStringLiteral("%1 MB").arg(childrenPeakMb())));
    verifyNoStackTrace(info);
}

void TestLongContext::longContextStateDictIsRefused() {
    // The same shape as a PyTorch state_dict under the seed's names: refused
    // from its shapes, before the model is built.
    const Checkpoint k = claiming(16384, 1, 32, 8);
    std::map<std::string, torch::Tensor> fused;
    for (const auto& item : k.model->named_parameters()) fused[item.key()] = item.value();
    c10::impl::GenericDict dict(c10::StringType::get(), c10::TensorType::get());
    for (const auto& [name, tensor] : toSeedNames(fused, k.config)) dict.insert(name, tensor);
    const std::vector<char> bytes = torch::pickle_save(dict);
    const QString path = dir_.filePath(QStringLiteral("long_state_dict.pt"));
    QVERIFY(writeFile(path, QByteArray(bytes.data(), qsizetype(bytes.size()))));
    QString message;
    QElapsedTimer clock;
    clock.start();
    try {
        importStateDict(path.toStdString(), k.tokenizer, "letters", *RunConfig::preset("tiny"));
    } catch (const Error& e) {
        message = QString::fromStdString(e.what());
    }
    QVERIFY2(message.contains(QLatin1String("the state_dict is refused: its settings (context 16384, 1 layer of 4 "
                                            "heads of 8) need about 8.6 GB beyond their weights")),
             qPrintable(message));
    QVERIFY2(clock.elapsed() < 5000, qPrintable(QStringLiteral("%1 ms").arg(clock.elapsed())));
}

void TestLongContext::manyLayersLoadWithoutTheirContext() {
    // 1,024 layers of context 2,048, 8 wide: within the budget (about 170 MB
    // for its context), so it loads, and nothing the size of layers x context
    // x context is made on the way.
    const std::string path = dir_.filePath("deep.pt").toStdString();
    saveCheckpoint(path, claiming(2048, 1024, 8, 8));
    QVERIFY(shaped(2048, 1024, 8, 8).contextMemoryBytes() < ModelConfig::kMaxContextMemoryBytes);
    const Result info = runCli({"info", QString::fromStdString(path)});
    QVERIFY2(succeeded(info), qPrintable(describe(info)));
    QVERIFY2(info.out.contains(QLatin1String("1024")), qPrintable(describe(info)));
    QVERIFY2(info.ms < 40000, qPrintable(describe(info)));  // 47 s and 7.1 GB before, in Release
    QVERIFY2(childrenPeakMb() < kChildPeakLimitMb, qPrintable(QStringLiteral("info: %1 MB").arg(childrenPeakMb())));

    // Sampling reads its context through the key/value cache, within the budget.
    const Result sample = runCli({"sample", QString::fromStdString(path), "--chars", "20", "--prompt", "abc"});
    QVERIFY2(succeeded(sample), qPrintable(describe(sample)));
    QVERIFY2(sample.ms < 120000, qPrintable(describe(sample)));
    QVERIFY2(childrenPeakMb() < kChildPeakLimitMb, qPrintable(QStringLiteral("sample: %1 MB").arg(childrenPeakMb())));

    // `heads` would keep every layer's attention over the context (17 GB; it
    // once stopped on bad_alloc at 6.4 GB): refused with the figure, one line,
    // before the pass.
    const Result heads = runCli({"heads", QString::fromStdString(path)});
    QVERIFY2(heads.finished && heads.exitCode == 1, qPrintable(describe(heads)));
    QVERIFY2(heads.err.contains(QLatin1String("the attention of every layer and head over 2048 characters needs 17 GB "
                                              "(1024 layers of 1 head)")),
             qPrintable(describe(heads)));
    QVERIFY2(heads.err.count('\n') == 1, qPrintable(describe(heads)));
    QVERIFY2(heads.ms < 40000, qPrintable(describe(heads)));
    QVERIFY2(childrenPeakMb() < kChildPeakLimitMb, qPrintable(QStringLiteral("heads: %1 MB").arg(childrenPeakMb())));
    verifyNoStackTrace(heads);
}

void TestLongContext::attentionMapsBeyondTheBudgetAreRefused() {
    // 64 layers of 4 heads over 4,096 positions: every layer's weights and
    // scores, and one layer's work, would take 35 GB. Refused before the
    // pass, with what it needs.
    CharGPT model = claiming(4096, 64, 8, 2).model;
    const torch::Tensor idx = torch::zeros({1, 4096}, torch::kInt64);
    QElapsedTimer clock;
    clock.start();
    QString message;
    try {
        model->attentionMaps(idx);
    } catch (const Error& e) {
        message = QString::fromStdString(e.what());
    }
    QVERIFY2(message.startsWith(QLatin1String("the attention of every layer and head over 4096 characters needs 35 GB "
                                              "(64 layers of 4 heads); use a shorter text")),
             qPrintable(message));
    QVERIFY2(clock.elapsed() < 2000, qPrintable(QStringLiteral("%1 ms").arg(clock.elapsed())));
    // A text that fits is shown.
    const AttentionMaps maps = model->attentionMaps(idx.narrow(1, 0, 64));
    QCOMPARE(maps.weights.sizes().vec(), (std::vector<int64_t>{64, 1, 4, 64, 64}));
}

void TestLongContext::headRolesCountEveryMapTheyKeep() {
    // 3 layers of one head over 16,384 characters: the maps alone are 3.2 GB,
    // within the budget, but with a layer's work beside them 6.4 GB (`heads`
    // once peaked there): refused before the pass, one line.
    const std::string path = dir_.filePath("three-long-layers.pt").toStdString();
    saveCheckpoint(path, claiming(16384, 3, 8, 8));
    const Result heads = runCli({"heads", QString::fromStdString(path)});
    QVERIFY2(heads.finished && heads.exitCode == 1, qPrintable(describe(heads)));
    QVERIFY2(heads.err.contains(QLatin1String("the attention of every layer and head over ")) &&
                 heads.err.contains(QLatin1String("(3 layers of 1 head); use a shorter text (a pass may take at most "
                                                  "4.3 GB).")),
             qPrintable(describe(heads)));
    QVERIFY2(heads.err.count('\n') == 1, qPrintable(describe(heads)));
    QVERIFY2(childrenPeakMb() < kChildPeakLimitMb, qPrintable(QStringLiteral("heads: %1 MB").arg(childrenPeakMb())));
    verifyNoStackTrace(heads);
}

void TestLongContext::attentionPicturesPastTheirSideAreRefused() {
    // 441 heads over 100 characters: a grid of 21 x 21 tiles of 800 pixels,
    // 16,816 pixels a side (1,024 heads once made a 25,616 x 27,440 PNG of
    // 124 MB at an 8.2 GB peak). Refused before the attention is computed;
    // the same model over 20 characters draws.
    const QString path = dir_.filePath("many-heads.pt");
    saveCheckpoint(path.toStdString(), claiming(128, 1, 441, 1));
    const QString picture = dir_.filePath("many-heads.png");
    const Result wide = runCli({"attention", path, "--text", QString(100, QLatin1Char('a')), "--out", picture});
    QVERIFY2(wide.finished && wide.exitCode == 1, qPrintable(describe(wide)));
    QVERIFY2(wide.err.contains(QLatin1String(" would be 16816 x 18024 pixels (441 heads over 100 characters); a picture "
                                             "is at most 16384 pixels a side: draw a shorter --text.")),
             qPrintable(describe(wide)));
    QVERIFY(!QFileInfo::exists(picture));
    verifyNoStackTrace(wide);
    const Result narrow = runCli({"attention", path, "--text", QString(20, QLatin1Char('a')), "--out", picture});
    QVERIFY2(succeeded(narrow), qPrintable(describe(narrow)));
    QVERIFY(QFileInfo(picture).size() > 0);
}

void TestLongContext::thePresetsFitTheBudget() {
    // Every built-in preset, and the largest settings the window offers
    // (context 4,096, 8 heads of 64), run over their context within the budget.
    for (const std::string& name : RunConfig::presetNames()) {
        RunConfig c = *RunConfig::preset(name);
        c.vocab_size = ModelConfig::kMaxVocabulary;
        QVERIFY2(c.contextMemoryProblem().empty(), c.contextMemoryProblem().c_str());
    }
    const RunConfig large = shaped(4096, 12, 512, 64);
    QVERIFY2(large.contextMemoryProblem().empty(), large.contextMemoryProblem().c_str());

    // And they load: the largest preset (book, 12 layers) and a model of the
    // window's longest context (4,096, 8 heads) are read back whole.
    for (const auto& [context, layers, width] : {std::tuple<int64_t, int64_t, int64_t>{64, 12, 128},
                                                 std::tuple<int64_t, int64_t, int64_t>{4096, 1, 64}}) {
        Checkpoint k = claiming(context, layers, width, 8);
        if (context == 64) {
            const RunConfig book = *RunConfig::preset("book");
            QCOMPARE(k.config.n_layer, book.n_layer);
            QCOMPARE(k.config.emb_size, book.emb_size);
            QCOMPARE(k.config.sequence_len, book.sequence_len);
        }
        const std::string path = dir_.filePath(QStringLiteral("fits-%1.pt").arg(context)).toStdString();
        saveCheckpoint(path, k);
        const Checkpoint back = loadCheckpoint(path);
        QCOMPARE(back.config.sequence_len, context);
        QCOMPARE(back.config.n_layer, layers);
        QVERIFY(torch::equal(back.model->parameters().back(), k.model->parameters().back()));
    }
}

CHARGPT_TEST_GUILESS_MAIN(TestLongContext)
}  // namespace tst_longcontext
#include "tst_longcontext.moc"
