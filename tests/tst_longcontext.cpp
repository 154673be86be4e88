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
#include "model/nn/CharGPT.h"
#include "model/runtime/Error.h"
#include "model/runtime/Runtime.h"
#include "model/text/Corpus.h"
#include "model/train/RunConfig.h"

#include "CliRun.h"
#include "TestProgram.h"

#include <string>

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
    void manyLayersLoadWithoutTheirContext();
    void attentionMapsBeyondTheBudgetAreRefused();
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
    QVERIFY2(message.contains(QLatin1String("its settings (context 16384, 1 layers of 4 heads of 8) need about 8.6 GB "
                                            "beyond their weights to run over the whole context; a model read from a "
                                            "file may take up to 4.3 GB for that.")),
             qPrintable(message));
    QVERIFY2(clock.elapsed() < 5000, qPrintable(QStringLiteral("%1 ms").arg(clock.elapsed())));

    const Result info = runCli({"info", QString::fromStdString(path)});
    QVERIFY2(info.finished && info.exitCode == 1, qPrintable(describe(info)));
    QVERIFY2(info.err.contains(QLatin1String("need about 8.6 GB beyond their weights")), qPrintable(describe(info)));
    // Bounded (29 s and 3.8 GB before, in Release); generous for the sanitizer builds.
    QVERIFY2(info.ms < 20000, qPrintable(describe(info)));
    verifyNoStackTrace(info);
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

    // Sampling reads its context through the key/value cache, within the budget.
    const Result sample = runCli({"sample", QString::fromStdString(path), "--chars", "20", "--prompt", "abc"});
    QVERIFY2(succeeded(sample), qPrintable(describe(sample)));
    QVERIFY2(sample.ms < 120000, qPrintable(describe(sample)));
}

void TestLongContext::attentionMapsBeyondTheBudgetAreRefused() {
    // 64 layers of 4 heads over 4,096 positions: every layer's weights and
    // scores would take 34 GB. Refused before the pass, with what it needs.
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
    QVERIFY2(message.startsWith(QLatin1String("the attention of every layer and head over 4096 characters needs 34 GB "
                                              "(64 layers of 4 heads); use a shorter text")),
             qPrintable(message));
    QVERIFY2(clock.elapsed() < 2000, qPrintable(QStringLiteral("%1 ms").arg(clock.elapsed())));
    // A text that fits is shown.
    const AttentionMaps maps = model->attentionMaps(idx.narrow(1, 0, 64));
    QCOMPARE(maps.weights.sizes().vec(), (std::vector<int64_t>{64, 1, 4, 64, 64}));
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
}

CHARGPT_TEST_GUILESS_MAIN(TestLongContext)
}  // namespace tst_longcontext
#include "tst_longcontext.moc"
