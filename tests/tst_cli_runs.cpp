// SPDX-License-Identifier: GPL-3.0-or-later
// What `chargpt train` records in the run library, read back through `chargpt
// runs --json` and SQLite: settings, corpus, every step, the evaluations, the
// checkpoint and how the run ended; the weights kept at steps 0, 1, 2, 4, ...
// (`chargpt snapshots`, RUN@STEP); --no-record; a run killed with SIGKILL
// leaves a sound library with every step it had recorded. Each test program
// records into a data folder of its own (cli_run::dataHome).
#include <QJsonArray>
#include "TestProgram.h"

#include <sqlite3.h>

#include "CliRun.h"

namespace tst_cli_runs {

namespace {

using cli_run::cliExists;
using cli_run::describe;
using cli_run::Result;
using cli_run::runCli;
using cli_run::succeeded;
using cli_run::writeFile;

}  // namespace

class TestCliRuns : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void trainIsRecordedInTheRunLibrary();
    void killedTrainLeavesItsStepsAndASoundLibrary();
    void aRunsWeightsAreKeptAndRead();

private:
    int trainedRun() const { return int(cli_run::lastJsonLine(train_.out).value("run").toInt()); }
    QTemporaryDir dir_;
    QString corpus_;
    QString model_;  // trained 30 steps of the tiny preset, recorded
    Result train_;
};

void TestCliRuns::initTestCase() {
    QVERIFY2(cliExists(), CHARGPT_CLI);
    QVERIFY(dir_.isValid());
    corpus_ = dir_.filePath("corpus.txt");
    QVERIFY(writeFile(corpus_, QByteArray("the quick brown fox jumps over the lazy dog. ab ab ab.\n").repeated(60)));
    model_ = dir_.filePath("m.pt");
    train_ = runCli({"train", corpus_, "--preset", "tiny", "--steps", "30", "--eval-iters", "3", "--out", model_});
}

namespace {

// One value from the run library a test's chargpt runs record into (empty
// when it cannot be read).
QString libraryValue(const char* sql) {
    sqlite3* db = nullptr;
    QString value;
    if (sqlite3_open_v2(cli_run::runLibraryFile().toUtf8().constData(), &db, SQLITE_OPEN_READONLY, nullptr) ==
        SQLITE_OK) {
        sqlite3_stmt* stmt = nullptr;
        if (sqlite3_prepare_v2(db, sql, -1, &stmt, nullptr) == SQLITE_OK && sqlite3_step(stmt) == SQLITE_ROW)
            value = QString::fromUtf8(reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0)));
        sqlite3_finalize(stmt);
    }
    sqlite3_close(db);
    return value;
}
bool libraryExec(const QByteArray& sql) {
    sqlite3* db = nullptr;
    bool done = sqlite3_open_v2(cli_run::runLibraryFile().toUtf8().constData(), &db, SQLITE_OPEN_READWRITE,
                                nullptr) == SQLITE_OK &&
                sqlite3_exec(db, sql.constData(), nullptr, nullptr, nullptr) == SQLITE_OK;
    sqlite3_close(db);
    return done;
}
qint64 libraryNumber(const QByteArray& sql) {
    bool ok = false;
    const qint64 value = libraryValue(sql.constData()).toLongLong(&ok);
    return ok ? value : -1;
}

// The runs `chargpt runs --json` lists, by id.
QMap<int, QJsonObject> listedRuns() {
    const Result r = runCli({"runs", "--json"});
    if (!succeeded(r) || !r.err.isEmpty()) {
        qWarning("%s", qPrintable(describe(r)));
        return {};
    }
    QMap<int, QJsonObject> runs;
    const QJsonObject listing = QJsonDocument::fromJson(r.out.trimmed().toUtf8()).object();
    for (const QJsonValue& run : listing.value("runs").toArray()) runs[run.toObject().value("id").toInt()] = run.toObject();
    return runs;
}

}  // namespace

// `chargpt train` records its run: settings, corpus, every step, the
// evaluations, the checkpoint, how it ended; `runs` lists it; --no-record leaves
// a run out.
void TestCliRuns::trainIsRecordedInTheRunLibrary() {
    const Result& train = train_;
    QVERIFY2(succeeded(train), qPrintable(describe(train)));
    const QJsonObject summary = cli_run::lastJsonLine(train.out);
    QVERIFY2(summary.value("run").isDouble(), qPrintable(train.out));
    const int id = summary.value("run").toInt();
    QVERIFY2(train.err.contains(QStringLiteral("recording this run as run %1").arg(id)), qPrintable(train.err));

    QMap<int, QJsonObject> runs = listedRuns();
    QVERIFY(runs.contains(id));
    const QJsonObject run = runs.value(id);
    QCOMPARE(run.value("origin").toString(), QStringLiteral("cli"));
    QCOMPARE(run.value("preset").toString(), QStringLiteral("tiny"));
    QCOMPARE(run.value("corpus").toString(), corpus_);
    QCOMPARE(run.value("corpus_hash").toString().size(), 16);
    QCOMPARE(run.value("steps").toInt(), 30);
    QCOMPARE(run.value("end_reason").toString(), QStringLiteral("finished"));
    QVERIFY(!run.value("ended").toString().isEmpty());
    QCOMPARE(run.value("val_loss").toDouble(), summary.value("val_loss").toDouble());
    QCOMPARE(run.value("best_val_loss").toDouble(), summary.value("best_val_loss").toDouble());
    QCOMPARE(run.value("settings").toObject().value("max_steps").toInt(), 30);
    QCOMPARE(run.value("settings").toObject().value("eval_iters").toInt(), 3);  // --eval-iters, not the preset's 4
    const QJsonArray checkpoints = run.value("checkpoints").toArray();
    QCOMPARE(checkpoints.size(), 1);
    QCOMPARE(checkpoints[0].toObject().value("path").toString(), QFileInfo(model_).absoluteFilePath());
    QCOMPARE(checkpoints[0].toObject().value("step").toInt(), 30);
    // Every step's loss and every evaluation, the one at step 0 among them.
    const QByteArray where = " WHERE run=" + QByteArray::number(id);
    QCOMPARE(libraryNumber("SELECT count(*) FROM points" + where), qint64(30));
    QCOMPARE(libraryNumber("SELECT min(step) FROM points" + where), qint64(1));
    QCOMPARE(libraryNumber("SELECT min(step) FROM evaluations" + where), qint64(0));
    QCOMPARE(libraryNumber("SELECT max(step) FROM evaluations" + where), qint64(30));
    // The health warnings a run said (the window's runs measure health), in the window's English sentences.
    QCOMPARE(run.value("health_warnings").toArray().size(), 0);
    QVERIFY(libraryExec("INSERT INTO health_warnings VALUES(" + QByteArray::number(id) +
                        ", 812, 2, -1, 40.0, 0, 0)"));
    const QJsonArray warned = listedRuns().value(id).value("health_warnings").toArray();
    QCOMPARE(warned.size(), 1);
    QCOMPARE(warned[0].toObject().value("step").toInt(), 812);
    QCOMPARE(warned[0].toObject().value("kind").toString(), QStringLiteral("loss_spike"));
    QCOMPARE(warned[0].toObject().value("text").toString(),
             QStringLiteral("Loss spike at step 812: the gradient norm is 40x its median."));

    const Result unrecorded = runCli({"train", corpus_, "--preset", "tiny", "--steps", "2", "--no-record", "--out",
                                      dir_.filePath("unrecorded.pt")});
    QVERIFY2(succeeded(unrecorded), qPrintable(describe(unrecorded)));
    QVERIFY(cli_run::lastJsonLine(unrecorded.out).value("run").isNull());
    QCOMPARE(listedRuns().size(), runs.size());

    // A corpus named relative to where chargpt started is recorded by its
    // absolute path: the app, started elsewhere, reads it from there.
    QVERIFY(QDir(dir_.path()).mkpath("sub"));
    QProcess relative;
    relative.setProcessEnvironment(cli_run::cliEnvironment());
    relative.setWorkingDirectory(dir_.path());
    relative.start(QStringLiteral(CHARGPT_CLI),
                   {"train", "./sub/../corpus.txt", "--preset", "tiny", "--steps", "2", "--out", "relative.pt"});
    QVERIFY(relative.waitForFinished(120000));
    const QString relativeOut = QString::fromUtf8(relative.readAllStandardOutput());
    QVERIFY2(relative.exitStatus() == QProcess::NormalExit && relative.exitCode() == 0,
             qPrintable(relativeOut + QString::fromUtf8(relative.readAllStandardError())));
    const int relativeId = cli_run::lastJsonLine(relativeOut).value("run").toInt();
    const QString recorded = listedRuns().value(relativeId).value("corpus").toString();
    QVERIFY2(QFileInfo(recorded).isAbsolute() && !recorded.contains(".."), qPrintable(recorded));
    QCOMPARE(QFileInfo(recorded).canonicalFilePath(), QFileInfo(corpus_).canonicalFilePath());
}

// A training run killed with SIGKILL: the library opens cleanly afterwards,
// `runs` lists the run without an end, and every step it had recorded is kept.
void TestCliRuns::killedTrainLeavesItsStepsAndASoundLibrary() {
    const qint64 before = libraryNumber("SELECT count(*) FROM runs");
    // The killed run's points: those of a run newer than any before it.
    const QByteArray killedPoints =
        "SELECT count(*) FROM points WHERE run > " + QByteArray::number(libraryNumber("SELECT coalesce(max(id), 0) FROM runs"));
    QProcess p;
    p.setProcessEnvironment(cli_run::cliEnvironment());
    p.start(QStringLiteral(CHARGPT_CLI),
            {"train", corpus_, "--preset", "tiny", "--time-limit", "600", "--out", dir_.filePath("killed.pt")});
    QVERIFY(p.waitForStarted(30000));
    // Points are written every two seconds: wait for some.
    qint64 seen = 0;
    QElapsedTimer waited;
    waited.start();
    while (seen < 10 && waited.elapsed() < 120000 && p.state() == QProcess::Running) {
        QTest::qWait(200);
        seen = libraryNumber(killedPoints);
    }
    QVERIFY2(seen >= 10, qPrintable(QString::fromUtf8(p.readAllStandardError())));
    p.kill();  // SIGKILL
    QVERIFY(p.waitForFinished(30000));
    QCOMPARE(p.exitStatus(), QProcess::CrashExit);

    QCOMPARE(libraryValue("PRAGMA integrity_check"), QStringLiteral("ok"));
    const QMap<int, QJsonObject> runs = listedRuns();
    QCOMPARE(runs.size(), int(before) + 1);
    const QJsonObject killed = runs.last();
    QVERIFY(killed.value("ended").isNull());
    QVERIFY(killed.value("steps").toInt() >= 1);
    QVERIFY(libraryNumber(killedPoints) >= seen);
    QVERIFY(!QFileInfo::exists(dir_.filePath("killed.pt")));
}

// The run of initTestCase keeps its weights at steps 0, 1, 2, 4, 8, 16 and
// its last evaluation's (30); `sample RUN@STEP` reads them, the same text
// for the same seed; a step without weights is refused with the steps there
// are; --no-snapshots keeps none.
void TestCliRuns::aRunsWeightsAreKeptAndRead() {
    QVERIFY2(succeeded(train_), qPrintable(describe(train_)));
    const QString run = QString::number(trainedRun());
    const Result listed = runCli({"snapshots", run, "--json"});
    QVERIFY2(succeeded(listed), qPrintable(describe(listed)));
    QList<int> steps;
    for (const QJsonValue v : cli_run::lastJsonLine(listed.out).value("snapshots").toArray())
        steps.append(v.toObject().value("step").toInt());
    QCOMPARE(steps, (QList<int>{0, 1, 2, 4, 8, 16, 30}));

    const QStringList sample{"sample", run + "@16", "--chars", "40", "--seed", "5", "--temperature", "1"};
    const Result first = runCli(sample), second = runCli(sample);
    QVERIFY2(succeeded(first), qPrintable(describe(first)));
    QVERIFY(first.out.size() >= 40);
    QCOMPARE(second.out, first.out);
    const Result early = runCli({"sample", run + "@0", "--chars", "40", "--seed", "5", "--temperature", "1"});
    QVERIFY2(succeeded(early), qPrintable(describe(early)));
    QVERIFY2(early.out != first.out, "step 0's weights are not step 16's");

    const Result missing = runCli({"info", run + "@3"});
    QCOMPARE(missing.exitCode, 1);
    QVERIFY2(missing.err.contains("keeps steps 0, 1, 2, 4, 8, 16, 30"), qPrintable(describe(missing)));
    const Result noRun = runCli({"info", "99999@0"});
    QCOMPARE(noRun.exitCode, 1);
    QVERIFY2(noRun.err.contains("no run 99999"), qPrintable(describe(noRun)));
    // Every id the library can hold is addressed (up to 2^63 - 1), one past is
    // no id; a step past the most the library keeps is refused, never read.
    const Result largest = runCli({"snapshots", "9223372036854775807"});
    QVERIFY2(largest.err.contains("no run 9223372036854775807"), qPrintable(describe(largest)));
    const Result pastLargest = runCli({"snapshots", "9223372036854775808"});
    QVERIFY2(pastLargest.err.contains("RUN is a run's id"), qPrintable(describe(pastLargest)));
    const Result largestAt = runCli({"info", "9223372036854775807@0"});
    QVERIFY2(largestAt.err.contains("no run 9223372036854775807"), qPrintable(describe(largestAt)));
    const Result farStep = runCli({"sample", run + "@1000000000001"});
    QCOMPARE(farStep.exitCode, 1);
    QVERIFY2(farStep.err.contains("STEP in RUN@STEP is at most 1000000000000"), qPrintable(describe(farStep)));

    const Result bare = runCli({"train", corpus_, "--preset", "tiny", "--steps", "3", "--no-snapshots", "--out",
                                dir_.filePath("bare.pt")});
    QVERIFY2(succeeded(bare), qPrintable(describe(bare)));
    const QString bareRun = QString::number(cli_run::lastJsonLine(bare.out).value("run").toInt());
    const Result none = runCli({"snapshots", bareRun, "--json"});
    QVERIFY2(succeeded(none), qPrintable(describe(none)));
    QVERIFY(cli_run::lastJsonLine(none.out).value("snapshots").toArray().isEmpty());
}

CHARGPT_TEST_GUILESS_MAIN(TestCliRuns)
}  // namespace tst_cli_runs
#include "tst_cli_runs.moc"
