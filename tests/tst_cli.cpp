// SPDX-License-Identifier: GPL-3.0-or-later
// The `chargpt` command-line tool, run as a user runs it: exit codes, messages
// on stderr, the JSON summary of `train`, `sample` and `info`, the images of
// `attention`. What `train` records in the run library: tst_cli_runs.
//
// This file runs the CLI binary only; it needs no LibTorch header. (Were one
// needed, <torch/torch.h> would have to come before the Qt headers.)
#include <QImage>
#include <QJsonArray>
#include <QThread>
#include "TestProgram.h"

#include <cmath>
#include <optional>
#include <random>
#include <utility>

#include "CliRun.h"

namespace tst_cli {

namespace {

using cli_run::cliExists;
using cli_run::describe;
using cli_run::Result;
using cli_run::runCli;
using cli_run::succeeded;
using cli_run::verifyNoStackTrace;
using cli_run::writeFile;

}  // namespace

class TestCli : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void errors_data();
    void errors();
    void commandHelp_data();
    void commandHelp();
    void version();
    void usageErrors_data();
    void usageErrors();
    void trainSampleInfo();
    void attention_data();
    void attention();
    void attentionUnknownCharacters();
    void attentionErrors_data();
    void attentionErrors();
    void tinyTemperatureSamplesGreedily();
    void threadsCappedAtCores();
    void sampleReportsCopies();

private:
    // Trains the tiny model once (m.pt) for every test that needs one.
    const Result& trainedModel();

    QTemporaryDir dir_;
    QString corpus_;
    QString alphabet_;
    QString model_;
    std::optional<Result> train_;
};

const Result& TestCli::trainedModel() {
    if (!train_) {
        model_ = dir_.filePath("m.pt");
        train_ = runCli({"train", corpus_, "--preset", "tiny", "--steps", "30", "--dropout", "0.25", "--out", model_});
    }
    return *train_;
}

void TestCli::initTestCase() {
    QVERIFY2(cliExists(), CHARGPT_CLI);
    QVERIFY(dir_.isValid());
    const QByteArray line = "the quick brown fox jumps over the lazy dog. ab ab ab.\n";
    QByteArray text;
    for (int i = 0; i < 60; ++i) text += line;
    corpus_ = dir_.filePath("corpus.txt");
    QVERIFY(writeFile(corpus_, text));
    alphabet_ = QString::fromUtf8(line);
    QVERIFY(writeFile(dir_.filePath("garbage.pt"), QByteArray(3000, '\x5a') + "PK\x03\x04 not a checkpoint"));
    QVERIFY(writeFile(dir_.filePath("empty.txt"), QByteArray()));
}

void TestCli::errors_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("mentions");  // regular expression the message must match

    QTest::newRow("no arguments") << QStringList{} << "usage|train|sample";
    QTest::newRow("unknown command") << QStringList{"frobnicate"} << "frobnicate";
    QTest::newRow("nonexistent corpus") << QStringList{"train", "@/missing_corpus.txt", "--preset", "tiny", "--steps", "2",
                                                       "--out", "@/never.pt"}
                                        << "missing_corpus\\.txt";
    QTest::newRow("empty corpus") << QStringList{"train", "@/empty.txt", "--preset", "tiny", "--steps", "2", "--out",
                                                 "@/never.pt"}
                                  << "empty";
    QTest::newRow("unknown preset") << QStringList{"train", "@/corpus.txt", "--preset", "gigantic", "--out", "@/never.pt"}
                                    << "gigantic";
    QTest::newRow("steps not a number") << QStringList{"train", "@/corpus.txt", "--steps", "many", "--out", "@/never.pt"}
                                        << "steps";
    QTest::newRow("unknown option") << QStringList{"train", "@/corpus.txt", "--bogus", "1", "--out", "@/never.pt"}
                                    << "bogus";
    QTest::newRow("dropout of 1") << QStringList{"train", "@/corpus.txt", "--dropout", "1", "--out", "@/never.pt"}
                                  << "dropout must be in \\[0, 1\\)";
    QTest::newRow("sample bad checkpoint") << QStringList{"sample", "@/garbage.pt", "--chars", "5"} << "garbage\\.pt";
    QTest::newRow("sample nonexistent checkpoint") << QStringList{"sample", "@/nothing.pt"} << "nothing\\.pt";
    QTest::newRow("info bad checkpoint") << QStringList{"info", "@/garbage.pt"} << "garbage\\.pt";
    QTest::newRow("info corpus as checkpoint") << QStringList{"info", "@/corpus.txt"} << "corpus\\.txt";
}

void TestCli::errors() {
    QFETCH(QStringList, args);
    QFETCH(QString, mentions);
    for (QString& a : args) a.replace('@', dir_.path());
    const Result r = runCli(args, 60000);
    QVERIFY2(r.finished, qPrintable(describe(r)));
    QCOMPARE(r.status, QProcess::NormalExit);  // no crash, no abort()
    QVERIFY2(r.exitCode != 0, qPrintable(describe(r)));
    QVERIFY2(!r.err.trimmed().isEmpty(), "no message on stderr");
    QVERIFY2(r.err.contains(QRegularExpression(mentions, QRegularExpression::CaseInsensitiveOption)),
             qPrintable(describe(r)));
    for (const char* bad : {"terminate called", "what():", "Exception raised from", "frame #", "Aborted",
                            "Segmentation", "internal error"})
        QVERIFY2(!r.err.contains(QLatin1String(bad)), qPrintable(describe(r)));
    QVERIFY(!QFileInfo::exists(dir_.filePath("never.pt")));
}

void TestCli::commandHelp_data() {
    QTest::addColumn<QString>("command");
    QTest::addColumn<QStringList>("options");  // each must be listed
    QTest::newRow("import") << "import" << QStringList{"--corpus", "--vocab", "-o,--out", "STATE_DICT"};
    QTest::newRow("train") << "train"
                           << QStringList{"--preset", "--steps", "--time-limit", "--batch", "--lr", "--dropout", "--eval-iters",
                                          "--threads", "--seed", "-o,--out", "--precision", "CORPUS"};
    QTest::newRow("sample") << "sample"
                            << QStringList{"--prompt", "--prompt-file", "--chars", "--temperature", "--top-k",
                                           "--top-p", "--exact-window"};
    QTest::newRow("bench") << "bench" << QStringList{"--json", "--only", "--no-reference", "CORPUS"};
    QTest::newRow("export-config") << "export-config" << QStringList{"--preset", "-o,--out"};
    QTest::newRow("attention") << "attention" << QStringList{"--text", "--layer", "-o,--out"};
}

void TestCli::commandHelp() {
    // `chargpt COMMAND --help` prints that command's options and succeeds, even
    // where the command needs arguments that are not given.
    QFETCH(QString, command);
    QFETCH(QStringList, options);
    for (const QStringList& args : {QStringList{command, "--help"}, QStringList{command, "-h"}}) {
        const Result r = runCli(args, 30000);
        QVERIFY2(succeeded(r), qPrintable(describe(r)));
        QVERIFY2(r.out.contains("chargpt " + command), qPrintable(describe(r)));
        for (const QString& option : options) QVERIFY2(r.out.contains(option), qPrintable(option + ": " + r.out));
        QVERIFY2(r.err.isEmpty(), qPrintable(describe(r)));
    }
}

void TestCli::version() {
    const Result r = runCli({"--version"}, 30000);
    QVERIFY2(succeeded(r), qPrintable(describe(r)));
    // The version, then the CPU tier in force.
    QVERIFY2(r.out.contains(QRegularExpression("^chargpt \\d+\\.\\d+\\.\\d+\nCPU tier: [a-z0-9-]+[^\n]*\n$")),
             qPrintable(describe(r)));
}

void TestCli::usageErrors_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("mentions");  // regular expression of the one line on stderr
    QTest::newRow("unknown flag") << QStringList{"train", "@/corpus.txt", "--bogus", "1"}
                                  << "unknown option --bogus for 'train'";
    QTest::newRow("unknown flag with a value") << QStringList{"import", "x.pt", "--vocabulary=v.json", "-o", "@/never.pt"}
                                               << "unknown option --vocabulary for 'import'";
    QTest::newRow("missing value") << QStringList{"sample", "m.pt", "--prompt"} << "--prompt";
    QTest::newRow("missing file name") << QStringList{"train", "@/corpus.txt", "--out"} << "--out";
    QTest::newRow("stray argument") << QStringList{"info", "a.pt", "b.pt"} << "unexpected argument 'b\\.pt'";
    // train without CORPUS trains on the default corpus (tst_learning); info needs its checkpoint.
    QTest::newRow("no checkpoint") << QStringList{"info"} << "'info' needs a checkpoint path";
}

void TestCli::usageErrors() {
    // Mistakes in the command line itself exit 2 with one line naming what is wrong.
    QFETCH(QStringList, args);
    QFETCH(QString, mentions);
    for (QString& a : args) a.replace('@', dir_.path());
    const Result r = runCli(args, 30000);
    QVERIFY2(r.finished && r.status == QProcess::NormalExit, qPrintable(describe(r)));
    QCOMPARE(r.exitCode, 2);
    const QStringList lines = r.err.split('\n', Qt::SkipEmptyParts);
    QVERIFY2(lines.size() == 1 && lines.first().startsWith(QLatin1String("chargpt: ")), qPrintable(describe(r)));
    QVERIFY2(lines.first().contains(QRegularExpression(mentions)), qPrintable(describe(r)));
    QVERIFY2(r.out.isEmpty(), qPrintable(describe(r)));
    verifyNoStackTrace(r);
    QVERIFY(!QFileInfo::exists(dir_.filePath("never.pt")));
}

void TestCli::trainSampleInfo() {
    const Result& train = trainedModel();
    const QString model = model_;
    QVERIFY2(succeeded(train), qPrintable(describe(train)));

    // The last line of stdout is a JSON summary.
    const QStringList lines = train.out.split('\n', Qt::SkipEmptyParts);
    QVERIFY2(!lines.isEmpty(), qPrintable(describe(train)));
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(lines.last().toUtf8(), &error);
    QVERIFY2(error.error == QJsonParseError::NoError && doc.isObject(), qPrintable(lines.last()));
    const QJsonObject summary = doc.object();
    for (const char* k : {"steps", "seconds", "tokens_per_s", "train_loss", "val_loss"})
        QVERIFY2(summary.contains(QLatin1String(k)) && summary.value(QLatin1String(k)).isDouble(),
                 qPrintable(QStringLiteral("%1 missing in %2").arg(k, lines.last())));
    QCOMPARE(summary.value("steps").toInt(), 30);
    QVERIFY(summary.value("seconds").toDouble() > 0.0);
    QVERIFY(summary.value("tokens_per_s").toDouble() > 0.0);
    const double trainLoss = summary.value("train_loss").toDouble();
    const double valLoss = summary.value("val_loss").toDouble();
    QVERIFY(std::isfinite(trainLoss) && trainLoss > 0.0);
    QVERIFY(std::isfinite(valLoss) && valLoss > 0.0);
    // 30 steps already beat guessing uniformly among the vocabulary.
    const qsizetype vocabulary = QSet<QChar>(alphabet_.begin(), alphabet_.end()).size() + 1;
    QVERIFY2(valLoss < std::log(double(vocabulary)), qPrintable(lines.last()));

    QFile file(model);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.read(2), QByteArray("PK"));
    file.close();

    // Sampling prints text made of the corpus characters.
    const QStringList sampleArgs{"sample", model, "--prompt", "ab", "--chars", "20", "--seed", "1"};
    const Result sample = runCli(sampleArgs);
    QVERIFY2(sample.finished && sample.status == QProcess::NormalExit && sample.exitCode == 0,
             qPrintable(describe(sample)));
    QString text = sample.out;
    QVERIFY2(text.trimmed().size() > 2, qPrintable(describe(sample)));
    text.remove(QStringLiteral("<|e|>"));
    for (const QChar ch : text)
        QVERIFY2(alphabet_.contains(ch) || ch == '\n', qPrintable(QStringLiteral("unexpected '%1' in %2").arg(ch).arg(sample.out)));
    QVERIFY(!sample.err.contains("terminate called"));

    // Same seed, same text.
    const Result again = runCli(sampleArgs);
    QVERIFY2(again.exitCode == 0, qPrintable(describe(again)));
    QCOMPARE(again.out, sample.out);

    // Info names the checkpoint's step count.
    const Result info = runCli({"info", model});
    QVERIFY2(info.finished && info.status == QProcess::NormalExit && info.exitCode == 0, qPrintable(describe(info)));
    QVERIFY2(info.out.contains(QRegularExpression("\\b30\\b")), qPrintable(describe(info)));
    // and the dropout it trained with (the tiny preset has none).
    QVERIFY2(info.out.contains(QRegularExpression("dropout +0\\.25\\n")), qPrintable(describe(info)));
}

// The tiny preset has 2 layers of 4 heads and a context of 16 characters.
void TestCli::attention_data() {
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("characters");  // what the heads show, after cropping

    QTest::newRow("png, last layer") << QStringList{"--text", "the lazy dog"} << "last.png" << 12;
    QTest::newRow("png, layer 0") << QStringList{"--text", "ab ab", "--layer", "0"} << "first.png" << 5;
    QTest::newRow("png, longer than the context")
        << QStringList{"--text", "the quick brown fox jumps over the lazy dog."} << "long.png" << 16;
    QTest::newRow("upper-case suffix") << QStringList{"--text", "fox", "--layer=1"} << "upper.PNG" << 3;
    QTest::newRow("svg") << QStringList{"--text", "the quick fox"} << "grid.svg" << 13;
}

void TestCli::attention() {
    QFETCH(QStringList, options);
    QFETCH(QString, file);
    QFETCH(int, characters);
    QVERIFY2(succeeded(trainedModel()), qPrintable(describe(trainedModel())));
    const QString out = dir_.filePath(file);
    const Result r = runCli(QStringList{"attention", model_, "--out", out} + options);
    QVERIFY2(succeeded(r), qPrintable(describe(r)));
    verifyNoStackTrace(r);
    QVERIFY2(r.err.contains(QRegularExpression(QStringLiteral("4 heads, %1 characters").arg(characters))),
             qPrintable(describe(r)));
    QVERIFY(QFileInfo(out).size() > 0);

    if (file.endsWith(QLatin1String(".svg"))) {
        QFile svg(out);
        QVERIFY(svg.open(QIODevice::ReadOnly));
        const QByteArray content = svg.readAll();
        QVERIFY(content.contains("<svg"));
        QVERIFY(content.contains("<image") || content.contains("<path"));  // the cells and hatching
        return;
    }
    QImage image;
    QVERIFY2(image.load(out, "PNG"), qPrintable(out));
    // Four heads in a grid, each with room for its characters on both axes.
    QVERIFY2(image.width() >= 400 && image.height() >= 400,
             qPrintable(QStringLiteral("%1 x %2").arg(image.width()).arg(image.height())));
    // Not a blank page: the cells add colours beyond the white page, black text
    // and grey hatching.
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 3)
        for (int x = 0; x < image.width(); x += 3)
            colours.insert(image.pixel(x, y));
    QVERIFY2(colours.size() > 20, qPrintable(QString::number(colours.size())));
}

void TestCli::attentionUnknownCharacters() {
    QVERIFY2(succeeded(trainedModel()), qPrintable(describe(trainedModel())));
    const QString out = dir_.filePath("unknown.png");
    // 'Z' and '春' are not in the corpus: left out with a warning, the rest drawn.
    const Result r = runCli({"attention", model_, "--text", "ab Z春 fox", "--out", out});
    QVERIFY2(succeeded(r), qPrintable(describe(r)));
    verifyNoStackTrace(r);
    QVERIFY2(r.err.contains(QStringLiteral("'Z' (position 3)")), qPrintable(describe(r)));
    QVERIFY2(r.err.contains(QStringLiteral("'春' (position 4)")), qPrintable(describe(r)));
    QVERIFY2(r.err.contains(QLatin1String("4 heads, 7 characters")), qPrintable(describe(r)));
    QImage image;
    QVERIFY(image.load(out, "PNG"));
}

void TestCli::attentionErrors_data() {
    QTest::addColumn<QStringList>("args");  // after "attention"; @ is the temporary folder, M the model
    QTest::addColumn<QString>("mentions");  // regular expression the message must match

    const QString m = QStringLiteral("M"), text = QStringLiteral("--text"), out = QStringLiteral("--out");
    const QString png = QStringLiteral("@/never.png");
    QTest::newRow("layer too large") << QStringList{m, text, "ab", "--layer", "2", out, png}
                                     << "layer 2.*0 to 1";
    QTest::newRow("negative layer") << QStringList{m, text, "ab", "--layer", "-1", out, png} << "layer -1";
    QTest::newRow("layer not a number") << QStringList{m, text, "ab", "--layer", "last", out, png}
                                        << "--layer";
    QTest::newRow("missing --text") << QStringList{m, out, png} << "--text";
    QTest::newRow("empty --text") << QStringList{m, text, "", out, png} << "--text.*empty";
    QTest::newRow("missing --out") << QStringList{m, text, "ab"} << "--out";
    QTest::newRow("unknown extension") << QStringList{m, text, "ab", out, "@/never.jpg"} << "\\.png.*\\.svg";
    QTest::newRow("no extension") << QStringList{m, text, "ab", out, "@/never"} << "\\.png.*\\.svg";
    QTest::newRow("no known character") << QStringList{m, text, "XYZ", out, png} << "vocabulary";
    QTest::newRow("unwritable folder") << QStringList{m, text, "ab", out, "@/missing/never.png"}
                                       << "missing/never\\.png";
    QTest::newRow("no checkpoint") << QStringList{text, "ab", out, png} << "checkpoint";
    QTest::newRow("bad checkpoint") << QStringList{"@/garbage.pt", text, "ab", out, png} << "garbage\\.pt";
    QTest::newRow("unknown option") << QStringList{m, text, "ab", "--prompt", "x", out, png} << "prompt";
}

void TestCli::attentionErrors() {
    QFETCH(QStringList, args);
    QFETCH(QString, mentions);
    QVERIFY2(succeeded(trainedModel()), qPrintable(describe(trainedModel())));
    for (QString& a : args) {
        if (a == QLatin1String("M")) a = model_;
        a.replace('@', dir_.path());
    }
    const Result r = runCli(QStringList{"attention"} + args, 60000);
    QVERIFY2(r.finished, qPrintable(describe(r)));
    QCOMPARE(r.status, QProcess::NormalExit);
    QVERIFY2(r.exitCode != 0, qPrintable(describe(r)));
    QVERIFY2(r.err.contains(QRegularExpression(mentions, QRegularExpression::CaseInsensitiveOption)),
             qPrintable(describe(r)));
    verifyNoStackTrace(r);
    for (const char* never : {"never.png", "never.jpg", "never", "missing/never.png"})
        QVERIFY(!QFileInfo::exists(dir_.filePath(QLatin1String(never))));
}

// `--temperature 1e-308` (and down to 4.9e-324, all inside the accepted range)
// divided the scores into infinities and printed noise: it is the limit it
// approaches, the text of `--temperature 0`, whatever the seed.
void TestCli::tinyTemperatureSamplesGreedily() {
    const Result& train = trainedModel();
    QVERIFY2(succeeded(train), qPrintable(describe(train)));
    const QStringList common{"sample", model_, "--prompt", "ab", "--chars", "40"};
    const Result greedy = runCli(common + QStringList{"--temperature", "0", "--seed", "3"});
    QVERIFY2(succeeded(greedy), qPrintable(describe(greedy)));
    QVERIFY2(greedy.out.trimmed().size() > 2, qPrintable(describe(greedy)));
    for (const auto& [temperature, seed] : {std::pair<const char*, const char*>{"1e-308", "3"}, {"4.9e-324", "77"}}) {
        const Result tiny = runCli(common + QStringList{"--temperature", temperature, "--seed", seed});
        QVERIFY2(succeeded(tiny), qPrintable(describe(tiny)));
        QCOMPARE(tiny.out, greedy.out);
        verifyNoStackTrace(tiny);
    }
}

// --threads took up to 1,024 as is (on 2 cores, 22 s for 3 tiny steps): more
// than the machine's cores is capped, with a message, and the command works.
void TestCli::threadsCappedAtCores() {
    if (QThread::idealThreadCount() >= 1024) QSKIP("this machine has 1,024 cores or more");
    const Result& train = trainedModel();
    QVERIFY2(succeeded(train), qPrintable(describe(train)));
    const Result r = runCli({"sample", model_, "--prompt", "ab", "--chars", "10", "--threads", "1024"}, 60000);
    QVERIFY2(succeeded(r), qPrintable(describe(r)));
    QVERIFY2(r.ms < 30000, qPrintable(describe(r)));
    QVERIFY2(r.err.contains(QRegularExpression(
                 "^chargpt: --threads 1024 is more than this machine's \\d+ cores?: using \\d+ threads?\\.$",
                 QRegularExpression::MultilineOption)),
             qPrintable(describe(r)));
    QVERIFY(r.out.startsWith(QLatin1String("ab")));
}

namespace {

// The copied spans of `text` by the rule, the slow way: for each character,
// the longest run from there found in `training`; runs of `least` or more, joined.
QList<QPair<int, int>> copiedSpans(const QList<uint>& text, const QList<uint>& training, int least) {
    QList<bool> copied(text.size(), false);
    for (qsizetype j = 0; j < text.size(); ++j) {
        qsizetype best = 0;
        for (qsizetype s = 0; s < training.size(); ++s) {
            qsizetype k = 0;
            while (j + k < text.size() && s + k < training.size() && text[j + k] == training[s + k]) ++k;
            best = std::max(best, k);
        }
        if (best >= least)
            for (qsizetype k = 0; k < best; ++k) copied[j + k] = true;
    }
    QList<QPair<int, int>> spans;
    for (qsizetype j = 0; j < text.size(); ++j) {
        if (!copied[j]) continue;
        if (!spans.isEmpty() && spans.last().first + spans.last().second == j)
            ++spans.last().second;
        else
            spans.append({int(j), 1});
    }
    return spans;
}

}  // namespace

// sample --corpus: the spans and share in the JSON are those of the rule
// against the training part of the corpus; the text mode says the share.
void TestCli::sampleReportsCopies() {
    const Result& train = trainedModel();
    QVERIFY2(succeeded(train), qPrintable(describe(train)));
    // A cool temperature: the 30-step model repeats bits of its text, with
    // slips between them.
    const QStringList common{"sample", model_, "--prompt", "the quick", "--chars", "150", "--seed", "2",
                             "--temperature", "0.2"};
    const Result plain = runCli(common + QStringList{"--json"});
    QVERIFY2(succeeded(plain), qPrintable(describe(plain)));
    QVERIFY(cli_run::onlySample(cli_run::lastJsonLine(plain.out)).value("copied").isNull());
    QCOMPARE(cli_run::lastJsonLine(plain.out).value("prompt").toString(), QStringLiteral("the quick"));

    // The model's text with its held-out tenth made of the same letters in
    // another order: text the model never saw, which repeats the training
    // text's runs only by chance, so the rule stays short (a corpus that is
    // one line over and over would count everything as copied).
    const QString copiesCorpus = dir_.filePath("copies-corpus.txt");
    {
        QByteArray text = cli_run::readFile(corpus_).left(3300 - 330);
        const QByteArray letters = "abcdefghijklmnopqrstuvwxyz .";
        std::mt19937 rng(11);
        while (text.size() < 3300) text += text.size() % 55 == 54 ? '\n' : letters[int(rng() % letters.size())];
        QVERIFY(writeFile(copiesCorpus, text));
    }
    const Result json = runCli(common + QStringList{"--json", "--corpus", copiesCorpus});
    QVERIFY2(succeeded(json), qPrintable(describe(json)));
    const QJsonObject result = cli_run::onlySample(cli_run::lastJsonLine(json.out));
    QCOMPARE(result.value("text").toString(),
             cli_run::onlySample(cli_run::lastJsonLine(plain.out)).value("text").toString());
    const QList<uint> text = result.value("text").toString().toUcs4();
    // The training part: the corpus less its last tenth (3,300 characters, 330 held out).
    const QList<uint> corpus = QString::fromUtf8(cli_run::readFile(copiesCorpus)).toUcs4();
    QCOMPARE(corpus.size(), 3300);
    const QList<uint> training = corpus.mid(0, 3300 - 330);
    // The rule fitted to the corpus, the slow way: the shortest run from 8 up
    // at which at most 5% of the held-out tenth counts as copied (64 at most).
    const QList<uint> heldOut = corpus.mid(3300 - 330);
    int least = 8;
    for (; least < 64; ++least) {
        int chance = 0;
        for (const auto& span : copiedSpans(heldOut, training, least)) chance += span.second;
        if (chance <= 0.05 * heldOut.size()) break;
    }
    QCOMPARE(result.value("copied").toObject().value("min_length").toInt(), least);
    QVERIFY2(least < 16, qPrintable(QString::number(least)));
    QList<QPair<int, int>> expected = copiedSpans(text, training, least);
    QList<QPair<int, int>> reported;
    for (const QJsonValue& span : result.value("copied").toObject().value("spans").toArray())
        reported.append({span.toArray().at(0).toInt(), span.toArray().at(1).toInt()});
    QCOMPARE(reported, expected);
    QVERIFY2(!expected.isEmpty(), qPrintable(result.value("text").toString()));  // the model copies
    int copied = 0;
    for (const auto& span : expected) copied += span.second;
    // Six significant digits in the JSON.
    QVERIFY(qAbs(result.value("copied").toObject().value("share").toDouble() - double(copied) / double(text.size())) <
            1e-5);

    const Result line = runCli(common + QStringList{"--corpus", copiesCorpus});
    QVERIFY2(succeeded(line), qPrintable(describe(line)));
    QVERIFY2(line.out.contains(QRegularExpression(QStringLiteral(
                 "\\ncopied: %1% of the %2 characters \\(%3 span\\(s\\) of %4 or more found verbatim in the training "
                 "text\\)\\n$")
                 .arg(QString::asprintf("%.0f", 100.0 * copied / double(text.size())))
                 .arg(text.size())
                 .arg(expected.size())
                 .arg(least))),
             qPrintable(describe(line)));
}

CHARGPT_TEST_GUILESS_MAIN(TestCli)
}  // namespace tst_cli
#include "tst_cli.moc"
