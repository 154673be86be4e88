// SPDX-License-Identifier: GPL-3.0-or-later
// `chargpt filmstrip RUN`: a sample from each step whose weights a recorded
// run keeps, every one the text `chargpt sample RUN@STEP` gives with the same
// prompt, length, seed and temperature; the page and text it writes, escaped,
// through the one save (a folder or a FIFO in the way is refused and stays);
// and its refusals: a run that is not there, one that keeps no weights, a
// prompt the vocabulary has no character of. Each test program records into a
// data folder of its own (cli_run::dataHome).
#include <QJsonArray>
#include <QRegularExpression>
#include <sqlite3.h>

#include "TestProgram.h"

#include <sys/stat.h>

#include "CliRun.h"

namespace tst_cli_filmstrip {

namespace {

using cli_run::cliExists;
using cli_run::describe;
using cli_run::readFile;
using cli_run::Result;
using cli_run::runCli;
using cli_run::succeeded;
using cli_run::verifyNoStackTrace;
using cli_run::writeFile;

// Characters a page must escape are in the corpus, so that a prompt and the
// samples hold them.
const QByteArray kCorpus = QByteArray("if a < b && c > d: print(\"a & b\")\nthe quick brown fox. ab ab ab.\n").repeated(50);
// In the vocabulary; '<' and '&' must reach a page escaped.
const QString kPrompt = QStringLiteral("if a < b && c");

}  // namespace

class TestCliFilmstrip : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void everyStepIsWhatSampleGives();
    void textBlocksByDefault();
    void pageAndTextAreWrittenEscaped();
    void refusedSaveTargetsStay();
    void refusals();

private:
    QString run() const { return QString::number(cli_run::lastJsonLine(train_.out).value("run").toInt()); }
    QTemporaryDir dir_;
    QString corpus_;
    Result train_;
};

void TestCliFilmstrip::initTestCase() {
    QVERIFY2(cliExists(), CHARGPT_CLI);
    QVERIFY(dir_.isValid());
    corpus_ = dir_.filePath("corpus.txt");
    QVERIFY(writeFile(corpus_, kCorpus));
    train_ = runCli({"train", corpus_, "--preset", "tiny", "--steps", "20", "--out", dir_.filePath("m.pt")});
    QVERIFY2(succeeded(train_), qPrintable(describe(train_)));
}

// Each frame's text is `sample RUN@STEP --json`'s text with the same words,
// at every kept step, and the validation loss is the evaluation's there.
void TestCliFilmstrip::everyStepIsWhatSampleGives() {
    const QStringList options{"--prompt", kPrompt, "--chars", "40", "--seed", "7", "--temperature", "0.8"};
    const Result strip = runCli(QStringList{"filmstrip", run(), "--json"} + options);
    QVERIFY2(succeeded(strip), qPrintable(describe(strip)));
    const QJsonObject json = cli_run::lastJsonLine(strip.out);
    QCOMPARE(QString::number(json.value("run").toInt()), run());
    QCOMPARE(json.value("prompt").toString(), kPrompt);
    QCOMPARE(json.value("chars").toInt(), 40);
    QCOMPARE(json.value("seed").toInt(), 7);
    QCOMPARE(json.value("temperature").toDouble(), 0.8);

    const Result listed = runCli({"snapshots", run(), "--json"});
    QVERIFY2(succeeded(listed), qPrintable(describe(listed)));
    const QJsonArray kept = cli_run::lastJsonLine(listed.out).value("snapshots").toArray();
    const QJsonArray frames = json.value("frames").toArray();
    QCOMPARE(frames.size(), kept.size());
    QVERIFY(frames.size() >= 6);  // 0, 1, 2, 4, 8, 16, 20
    QStringList texts;
    for (qsizetype i = 0; i < frames.size(); ++i) {
        const QJsonObject frame = frames[i].toObject();
        const QJsonObject listedStep = kept[i].toObject();
        const int step = frame.value("step").toInt();
        QCOMPARE(step, listedStep.value("step").toInt());
        QVERIFY2(frame.value("skipped").isNull(), qPrintable(frame.value("skipped").toString()));
        QCOMPARE(frame.value("val_loss").isNull(), listedStep.value("val_loss").isNull());
        if (!frame.value("val_loss").isNull())
            QCOMPARE(frame.value("val_loss").toDouble(), listedStep.value("val_loss").toDouble());
        const Result sample =
            runCli(QStringList{"sample", run() + "@" + QString::number(step), "--json"} + options);
        QVERIFY2(succeeded(sample), qPrintable(describe(sample)));
        QCOMPARE(frame.value("text").toString(),
                 cli_run::onlySample(cli_run::lastJsonLine(sample.out)).value("text").toString());
        texts.append(frame.value("text").toString());
    }
    QVERIFY(!frames.first().toObject().value("val_loss").isNull());  // step 0 is evaluated
    QVERIFY2(texts.first() != texts.last(), "the first step's sample is not the last's");

    // The same words give the same strip.
    const Result again = runCli(QStringList{"filmstrip", run(), "--json"} + options);
    QVERIFY2(succeeded(again), qPrintable(describe(again)));
    QCOMPARE(cli_run::lastJsonLine(again.out).value("frames"), json.value("frames"));
}

// Without --json: a heading, then a block per step (its step, its val loss,
// its sample); the defaults say themselves there.
void TestCliFilmstrip::textBlocksByDefault() {
    const Result r = runCli({"filmstrip", run(), "--chars", "30"});
    QVERIFY2(succeeded(r), qPrintable(describe(r)));
    QVERIFY2(r.out.startsWith("Filmstrip of run " + run()), qPrintable(r.out));
    QVERIFY2(r.out.contains("prompt none (the start of a document), seed 1, temperature 1, up to 30 characters"),
             qPrintable(r.out));
    QVERIFY2(r.out.contains(QRegularExpression("\nstep 0   val loss [0-9]+\\.[0-9]{4}\n")), qPrintable(r.out));
    QVERIFY2(r.out.contains(QRegularExpression("\nstep 1   val loss (-|[0-9]+\\.[0-9]{4})\n")), qPrintable(r.out));
    QVERIFY2(r.out.contains("\nstep 16   val loss "), qPrintable(r.out));
}

// --out FILE.html: one self-contained page, a row per step, every text
// escaped; --out FILE.txt: the text blocks. Both replace an older file.
void TestCliFilmstrip::pageAndTextAreWrittenEscaped() {
    const QString page = dir_.filePath("strip.html"), text = dir_.filePath("strip.txt");
    QVERIFY(writeFile(page, "an older page"));
    const QStringList options{"--prompt", kPrompt, "--chars", "60", "--seed", "3"};
    const Result r = runCli(QStringList{"filmstrip", run(), "--json", "--out", page} + options);
    QVERIFY2(succeeded(r), qPrintable(describe(r)));
    QVERIFY2(r.err.contains("wrote " + page), qPrintable(describe(r)));
    const QString html = QString::fromUtf8(readFile(page));
    QVERIFY2(html.startsWith("<!DOCTYPE html>"), qPrintable(html.left(200)));
    QVERIFY(!html.contains("src=") && !html.contains("href="));  // nothing loaded from elsewhere
    QVERIFY(html.contains("font-family: monospace"));
    QVERIFY2(html.contains("if a &lt; b &amp;&amp; c"), qPrintable(html.left(2000)));
    QVERIFY(!html.contains(kPrompt));
    const QJsonArray frames = cli_run::lastJsonLine(r.out).value("frames").toArray();
    QCOMPARE(html.count("<tr><td class=\"step\">"), int(frames.size()));
    bool escapedSomething = false;
    for (const QJsonValue& frame : frames) {
        const QString sample = frame.toObject().value("text").toString();
        QVERIFY2(html.contains("<td class=\"sample\"><span class=\"prompt\">" + kPrompt.toHtmlEscaped() + "</span>" +
                               sample.toHtmlEscaped() + "</td>"),
                 qPrintable(sample));
        escapedSomething = escapedSomething || sample.toHtmlEscaped() != sample;
    }
    // Samples of this corpus hold '<', '>', '&' or '"' at some step (a sixth
    // of its characters are), and the page has them escaped.
    QVERIFY2(escapedSomething, qPrintable(html));

    const Result t = runCli(QStringList{"filmstrip", run(), "--out", text} + options);
    QVERIFY2(succeeded(t), qPrintable(describe(t)));
    const QString written = QString::fromUtf8(readFile(text));
    QVERIFY2(written.startsWith("Filmstrip of run " + run() + " ("), qPrintable(written.left(300)));
    QVERIFY(written.contains("prompt \"" + kPrompt + "\", seed 3"));
    for (const QJsonValue& frame : frames)  // each after the prompt, as the model continued it
        QVERIFY(written.contains("\n" + kPrompt + frame.toObject().value("text").toString() + "\n"));
    // What went to the terminal is the same strip.
    QCOMPARE(t.out, written);
}

// A folder or a FIFO where the page should go is refused before any sampling,
// with the reason, and stays as it was; so does an older page when the
// command is refused.
void TestCliFilmstrip::refusedSaveTargetsStay() {
    const QString folder = dir_.filePath("folder.html");
    QVERIFY(QDir().mkpath(folder));
    QVERIFY(writeFile(folder + "/inside.txt", "kept"));
    const Result r = runCli({"filmstrip", run(), "--out", folder});
    QCOMPARE(r.exitCode, 1);
    verifyNoStackTrace(r);
    QVERIFY2(r.err.contains("cannot save to " + folder), qPrintable(describe(r)));
    QVERIFY2(r.out.isEmpty(), qPrintable(describe(r)));  // refused before sampling
    QVERIFY(QFileInfo(folder).isDir());
    QCOMPARE(readFile(folder + "/inside.txt"), QByteArray("kept"));

    const QString fifo = dir_.filePath("pipe.html");
    QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0644), 0);
    const Result p = runCli({"filmstrip", run(), "--out", fifo}, 60000);
    QVERIFY2(p.finished && p.exitCode == 1, qPrintable(describe(p)));
    verifyNoStackTrace(p);
    QVERIFY2(p.err.contains("cannot save to " + fifo) && p.err.contains("pipe"), qPrintable(describe(p)));
    struct stat info {};
    QCOMPARE(::lstat(QFile::encodeName(fifo).constData(), &info), 0);
    QVERIFY(S_ISFIFO(info.st_mode));

    const QString old = dir_.filePath("old.html");
    QVERIFY(writeFile(old, "the page before"));
    for (const QStringList& refused : {QStringList{"filmstrip", "99999", "--out", old},
                                       QStringList{"filmstrip", run(), "--prompt", "\u0416", "--out", old},
                                       QStringList{"filmstrip", run(), "--chars", "0", "--out", old},
                                       QStringList{"filmstrip", run(), "--out", dir_.filePath("strip.png")}}) {
        const Result refusal = runCli(refused);
        QVERIFY2(refusal.exitCode == 1, qPrintable(describe(refusal)));
        QCOMPARE(readFile(old), QByteArray("the page before"));
    }
    QVERIFY(!QFileInfo::exists(dir_.filePath("strip.png")));
}

// Each refusal is one line and exit status 1 (2 for a mistake in the words).
void TestCliFilmstrip::refusals() {
    struct Case {
        QStringList args;
        int exit;
        QString says;
    };
    const Result bare = runCli({"train", corpus_, "--preset", "tiny", "--steps", "2", "--no-snapshots", "--out",
                                dir_.filePath("bare.pt")});
    QVERIFY2(succeeded(bare), qPrintable(describe(bare)));
    const QString bareRun = QString::number(cli_run::lastJsonLine(bare.out).value("run").toInt());
    const QList<Case> cases{
        {{"filmstrip", "99999"}, 1, "the run library has no run 99999"},
        {{"filmstrip", "seven"}, 1, "RUN is a run's id"},
        {{"filmstrip"}, 2, "needs a run id"},
        {{"filmstrip", bareRun}, 1, "run " + bareRun + " keeps no weights"},
        {{"filmstrip", run(), "--prompt", "\u0416\u0416"}, 1, "no character of the prompt is in the model's vocabulary"},
        {{"filmstrip", run(), "--chars", "10001"}, 1, "--chars must be between 1 and 10000"},
        {{"filmstrip", run(), "--temperature", "-1"}, 1, "--temperature must be between 0 and 100"},
        {{"filmstrip", run(), "--top-k", "3"}, 2, "unknown option --top-k"},
        {{"filmstrip", run(), "--out", dir_.filePath("x.png")}, 1, "--out must name a .html or .txt file"},
    };
    for (const Case& c : cases) {
        const Result r = runCli(c.args);
        QVERIFY2(r.finished && r.exitCode == c.exit, qPrintable(c.args.join(' ') + ": " + describe(r)));
        verifyNoStackTrace(r);
        QVERIFY2(r.err.contains(c.says), qPrintable(c.args.join(' ') + ": " + describe(r)));
        QCOMPARE(r.err.count('\n'), 1);
    }
    // A prompt with some characters the model never saw: they are left out, as sample leaves them.
    const Result partly = runCli({"filmstrip", run(), "--prompt", "ab\u0416", "--chars", "5", "--json"});
    QVERIFY2(succeeded(partly), qPrintable(describe(partly)));
    QVERIFY2(partly.err.contains("left out 1 prompt character(s) the model never saw"), qPrintable(describe(partly)));
    QCOMPARE(cli_run::lastJsonLine(partly.out).value("prompt").toString(), QStringLiteral("ab"));

    // Every kept step damaged (their bytes zeroed in the library): refused,
    // saying why with the first step's reason.
    const Result damaged = runCli({"train", corpus_, "--preset", "tiny", "--steps", "2", "--out", dir_.filePath("d.pt")});
    QVERIFY2(succeeded(damaged), qPrintable(describe(damaged)));
    const int damagedRun = cli_run::lastJsonLine(damaged.out).value("run").toInt();
    sqlite3* db = nullptr;
    QCOMPARE(sqlite3_open(cli_run::runLibraryFile().toUtf8().constData(), &db), SQLITE_OK);
    const QByteArray zero =
        QStringLiteral("UPDATE snapshots SET bytes = zeroblob(length(bytes)) WHERE run = %1").arg(damagedRun).toUtf8();
    QCOMPARE(sqlite3_exec(db, zero.constData(), nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(db);
    const Result none = runCli({"filmstrip", QString::number(damagedRun)});
    QCOMPARE(none.exitCode, 1);
    QVERIFY2(none.err.contains("could be sampled (step 0: ") && none.err.contains("cannot be read"),
             qPrintable(describe(none)));
    QCOMPARE(none.err.count('\n'), 1);
}

CHARGPT_TEST_GUILESS_MAIN(TestCliFilmstrip)
}  // namespace tst_cli_filmstrip
#include "tst_cli_filmstrip.moc"
