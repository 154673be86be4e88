// SPDX-License-Identifier: GPL-3.0-or-later
// The character-level GPTs people train elsewhere: tests/python/make_foreign_models.py
// trains small models with copies of nanoGPT's, minGPT's and the lecture's
// gpt.py's model code and saves them as those projects do; each imports (API
// and CLI) with PyTorch's logits to 1e-4 and its greedy text, exports back to
// nanoGPT where nanoGPT can compute it, and hostile versions are refused fast.
#include <torch/torch.h>

#include "model/io/Checkpoint.h"
#include "model/io/NanoGpt.h"
#include "model/io/PyTorchInterop.h"
#include "model/runtime/Error.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QTemporaryDir>
#include "PyTorchRun.h"
#include "TestProgram.h"

namespace tst_foreign {

#ifndef CHARGPT_CLI
#error "CHARGPT_CLI must name the chargpt executable"
#endif

using namespace chargpt;
using namespace pytorch_run;

class TestForeign : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void importsWithPyTorchsLogits_data();
    void importsWithPyTorchsLogits();
    void importsWithTheCli_data();
    void importsWithTheCli();
    void exportsToNanoGpt();
    void trainedHereGoesToNanoGpt();
    void exportRefusesWhatNanoGptCannotCompute();
    void hostileFilesAreRefused_data();
    void hostileFilesAreRefused();

private:
    QString folder(const QString& layout) const { return dir_.filePath(QStringLiteral("models/") + layout); }

    QTemporaryDir dir_;
    QString corpus_;
    bool made_ = false;
};

// The training settings of `chargpt import`: the book preset's, in float32.
RunConfig training() {
    RunConfig c = *RunConfig::preset("book");
    c.bf16 = false;
    return c;
}

// Each layout: its file, how its vocabulary is found, and how it computes.
struct Layout {
    const char* name;
    const char* file;   // under its folder
    bool corpus;        // --corpus (else nanoGPT's meta.pkl, found)
    int heads;          // --heads (0: from model_args or minGPT's model types)
    StateDictNaming naming;
    int64_t activation;
    bool qkvBias, biases, headBias, tied;
};
constexpr Layout kLayouts[] = {
    // A state_dict alone does not say how many heads share c_attn: --heads.
    {"nanogpt", "state_dict.pt", false, 4, StateDictNaming::NanoGPT, ModelConfig::GeluErf, true, true, false, true},
    {"nanogpt-nobias", "out/ckpt.pt", false, 0, StateDictNaming::NanoGPT, ModelConfig::GeluErf, false, false, false, true},
    {"mingpt", "state_dict.pt", true, 0, StateDictNaming::MinGPT, ModelConfig::GeluTanh, true, true, false, false},
    {"lecture", "state_dict.pt", true, 0, StateDictNaming::Lecture, ModelConfig::Relu, false, true, true, false},
};

void TestForeign::initTestCase() {
    QVERIFY(dir_.isValid());
    const Result torchCheck = python({QStringLiteral("-c"), QStringLiteral("import torch")});
    QVERIFY2(torchCheck.ok,
             qPrintable("PyTorch is missing for /usr/bin/python3 (python3-torch): " + torchCheck.describe()));
    corpus_ = dir_.filePath(QStringLiteral("corpus.txt"));
    QVERIFY(writeVerseCorpus(corpus_));
    const QString maker = source("tests/python/make_foreign_models.py");
    const Result made = python({maker, corpus_, dir_.filePath(QStringLiteral("models")), QStringLiteral("--prompt"),
                                QString::fromLatin1(kPrompt)});
    QVERIFY2(made.ok, qPrintable(made.describe()));
    const Result hostile = python({maker, QStringLiteral("--hostile"), dir_.filePath(QStringLiteral("models"))});
    QVERIFY2(hostile.ok, qPrintable(hostile.describe()));
    made_ = true;
}

void TestForeign::importsWithPyTorchsLogits_data() {
    QTest::addColumn<int>("layout");
    for (int i = 0; i < int(std::size(kLayouts)); ++i) QTest::newRow(kLayouts[i].name) << i;
}

void TestForeign::importsWithPyTorchsLogits() {
    QFETCH(int, layout);
    const Layout& l = kLayouts[layout];
    const QString at = folder(QString::fromLatin1(l.name));
    VocabularyRequest request;
    if (l.corpus) request.corpus = std_(corpus_);
    ImportOptions options;
    options.heads = l.heads;
    ImportedModel imported;
    const QString problem = errorOf([&] {
        imported = importModel(std_(at + QLatin1Char('/') + QLatin1String(l.file)), request, training(), options);
    });
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    QCOMPARE(int(imported.naming), int(l.naming));
    const RunConfig& c = imported.checkpoint.config;
    QCOMPARE(c.activation, l.activation);
    QCOMPARE(c.qkv_bias, l.qkvBias);
    QCOMPARE(c.biases, l.biases);
    QCOMPARE(c.head_bias, l.headBias);
    QCOMPARE(c.tied_head, l.tied);
    QCOMPARE(c.isBookArithmetic(), false);
    // Their vocabulary: the sorted characters from 0, no end-of-text token.
    const CharTokenizer& vocabulary = imported.checkpoint.tokenizer;
    QVERIFY(!vocabulary.hasEndOfText());
    QCOMPARE(vocabulary.id(U'\n'), int64_t(0));
    if (QLatin1String(l.name) == QLatin1String("nanogpt-nobias")) {
        QVERIFY2(QString::fromStdString(imported.trainingState).contains(QLatin1String("iter_num 250")),
                 imported.trainingState.c_str());
        QVERIFY(QString::fromStdString(imported.vocabularySource).contains(QLatin1String("data/shakespeare_char")));
        QCOMPARE(c.n_head(), int64_t(2));  // from model_args: the shapes alone do not say
    }

    const auto reference = tensorsOf(std_(at + QStringLiteral("/reference.pt")));
    const std::vector<int64_t> tokens = vocabulary.encodeUtf8(kPrompt);
    torch::NoGradGuard noGrad;
    CharGPT model = imported.checkpoint.model;
    model->eval();
    const auto idx = torch::tensor(tokens, torch::kInt64).unsqueeze(0).to(model->token_emb->weight.device());
    const auto logits = model->forward(idx)[0].cpu();
    const auto expected = reference.at("logits");
    QCOMPARE(logits.sizes().vec(), expected.sizes().vec());
    const double difference = (logits - expected).abs().max().item<double>();
    QVERIFY2(difference < 1e-4, qPrintable(QStringLiteral("logits differ by %1").arg(difference)));

    // The saved checkpoint keeps the settings and the vocabulary.
    const std::string path = std_(dir_.filePath(QStringLiteral("api-%1.pt").arg(QLatin1String(l.name))));
    saveCheckpoint(path, imported.checkpoint);
    Checkpoint again = loadCheckpoint(path);
    again.model->eval();
    QVERIFY(again.config.sameArchitecture(c));
    QVERIFY(again.tokenizer == vocabulary);
    const auto reloaded = again.model->forward(idx)[0].cpu();
    QVERIFY(torch::equal(reloaded, logits));
}

void TestForeign::importsWithTheCli_data() { importsWithPyTorchsLogits_data(); }

void TestForeign::importsWithTheCli() {
    QFETCH(int, layout);
    const Layout& l = kLayouts[layout];
    const QString at = folder(QString::fromLatin1(l.name));
    const QString out = dir_.filePath(QStringLiteral("cli-%1.pt").arg(QLatin1String(l.name)));
    QStringList args = {QStringLiteral("import"), at + QLatin1Char('/') + QLatin1String(l.file), QStringLiteral("-o"), out};
    if (l.corpus) args << QStringLiteral("--corpus") << corpus_;
    if (l.heads) args << QStringLiteral("--heads") << QString::number(l.heads);
    const Result r = cli(args);
    QVERIFY2(r.ok, qPrintable(r.describe()));
    QVERIFY2(r.err.contains(QLatin1String(toString(l.naming))), qPrintable(r.err));

    // info on their file says what it is and how to import it.
    const Result raw = cli({QStringLiteral("info"), at + QLatin1Char('/') + QLatin1String(l.file)});
    QVERIFY2(raw.ok && raw.out.contains(QLatin1String(toString(l.naming))) &&
                 raw.out.contains(QLatin1String("chargpt import")),
             qPrintable(raw.describe()));
    if (!l.heads) QVERIFY(!l.corpus || raw.out.contains(QLatin1String("--corpus")));
    if (l.file == std::string("out/ckpt.pt"))
        QVERIFY2(raw.out.contains(QLatin1String("iter_num 250")) && raw.out.contains(QLatin1String("shakespeare_char")),
                 qPrintable(raw.out));

    const Result info = cli({QStringLiteral("info"), out});
    QVERIFY2(info.ok, qPrintable(info.describe()));
    QVERIFY2(info.out.contains(QLatin1String("no end-of-text token")), qPrintable(info.out));
    QVERIFY2(info.out.contains(QLatin1String("arithmetic")), qPrintable(info.out));
    if (l.tied) QVERIFY2(info.out.contains(QLatin1String("head tied to the token embedding")), qPrintable(info.out));
    if (l.activation == ModelConfig::Relu) QVERIFY2(info.out.contains(QLatin1String("ReLU")), qPrintable(info.out));

    // Greedy text: what PyTorch generated (their generate() crops to the last
    // block_size characters, as --exact-window does).
    const Result sample = cli({QStringLiteral("sample"), out, QStringLiteral("--prompt"), QString::fromLatin1(kPrompt),
                               QStringLiteral("--chars"), QStringLiteral("40"), QStringLiteral("--temperature"),
                               QStringLiteral("0"), QStringLiteral("--exact-window")});
    QVERIFY2(sample.ok, qPrintable(sample.describe()));
    QCOMPARE(sample.out.chopped(1), readText(at + QStringLiteral("/greedy.txt")));
    // And through the key/value cache.
    const Result cached = cli({QStringLiteral("sample"), out, QStringLiteral("--prompt"), QString::fromLatin1(kPrompt),
                               QStringLiteral("--chars"), QStringLiteral("6"), QStringLiteral("--temperature"),
                               QStringLiteral("0")});
    QVERIFY2(cached.ok, qPrintable(cached.describe()));
    QCOMPARE(cached.out.chopped(1), readText(at + QStringLiteral("/greedy.txt")).left(int(std::strlen(kPrompt)) + 6));
}

void TestForeign::exportsToNanoGpt() {
    for (const char* name : {"nanogpt", "nanogpt-nobias"}) {
        const Layout& l = *std::find_if(std::begin(kLayouts), std::end(kLayouts),
                                        [&](const Layout& x) { return std::strcmp(x.name, name) == 0; });
        const QString at = folder(QString::fromLatin1(name));
        const QString imported = dir_.filePath(QStringLiteral("export-%1.pt").arg(QLatin1String(name)));
        QVERIFY(cli({QStringLiteral("import"), at + QLatin1Char('/') + QLatin1String(l.file), QStringLiteral("-o"), imported,
                     QStringLiteral("--heads"), QString::number(l.heads ? l.heads : 2)})
                    .ok);
        const QString out = dir_.filePath(QStringLiteral("exported-%1").arg(QLatin1String(name)));
        QVERIFY(QDir().mkpath(out));
        const Result r = cli({QStringLiteral("export"), imported, QStringLiteral("--format"), QStringLiteral("nanogpt"),
                              QStringLiteral("-o"), out, QStringLiteral("--dataset"), QStringLiteral("shakespeare_char")});
        QVERIFY2(r.ok, qPrintable(r.describe()));
        // sample.py's and train.py's way in, and the same greedy text.
        const Result theirs = python({source("tests/python/make_foreign_models.py"), QStringLiteral("--greedy-nanogpt"),
                                      out, QStringLiteral("--prompt"), QString::fromLatin1(kPrompt)});
        QVERIFY2(theirs.ok, qPrintable(theirs.describe()));
        QCOMPARE(theirs.out.chopped(1), readText(at + QStringLiteral("/greedy.txt")));
        // And back in: the exported files import as nanoGPT's.
        ImportedModel back;
        const QString problem =
            errorOf([&] { back = importModel(std_(out + QStringLiteral("/ckpt.pt")), {}, training()); });
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QCOMPARE(int(back.naming), int(StateDictNaming::NanoGPT));
        QCOMPARE(back.checkpoint.config.biases, l.biases);
        QVERIFY(QString::fromStdString(back.trainingState).contains(QLatin1String("model_args")));
    }
}

// A model trained here with --like nanogpt: nanoGPT's loading gives the same
// greedy text (its vocabulary keeps <|e|> as id 0).
void TestForeign::trainedHereGoesToNanoGpt() {
    const QString model = dir_.filePath(QStringLiteral("like-nanogpt.pt"));
    const Result trained = cli({QStringLiteral("train"), corpus_, QStringLiteral("--preset"), QStringLiteral("tiny"),
                                QStringLiteral("--like"), QStringLiteral("nanogpt"), QStringLiteral("--steps"),
                                QStringLiteral("60"), QStringLiteral("--precision"), QStringLiteral("fp32"),
                                QStringLiteral("--no-record"), QStringLiteral("-o"), model});
    QVERIFY2(trained.ok, qPrintable(trained.describe()));
    const Result info = cli({QStringLiteral("info"), model});
    QVERIFY2(info.out.contains(QLatin1String("head tied to the token embedding")), qPrintable(info.out));
    const QString out = dir_.filePath(QStringLiteral("like-nanogpt"));
    QVERIFY(QDir().mkpath(out));
    const Result exported = cli({QStringLiteral("export"), model, QStringLiteral("--format"), QStringLiteral("nanogpt"),
                                 QStringLiteral("-o"), out});
    QVERIFY2(exported.ok, qPrintable(exported.describe()));
    const Result ours = cli({QStringLiteral("sample"), model, QStringLiteral("--prompt"), QString::fromLatin1(kPrompt),
                             QStringLiteral("--chars"), QStringLiteral("40"), QStringLiteral("--temperature"),
                             QStringLiteral("0"), QStringLiteral("--exact-window"), QStringLiteral("--precision"),
                             QStringLiteral("fp32")});
    QVERIFY2(ours.ok, qPrintable(ours.describe()));
    const Result theirs = python({source("tests/python/make_foreign_models.py"), QStringLiteral("--greedy-nanogpt"), out,
                                  QStringLiteral("--prompt"), QString::fromLatin1(kPrompt)});
    QVERIFY2(theirs.ok, qPrintable(theirs.describe()));
    // Ours stops at end-of-text, which theirs writes out.
    QCOMPARE(theirs.out.chopped(1).section(QStringLiteral("<|e|>"), 0, 0), ours.out.chopped(1));
    // And back: its meta.pkl keeps <|e|> as 0, which the import keeps.
    ImportedModel back;
    const QString problem =
        errorOf([&] { back = importModel(std_(out + QStringLiteral("/ckpt.pt")), {}, training()); });
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    QVERIFY(back.checkpoint.tokenizer.hasEndOfText());
    QVERIFY(back.checkpoint.tokenizer == loadCheckpoint(std_(model)).tokenizer);
}

void TestForeign::exportRefusesWhatNanoGptCannotCompute() {
    const QString out = dir_.filePath(QStringLiteral("refused"));
    QVERIFY(QDir().mkpath(out));
    const QString mingpt = dir_.filePath(QStringLiteral("refuse-mingpt.pt"));
    QVERIFY(cli({QStringLiteral("import"), folder(QStringLiteral("mingpt/state_dict.pt")), QStringLiteral("--corpus"),
                 corpus_, QStringLiteral("-o"), mingpt}).ok);
    const Result r = cli({QStringLiteral("export"), mingpt, QStringLiteral("--format"), QStringLiteral("nanogpt"),
                          QStringLiteral("-o"), out});
    QVERIFY(!r.ok);
    QVERIFY2(r.err.contains(QLatin1String("not the exact GELU")) && r.err.contains(QLatin1String("not tied")),
             qPrintable(r.err));
    QVERIFY(!QFileInfo::exists(out + QStringLiteral("/ckpt.pt")));
    RunConfig book = *RunConfig::preset("book");
    QVERIFY(nanoGptExportProblem(book).find("head has a bias") != std::string::npos);
    book.setNanoGptArithmetic();
    QVERIFY(nanoGptExportProblem(book).empty());
}

void TestForeign::hostileFilesAreRefused_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<QString>("message");
    const QString meta = QStringLiteral("--meta");
    const QString nano = QStringLiteral("nanogpt/state_dict.pt");
    const QStringList heads = {QStringLiteral("--heads"), QStringLiteral("4")};
    QTest::newRow("wrong shape") << "hostile/wrong-shape.pt" << (heads + QStringList{QStringLiteral("--corpus")})
                                 << "transformer.h.0.mlp.c_fc.weight has shape (32, 128) but (128, 32) is needed";
    QTest::newRow("missing key") << "hostile/missing-key.pt" << QStringList{QStringLiteral("--corpus")}
                                 << "missing: blocks.0.ffwd.net.2.weight";
    QTest::newRow("bad c_attn") << "hostile/bad-qkv.pt" << QStringList{QStringLiteral("--corpus")}
                                << "transformer.h.1.attn.c_attn.weight has shape (141, 48) but (144, 48) is needed";
    QTest::newRow("huge claim") << "hostile/huge-claim.pt" << QStringList{} << "cannot be";
    QTest::newRow("heads unknown") << "hostile/no-heads.pt" << QStringList{QStringLiteral("--corpus")} << "give it with --heads N";
    QTest::newRow("meta.pkl too small") << "hostile/meta-small/state_dict.pt" << heads
                                        << "gives 25 tokens (25 characters) but the model's token embedding has 26";
    QTest::newRow("meta.pkl disagrees") << nano << QStringList{meta, QStringLiteral("hostile/meta-disagrees.pkl")}
                                        << "disagrees with itself: vocab_size 27 but itos has 26";
    QTest::newRow("meta.pkl huge") << nano << QStringList{meta, QStringLiteral("hostile/meta-huge.pkl")}
                                   << "vocab_size 1000000000000 but itos has 26";
    QTest::newRow("meta.pkl runs code") << nano << QStringList{meta, QStringLiteral("hostile/meta-code.pkl")}
                                        << "Nothing in it was run";
}

void TestForeign::hostileFilesAreRefused() {
    QFETCH(QString, file);
    QFETCH(QStringList, options);
    QFETCH(QString, message);
    QStringList args = {QStringLiteral("import"), folder(file), QStringLiteral("-o"),
                        dir_.filePath(QStringLiteral("never.pt"))};
    for (const QString& option : options)
        args << (option == QLatin1String("--corpus") ? QStringList{option, corpus_}
                 : option.startsWith(QLatin1String("hostile/")) ? QStringList{folder(option)}
                                                                 : QStringList{option});
    QElapsedTimer clock;
    clock.start();
    const Result r = cli(args);
    QVERIFY2(!r.ok && r.exitCode != 0, qPrintable(r.describe()));
    QVERIFY2(r.err.contains(message), qPrintable(r.err));
    QVERIFY2(!r.err.contains(QLatin1String("terminate called")), qPrintable(r.err));
    QVERIFY2(clock.elapsed() < 20000, qPrintable(QStringLiteral("took %1 ms").arg(clock.elapsed())));
    QVERIFY(!QFileInfo::exists(dir_.filePath(QStringLiteral("never.pt"))));
}

CHARGPT_TEST_GUILESS_MAIN(TestForeign)
}  // namespace tst_foreign
#include "tst_foreign.moc"
