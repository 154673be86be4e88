// SPDX-License-Identifier: GPL-3.0-or-later
// The round trip with PyTorch (Debian's python3-torch, /usr/bin/python3):
//  - a state_dict saved by the seed's Python code, in either naming, imports
//    with the configuration read off its shapes, computes the same attention and
//    logits as in Python, generates the same greedy text and trains further;
//    whatever does not fit is named;
//  - a model trained by `chargpt train` loads into the seed-style PyTorch class
//    and gives the same greedy text there;
//  - python/train_ddp.py under torchrun (2 processes, Gloo) writes a checkpoint
//    that opens, shows attention and trains on;
//  - both Python helpers refuse a checkpoint whose pickle would run code.
// Every Python file is made here, at run time.
#include <torch/torch.h>

#include "model/nn/CharGPT.h"
#include "model/io/Checkpoint.h"
#include "model/session/TrainingSession.h"
#include "model/text/BuiltinCorpora.h"
#include "model/text/Corpus.h"
#include "model/train/Dataset.h"
#include "model/runtime/Device.h"
#include "model/runtime/Error.h"
#include "model/io/PyTorchInterop.h"
#include "model/train/Trainer.h"

#include <QProcess>
#include <QRegularExpression>
#include "PyTorchRun.h"
#include "TestProgram.h"

#include <cmath>

namespace tst_pytorch {

#ifndef CHARGPT_CLI
#error "CHARGPT_CLI must name the chargpt executable"
#endif
#ifndef CHARGPT_SOURCE_DIR
#error "CHARGPT_SOURCE_DIR must name the source folder"
#endif

using namespace chargpt;

using namespace pytorch_run;


class TestPyTorch : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void importStateDict_data();
    void importStateDict();
    void importWithTheCli();
    void importWithABuiltInCorpus();
    void vocabularyFiles_data();
    void vocabularyFiles();
    void importSaysWhatDoesNotFit_data();
    void importSaysWhatDoesNotFit();
    void importedModelTrainsFurther();
    void appModelGivesTheSameGreedyTextInPython();
    void ddpCheckpointOpens();
    void pythonHelpersRunNoCode();

private:
    // Runs the fixture maker once per naming; the folder holds its files.
    QString fixture(const QString& naming);

    QTemporaryDir dir_;
    QString corpus_;
    QMap<QString, QString> fixtures_;
};

void TestPyTorch::initTestCase() {
    QVERIFY(dir_.isValid());
    QVERIFY2(QFileInfo(QString::fromLatin1(kPython)).isExecutable(),
             "/usr/bin/python3 is missing: scripts/setup.sh installs python3-torch");
    const Result torchCheck = python({QStringLiteral("-c"), QStringLiteral("import torch")});
    QVERIFY2(torchCheck.ok,
             qPrintable("PyTorch is missing for /usr/bin/python3 (python3-torch): " + torchCheck.describe()));
    corpus_ = dir_.filePath(QStringLiteral("corpus.txt"));
    QVERIFY(writeVerseCorpus(corpus_));
}

QString TestPyTorch::fixture(const QString& naming) {
    if (!fixtures_.contains(naming)) {
        const QString out = dir_.filePath(naming);
        const Result r = python({source("tests/python/make_state_dict.py"), corpus_, out, QStringLiteral("--naming"),
                                 naming, QStringLiteral("--prompt"), QString::fromLatin1(kPrompt)});
        if (!r.ok) qWarning("%s", qPrintable(r.describe()));
        fixtures_[naming] = r.ok ? out : QString();
    }
    return fixtures_[naming];
}

void TestPyTorch::importStateDict_data() {
    QTest::addColumn<QString>("naming");
    QTest::newRow("seed notes' names") << QStringLiteral("seed");
    QTest::newRow("book's names") << QStringLiteral("book");
}

void TestPyTorch::importStateDict() {
    QFETCH(QString, naming);
    const QString folder = fixture(naming);
    QVERIFY2(!folder.isEmpty(), "the Python fixture could not be made");
    const std::string stateDict = std_(folder + QStringLiteral("/state_dict.pt"));

    // An OrderedDict, which torch::pickle_load alone cannot read.
    const PickledStateDict file = readTorchStateDict(stateDict);
    QVERIFY(!file.tensors.empty());
    QCOMPARE(QString::fromStdString(file.tensors.front().first),
             naming == QLatin1String("book") ? QStringLiteral("token_embedding.weight") : QStringLiteral("token_emb.weight"));

    // The vocabulary from the corpus and from the book's char2ind, as json.dump writes it.
    const CharTokenizer fromCorpus = vocabularyFromCorpus(std_(corpus_));
    QVERIFY(readVocabularyFile(std_(folder + QStringLiteral("/vocab.json"))) == fromCorpus);

    Checkpoint c = chargpt::importStateDict(stateDict, fromCorpus, "the corpus", *RunConfig::preset("book"));
    QCOMPARE(c.config.n_layer, int64_t(2));
    QCOMPARE(c.config.emb_size, int64_t(32));
    QCOMPARE(c.config.head_size, int64_t(8));
    QCOMPARE(c.config.n_head(), int64_t(4));
    QCOMPARE(c.config.sequence_len, int64_t(16));
    QCOMPARE(c.config.vocab_size, fromCorpus.vocabSize());
    QCOMPARE(c.config.dropout, 0.4);  // the training settings given: the book's
    QVERIFY(c.model->token_emb->weight.device() == computeDevice());

    // The same attention weights and logits as the Python model computed.
    const auto reference = tensorsOf(std_(folder + QStringLiteral("/reference.pt")));
    const std::vector<int64_t> tokens = c.tokenizer.encodeUtf8(kPrompt);
    torch::NoGradGuard noGrad;
    c.model->eval();
    const auto idx = torch::tensor(tokens, torch::kInt64).view({1, -1});
    auto [logits, attention] = c.model->forwardWithAttention(idx);  // (1, T, V), (L, 1, nh, T, T)
    const torch::Tensor pyAttention = reference.at("attention");     // (L, nh, T, T)
    QCOMPARE(pyAttention.sizes().vec(), attention.squeeze(1).sizes().vec());
    const double attentionDiff = (attention.squeeze(1).cpu() - pyAttention).abs().max().item<double>();
    const double logitDiff = (logits[0].cpu() - reference.at("logits")).abs().max().item<double>();
    QVERIFY2(attentionDiff < 1e-5, qPrintable(QString::number(attentionDiff)));
    QVERIFY2(logitDiff < 1e-4, qPrintable(QString::number(logitDiff)));
    // A trained head is not uniform: the comparison means something.
    QVERIFY(pyAttention.std().item<double>() > 0.01);

    // The imported checkpoint saves and loads like any other.
    const std::string saved = std_(dir_.filePath(naming + QStringLiteral("-imported.pt")));
    saveCheckpoint(saved, c);
    const Checkpoint again = loadCheckpoint(saved);
    QVERIFY(again.tokenizer == c.tokenizer);
    QVERIFY(torch::equal(again.model->lm->weight.cpu(), c.model->lm->weight.cpu()));
}

// `import --corpus builtin:NAME` takes the vocabulary of the built-in corpus,
// which Python read from the same text written to a file.
void TestPyTorch::importWithABuiltInCorpus() {
    const std::string text = builtinCorpusText("builtin:song100");
    const QString file = dir_.filePath(QStringLiteral("song100.txt"));
    {
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(text.data(), qint64(text.size()));
    }
    const QString prompt = QString::fromStdString(text).left(4);
    const QString out = dir_.filePath(QStringLiteral("song100"));
    const Result made = python({source("tests/python/make_state_dict.py"), file, out, QStringLiteral("--steps"),
                                QStringLiteral("1"), QStringLiteral("--prompt"), prompt});
    QVERIFY2(made.ok, qPrintable(made.describe()));
    const QString imported = dir_.filePath(QStringLiteral("song100-imported.pt"));
    const Result r = cli({QStringLiteral("import"), out + QStringLiteral("/state_dict.pt"), QStringLiteral("--corpus"),
                          QStringLiteral("builtin:song100"), QStringLiteral("-o"), imported});
    QVERIFY2(r.ok, qPrintable(r.describe()));
    const Checkpoint checkpoint = loadCheckpoint(std_(imported));
    QVERIFY(checkpoint.tokenizer == loadCorpusSource("builtin:song100").buildTokenizer());
    QVERIFY(checkpoint.tokenizer == readVocabularyFile(std_(out + QStringLiteral("/vocab.json"))));
}

void TestPyTorch::importWithTheCli() {
    const QString folder = fixture(QStringLiteral("book"));
    QVERIFY(!folder.isEmpty());
    const QString imported = dir_.filePath(QStringLiteral("cli-imported.pt"));
    const Result r = cli({QStringLiteral("import"), folder + QStringLiteral("/state_dict.pt"), QStringLiteral("--corpus"),
                          corpus_, QStringLiteral("-o"), imported});
    QVERIFY2(r.ok, qPrintable(r.describe()));
    QVERIFY2(r.err.contains(QLatin1String("2 layers, 4 heads of 8, width 32, context 16")), qPrintable(r.err));

    // Greedy generation from the imported model: what Python generated.
    const Result sample = cli({QStringLiteral("sample"), imported, QStringLiteral("--prompt"), QString::fromLatin1(kPrompt),
                               QStringLiteral("--chars"), QStringLiteral("40"), QStringLiteral("--temperature"),
                               QStringLiteral("0"), QStringLiteral("--exact-window")});
    QVERIFY2(sample.ok, qPrintable(sample.describe()));
    QCOMPARE(sample.out.chopped(1), readText(folder + QStringLiteral("/greedy.txt")));

    // Its heads draw.
    const QString png = dir_.filePath(QStringLiteral("imported-heads.png"));
    const Result attention = cli({QStringLiteral("attention"), imported, QStringLiteral("--text"),
                                  QString::fromLatin1(kPrompt), QStringLiteral("--layer"), QStringLiteral("0"),
                                  QStringLiteral("--out"), png});
    QVERIFY2(attention.ok, qPrintable(attention.describe()));
    QVERIFY(QFileInfo(png).size() > 1000);

    // The vocabulary file instead of the corpus.
    const QString viaVocab = dir_.filePath(QStringLiteral("cli-vocab.pt"));
    const Result r2 = cli({QStringLiteral("import"), folder + QStringLiteral("/state_dict.pt"), QStringLiteral("--vocab"),
                           folder + QStringLiteral("/vocab.json"), QStringLiteral("-o"), viaVocab});
    QVERIFY2(r2.ok, qPrintable(r2.describe()));

    // Neither or both: a clear refusal, and no file.
    const QString never = dir_.filePath(QStringLiteral("never.pt"));
    const Result r3 = cli({QStringLiteral("import"), folder + QStringLiteral("/state_dict.pt"), QStringLiteral("-o"), never});
    QCOMPARE(r3.exitCode, 1);
    QVERIFY2(r3.err.contains(QLatin1String("--corpus")), qPrintable(r3.err));
    QVERIFY(!QFileInfo::exists(never));
}

void TestPyTorch::vocabularyFiles_data() {
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("mentions");  // "" when the file is good: then it is <|e|>, "\n", " ", "a", "b", "😀"
    QTest::newRow("list") << QByteArray(R"(["<|e|>", "\n", " ", "a", "b", "\ud83d\ude00"])") << "";
    QTest::newRow("char2ind") << QByteArray("{\"a\": 3, \"\\n\": 1, \"<|e|>\": 0, \" \": 2, \"b\": 4, \"\xF0\x9F\x98\x80\": 5}")
                              << "";
    QTest::newRow("unsorted") << QByteArray(R"(["<|e|>", "b", "a"])") << "not sorted";
    // A list without <|e|> first is a vocabulary without one (nanoGPT's, ...); <|e|> elsewhere is no character.
    QTest::newRow("end of text not first") << QByteArray(R"(["a", "<|e|>"])") << "entry 1 is not a single character";
    QTest::newRow("two characters") << QByteArray(R"(["<|e|>", "ab"])") << "entry 1 is not a single character";
    QTest::newRow("index gap") << QByteArray(R"({"<|e|>": 0, "a": 2})") << "index of \"a\"";
    QTest::newRow("not json") << QByteArray("<|e|> a b") << "not a valid vocabulary file.*byte 0";
    QTest::newRow("truncated") << QByteArray(R"(["<|e|>", "a")") << "closing";
}

void TestPyTorch::vocabularyFiles() {
    QFETCH(QByteArray, json);
    QFETCH(QString, mentions);
    const QString path = dir_.filePath(QStringLiteral("vocab.json"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(json);
    f.close();
    CharTokenizer vocabulary;
    const QString message = errorOf([&] { vocabulary = readVocabularyFile(std_(path)); });
    if (!mentions.isEmpty()) {
        QVERIFY2(message.contains(QRegularExpression(mentions)), qPrintable(message));
        return;
    }
    QVERIFY2(message.isEmpty(), qPrintable(message));
    QVERIFY(vocabulary == CharTokenizer::fromText(U"\n ab\U0001F600"));
}

void TestPyTorch::importSaysWhatDoesNotFit_data() {
    QTest::addColumn<QString>("change");
    QTest::addColumn<QString>("mentions");  // a regular expression
    QTest::newRow("missing key") << "drop blocks.1.ff.l2.bias" << "missing: blocks\\.1\\.ff\\.l2\\.bias";
    QTest::newRow("extra key") << "add blocks.0.mha.gate.weight" << "unexpected: blocks\\.0\\.mha\\.gate\\.weight";
    QTest::newRow("shape") << "shrink blocks.0.ff.l1.weight" << "blocks\\.0\\.ff\\.l1\\.weight has shape \\(100, 32\\) but \\(128, 32\\)";
    QTest::newRow("other corpus") << "corpus" << "gives 12 tokens .*has 2\\d rows";
    QTest::newRow("not finite") << "nan ln.weight" << "ln\\.weight holds NaN";
    QTest::newRow("module prefix fits") << "prefix module." << "";
    QTest::newRow("no model") << "only lm_head" << "token embedding";
    QTest::newRow("own checkpoint") << "checkpoint" << "CharGPT Studio checkpoint already";
    QTest::newRow("not torch.save") << "garbage" << "not a file written by torch\\.save";
}

void TestPyTorch::importSaysWhatDoesNotFit() {
    QFETCH(QString, change);
    QFETCH(QString, mentions);
    const QString folder = fixture(QStringLiteral("book"));
    QVERIFY(!folder.isEmpty());
    // The Python file, changed and written back as a plain dict (torch::pickle_save).
    const PickledStateDict original = readTorchStateDict(std_(folder + QStringLiteral("/state_dict.pt")));
    c10::Dict<std::string, torch::Tensor> changed;
    const QStringList words = change.split(QLatin1Char(' '));
    for (const auto& [name, tensor] : original.tensors) {
        const QString key = QString::fromStdString(name);
        if (words[0] == QLatin1String("drop") && key == words[1]) continue;
        if (words[0] == QLatin1String("only") && key.startsWith(words[1]) == false) continue;
        torch::Tensor t = tensor;
        if (words[0] == QLatin1String("shrink") && key == words[1]) t = t.narrow(0, 0, 100).contiguous();
        if (words[0] == QLatin1String("nan") && key == words[1]) t = t.clone().fill_(NAN);
        changed.insert(words[0] == QLatin1String("prefix") ? std_(words[1] + key) : name, t);
    }
    if (words[0] == QLatin1String("add")) changed.insert(std_(words[1]), torch::zeros({4, 4}));
    QString path = dir_.filePath(QStringLiteral("changed.pt"));
    if (change == QLatin1String("checkpoint")) {
        path = dir_.filePath(QStringLiteral("book-imported.pt"));  // written by importStateDict()
        QVERIFY(QFileInfo::exists(path));
    } else if (change == QLatin1String("garbage")) {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("not a pickle at all");
    } else {
        const std::vector<char> bytes = torch::pickle_save(changed);
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(bytes.data(), qint64(bytes.size()));
    }
    CharTokenizer vocabulary = vocabularyFromCorpus(std_(corpus_));
    if (change == QLatin1String("corpus")) vocabulary = CharTokenizer::fromText(U"abcdefghijk");

    const QString message = errorOf([&] {
        chargpt::importStateDict(std_(path), vocabulary, "the corpus", *RunConfig::preset("book"));
    });
    if (mentions.isEmpty()) {
        QVERIFY2(message.isEmpty(), qPrintable(message));
        return;
    }
    QVERIFY2(message.contains(QRegularExpression(mentions)), qPrintable(message));
}

void TestPyTorch::importedModelTrainsFurther() {
    const QString folder = fixture(QStringLiteral("seed"));
    QVERIFY(!folder.isEmpty());
    const CharTokenizer vocabulary = vocabularyFromCorpus(std_(corpus_));
    RunConfig training = *RunConfig::preset("tiny");
    Checkpoint c = chargpt::importStateDict(std_(folder + QStringLiteral("/state_dict.pt")), vocabulary, "the corpus",
                                            training);
    c.config.max_steps = 40;
    c.config.eval_interval = 40;
    auto data = std::make_shared<Dataset>(Corpus::load(std_(corpus_)).encode(vocabulary), c.config.sequence_len,
                                          c.config.val_fraction);
    Trainer trainer(c.model, data, c.config);
    // Python's training shows: far below the loss of a uniform guess.
    const double before = trainer.evaluate(Split::Train);
    QVERIFY2(before < 0.8 * std::log(double(vocabulary.vocabSize())), qPrintable(QString::number(before)));
    const TrainResult result = trainer.run();
    QVERIFY2(result.reason == EndReason::Finished, std::string(toString(result.reason)).c_str());
    QCOMPARE(trainer.step(), int64_t(40));
    QVERIFY2(result.last.evalTrainLoss < before, qPrintable(QStringLiteral("%1 -> %2").arg(before).arg(result.last.evalTrainLoss)));
}

void TestPyTorch::appModelGivesTheSameGreedyTextInPython() {
    const QString model = dir_.filePath(QStringLiteral("app-trained.pt"));
    const Result train = cli({QStringLiteral("train"), corpus_, QStringLiteral("--preset"), QStringLiteral("tiny"),
                              QStringLiteral("--steps"), QStringLiteral("150"), QStringLiteral("--out"), model});
    QVERIFY2(train.ok, qPrintable(train.describe()));
    for (const QString& prompt : {QString::fromLatin1(kPrompt), QString()}) {
        const QStringList args = {QStringLiteral("--prompt"), prompt, QStringLiteral("--chars"), QStringLiteral("60")};
        // Beyond the context, the book's code recomputes the last window for every character.
        const Result ours = cli(QStringList{QStringLiteral("sample"), model, QStringLiteral("--temperature"),
                                            QStringLiteral("0"), QStringLiteral("--exact-window")} + args);
        QVERIFY2(ours.ok, qPrintable(ours.describe()));
        const Result theirs = python(QStringList{source("bench/seed_reference.py"), QStringLiteral("greedy"), model} + args);
        QVERIFY2(theirs.ok, qPrintable(theirs.describe()));
        QVERIFY(ours.out.size() > prompt.size() + 10);  // it generated something
        QCOMPARE(theirs.out, ours.out);
    }
}

void TestPyTorch::ddpCheckpointOpens() {
    const QString config = dir_.filePath(QStringLiteral("config.json"));
    const Result exported = cli({QStringLiteral("export-config"), QStringLiteral("--preset"), QStringLiteral("tiny"),
                                 QStringLiteral("--steps"), QStringLiteral("30"), QStringLiteral("-o"), config});
    QVERIFY2(exported.ok, qPrintable(exported.describe()));

    const QString out = dir_.filePath(QStringLiteral("ddp.pt"));
    // Debian's torchrun (PyTorch 1.13 on Python 3.11) needs --redirects/--tee
    // other than 0; see the README.
    const Result r = run(QStringLiteral("/usr/bin/torchrun"),
                         {QStringLiteral("--standalone"), QStringLiteral("--nproc_per_node=2"), QStringLiteral("--redirects"),
                          QStringLiteral("1"), QStringLiteral("--tee"), QStringLiteral("1"), source("python/train_ddp.py"),
                          QStringLiteral("--config"), config, QStringLiteral("--corpus"), corpus_, QStringLiteral("--out"),
                          out, QStringLiteral("--backend"), QStringLiteral("gloo"), QStringLiteral("--threads"),
                          QStringLiteral("1")},
                         // The processes meet on the loopback interface, whatever the host's name resolves to.
                         dir_.path(), {QStringLiteral("GLOO_SOCKET_IFNAME=lo")});
    QVERIFY2(r.ok, qPrintable(r.describe()));
    QVERIFY2(r.out.contains(QLatin1String("\"processes\": 2")), qPrintable(r.describe()));

    Checkpoint c = loadCheckpoint(std_(out));
    QCOMPARE(c.step, int64_t(30));
    QCOMPARE(c.config.n_layer, int64_t(2));
    QCOMPARE(c.history.steps.size(), std::size_t(30));
    QVERIFY(!c.history.evalValLoss.empty());
    QVERIFY(!c.expAvg.empty());
    QCOMPARE(c.tokensSeen, int64_t(2 * 30 * 16 * 16));  // two processes, batch 16, context 16
    {
        torch::NoGradGuard noGrad;
        c.model->eval();
        const auto idx = torch::tensor(c.tokenizer.encodeUtf8(kPrompt), torch::kInt64).view({1, -1});
        const torch::Tensor attention = c.model->forwardWithAttention(idx).second;  // (L, 1, nh, T, T)
        QVERIFY(torch::allclose(attention.sum(-1), torch::ones_like(attention.sum(-1)), 1e-5, 1e-5));
    }
    // And trains on from it, moments and all.
    auto data = std::make_shared<Dataset>(Corpus::load(std_(corpus_)).encode(c.tokenizer), c.config.sequence_len,
                                          c.config.val_fraction);
    c.config.max_steps = 35;
    Trainer trainer(c.model, data, c.config);
    trainer.setProgress(c.step, c.tokensSeen);
    restoreOptimizer(c, trainer);
    const TrainResult result = trainer.run();
    QVERIFY2(result.reason == EndReason::Finished, std::string(toString(result.reason)).c_str());
    QCOMPARE(trainer.step(), int64_t(35));
}

// torch.load without weights_only ran what a crafted file asked for: here a
// pickle whose __reduce__ calls os.system to create a marker file. Both
// helpers refuse it with a message, and the marker is never made; the
// checkpoints they are for still load (appModelGivesTheSameGreedyTextInPython).
void TestPyTorch::pythonHelpersRunNoCode() {
    const QString marker = dir_.filePath(QStringLiteral("code-ran"));
    const QString evil = dir_.filePath(QStringLiteral("evil.pt"));
    const QString maker = dir_.filePath(QStringLiteral("make_evil.py"));
    {
        QFile f(maker);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("import os, sys, torch\n"
                "class Evil:\n"
                "    def __reduce__(self):\n"
                "        return (os.system, ('touch ' + sys.argv[2],))\n"
                "checkpoint = {'format': 'chargpt-checkpoint', 'config': Evil(), 'model': {'w': torch.ones(2)}}\n"
                "torch.save(checkpoint, sys.argv[1])\n"
                "torch.save(checkpoint, sys.argv[1] + '.legacy', _use_new_zipfile_serialization=False)\n");
    }
    const Result made = python({maker, evil, marker});
    QVERIFY2(made.ok, qPrintable(made.describe()));
    QVERIFY(!QFileInfo::exists(marker));  // saving runs nothing; loading would

    const QString out = dir_.filePath(QStringLiteral("never.pt"));
    const QList<QStringList> runs = {
        {source("bench/seed_reference.py"), QStringLiteral("greedy"), evil},
        {source("bench/seed_reference.py"), QStringLiteral("greedy"), evil + QStringLiteral(".legacy")},
        // --init is read before the process group is set up: no torchrun needed to reach it.
        {source("python/train_ddp.py"), QStringLiteral("--config"), dir_.filePath(QStringLiteral("no-config.json")),
         QStringLiteral("--corpus"), corpus_, QStringLiteral("--out"), out, QStringLiteral("--init"), evil}};
    for (const QStringList& args : runs) {
        const Result r = python(args);
        QVERIFY2(!r.ok && r.exitCode != 0, qPrintable(r.describe()));
        QVERIFY2(r.err.contains(QStringLiteral("refusing to load ")) && r.err.contains(QStringLiteral("system")),
                 qPrintable(r.describe()));
        QVERIFY2(!r.err.contains(QStringLiteral("Traceback")), qPrintable(r.describe()));
        QVERIFY2(!QFileInfo::exists(marker), qPrintable(QStringLiteral("the pickle ran os.system: ") + r.describe()));
    }
    QVERIFY(!QFileInfo::exists(out));
}

CHARGPT_TEST_GUILESS_MAIN(TestPyTorch)
}  // namespace tst_pytorch
#include "tst_pytorch.moc"
