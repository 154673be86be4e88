// SPDX-License-Identifier: GPL-3.0-or-later
// The run library given hostile files: a schema of its own under our name, a
// folder that cannot be written, values over the limits, listings past their
// budget, steps and losses outside their range, a run longer than a curve keeps.
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <set>

#include "model/record/RunLibrary.h"
#include "RunLibraryFixtures.h"
#include "TestProgram.h"

namespace tst_runlibrary_hostile {

using namespace chargpt;

namespace {

using namespace runlibrary_fixtures;

}  // namespace

class TestRunLibraryHostile : public QObject {
    Q_OBJECT
private slots:
    void tablesUnderOurNameWithoutAVersionAreSetAside();
    void aReadOnlyFolderStillLists();
    void aValueOverTheLimitLeavesOutOnlyItsRun();
    void aListingStaysWithinItsByteBudget();
    void stepsAndLossesOutOfRangeAreNeitherWrittenNorRead();
    void aLongRunIsThinnedEvenly();
    void settingsPastTheirByteBudgetAreNotParsed();
    void aDamagedLogIsKeptAndSaid();
    void wordsOfAnotherProgramReadAsOther();
};

void TestRunLibraryHostile::tablesUnderOurNameWithoutAVersionAreSetAside() {
    // Our application id, user_version 0 (as if never set up) and a table with
    // a costly CHECK: the library made its own tables beside it, and a later
    // writer's statements ran the file's schema.
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("runs.sqlite")).toStdString();
    QCOMPARE(edit(path, "PRAGMA application_id=1128747092;"
                        "CREATE TABLE points(run, step, loss, learning_rate, tokens, seconds,"
                        " c CHECK (length(hex(zeroblob(400000))) > 0));"),
             QString());
    std::string setAside;
    auto library = RunLibrary::open(path, &setAside);
    QVERIFY2(QString::fromStdString(setAside).contains(
                 QStringLiteral("has a schema that is not the one CharGPT Studio makes")),
             setAside.c_str());
    QCOMPARE(QDir(dir.path()).entryList({QStringLiteral("runs.sqlite.unreadable-*")}, QDir::Files).size(), 1);
    const int64_t run = library->beginRun(someRun("after"));
    QElapsedTimer clock;
    clock.start();
    library->append(run, pointsFrom(1, 1000), {}, RunFigures{});
    QVERIFY2(clock.elapsed() < 250, qPrintable(QStringLiteral("%1 ms").arg(clock.elapsed())));
}

void TestRunLibraryHostile::aReadOnlyFolderStillLists() {
    // A library in a folder that cannot be written (a read-only mount, another
    // user's folder): `chargpt runs` and the Runs tab could not list it at all.
    QTemporaryDir dir;
    QVERIFY(QFile::setPermissions(dir.path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner |
                                                  QFile::ReadGroup | QFile::ExeGroup | QFile::ReadOther |
                                                  QFile::ExeOther));
    const QString folder = dir.filePath(QStringLiteral("lib"));
    const std::string path = (folder + QStringLiteral("/runs.sqlite")).toStdString();
    {
        auto library = RunLibrary::open(path);
        library->beginRun(someRun("one"));
        const int64_t two = library->beginRun(someRun("two"));
        library->append(two, pointsFrom(1, 100), {}, RunFigures{});
    }
    QVERIFY(!QFileInfo::exists(folder + QStringLiteral("/runs.sqlite-wal")));
    QCOMPARE(::chmod(folder.toUtf8().constData(), 0555), 0);
    // In a child that cannot write there: root writes everywhere, so it becomes nobody.
    int report[2];
    QCOMPARE(::pipe(report), 0);
    const pid_t child = ::fork();
    QVERIFY(child >= 0);
    if (child == 0) {
        ::close(report[0]);
        int64_t found[3] = {-1, -1, -1};
        if (::geteuid() == 0 && (::setgid(65534) != 0 || ::setuid(65534) != 0)) ::_exit(3);
        try {
            auto library = RunLibrary::open(path);
            found[0] = int64_t(library->runs().size());
            found[1] = int64_t(library->points(2).size());
            try {
                library->beginRun(someRun("three"));
                found[2] = 0;
            } catch (const Error&) {
                found[2] = 1;  // refused, as a read-only library must
            }
        } catch (const std::exception& e) {
            (void)!::write(report[1], e.what(), std::strlen(e.what()));
            ::_exit(2);
        }
        (void)!::write(report[1], found, sizeof found);
        ::_exit(0);
    }
    ::close(report[1]);
    QByteArray said;
    char buffer[512];
    for (ssize_t n; (n = ::read(report[0], buffer, sizeof buffer)) > 0;) said.append(buffer, int(n));
    ::close(report[0]);
    int status = 0;
    QCOMPARE(::waitpid(child, &status, 0), child);
    QCOMPARE(::chmod(folder.toUtf8().constData(), 0755), 0);
    QVERIFY(WIFEXITED(status));
    QVERIFY2(WEXITSTATUS(status) == 0, said.constData());
    QCOMPARE(said.size(), int(3 * sizeof(int64_t)));
    const auto* found = reinterpret_cast<const int64_t*>(said.constData());
    QCOMPARE(found[0], int64_t(2));
    QCOMPARE(found[1], int64_t(100));
    QCOMPARE(found[2], int64_t(1));
    // Nothing was set aside or left behind.
    QCOMPARE(QDir(folder).entryList(QDir::Files), QStringList{QStringLiteral("runs.sqlite")});
}

void TestRunLibraryHostile::aValueOverTheLimitLeavesOutOnlyItsRun() {
    // One value over 1 MiB made every listing fail ("string or blob too big"):
    // no run of the library was shown, and it was not set aside.
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("runs.sqlite")).toStdString();
    {
        auto library = RunLibrary::open(path);
        for (const char* name : {"one", "two", "three"}) library->beginRun(someRun(name));
        library->addCheckpoint(3, 10, "/tmp/three-10.pt");
        library->addCheckpoint(3, 20, "/tmp/three-20.pt");
        library->append(2, pointsFrom(1, 10), {}, RunFigures{});
    }
    QCOMPARE(edit(path, "UPDATE runs SET settings = hex(zeroblob(1048576)) WHERE id = 2;"
                        "UPDATE checkpoints SET path = hex(zeroblob(1048576)) WHERE step = 20;"),
             QString());
    std::string setAside;
    auto library = RunLibrary::open(path, &setAside);
    QVERIFY2(setAside.empty(), setAside.c_str());
    std::string leftOut;
    const std::vector<RunRecord> runs = library->runs(&leftOut);
    QCOMPARE(int(runs.size()), 2);
    QCOMPARE(runs[0].id, int64_t(3));
    QCOMPARE(runs[1].id, int64_t(1));
    QCOMPARE(int(runs[0].checkpoints.size()), 1);
    QCOMPARE(runs[0].checkpoints[0].second, std::string("/tmp/three-10.pt"));
    QVERIFY2(QString::fromStdString(leftOut).contains(QStringLiteral("1 run")), leftOut.c_str());
    QVERIFY2(QString::fromStdString(leftOut).contains(QStringLiteral("1 checkpoint")), leftOut.c_str());
    QVERIFY2(QString::fromStdString(leftOut).contains(QStringLiteral("1 MiB")), leftOut.c_str());
    QVERIFY(!library->run(2));
    QVERIFY(library->run(3));
    QCOMPARE(int(library->points(2).size()), 10);
    // A sound library says nothing.
    library->remove(2);
    leftOut = "unchanged";
    (void)library->runs(&leftOut);
    QVERIFY2(QString::fromStdString(leftOut).contains(QStringLiteral("1 checkpoint")), leftOut.c_str());
    QCOMPARE(edit(path, "DELETE FROM checkpoints WHERE step = 20"), QString());
    (void)library->runs(&leftOut);
    QVERIFY2(leftOut.empty(), leftOut.c_str());
}

void TestRunLibraryHostile::aListingStaysWithinItsByteBudget() {
    // 70 runs of settings just under 1 MiB each: a listing holds at most
    // 64 MiB of text, the newest runs, and says how many older ones it left.
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("runs.sqlite")).toStdString();
    {
        auto library = RunLibrary::open(path);
        for (int i = 0; i < 70; ++i) library->beginRun(someRun("run"));
    }
    QCOMPARE(edit(path, "UPDATE runs SET settings = hex(zeroblob(500000))"), QString());
    auto library = RunLibrary::open(path);
    std::string leftOut;
    QElapsedTimer clock;
    clock.start();
    const std::vector<RunRecord> runs = library->runs(&leftOut);
    QVERIFY2(clock.elapsed() < 5000, qPrintable(QStringLiteral("%1 ms").arg(clock.elapsed())));
    int64_t bytes = 0;
    for (const RunRecord& r : runs) bytes += int64_t(r.start.settingsJson.size());
    QVERIFY2(bytes <= RunLibrary::kMaxListedBytes, qPrintable(QString::number(bytes)));
    QVERIFY2(runs.size() >= 60 && runs.size() < 70, qPrintable(QString::number(runs.size())));
    QCOMPARE(runs.front().id, int64_t(70));
    QCOMPARE(runs.back().id, int64_t(70 - runs.size() + 1));
    const QString expected = QStringLiteral("the %1 oldest runs").arg(70 - runs.size());
    QVERIFY2(QString::fromStdString(leftOut).contains(expected), leftOut.c_str());
}

void TestRunLibraryHostile::stepsAndLossesOutOfRangeAreNeitherWrittenNorRead() {
    // Steps of INT64_MIN and INT64_MAX made a plot's axis span -9.2e18..9.2e18;
    // a time of 1e308 s printed as a negative length; a step of 2.5 was read
    // as a second step 2 (a curve's steps must increase for the lookups on it);
    // 1e308 tokens/s printed as a number of 309 digits, which cut the line, and
    // negative counts as they were.
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("runs.sqlite")).toStdString();
    auto library = RunLibrary::open(path);
    const int64_t run = library->beginRun(someRun("hostile"));
    constexpr int64_t lowest = std::numeric_limits<int64_t>::min(), highest = std::numeric_limits<int64_t>::max();
    const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
    std::vector<RunPoint> points = pointsFrom(1, 3);
    for (int64_t step : {lowest, int64_t(-1), RunLibrary::kMaxStep + 1, highest})
        points.push_back({step, 1.0, 1e-3, 0, 0.0});
    points.push_back({4, nan, 1e-3, 0, 0.0});
    points.push_back({5, inf, 1e-3, 0, 0.0});
    library->append(run, points, {{lowest, 1.0, 1.0, 0.0}, {10, 2.0, 2.5, 1.0}, {highest, 1.0, 1.0, 0.0}},
                    RunFigures{});
    QCOMPARE(edit(path, "INSERT OR REPLACE INTO points VALUES(1, -9223372036854775808, 1.0, 0, 0, 0);"
                        "INSERT OR REPLACE INTO points VALUES(1, 9223372036854775807, 1.0, 0, 0, 0);"
                        "INSERT OR REPLACE INTO points VALUES(1, 6, 9e999, 0, 0, 0);"
                        "INSERT OR REPLACE INTO points VALUES(1, 7, -9e999, 0, 0, 0);"
                        "INSERT OR REPLACE INTO points VALUES(1, 8, 'high', 0, 0, 0);"
                        "INSERT OR REPLACE INTO points VALUES(1, 2.5, 1.0, 0, 0, 0);"
                        "INSERT OR REPLACE INTO evaluations VALUES(1, 10.5, 1, 1, 0);"
                        "INSERT OR REPLACE INTO points VALUES(1, 9, 1.0, 0, -1, 0);"
                        "INSERT OR REPLACE INTO points VALUES(1, 12, 1.0, 0, 0, 1e308);"
                        "INSERT OR REPLACE INTO evaluations VALUES(1, 12, 1, 1, -9e999);"
                        "INSERT OR REPLACE INTO evaluations VALUES(1, 11, 9e999, NULL, 0);"
                        "INSERT OR REPLACE INTO evaluations VALUES(1, 9223372036854775807, 1, 1, 0);"
                        "UPDATE runs SET steps = -9223372036854775808, first_step = 9223372036854775807,"
                        " best_step = -5, seconds = 1e308, tokens_per_second = 1e308, last_train_loss = -9e999,"
                        " last_val_loss = 1e308, best_val_loss = 2.5, tokens = -5,"
                        " corpus_bytes = -9223372036854775808, parameters = -1"),
             QString());
    const std::vector<RunPoint> read = library->points(run);
    QCOMPARE(int(read.size()), 3);
    for (int i = 0; i < 3; ++i) QCOMPARE(read[std::size_t(i)].step, int64_t(i + 1));
    const std::vector<RunEvaluation> evaluations = library->evaluations(run);
    QCOMPARE(int(evaluations.size()), 1);
    QCOMPARE(evaluations[0].step, int64_t(10));
    const RunRecord r = library->runs().at(0);
    QCOMPARE(r.figures.step, int64_t(0));
    QCOMPARE(r.start.firstStep, int64_t(0));
    QVERIFY(!r.figures.bestStep);
    QVERIFY(std::isnan(r.figures.elapsedSeconds));
    QVERIFY(std::isnan(r.figures.tokensPerSecond));
    QVERIFY(std::isnan(r.figures.lastTrainLoss));
    QVERIFY(std::isnan(r.figures.lastValLoss));
    QVERIFY(std::isnan(r.figures.bestValLoss));
    QCOMPARE(r.figures.tokensSeen, int64_t(0));
    QCOMPARE(r.start.corpusBytes, int64_t(0));
    QCOMPARE(r.start.parameters, int64_t(0));
    // A best loss of 1e308 at a real step is no figure either.
    QCOMPARE(edit(path, "UPDATE runs SET best_step = 10, best_val_loss = 1e308, tokens_per_second = 9e999"), QString());
    const RunRecord again = library->runs().at(0);
    QCOMPARE(again.figures.bestStep, std::optional<int64_t>(10));
    QVERIFY(std::isnan(again.figures.bestValLoss));
    QVERIFY(std::isnan(again.figures.tokensPerSecond));
}

void TestRunLibraryHostile::aLongRunIsThinnedEvenly() {
    // A run of 1.5 million steps (or a file claiming one): a curve keeps at
    // most a million points, every n-th step and the last, in step order.
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("runs.sqlite")).toStdString();
    auto library = RunLibrary::open(path);
    const int64_t run = library->beginRun(someRun("long"));
    constexpr int64_t kSteps = 1500001;
    library->append(run, pointsFrom(1, kSteps), {}, RunFigures{});
    const std::vector<RunPoint> points = library->points(run);
    QVERIFY2(int64_t(points.size()) <= RunLibrary::kMaxReadPoints, qPrintable(QString::number(points.size())));
    QVERIFY2(points.size() >= 700000, qPrintable(QString::number(points.size())));
    QCOMPARE(points.front().step, int64_t(1));
    QCOMPARE(points.back().step, kSteps);
    const int64_t gap = points[1].step - points[0].step;
    for (std::size_t i = 1; i + 1 < points.size(); ++i) QCOMPARE(points[i].step - points[i - 1].step, gap);
    QCOMPARE(points[7].loss, 4.0 - 1e-6 * double(points[7].step));
}

void TestRunLibraryHostile::settingsPastTheirByteBudgetAreNotParsed() {
    // A run's settings are about 600 bytes; 1 MiB of numbers in one array (a
    // valid object, within the key and depth budgets) was parsed whole, a
    // document of 500,000 values for each run of a listing.
    std::string numbers = R"({"config": {"emb_size": 128, "x": [0)";
    for (int i = 0; i < 500000; ++i) numbers += ",0";
    numbers += "]}}";
    QVERIFY(settingsFields(numbers).empty());
    // Just under the budget, a long value still reads.
    const std::string padded = R"({"config": {"emb_size": 128, "note": ")" + std::string(60000, 'x') + "\"}}";
    const auto fields = settingsFields(padded);
    QCOMPARE(fields.size(), std::size_t(2));
    QCOMPARE(fields[0].second, std::string("128"));
}

void TestRunLibraryHostile::aDamagedLogIsKeptAndSaid() {
    // Runs committed to the write-ahead log, its header then damaged: SQLite
    // ignores such a log, so they vanished without a word and the next write
    // overwrote them (taking their ids again). Now a copy of the library and
    // its log is kept, and the message says where.
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("runs.sqlite")).toStdString();
    RunLibrary::open(path)->beginRun(someRun("checkpointed"));
    {
        // A writer that leaves its log behind, as one killed would.
        sqlite3* db = nullptr;
        QCOMPARE(sqlite3_open(path.c_str(), &db), SQLITE_OK);
        QCOMPARE(sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, nullptr), SQLITE_OK);
        QCOMPARE(sqlite3_exec(db, "INSERT INTO runs(name, origin, preset, settings, corpus_name, corpus_bytes,"
                                  " corpus_hash, parameters, seed, first_step, started) VALUES('in the log', 'cli',"
                                  " '', '{}', 'c', 1, 'h', 1, 1, 0, '2026-12-02T09:15:00Z')",
                              nullptr, nullptr, nullptr),
                 SQLITE_OK);
        sqlite3_close(db);
    }
    const QString wal = QString::fromStdString(path + "-wal");
    QFile log(wal);
    QVERIFY(log.open(QIODevice::ReadWrite));
    QVERIFY(log.size() > 32);
    QVERIFY(log.seek(9));
    QVERIFY(log.write("\x7f", 1) == 1);  // the page size
    log.close();
    QFile damaged(wal);
    QVERIFY(damaged.open(QIODevice::ReadOnly));
    const QByteArray before = damaged.readAll();
    damaged.close();

    std::string said;
    auto library = RunLibrary::open(path, &said);
    QVERIFY2(QString::fromStdString(said).contains(QStringLiteral("damaged write-ahead log")), said.c_str());
    const QStringList kept = QDir(dir.path()).entryList({QStringLiteral("runs.sqlite.unreadable-*-wal")}, QDir::Files);
    QCOMPARE(kept.size(), 1);
    QVERIFY2(QString::fromStdString(said).contains(kept.first().chopped(4)), said.c_str());
    QFile copy(dir.filePath(kept.first()));
    QVERIFY(copy.open(QIODevice::ReadOnly));
    QCOMPARE(copy.readAll(), before);
    // The library goes on with what its file holds.
    QCOMPARE(int(library->runs().size()), 1);
    QVERIFY(library->beginRun(someRun("after")) > 0);
    // Said once: the log is sound again.
    library.reset();
    RunLibrary::open(path, &said);
    QVERIFY2(said.empty(), said.c_str());
}

// The end reason and origin are words in the file: ours read back as what they
// mean; any other text (another program's, a later version's) as Other with the
// text kept to be shown, and an empty end reason as none.
void TestRunLibraryHostile::wordsOfAnotherProgramReadAsOther() {
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("runs.sqlite")).toStdString();
    auto library = RunLibrary::open(path);
    RunStart start = someRun("ours");
    start.origin = RunOrigin::Bench;
    const int64_t ours = library->beginRun(start);
    library->endRun(ours, EndReason::TimeLimit, RunFigures{});
    const int64_t theirs = library->beginRun(someRun("theirs"));
    const int64_t running = library->beginRun(someRun("running"));
    QCOMPARE(edit(path, ("UPDATE runs SET origin = 'robot', ended = '2026-12-02T09:15:00Z', end_reason = 'exploded'"
                         " WHERE id = " + std::to_string(theirs) + ";"
                         "UPDATE runs SET end_reason = '' WHERE id = " + std::to_string(running))
                            .c_str()),
             QString());
    std::map<int64_t, RunRecord> byId;
    for (const RunRecord& r : library->runs()) byId[r.id] = r;
    QVERIFY(byId.at(ours).start.origin == RunOrigin::Bench);
    QCOMPARE(byId.at(ours).originText, std::string("bench"));
    QCOMPARE(byId.at(ours).endReason, std::optional<EndReason>(EndReason::TimeLimit));
    QCOMPARE(byId.at(ours).endReasonText, std::string("time limit"));
    QVERIFY(byId.at(theirs).start.origin == RunOrigin::Other);
    QCOMPARE(byId.at(theirs).originText, std::string("robot"));
    QCOMPARE(byId.at(theirs).endReason, std::optional<EndReason>(EndReason::Other));
    QCOMPARE(byId.at(theirs).endReasonText, std::string("exploded"));
    QVERIFY(!byId.at(running).endReason);
    // Every word of ours reads back as itself (the trainer's, the window's
    // and the library's one EndReason).
    for (const EndReason reason : {EndReason::Finished, EndReason::TimeLimit, EndReason::Stopped,
                                   EndReason::NonFiniteLoss, EndReason::Error})
        QVERIFY(endReasonFromString(toString(reason)) == reason);
    for (const RunOrigin origin : {RunOrigin::App, RunOrigin::Cli, RunOrigin::Bench})
        QVERIFY(runOriginFromString(toString(origin)) == origin);
}

CHARGPT_TEST_GUILESS_MAIN(TestRunLibraryHostile)
}  // namespace tst_runlibrary_hostile
#include "tst_runlibrary_hostile.moc"
