// SPDX-License-Identifier: GPL-3.0-or-later
// The run library tampered with: its schema changed by another program while
// it is open, a run name over the value limit, a damaged table other than the
// list's, a damaged frame of its write-ahead log, and a read-only folder that
// holds a log but no -shm file.
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

#include <functional>

#include "model/record/RunLibrary.h"
#include "RunLibraryFixtures.h"
#include "TestProgram.h"

namespace tst_runlibrary_tampered {

using namespace chargpt;

namespace {

using namespace runlibrary_fixtures;

// One number from the file, through a plain connection.
int64_t number(const std::string& path, const char* sql) {
    sqlite3* db = nullptr;
    sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
    sqlite3_stmt* stmt = nullptr;
    int64_t value = -1;
    if (sqlite3_prepare_v2(db, sql, -1, &stmt, nullptr) == SQLITE_OK && sqlite3_step(stmt) == SQLITE_ROW)
        value = sqlite3_column_int64(stmt, 0);
    sqlite3_finalize(stmt);
    sqlite3_close(db);
    return value;
}

QByteArray bytesOf(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

QStringList setAsideIn(const QString& folder) {
    return QDir(folder).entryList({QStringLiteral("runs.sqlite.unreadable-*")}, QDir::Files, QDir::Name);
}

// Runs `work` in a child that cannot write to a folder of mode 0555 (root
// writes everywhere, so as root the child becomes nobody); its numbers, or
// the message of what it threw.
QString inAChildThatCannotWrite(const std::function<std::vector<int64_t>()>& work, std::vector<int64_t>& found) {
    int report[2];
    if (::pipe(report) != 0) return QStringLiteral("no pipe");
    const pid_t child = ::fork();
    if (child < 0) return QStringLiteral("no child");
    if (child == 0) {
        ::close(report[0]);
        if (::geteuid() == 0 && (::setgid(65534) != 0 || ::setuid(65534) != 0)) ::_exit(3);
        try {
            const std::vector<int64_t> numbers = work();
            (void)!::write(report[1], numbers.data(), numbers.size() * sizeof(int64_t));
        } catch (const std::exception& e) {
            (void)!::write(report[1], e.what(), std::strlen(e.what()));
            ::_exit(2);
        }
        ::_exit(0);
    }
    ::close(report[1]);
    QByteArray said;
    char buffer[512];
    for (ssize_t n; (n = ::read(report[0], buffer, sizeof buffer)) > 0;) said.append(buffer, int(n));
    ::close(report[0]);
    int status = 0;
    ::waitpid(child, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return QStringLiteral("child ended with %1: %2").arg(status).arg(QString::fromUtf8(said));
    found.assign(reinterpret_cast<const int64_t*>(said.constData()),
                 reinterpret_cast<const int64_t*>(said.constData()) + said.size() / int(sizeof(int64_t)));
    return QString();
}

}  // namespace

class TestRunLibraryTampered : public QObject {
    Q_OBJECT
private slots:
    void aSchemaChangedWhileOpenIsNeverRun();
    void aNameOverTheLimitLeavesOutOnlyItsRun();
    void aDamagedTableIsFoundOnOpening_data();
    void aDamagedTableIsFoundOnOpening();
    void aDamagedLogFrameIsKeptAndSaid();
    void aReadOnlyFolderWithALogStillListsIt();
};

void TestRunLibraryTampered::aSchemaChangedWhileOpenIsNeverRun() {
    // The schema was checked on opening only: another program that added an
    // index on a costly expression while `chargpt train` recorded made each
    // point of the training thread's batch cost about 2 s.
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("runs.sqlite")).toStdString();
    auto library = RunLibrary::open(path);
    const int64_t run = library->beginRun(someRun("recording"));
    library->append(run, pointsFrom(1, 100), {}, RunFigures{});
    // A change that leaves the schema as it was (a table made and dropped) is no change.
    QCOMPARE(edit(path, "CREATE TABLE scratch(x); DROP TABLE scratch;"), QString());
    library->append(run, pointsFrom(101, 100), {}, RunFigures{});
    QCOMPARE(edit(path, "CREATE INDEX costly ON points(instr(printf('%.*c', 500000, 'a'), printf('%.*cb', 250000, "
                        "'a'))) WHERE step > 200"),
             QString());
    QElapsedTimer clock;
    clock.start();
    QString said;
    try {
        library->append(run, pointsFrom(201, 3), {}, RunFigures{});
    } catch (const RunLibraryBusy& busy) {
        said = QStringLiteral("busy: ") + QString::fromUtf8(busy.what());
    } catch (const Error& e) {
        said = QString::fromUtf8(e.what());
    }
    QVERIFY2(clock.elapsed() < 250, qPrintable(QStringLiteral("%1 ms").arg(clock.elapsed())));
    QVERIFY2(said.startsWith(QStringLiteral("the run library ")) &&
                 said.contains(QStringLiteral("was changed by another program while it was open")),
             qPrintable(said));
    QCOMPARE(number(path, "SELECT count(*) FROM points"), int64_t(200));
    // Every later write and listing refuses as quickly.
    QVERIFY_THROWS_EXCEPTION(Error, library->endRun(run, EndReason::Finished, RunFigures{}));
    QVERIFY_THROWS_EXCEPTION(Error, library->runs());
    QVERIFY2(clock.elapsed() < 500, qPrintable(QStringLiteral("%1 ms").arg(clock.elapsed())));
}

void TestRunLibraryTampered::aNameOverTheLimitLeavesOutOnlyItsRun() {
    // A value over 1 MiB in any other field left out only its run; in the
    // name, read whole by the check on opening, it made the library unusable:
    // `chargpt runs` exited 1 and no run was recorded.
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("runs.sqlite")).toStdString();
    {
        auto library = RunLibrary::open(path);
        for (const char* name : {"one", "two", "three"}) library->beginRun(someRun(name));
    }
    QCOMPARE(edit(path, "UPDATE runs SET name = hex(zeroblob(524289)) WHERE id = 2"), QString());
    std::string said;
    auto library = RunLibrary::open(path, &said);
    QVERIFY2(said.empty(), said.c_str());
    std::string leftOut;
    const std::vector<RunRecord> runs = library->runs(&leftOut);
    QCOMPARE(int(runs.size()), 2);
    QCOMPARE(runs[0].id, int64_t(3));
    QCOMPARE(runs[1].id, int64_t(1));
    QVERIFY2(QString::fromStdString(leftOut).contains(QStringLiteral("1 run with a value over 1 MiB")),
             leftOut.c_str());
    // And runs are recorded.
    const int64_t four = library->beginRun(someRun("four"));
    library->append(four, pointsFrom(1, 10), {}, RunFigures{});
    QCOMPARE(int(library->points(four).size()), 10);
}

void TestRunLibraryTampered::aDamagedTableIsFoundOnOpening_data() {
    QTest::addColumn<int>("padding");  // bytes of one value that make the file larger
    QTest::newRow("checked whole") << 0;
    QTest::newRow("past the whole check's size") << 40 * 1024 * 1024;
}

void TestRunLibraryTampered::aDamagedTableIsFoundOnOpening() {
    // The checkpoints table's root page damaged: only the list of runs was
    // read through on opening, so the library opened without a word, and then
    // every listing failed (`chargpt runs` exit 1) and it was never set aside.
    QFETCH(int, padding);
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("runs.sqlite"));
    const std::string path = file.toStdString();
    {
        auto library = RunLibrary::open(path);
        const int64_t run = library->beginRun(someRun("one"));
        library->append(run, pointsFrom(1, 2000), {}, RunFigures{});
        library->addCheckpoint(run, 1000, "/tmp/one-1000.pt");
    }
    const QByteArray pad = "INSERT INTO points VALUES(9, 1, zeroblob(" + QByteArray::number(padding) + "), 0, 0, 0);";
    QCOMPARE(edit(path, (pad + "PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode=DELETE").constData()),
             QString());
    const int64_t root = number(path, "SELECT rootpage FROM sqlite_schema WHERE name = 'checkpoints'");
    const int64_t pageSize = number(path, "PRAGMA page_size");
    QVERIFY(root > 1 && pageSize >= 512);
    QVERIFY(QFileInfo(file).size() > padding);
    {
        QFile damage(file);
        QVERIFY(damage.open(QIODevice::ReadWrite));
        QVERIFY(damage.seek((root - 1) * pageSize));
        QVERIFY(damage.write(QByteArray("\x0d\x00\x00\x00\x05\xff\xff\xff", 8) + QByteArray(40, '\xff')) == 48);
    }
    const QByteArray before = bytesOf(file);

    std::string said;
    auto library = RunLibrary::open(path, &said);
    QVERIFY2(QString::fromStdString(said).contains(QStringLiteral("is damaged")), said.c_str());
    const QStringList aside = setAsideIn(dir.path());
    QCOMPARE(aside.size(), 1);
    QVERIFY2(QString::fromStdString(said).contains(aside.first()), said.c_str());
    QVERIFY(bytesOf(dir.filePath(aside.first())) == before);
    QCOMPARE(int(library->runs().size()), 0);
    QVERIFY(library->beginRun(someRun("new")) > 0);
}

void TestRunLibraryTampered::aDamagedLogFrameIsKeptAndSaid() {
    // Four runs committed to the write-ahead log, one byte of its first frame
    // then changed: SQLite applies a log up to the first frame whose checksum
    // fails, so the four vanished without a word, and the next opening's
    // checkpoint removed the log.
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("runs.sqlite")).toStdString();
    RunLibrary::open(path)->beginRun(someRun("in the file"));
    for (int i = 0; i < 4; ++i)
        QCOMPARE(edit(path,
                      "INSERT INTO runs(name, origin, preset, settings, corpus_name, corpus_bytes, corpus_hash,"
                      " parameters, seed, first_step, started) VALUES('in the log', 'cli', '', '{}', 'c', 1, 'h', 1,"
                      " 1, 0, '2026-12-02T09:15:00Z')",
                      /*keepLog=*/true),
                 QString());
    const QString wal = QString::fromStdString(path + "-wal");
    {
        QFile log(wal);
        QVERIFY(log.open(QIODevice::ReadWrite));
        QVERIFY(log.size() > 32 + 2 * (24 + 4096));
        QVERIFY(log.seek(32 + 24 + 100));  // inside the first frame's page
        char byte = 0;
        QVERIFY(log.getChar(&byte));
        QVERIFY(log.seek(32 + 24 + 100));
        QVERIFY(log.putChar(char(byte ^ 0xff)));
    }
    const QByteArray before = bytesOf(wal);

    std::string said;
    auto library = RunLibrary::open(path, &said);
    QVERIFY2(QString::fromStdString(said).contains(QStringLiteral("damaged write-ahead log")), said.c_str());
    const QStringList kept = setAsideIn(dir.path()).filter(QStringLiteral("-wal"));
    QCOMPARE(kept.size(), 1);
    QVERIFY2(QString::fromStdString(said).contains(kept.first()), said.c_str());
    QVERIFY(bytesOf(dir.filePath(kept.first())) == before);
    // The library goes on with what SQLite applies; said once.
    QVERIFY(library->beginRun(someRun("after")) > 0);
    library.reset();
    RunLibrary::open(path, &said);
    QVERIFY2(said.empty(), said.c_str());
    // A sound log with a write that never ended (frames without a commit) says nothing.
    QCOMPARE(edit(path, "PRAGMA cache_size=1; BEGIN; WITH RECURSIVE s(v) AS (SELECT 1 UNION ALL SELECT v + 1 FROM s"
                        " WHERE v < 20000) INSERT INTO points SELECT 5, v, 1, 1, 1, 1 FROM s;",
                  /*keepLog=*/true),
             QString());
    RunLibrary::open(path, &said);
    QVERIFY2(said.empty(), said.c_str());
}

void TestRunLibraryTampered::aReadOnlyFolderWithALogStillListsIt() {
    // A folder that cannot be written, holding a -wal file but no -shm file
    // (a writer killed, then the folder made read-only): SQLite cannot make
    // the log's index there, and the library did not open (`chargpt runs`
    // exit 1, the Runs tab empty).
    QTemporaryDir dir;
    QVERIFY(QFile::setPermissions(dir.path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner |
                                                  QFile::ReadGroup | QFile::ExeGroup | QFile::ReadOther |
                                                  QFile::ExeOther));
    const QString folder = dir.filePath(QStringLiteral("lib"));
    const std::string path = (folder + QStringLiteral("/runs.sqlite")).toStdString();
    {
        auto library = RunLibrary::open(path);
        library->beginRun(someRun("in the file"));
    }
    QCOMPARE(edit(path,
                  "INSERT INTO runs(name, origin, preset, settings, corpus_name, corpus_bytes, corpus_hash,"
                  " parameters, seed, first_step, started) VALUES('in the log', 'cli', '', '{}', 'c', 1, 'h', 1,"
                  " 1, 0, '2026-12-02T09:15:00Z'); INSERT INTO points VALUES(2, 1, 3.5, 0, 0, 0);",
                  /*keepLog=*/true),
             QString());
    QVERIFY(QFile::remove(folder + QStringLiteral("/runs.sqlite-shm")));
    const QStringList files{QStringLiteral("runs.sqlite"), QStringLiteral("runs.sqlite-wal")};
    QCOMPARE(QDir(folder).entryList(QDir::Files, QDir::Name), files);
    const QByteArray file = bytesOf(folder + QStringLiteral("/runs.sqlite"));
    const QByteArray log = bytesOf(folder + QStringLiteral("/runs.sqlite-wal"));
    QCOMPARE(::chmod(folder.toUtf8().constData(), 0555), 0);
    std::vector<int64_t> found;
    const QString failure = inAChildThatCannotWrite(
        [&path] {
            auto library = RunLibrary::open(path);
            std::string leftOut;
            const std::vector<RunRecord> runs = library->runs(&leftOut);
            int64_t refused = 0;
            try {
                library->beginRun(someRun("refused"));
            } catch (const Error&) {
                refused = 1;
            }
            return std::vector<int64_t>{int64_t(runs.size()), runs.empty() ? -1 : runs.front().id,
                                        int64_t(library->points(2).size()), int64_t(leftOut.size()), refused};
        },
        found);
    QCOMPARE(::chmod(folder.toUtf8().constData(), 0755), 0);
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
    QCOMPARE(found, (std::vector<int64_t>{2, 2, 1, 0, 1}));
    // Nothing was written there.
    QCOMPARE(QDir(folder).entryList(QDir::Files, QDir::Name), files);
    QVERIFY(bytesOf(folder + QStringLiteral("/runs.sqlite")) == file);
    QVERIFY(bytesOf(folder + QStringLiteral("/runs.sqlite-wal")) == log);
}

CHARGPT_TEST_GUILESS_MAIN(TestRunLibraryTampered)
}  // namespace tst_runlibrary_tampered
#include "tst_runlibrary_tampered.moc"
