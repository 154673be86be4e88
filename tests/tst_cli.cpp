// SPDX-License-Identifier: GPL-3.0-or-later
// The `chargpt` command-line tool, run as a user runs it: exit codes, messages
// on stderr, the JSON summary of `train`, `sample` and `info`.
//
// This file runs the CLI binary only; it needs no LibTorch header. (Were one
// needed, <torch/torch.h> would have to come before the Qt headers.)
#include <QtTest>

#include <cmath>

#ifndef CHARGPT_CLI
#error "CHARGPT_CLI must name the chargpt executable"
#endif

namespace {

struct Result {
    int exitCode = -1;
    QProcess::ExitStatus status = QProcess::CrashExit;
    QString out, err;
    bool finished = false;
};

Result runCli(const QStringList& args, int timeoutMs = 120000) {
    QProcess p;
    p.setProgram(QStringLiteral(CHARGPT_CLI));
    p.setArguments(args);
    p.start();
    Result r;
    if (!p.waitForStarted(30000)) return r;
    r.finished = p.waitForFinished(timeoutMs);
    if (!r.finished) {
        p.kill();
        p.waitForFinished(5000);
    }
    r.exitCode = p.exitCode();
    r.status = p.exitStatus();
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

bool writeFile(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

QString describe(const Result& r) {
    return QStringLiteral("exit %1, stdout:\n%2\nstderr:\n%3").arg(r.exitCode).arg(r.out.left(2000), r.err.left(2000));
}

}  // namespace

class TestCli : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void errors_data();
    void errors();
    void trainSampleInfo();

private:
    QTemporaryDir dir_;
    QString corpus_;
    QString alphabet_;
};

void TestCli::initTestCase() {
    QVERIFY2(QFileInfo(QStringLiteral(CHARGPT_CLI)).isExecutable(), CHARGPT_CLI);
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

void TestCli::trainSampleInfo() {
    const QString model = dir_.filePath("m.pt");
    const Result train = runCli({"train", corpus_, "--preset", "tiny", "--steps", "30", "--out", model});
    QVERIFY2(train.finished && train.status == QProcess::NormalExit && train.exitCode == 0,
             qPrintable(describe(train)));

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
}

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
