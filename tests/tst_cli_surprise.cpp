// SPDX-License-Identifier: GPL-3.0-or-later
// `chargpt surprise`, run as a user runs it: the mean it prints, the JSON of
// every character, the four files of --out, and the refusals of bad input.
//
// This file runs the CLI binary only; it needs no LibTorch header.
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include "TestProgram.h"

#include <cmath>
#include <optional>

#include "CliRun.h"

namespace tst_cli_surprise {

namespace {

using cli_run::cliExists;
using cli_run::describe;
using cli_run::Result;
using cli_run::runCli;
using cli_run::succeeded;
using cli_run::verifyNoStackTrace;
using cli_run::writeFile;

// The mean of the text line: "2.3456 bits per character over N characters scored".
double printedMean(const Result& r, int* scored = nullptr) {
    const QRegularExpression line(QStringLiteral("^([0-9.]+) bits per character over ([0-9]+) characters? scored"));
    const QRegularExpressionMatch m = line.match(r.out);
    if (!m.hasMatch())
        return NAN;
    if (scored)
        *scored = m.captured(2).toInt();
    return m.captured(1).toDouble();
}

}  // namespace

class TestCliSurprise : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void textAndTextFile();
    void json();
    void without();
    void out_data();
    void out();
    void errors_data();
    void errors();

private:
    QTemporaryDir dir_;
    QString model_;
};

// The tiny preset (context 16), 30 steps on a text with the characters an
// HTML page must escape.
void TestCliSurprise::initTestCase() {
    QVERIFY2(cliExists(), CHARGPT_CLI);
    QVERIFY(dir_.isValid());
    const QByteArray line = "the quick brown fox <jumps> & over the lazy dog, \"ab\" ab.\n";
    QByteArray text;
    for (int i = 0; i < 60; ++i) text += line;
    const QString corpus = dir_.filePath("corpus.txt");
    QVERIFY(writeFile(corpus, text));
    model_ = dir_.filePath("m.pt");
    const Result r = runCli({"train", corpus, "--preset", "tiny", "--steps", "30", "--out", model_});
    QVERIFY2(succeeded(r), qPrintable(describe(r)));
    QVERIFY(writeFile(dir_.filePath("bad-utf8.txt"), "the \xff\xfe fox"));
    QVERIFY(QDir(dir_.path()).mkdir("folder"));
    // Texts past the budgets of what lists every character: 1 MiB (the most
    // scored for the mean), one character past 100,000, and 60,000
    // characters in 20,000 lines (a picture 400,000 pixels tall).
    QVERIFY(writeFile(dir_.filePath("mebibyte.txt"), QByteArray(1 << 20, 'a')));
    QVERIFY(writeFile(dir_.filePath("listed-plus-one.txt"), QByteArray(100001, 'a')));
    QByteArray lines;
    for (int i = 0; i < 20000; ++i) lines += "ab\n";
    QVERIFY(writeFile(dir_.filePath("lines.txt"), lines));
}

// The same text given on the command line and in a file, longer than the
// context (16): every character but the first scored, the same mean.
void TestCliSurprise::textAndTextFile() {
    QByteArray text;
    for (int i = 0; i < 10; ++i) text += "the lazy fox jumps. ";
    QVERIFY(writeFile(dir_.filePath("text.txt"), text));
    const Result fromText = runCli({"surprise", model_, "--text", QString::fromUtf8(text)});
    QVERIFY2(succeeded(fromText), qPrintable(describe(fromText)));
    verifyNoStackTrace(fromText);
    int scored = 0;
    const double mean = printedMean(fromText, &scored);
    QVERIFY2(std::isfinite(mean) && mean > 0.0 && mean < 20.0, qPrintable(describe(fromText)));
    QCOMPARE(scored, int(text.size()) - 1);
    QVERIFY2(fromText.out.contains(QStringLiteral("model at step 30")), qPrintable(describe(fromText)));
    const Result fromFile = runCli({"surprise", model_, "--text-file", dir_.filePath("text.txt")});
    QVERIFY2(succeeded(fromFile), qPrintable(describe(fromFile)));
    QCOMPARE(fromFile.out, fromText.out);
}

// Every character with its bits, rank and guesses; 'Z' and '春' are not in
// the corpus: named on stderr, kept in the JSON as unknown, not scored.
void TestCliSurprise::json() {
    const Result r = runCli({"surprise", model_, "--text", "the <lazy> fox Z春", "--json"});
    QVERIFY2(succeeded(r), qPrintable(describe(r)));
    QVERIFY2(r.err.contains(QStringLiteral("'Z' (position 15)")), qPrintable(describe(r)));
    QVERIFY2(r.err.contains(QStringLiteral("'春' (position 16)")), qPrintable(describe(r)));
    const QJsonObject summary = cli_run::lastJsonLine(r.out);
    QVERIFY2(!summary.isEmpty(), qPrintable(describe(r)));
    QCOMPARE(summary["step"].toInt(), 30);
    QCOMPARE(summary["characters_scored"].toInt(), 14);
    QCOMPARE(summary["unknown_characters"].toInt(), 2);
    const QJsonArray characters = summary["characters"].toArray();
    QCOMPARE(characters.size(), 17);
    QCOMPARE(characters[0].toObject()["char"].toString(), QStringLiteral("t"));
    QVERIFY(characters[0].toObject()["bits"].isNull());  // nothing before it
    QVERIFY(characters[0].toObject()["rank"].isNull());
    QCOMPARE(characters[4].toObject()["char"].toString(), QStringLiteral("<"));
    const QJsonObject z = characters[15].toObject();
    QCOMPARE(z["char"].toString(), QStringLiteral("Z"));
    QCOMPARE(z["known"].toBool(), false);
    QVERIFY(z["bits"].isNull());
    double sum = 0.0;
    for (int i = 1; i < 15; ++i) {
        const QJsonObject c = characters[i].toObject();
        QVERIFY(c["known"].toBool());
        const double bits = c["bits"].toDouble();
        const int rank = c["rank"].toInt();
        QVERIFY(bits >= 0.0);
        QVERIFY(rank >= 1);
        sum += bits;
        const QJsonArray top = c["top"].toArray();
        QCOMPARE(top.size(), 5);
        double previous = 1.0;
        for (const QJsonValue& guess : top) {
            const double p = guess.toObject()["p"].toDouble();
            QVERIFY(p <= previous + 1e-9);
            previous = p;
        }
        // Within the top five: the true character at its rank, with probability 2^-bits.
        if (rank <= 5) {
            QCOMPARE(top[rank - 1].toObject()["char"].toString(), c["char"].toString());
            QVERIFY(std::abs(top[rank - 1].toObject()["p"].toDouble() - std::exp2(-bits)) < 1e-4);
        }
    }
    QVERIFY(std::abs(summary["mean_bits"].toDouble() - sum / 14) < 1e-3);
}

void TestCliSurprise::out_data() {
    QTest::addColumn<QString>("file");
    QTest::newRow("png") << "s.png";
    QTest::newRow("svg") << "s.svg";
    QTest::newRow("html") << "s.html";
    QTest::newRow("csv") << "s.csv";
}

void TestCliSurprise::out() {
    QFETCH(QString, file);
    const QString out = dir_.filePath(file);
    const QString text = QStringLiteral("the <lazy> & \"fox\", ab");
    const Result r = runCli({"surprise", model_, "--text", text, "--out", out});
    QVERIFY2(succeeded(r), qPrintable(describe(r)));
    verifyNoStackTrace(r);
    QVERIFY2(r.err.contains(QStringLiteral("wrote")), qPrintable(describe(r)));
    const QByteArray content = cli_run::readFile(out);
    QVERIFY(!content.isEmpty());
    const QString suffix = QFileInfo(file).suffix().toLower();
    if (suffix == QLatin1String("png")) {
        QImage image;
        QVERIFY(image.loadFromData(content, "PNG"));
        QVERIFY(image.width() >= 800);
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 2)
            for (int x = 0; x < image.width(); x += 2)
                colours.insert(image.pixel(x, y));
        QVERIFY2(colours.size() > 20, qPrintable(QString::number(colours.size())));
    } else if (suffix == QLatin1String("svg")) {
        QVERIFY(content.contains("<svg"));
        QVERIFY(content.contains("</svg>"));
    } else if (suffix == QLatin1String("html")) {
        const QString html = QString::fromUtf8(content);
        QCOMPARE(html.count(QStringLiteral("<span")), int(text.size()));
        QVERIFY(html.contains(QStringLiteral(">&lt;</span>")));
        QVERIFY(html.contains(QStringLiteral(">&amp;</span>")));
        QVERIFY(html.contains(QStringLiteral(">&gt;</span>")));
        QVERIFY(!html.contains(QStringLiteral("<lazy>")));
    } else {
        // A row per character (a guess may be a newline, quoted inside its row).
        const QStringList lines = QString::fromUtf8(content).split(QLatin1Char('\n'));
        QVERIFY(lines[0].startsWith(QStringLiteral("text,position,char,bits,rank,guess1,p1")));
        QCOMPARE(lines.filter(QRegularExpression(QStringLiteral("^text,[0-9]+,"))).size(), int(text.size()));
        QVERIFY(lines[1].startsWith(QStringLiteral("text,0,t,,,")));
        QVERIFY(QString::fromUtf8(content).contains(QRegularExpression(QStringLiteral("\ntext,1,h,[0-9.]+,[0-9]+,"))));
    }
}

// --without PART, named as ablate names it: the text scored again with the
// part knocked out (2 layers of 4 heads here); the mean without it, and each
// character's bits without it in the JSON.
void TestCliSurprise::without() {
    const QString text = QStringLiteral("the lazy fox jumps over the dog");
    const Result r = runCli({"surprise", model_, "--text", text, "--without", "L2 H3"});
    QVERIFY2(succeeded(r), qPrintable(describe(r)));
    const double mean = printedMean(r);
    const QRegularExpression line(
        QStringLiteral("\n([0-9.]+) bits per character without L2 H3 \\(([-+][0-9.]+)\\)\n"));
    const QRegularExpressionMatch m = line.match(r.out);
    QVERIFY2(m.hasMatch(), qPrintable(describe(r)));
    QVERIFY2(std::abs(m.captured(2).toDouble() - (m.captured(1).toDouble() - mean)) <= 2e-4,
             qPrintable(r.out));

    const Result json =
        runCli({"surprise", model_, "--text", text, "--without", "l1-feed-forward", "--json"});
    QVERIFY2(succeeded(json), qPrintable(describe(json)));
    const QJsonObject summary = cli_run::lastJsonLine(json.out);
    QCOMPARE(summary["without"].toString(), QStringLiteral("L1 feed-forward"));
    const QJsonArray characters = summary["characters"].toArray();
    QVERIFY(characters[0].toObject()["bits_without"].isNull());  // nothing before it
    double sum = 0.0;
    for (int i = 1; i < characters.size(); ++i) {
        QVERIFY(characters[i].toObject()["bits_without"].isDouble());
        sum += characters[i].toObject()["bits_without"].toDouble();
    }
    QVERIFY(std::abs(sum / (characters.size() - 1) - summary["mean_bits_without"].toDouble()) < 1e-3);
    // Knocking out the first layer's feed-forward changes what the model predicts.
    QVERIFY(summary["mean_bits_without"].toDouble() != summary["mean_bits"].toDouble());
}

void TestCliSurprise::errors_data() {
    QTest::addColumn<QStringList>("args");  // after "surprise"; @ is the temporary folder, M the model
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("mentions");  // regular expression the message must match

    const QString m = QStringLiteral("M"), text = QStringLiteral("--text"), file = QStringLiteral("--text-file");
    QTest::newRow("no text") << QStringList{m} << 1 << "--text TEXT or --text-file";
    QTest::newRow("folder") << QStringList{m, file, "@/folder"} << 1 << "text file .*folder";
    QTest::newRow("bad UTF-8") << QStringList{m, file, "@/bad-utf8.txt"} << 1 << "UTF-8";
    QTest::newRow("one character") << QStringList{m, text, "a"} << 1 << "fewer than two characters";
    QTest::newRow("unknown suffix") << QStringList{m, text, "ab", "--out", "@/never.jpg"} << 1
                                    << "\\.png.*\\.svg.*\\.html.*\\.csv";
    QTest::newRow("not a part") << QStringList{m, text, "ab", "--without", "head 2"} << 1
                                << "--without takes a part as ablate names it: L2 H3";
    QTest::newRow("no such layer") << QStringList{m, text, "ab", "--without", "L3 attention"} << 1
                                   << "--without L3 attention: the model has layers L1 to L2";
    QTest::newRow("no such head") << QStringList{m, text, "ab", "--without", "L1 H5"} << 1
                                  << "--without L1 H5: each layer of the model has heads H1 to H4";
    QTest::newRow("unknown option") << QStringList{m, text, "ab", "--prompt", "x"} << 2 << "unknown option --prompt";
    // The budgets, refused before the model is read (a 1 MiB text with --json
    // and --out x.png took 54 s and 2.9 GB, wrote 200 MB of JSON and a PNG of
    // 1000 x 268,401 pixels).
    QTest::newRow("picture of 1 MiB")
        << QStringList{m, file, "@/mebibyte.txt", "--out", "@/never.png"} << 1
        << "1048576 characters; --out .*never\\.png lists at most 100000 \\(the mean "
           "alone is scored over up to 1048576\\)";
    QTest::newRow("JSON past 100,000") << QStringList{m, file, "@/listed-plus-one.txt", "--json"} << 1
                                       << "100001 characters; --json lists at most 100000";
    QTest::newRow("page past 100,000")
        << QStringList{m, file, "@/listed-plus-one.txt", "--out", "@/never.html"} << 1
        << "--out .*never\\.html lists at most 100000";
    QTest::newRow("picture too tall")
        << QStringList{m, file, "@/lines.txt", "--out", "@/never.png"} << 1
        << "never\\.png would be 1000 x [0-9]+ pixels; a picture is at most 16384 "
           "pixels tall";
}

void TestCliSurprise::errors() {
    QFETCH(QStringList, args);
    QFETCH(int, exitCode);
    QFETCH(QString, mentions);
    for (QString& a : args) {
        if (a == QLatin1String("M")) a = model_;
        a.replace('@', dir_.path());
    }
    const Result r = runCli(QStringList{"surprise"} + args, 60000);
    QVERIFY2(r.finished, qPrintable(describe(r)));
    QCOMPARE(r.status, QProcess::NormalExit);
    QVERIFY2(r.exitCode == exitCode, qPrintable(describe(r)));
    QVERIFY2(r.err.contains(QRegularExpression(mentions, QRegularExpression::CaseInsensitiveOption)),
             qPrintable(describe(r)));
    QCOMPARE(r.err.count(QLatin1Char('\n')), 1);  // one line
    QVERIFY(r.out.isEmpty());
    verifyNoStackTrace(r);
    QVERIFY2(r.ms < 20000, qPrintable(describe(r)));  // refused at once
    for (const char* never : {"never.jpg", "never.png", "never.html"})
        QVERIFY(!QFileInfo::exists(dir_.filePath(QLatin1String(never))));
}

CHARGPT_TEST_GUILESS_MAIN(TestCliSurprise)
}  // namespace tst_cli_surprise
#include "tst_cli_surprise.moc"
