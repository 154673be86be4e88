// SPDX-License-Identifier: GPL-3.0-or-later
// `chargpt attribute` and `chargpt patch`, run as a user runs them: the JSON
// (parts that sum to the logit, grids of the model's shape whose ends are 0
// and 1), the tables, --help, and every refusal in one line that reaches the
// terminal escaped. Their numbers against PyTorch: tst_why_pytorch.
//
// This file runs the CLI binary only; it needs no LibTorch header.
#include <QJsonArray>
#include <QJsonObject>
#include "TestProgram.h"

#include <cmath>
#include <string>

#include "CliRun.h"

namespace tst_cli_why {

using cli_run::describe;
using cli_run::Result;
using cli_run::runCli;
using cli_run::succeeded;
using cli_run::verifyNoStackTrace;
using cli_run::writeFile;

class TestCliWhy : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void attributeJson();
    void attributeText();
    void patchJson();
    void patchText();
    void help();
    void refusals_data();
    void refusals();

private:
    QTemporaryDir dir_;
    QString model_;
};

// The tiny preset (2 blocks of 4 heads, context 16), 40 steps.
void TestCliWhy::initTestCase() {
    QVERIFY2(QFileInfo(QStringLiteral(CHARGPT_CLI)).isExecutable(), CHARGPT_CLI);
    QVERIFY(dir_.isValid());
    QByteArray text;
    for (int i = 0; i < 60; ++i) text += "the quick brown fox jumps over the lazy dog, then naps.\n";
    const QString corpus = dir_.filePath("corpus.txt");
    QVERIFY(writeFile(corpus, text));
    model_ = dir_.filePath("m.pt");
    const Result r = runCli({"train", corpus, "--preset", "tiny", "--steps", "40", "--no-record", "--out", model_});
    QVERIFY2(succeeded(r), qPrintable(describe(r)));
}

void TestCliWhy::attributeJson() {
    const Result r = runCli({"attribute", model_, "--text", "the lazy dog", "--position", "8", "--json"});
    QVERIFY2(succeeded(r), qPrintable(describe(r)));
    const QJsonObject o = cli_run::lastJsonLine(r.out);
    QCOMPARE(o.value("step").toInt(), 40);
    QCOMPARE(o.value("position").toInt(), 8);
    QCOMPARE(o.value("text").toString(), QStringLiteral("the lazy "));  // positions 0 to 8
    QVERIFY(o.value("top").toBool());
    const double logit = o.value("logit").toDouble(), margin = o.value("margin").toDouble();
    QVERIFY(margin >= 0.0);
    QVERIFY(std::abs(margin - (logit - o.value("runner_up").toObject().value("logit").toDouble())) < 1e-4);
    const QJsonArray parts = o.value("parts").toArray();
    // Token and position embeddings, 2 layers of 4 heads, a projection bias, a
    // feed-forward and its bias each, the final norm's bias and the head's.
    QCOMPARE(parts.size(), 2 + 2 * (4 + 1 + 2) + 2);
    double sum = 0.0, marginSum = 0.0;
    int heads = 0;
    for (const QJsonValue& v : parts) {
        const QJsonObject p = v.toObject();
        sum += p.value("logit").toDouble();
        marginSum += p.value("margin").toDouble();
        if (p.value("part").toString() == QLatin1String("head")) {
            ++heads;
            QVERIFY(p.value("head").toInt() >= 1 && p.value("head").toInt() <= 4);
            QVERIFY(p.value("layer").toInt() >= 1 && p.value("layer").toInt() <= 2);
        }
    }
    QCOMPARE(heads, 8);
    QVERIFY2(std::abs(sum - logit) < 1e-3, qPrintable(describe(r)));  // six significant digits a part
    QVERIFY(std::abs(marginSum - margin) < 1e-3);
    QVERIFY(std::abs(o.value("gap_logit").toDouble()) < 1e-4);
    QVERIFY(std::abs(o.value("gap_margin").toDouble()) < 1e-4);
    const QJsonArray inputs = o.value("gradient_x_input").toArray();
    QCOMPARE(inputs.size(), 9);
    QCOMPARE(inputs[4].toObject().value("char").toString(), QStringLiteral("l"));

    // Another character: its own logit, not the top.
    const Result q = runCli({"attribute", model_, "--text", "the lazy dog", "--position", "8", "--char", "q", "--json"});
    QVERIFY2(succeeded(q), qPrintable(describe(q)));
    const QJsonObject oq = cli_run::lastJsonLine(q.out);
    QCOMPARE(oq.value("char").toString(), QStringLiteral("q"));
    QVERIFY(!oq.value("top").toBool());
    QVERIFY(oq.value("margin").toDouble() < 0.0);
    QVERIFY(std::abs(oq.value("gap_logit").toDouble()) < 1e-4);
}

void TestCliWhy::attributeText() {
    const Result r = runCli({"attribute", model_, "--text", "the lazy\ndog", "--position", "10"});
    QVERIFY2(succeeded(r), qPrintable(describe(r)));
    for (const char* part : {"token embedding", "position embedding", "L1 H1", "L2 H4", "L2 projection bias",
                             "L1 feed-forward", "final norm bias", "head bias", "gradient x input"})
        QVERIFY2(r.out.contains(QLatin1String(part)), part);
    QVERIFY2(r.out.contains(QLatin1String("\"the lazy\\x0Ado\"")), qPrintable(r.out));  // the newline escaped
    QVERIFY(r.out.contains(QLatin1String("'\\x0A'")));
}

void TestCliWhy::patchJson() {
    const Result r = runCli({"patch", model_, "--clean", "the lazy dog", "--corrupted", "the lazy fox", "--target", ",",
                             "--json"});
    QVERIFY2(succeeded(r), qPrintable(describe(r)));
    const QJsonObject o = cli_run::lastJsonLine(r.out);
    QCOMPARE(o.value("target").toString(), QStringLiteral(","));
    QVERIFY(o.value("wrong").toString() != QStringLiteral(","));
    QVERIFY(o.value("clean_difference").toDouble() != o.value("corrupted_difference").toDouble());
    const QJsonArray residual = o.value("residual").toArray();
    QCOMPARE(residual.size(), 3);  // the embeddings and after each of 2 blocks
    for (int l = 0; l < 3; ++l) {
        const QJsonArray row = residual[l].toArray();
        QCOMPARE(row.size(), 12);
        for (int t = 0; t < 9; ++t)  // "the lazy " is the same in both: nothing to restore
            QVERIFY2(std::abs(row[t].toDouble(1.0)) < 1e-4, qPrintable(describe(r)));
        if (l == 2)  // after the last block only the last position is read
            for (int t = 0; t < 12; ++t) QVERIFY(std::abs(row[t].toDouble(-1.0) - (t == 11 ? 1.0 : 0.0)) < 1e-4);
    }
    const QJsonArray heads = o.value("heads").toArray();
    QCOMPARE(heads.size(), 2);
    QCOMPARE(heads[0].toArray().size(), 4);
    const QJsonArray feedForward = o.value("feed_forward").toArray();
    QCOMPARE(feedForward.size(), 2);
    QCOMPARE(feedForward[1].toArray().size(), 12);
    QVERIFY(feedForward[1].toArray()[11].isDouble());

    // --wrong names the other character.
    const Result w = runCli({"patch", model_, "--clean", "the lazy dog", "--corrupted", "the lazy fox", "--target", ",",
                             "--wrong", " ", "--json"});
    QVERIFY2(succeeded(w), qPrintable(describe(w)));
    QCOMPARE(cli_run::lastJsonLine(w.out).value("wrong").toString(), QStringLiteral(" "));
}

void TestCliWhy::patchText() {
    const Result r = runCli({"patch", model_, "--clean", "lazy dog", "--corrupted", "lazy fox", "--target", ","});
    QVERIFY2(succeeded(r), qPrintable(describe(r)));
    for (const char* part : {"clean ", "corrupted ", "residual stream", "emb", "L2", "each head's output", "H4",
                             "each feed-forward's output"})
        QVERIFY2(r.out.contains(QLatin1String(part)), part);
    QCOMPARE(r.out.count(QLatin1Char('\n')), 3 + 1 + 8 + 2 + 1 + 2 + 2 + 1 + 8 + 1);
}

void TestCliWhy::help() {
    for (const char* command : {"attribute", "patch"}) {
        const Result r = runCli({command, "--help"});
        QVERIFY2(succeeded(r), qPrintable(describe(r)));
        QVERIFY(r.out.contains(QLatin1String("--json")));
        QVERIFY(r.out.contains(QLatin1String(std::string(command) == "patch" ? "--corrupted" : "--position")));
    }
    const Result usage = runCli({"--help"});
    QVERIFY(usage.out.contains(QLatin1String("chargpt attribute CHECKPOINT --text TEXT --position N")));
    QVERIFY(usage.out.contains(QLatin1String("chargpt patch CHECKPOINT --clean TEXT --corrupted TEXT")));
}

void TestCliWhy::refusals_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("message");
    const QString m = QStringLiteral("MODEL");
    QTest::newRow("no text") << QStringList{"attribute", m, "--position", "1"} << 1 << QStringLiteral("needs --text");
    QTest::newRow("no position") << QStringList{"attribute", m, "--text", "the"} << 1 << QStringLiteral("needs --position");
    QTest::newRow("position past the text") << QStringList{"attribute", m, "--text", "the", "--position", "3"} << 1
                                            << QStringLiteral("outside --text, whose positions are 0 to 2");
    QTest::newRow("negative position") << QStringList{"attribute", m, "--text", "the", "--position=-1"} << 1
                                       << QStringLiteral("--position");
    QTest::newRow("position past the context")
        << QStringList{"attribute", m, "--text", "the quick brown fox jumps", "--position", "20"} << 1 << QStringLiteral("context");
    QTest::newRow("unknown character") << QStringList{"attribute", m, "--text", "the Zoo", "--position", "5"} << 1
                                       << QStringLiteral("'Z' at position 4");
    QTest::newRow("control character") << QStringList{"attribute", m, "--text", "a\x1b[2Jb", "--position", "3"} << 1
                                       << QStringLiteral("'\\x1B' at position 1");
    QTest::newRow("two characters") << QStringList{"attribute", m, "--text", "the", "--position", "1", "--char", "ab"}
                                    << 1 << QStringLiteral("one character");
    QTest::newRow("no clean") << QStringList{"patch", m, "--corrupted", "dog", "--target", ","} << 1 << QStringLiteral("needs --clean");
    QTest::newRow("unequal lengths") << QStringList{"patch", m, "--clean", "dog", "--corrupted", "dogs", "--target", ","}
                                     << 1 << QStringLiteral("same length");
    QTest::newRow("no target") << QStringList{"patch", m, "--clean", "dog", "--corrupted", "fox"} << 1
                               << QStringLiteral("needs --target");
    QTest::newRow("unknown target") << QStringList{"patch", m, "--clean", "dog", "--corrupted", "fox", "--target", "Z"}
                                    << 1 << QStringLiteral("not a character of the model's vocabulary");
    QTest::newRow("same prompts") << QStringList{"patch", m, "--clean", "dog", "--corrupted", "dog", "--target", ","}
                                  << 1 << QStringLiteral("nothing for a patch to restore");
    QTest::newRow("wrong is target")
        << QStringList{"patch", m, "--clean", "dog", "--corrupted", "fox", "--target", ",", "--wrong", ","} << 1
        << QStringLiteral("is the target");
    QTest::newRow("unknown option") << QStringList{"patch", m, "--clean", "dog", "--bogus"} << 2 << QStringLiteral("bogus");
}

void TestCliWhy::refusals() {
    QFETCH(QStringList, args);
    QFETCH(int, status);
    QFETCH(QString, message);
    args.replaceInStrings(QStringLiteral("MODEL"), model_);
    const Result r = runCli(args);
    QVERIFY2(r.finished && r.exitCode == status, qPrintable(describe(r)));
    QVERIFY2(r.err.contains(message), qPrintable(describe(r)));
    QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
    QVERIFY2(!r.rawErr.contains('\x1b'), "the terminal sees no escape sequence");
    verifyNoStackTrace(r);
}

CHARGPT_TEST_GUILESS_MAIN(TestCliWhy)
}  // namespace tst_cli_why
#include "tst_cli_why.moc"
