// SPDX-License-Identifier: GPL-3.0-or-later
// The run library: what a run leaves in it, a killed writer, a damaged or newer
// file set aside, two writers at once.
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <thread>

#include "model/record/RunLibrary.h"
#include "RunLibraryFixtures.h"
#include "TestProgram.h"

namespace tst_runlibrary {

using namespace chargpt;
using runlibrary_fixtures::integrity;

namespace {

RunStart someRun(const std::string& name) {
    RunStart start;
    start.name = name;
    start.origin = RunOrigin::Cli;
    start.preset = "tiny";
    start.settingsJson = R"({"format":"chargpt-config"})";
    start.corpusName = "builtin:tang300";
    start.corpusBytes = 29577;
    start.corpusHash = corpusFingerprint({U"床前明月光"});
    start.parameters = 1234;
    start.seed = 7;
    return start;
}

std::vector<RunPoint> pointsFrom(int64_t first, int count) {
    std::vector<RunPoint> points;
    for (int64_t step = first; step < first + count; ++step)
        points.push_back({step, 4.0 - 0.001 * double(step), 1e-3, step * 2048, 0.01 * double(step)});
    return points;
}

QStringList filesIn(const QString& folder) { return QDir(folder).entryList(QDir::Files, QDir::Name); }

}  // namespace

class TestRunLibrary : public QObject {
    Q_OBJECT
private slots:
    void recordsARunAndListsIt();
    void killedWriterLosesOnlyItsLastBatch();
    void damagedFileIsSetAside_data();
    void damagedFileIsSetAside();
    void unusablePlaceIsRefusedWithAMessage();
    void twoWritersAtOnce();
    void aHeldLockIsBusyNotAFailure();
    void fingerprintFollowsTheText();
    void settingsFieldsOfHostileText();
    void foreignSchemaIsSetAside_data();
    void foreignSchemaIsSetAside();
    void aLinkAboveTheLibraryIsFollowed();
    void settingsOfManyKeysAreSkippedQuickly();
};

void TestRunLibrary::recordsARunAndListsIt() {
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("data/runs.sqlite")).toStdString();  // folder made
    std::string setAside = "unchanged";
    auto library = RunLibrary::open(path, &setAside);
    QVERIFY(library);
    QVERIFY(setAside.empty());
    const int64_t first = library->beginRun(someRun("first"));
    const int64_t second = library->beginRun(someRun("second"));
    QVERIFY(second > first);

    RunFigures figures;
    figures.step = 300;
    figures.tokensSeen = 300 * 2048;
    figures.bestStep = 250;
    figures.bestValLoss = 2.5;
    figures.lastValLoss = 2.6;
    figures.tokensPerSecond = 50000;
    library->append(first, pointsFrom(1, 200), {{0, 4.1, 4.2, 0.0}, {100, 3.0, 3.1, 1.0}}, figures);
    library->append(first, pointsFrom(201, 100), {{250, 2.4, 2.5, 2.5}, {300, 2.3, 2.6, 3.0}}, figures);
    library->addCheckpoint(first, 300, "/tmp/first.pt");
    library->endRun(first, EndReason::Finished, figures);
    library->rename(second, "renamed");

    // A second connection, as the app reading what the CLI wrote.
    auto reader = RunLibrary::open(path);
    const std::vector<RunRecord> runs = reader->runs();
    QCOMPARE(int(runs.size()), 2);
    QCOMPARE(runs[0].id, second);  // newest first
    QCOMPARE(runs[0].start.name, std::string("renamed"));
    QVERIFY(runs[0].ended.empty());
    const RunRecord& r = runs[1];
    QCOMPARE(r.start.name, std::string("first"));
    QCOMPARE(r.start.corpusName, std::string("builtin:tang300"));
    QCOMPARE(r.start.corpusBytes, int64_t(29577));
    QCOMPARE(r.start.corpusHash, corpusFingerprint({U"床前明月光"}));
    QCOMPARE(r.start.settingsJson, someRun("").settingsJson);
    QCOMPARE(r.start.seed, uint64_t(7));
    QCOMPARE(r.endReason, std::optional<EndReason>(EndReason::Finished));
    QCOMPARE(r.endReasonText, std::string("finished"));  // the word stored, as before
    QVERIFY(r.start.origin == RunOrigin::Cli);
    QCOMPARE(r.originText, std::string("cli"));
    QVERIFY(!r.ended.empty() && !r.started.empty());
    QCOMPARE(r.figures.step, int64_t(300));
    QCOMPARE(r.figures.bestStep, std::optional<int64_t>(250));
    QCOMPARE(r.figures.bestValLoss, 2.5);
    QCOMPARE(int(r.checkpoints.size()), 1);
    QCOMPARE(r.checkpoints[0].second, std::string("/tmp/first.pt"));
    QVERIFY(!runs[0].figures.bestStep);  // none: best_step stays NULL
    QVERIFY(std::isnan(runs[0].figures.bestValLoss));

    const std::vector<RunPoint> points = reader->points(first);
    QCOMPARE(int(points.size()), 300);
    QCOMPARE(points.front().step, int64_t(1));
    QCOMPARE(points.back().step, int64_t(300));
    QCOMPARE(points[41].loss, 4.0 - 0.001 * 42);
    QCOMPARE(int(reader->evaluations(first).size()), 4);
    QCOMPARE(reader->evaluations(first)[1].valLoss, 3.1);
    QVERIFY(reader->points(second).empty());

    library->remove(first);
    QCOMPARE(int(reader->runs().size()), 1);
    QVERIFY(reader->points(first).empty());
    QVERIFY(!reader->run(first));
}

// A writer killed with SIGKILL between batches and in the middle of them: every
// batch it had committed is there, nothing of the one it was writing, and the
// file is sound.
void TestRunLibrary::killedWriterLosesOnlyItsLastBatch() {
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("runs.sqlite")).toStdString();
    const int64_t run = RunLibrary::open(path)->beginRun(someRun("killed"));
    // Batches of 500 points, each one transaction, until it is killed.
    const int done = runlibrary_fixtures::killedWriter(path, 20, [run](RunLibrary& library, int batch) {
        library.append(run, pointsFrom(1 + 500 * int64_t(batch), 500), {}, RunFigures{});
    });
    QVERIFY(done >= 20);

    QCOMPARE(integrity(path), QStringLiteral("ok"));
    std::string setAside;
    auto library = RunLibrary::open(path, &setAside);
    QVERIFY2(setAside.empty(), setAside.c_str());
    const std::vector<RunPoint> points = library->points(run);
    // Every committed batch, whole; at most the batch being written when it died more.
    QVERIFY2(int(points.size()) >= 500 * done && int(points.size()) <= 500 * (done + 1),
             qPrintable(QStringLiteral("%1 points, %2 batches committed").arg(points.size()).arg(done)));
    QCOMPARE(int(points.size()) % 500, 0);
    for (std::size_t i = 0; i < points.size(); ++i) QCOMPARE(points[i].step, int64_t(i + 1));
    // And it takes the next run.
    QVERIFY(library->beginRun(someRun("after")) > run);
}

void TestRunLibrary::damagedFileIsSetAside_data() {
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("said");
    QTest::newRow("text") << QByteArray("these are not the runs you are looking for\n").repeated(200)
                          << QStringLiteral("is not a run library");
    QTest::newRow("header only") << QByteArray("SQLite format 3\0", 16) + QByteArray(84, '\xff')
                                 << QStringLiteral("is not a run library");
    QTest::newRow("later version") << QByteArray() << QStringLiteral("later version");
    QTest::newRow("another program") << QByteArray() << QStringLiteral("another program");
    QTest::newRow("damaged pages") << QByteArray() << QStringLiteral("damaged");
}

void TestRunLibrary::damagedFileIsSetAside() {
    QFETCH(QByteArray, content);
    QFETCH(QString, said);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("runs.sqlite"));
    const std::string p = path.toStdString();
    const QByteArray tag = QTest::currentDataTag();
    if (tag == "later version" || tag == "damaged pages") {
        {
            auto library = RunLibrary::open(p);
            const int64_t run = library->beginRun(someRun("old"));
            for (int b = 0; b < 20; ++b) library->append(run, pointsFrom(1 + 500 * b, 500), {}, RunFigures{});
        }
        sqlite3* db = nullptr;
        QCOMPARE(sqlite3_open(p.c_str(), &db), SQLITE_OK);
        if (tag == "later version") {
            QCOMPARE(sqlite3_exec(db, "PRAGMA user_version=99", nullptr, nullptr, nullptr), SQLITE_OK);
        } else {
            QCOMPARE(sqlite3_exec(db, "PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode=DELETE", nullptr, nullptr,
                                  nullptr),
                     SQLITE_OK);
        }
        sqlite3_close(db);
        if (tag == "damaged pages") {
            // Garbage over every page after the first: the schema is there, its tables are not.
            QFile file(path);
            QVERIFY(file.open(QIODevice::ReadWrite));
            const qint64 size = file.size();
            QVERIFY(size > 16384);
            QVERIFY(file.seek(4096));
            QVERIFY(file.write(QByteArray(int(size - 4096), '\x5a')) == size - 4096);
        }
    } else if (tag == "another program") {
        sqlite3* db = nullptr;
        QCOMPARE(sqlite3_open(p.c_str(), &db), SQLITE_OK);
        QCOMPARE(sqlite3_exec(db, "CREATE TABLE runs(x); INSERT INTO runs VALUES(1)", nullptr, nullptr, nullptr),
                 SQLITE_OK);
        sqlite3_close(db);
    } else {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(content);
    }
    QFile original(path);
    QVERIFY(original.open(QIODevice::ReadOnly));
    const QByteArray before = original.readAll();
    original.close();

    std::string setAside;
    auto library = RunLibrary::open(p, &setAside);
    QVERIFY(library);
    QVERIFY2(QString::fromStdString(setAside).contains(said), setAside.c_str());
    // The new library works, and the old file is kept, byte for byte, under the name the message gives.
    QVERIFY(library->beginRun(someRun("new")) > 0);
    QCOMPARE(int(library->runs().size()), 1);
    const QStringList aside = filesIn(dir.path()).filter(QStringLiteral("runs.sqlite.unreadable-"));
    QCOMPARE(aside.size(), 1);
    QVERIFY2(QString::fromStdString(setAside).contains(aside.first()), setAside.c_str());
    QFile kept(dir.filePath(aside.first()));
    QVERIFY(kept.open(QIODevice::ReadOnly));
    QCOMPARE(kept.readAll(), before);
}

void TestRunLibrary::unusablePlaceIsRefusedWithAMessage() {
    QTemporaryDir dir;
    // A folder where the file should be: left as it is, and the caller told why.
    QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("runs.sqlite")));
    try {
        RunLibrary::open(dir.filePath(QStringLiteral("runs.sqlite")).toStdString());
        QFAIL("a folder was taken for a run library");
    } catch (const Error& e) {
        QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("run library")), e.what());
    }
    QVERIFY(QFileInfo(dir.filePath(QStringLiteral("runs.sqlite"))).isDir());
    // A symbolic link is not followed.
    QFile target(dir.filePath(QStringLiteral("elsewhere")));
    QVERIFY(target.open(QIODevice::WriteOnly));
    target.close();
    QVERIFY(QFile::link(target.fileName(), dir.filePath(QStringLiteral("link.sqlite"))));
    QVERIFY_THROWS_EXCEPTION(Error, RunLibrary::open(dir.filePath(QStringLiteral("link.sqlite")).toStdString()));
    QCOMPARE(QFileInfo(target.fileName()).size(), 0);
}

// Two runs recorded at once, from two connections on two threads and from a
// second process: each batch lands whole, none is lost.
void TestRunLibrary::twoWritersAtOnce() {
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("runs.sqlite")).toStdString();
    RunLibrary::open(path);
    constexpr int kBatches = 40, kBatch = 250;
    auto write = [&](int64_t* run) {
        auto library = RunLibrary::open(path);
        *run = library->beginRun(someRun("writer"));
        for (int b = 0; b < kBatches; ++b)
            library->append(*run, pointsFrom(1 + int64_t(kBatch) * b, kBatch), {{int64_t(kBatch) * b, 1, 2, 0}},
                            RunFigures{});
    };
    const pid_t child = ::fork();
    QVERIFY(child >= 0);
    if (child == 0) {
        int64_t run = 0;
        try {
            write(&run);
        } catch (...) {
            ::_exit(2);
        }
        ::_exit(0);
    }
    int64_t a = 0, b = 0;
    std::thread first(write, &a);
    std::thread second(write, &b);
    first.join();
    second.join();
    int status = 0;
    QCOMPARE(::waitpid(child, &status, 0), child);
    QVERIFY(WIFEXITED(status));
    QCOMPARE(WEXITSTATUS(status), 0);

    auto library = RunLibrary::open(path);
    const std::vector<RunRecord> runs = library->runs();
    QCOMPARE(int(runs.size()), 3);
    for (const RunRecord& r : runs) {
        QCOMPARE(int(library->points(r.id).size()), kBatches * kBatch);
        QCOMPARE(int(library->evaluations(r.id).size()), kBatches);
    }
    QCOMPARE(integrity(path), QStringLiteral("ok"));
}

void TestRunLibrary::aHeldLockIsBusyNotAFailure() {
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("runs.sqlite")).toStdString();
    auto library = RunLibrary::open(path);
    const int64_t run = library->beginRun(someRun("waiting"));
    sqlite3* other = nullptr;
    QCOMPARE(sqlite3_open(path.c_str(), &other), SQLITE_OK);
    QCOMPARE(sqlite3_exec(other, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr), SQLITE_OK);
    library->setBusyTimeout(50);
    QVERIFY_THROWS_EXCEPTION(RunLibraryBusy, library->append(run, pointsFrom(1, 10), {}, RunFigures{}));
    // Readers are not held up by the writer.
    QCOMPARE(int(library->runs().size()), 1);
    QCOMPARE(sqlite3_exec(other, "COMMIT", nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(other);
    library->append(run, pointsFrom(1, 10), {}, RunFigures{});
    QCOMPARE(int(library->points(run).size()), 10);
}

void TestRunLibrary::fingerprintFollowsTheText() {
    const std::string a = corpusFingerprint({U"abc"});
    QCOMPARE(a.size(), std::size_t(16));
    QCOMPARE(corpusFingerprint({U"abc"}), a);
    QVERIFY(corpusFingerprint({U"abd"}) != a);
    QVERIFY(corpusFingerprint({U"ab", U"c"}) != a);
    QVERIFY(corpusFingerprint({U"a", U"bc"}) != corpusFingerprint({U"ab", U"c"}));
    // No text at all: FNV-1a's offset basis.
    QCOMPARE(corpusFingerprint({}), std::string("cbf29ce484222325"));
}

void TestRunLibrary::settingsFieldsOfHostileText() {
    const auto fields = settingsFields(R"({"format":"chargpt-config","version":1,"config":{"emb_size":128,)"
                                       R"("learning_rate":0.005,"bf16":true,"nested":{"x":1}}})");
    QCOMPARE(int(fields.size()), 3);  // the nested object is no setting
    QCOMPARE(fields[0].first, std::string("emb_size"));
    QCOMPARE(fields[0].second, std::string("128"));
    QCOMPARE(fields[1].second, std::string("0.005"));
    QCOMPARE(fields[2].second, std::string("true"));
    // Deep nesting is refused while parsing (a million brackets build nothing).
    const std::string deep = R"({"config":)" + std::string(1000000, '[') + std::string(1000000, ']') + "}";
    QVERIFY(settingsFields(deep).empty());
    for (const char* bad : {"", "null", "[1,2]", "{\"config\": 3}", "{\"config\": {\"a\": 1}", "\xff\xfe"})
        QVERIFY2(settingsFields(bad).empty(), bad);
}

void TestRunLibrary::foreignSchemaIsSetAside_data() {
    QTest::addColumn<QString>("change");
    // SQLite runs a file's own schema with every statement, whatever its
    // defensive settings: a CHECK costing 1 ms a row made each of the training
    // thread's inserts take seconds; generated columns made a listing 1.9 GB.
    QTest::newRow("a costly CHECK constraint")
        << "ALTER TABLE points ADD COLUMN c INTEGER CHECK (length(hex(zeroblob(400000))) > 0)";
    QTest::newRow("a generated column")
        << "ALTER TABLE runs ADD COLUMN g TEXT GENERATED ALWAYS AS (hex(zeroblob(400000))) VIRTUAL";
    QTest::newRow("an index on an expression") << "CREATE INDEX by_length ON runs(length(name))";
    QTest::newRow("a trigger") << "CREATE TRIGGER noted AFTER INSERT ON points BEGIN SELECT 1; END";
    QTest::newRow("a view") << "CREATE VIEW everything AS SELECT * FROM runs";
    QTest::newRow("another table") << "CREATE TABLE extra(x)";
}

void TestRunLibrary::foreignSchemaIsSetAside() {
    QFETCH(QString, change);
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("runs.sqlite")).toStdString();
    RunLibrary::open(path)->beginRun(someRun("before"));
    sqlite3* db = nullptr;
    QCOMPARE(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    char* error = nullptr;
    const int rc = sqlite3_exec(db, change.toUtf8().constData(), nullptr, nullptr, &error);
    const QString why = error ? QString::fromUtf8(error) : QString();
    sqlite3_free(error);
    sqlite3_close(db);
    QVERIFY2(rc == SQLITE_OK, qPrintable(why));

    std::string setAside;
    auto library = RunLibrary::open(path, &setAside);
    QVERIFY2(QString::fromStdString(setAside).contains(
                 QStringLiteral("has a schema that is not the one CharGPT Studio makes")),
             setAside.c_str());
    QVERIFY2(QString::fromStdString(setAside).contains(QStringLiteral("moved to")), setAside.c_str());
    QCOMPARE(filesIn(dir.path()).filter(QStringLiteral("runs.sqlite.unreadable-")).size(), 1);
    QVERIFY(library->runs().empty());
    // A batch of the training thread's: well within the 250 ms the recorder allows.
    const int64_t run = library->beginRun(someRun("after"));
    QElapsedTimer clock;
    clock.start();
    library->append(run, pointsFrom(1, 1000), {}, RunFigures{});
    QVERIFY2(clock.elapsed() < 250, qPrintable(QStringLiteral("%1 ms").arg(clock.elapsed())));
    QCOMPARE(library->runs().size(), std::size_t(1));
}

void TestRunLibrary::aLinkAboveTheLibraryIsFollowed() {
    // A home folder (or ~/.local/share) reached through a symbolic link: runs
    // are recorded; only the file itself must not be a link.
    QTemporaryDir dir;
    QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("real")));
    QVERIFY(QFile::link(dir.filePath(QStringLiteral("real")), dir.filePath(QStringLiteral("home"))));
    const std::string path = dir.filePath(QStringLiteral("home/CharGPT/runs.sqlite")).toStdString();
    std::string setAside;
    auto library = RunLibrary::open(path, &setAside);
    QVERIFY2(setAside.empty(), setAside.c_str());
    QCOMPARE(library->path(), path);
    library->beginRun(someRun("through a link"));
    library.reset();
    QVERIFY(QFileInfo::exists(dir.filePath(QStringLiteral("real/CharGPT/runs.sqlite"))));
    QCOMPARE(RunLibrary::open(path)->runs().size(), std::size_t(1));
}

void TestRunLibrary::settingsOfManyKeysAreSkippedQuickly() {
    // 55,000 keys (a 1 MB value): the listing read them one by one, each
    // looked up among those before it (over a minute for a library of them).
    std::string json = R"({"config": {"emb_size": 128, "n_layer": 2)";
    for (int i = 0; i < 55000; ++i) json += ",\"k" + std::to_string(i) + "\": 1";
    json += "}}";
    QElapsedTimer clock;
    clock.start();
    const auto fields = settingsFields(json);
    QVERIFY2(clock.elapsed() < 1000, qPrintable(QStringLiteral("%1 ms").arg(clock.elapsed())));
    QVERIFY(fields.empty());
    // A run's own settings still read, in their order.
    const auto own = settingsFields(R"({"config": {"emb_size": 128, "n_layer": 2}})");
    QCOMPARE(own.size(), std::size_t(2));
    QCOMPARE(own[0].first, std::string("emb_size"));
    QCOMPARE(own[1].second, std::string("2"));
}

CHARGPT_TEST_GUILESS_MAIN(TestRunLibrary)
}  // namespace tst_runlibrary
#include "tst_runlibrary.moc"
