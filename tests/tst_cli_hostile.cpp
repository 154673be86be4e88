// SPDX-License-Identifier: GPL-3.0-or-later
// Hostile text and hostile targets at the command line: names, keys and run
// fields that carry terminal escapes reach the terminal escaped, and every
// command that writes a file refuses a FIFO or a hard-linked file as `train`
// does.
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <cstring>
#include <sqlite3.h>
#include <string>

#include "CheckpointFixtures.h"
#include "CliRun.h"
#include "model/record/RunLibrary.h"
#include "TestProgram.h"

namespace tst_cli_hostile {

using namespace cli_run;
using checkpoint_fixtures::stateDictArchive;

namespace {

// A window title, a screen clear and a lone C1 CSI (0x9B, not UTF-8), then
// U+009B as UTF-8 and a right-to-left override (U+202E): what a hostile name
// carries. A command-line argument or a pickle's string is text, so those get
// kTextEscapes, the same without the lone byte.
const QByteArray kEscapes("\x1b]0;owned\x07\x1b[2J\x9b[31m\xc2\x9b\xe2\x80\xaeZ");
const QByteArray kTextEscapes("\x1b]0;owned\x07\x1b[2J[31m\xc2\x9b\xe2\x80\xaeZ");

// Why `bytes` could act on a terminal, or empty when it cannot: a byte ESC or
// 0x9B, text that is not UTF-8, or a control character other than newline and
// tab, DEL, a C1 control or a bidirectional override or isolate.
QString terminalProblem(const QByteArray& bytes) {
    if (bytes.contains('\x1b')) return QStringLiteral("a raw ESC");
    if (bytes.contains('\x9b')) return QStringLiteral("a raw byte 0x9B");
    const QString text = QString::fromUtf8(bytes);
    if (text.toUtf8() != bytes) return QStringLiteral("bytes that are not UTF-8");
    for (const QChar c : text) {
        const ushort u = c.unicode();
        if ((u < 0x20 && u != '\n' && u != '\t') || (u >= 0x7F && u <= 0x9F) || (u >= 0x202A && u <= 0x202E) ||
            (u >= 0x2066 && u <= 0x2069))
            return QStringLiteral("the control character U+%1").arg(u, 4, 16, QLatin1Char('0'));
    }
    return {};
}

void verifyTerminalSafe(const Result& r) {
    for (const QByteArray* stream : {&r.rawOut, &r.rawErr}) {
        const QString problem = terminalProblem(*stream);
        QVERIFY2(problem.isEmpty(), qPrintable(problem + " in: " + describe(r)));
    }
}

// Writes `bytes` to the file named by the bytes `name` in `folder` (a name
// that is not UTF-8 cannot go through QString).
bool writeRawName(const QString& folder, const QByteArray& name, const QByteArray& bytes) {
    const QByteArray path = QFile::encodeName(folder) + '/' + name;
    const int fd = ::open(path.constData(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) return false;
    const bool written = ::write(fd, bytes.constData(), size_t(bytes.size())) == bytes.size();
    return ::close(fd) == 0 && written;
}

}  // namespace

class TestCliHostile : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void corpusNamesAreEscaped();
    void stateDictKeysAreEscaped();
    void runFieldsAreEscaped();
    void writingCommandsRefuseFifosAndHardLinks_data();
    void writingCommandsRefuseFifosAndHardLinks();
    void benchLeavesNothingBehind();

private:
    QTemporaryDir dir_;
    QString corpus_, model_;
};

void TestCliHostile::initTestCase() {
    QVERIFY2(cliExists(), CHARGPT_CLI " is not built");
    QVERIFY(dir_.isValid());
    corpus_ = dir_.filePath("corpus.txt");
    QByteArray text;
    for (int i = 0; i < 400; ++i) text += "the quick brown fox jumps over the lazy dog. ";
    QVERIFY(writeFile(corpus_, text));
    model_ = dir_.filePath("model.pt");
    const Result r = runCli({"train", corpus_, "--preset", "tiny", "--steps", "2", "--out", model_});
    QVERIFY2(succeeded(r), qPrintable(describe(r)));
}

void TestCliHostile::corpusNamesAreEscaped() {
    // A corpus file refused by name: the message names it, escaped.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString empty = dir.filePath(QString::fromUtf8("empty" + kTextEscapes + ".txt"));
    QVERIFY(writeFile(empty, QByteArray()));
    Result r = runCli({"train", empty, "--preset", "tiny", "--steps", "1", "--out", dir.filePath("m.pt")});
    QVERIFY2(r.finished && r.exitCode == 1, qPrintable(describe(r)));
    QVERIFY2(r.err.contains(QLatin1String("\\x1B]0;owned\\x07\\x1B[2J[31m\\u009B\\u202EZ")), qPrintable(r.err));
    QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
    verifyTerminalSafe(r);

    // A folder whose file is left out: the warning names it, escaped.
    const QString folder = dir.filePath("texts");
    QVERIFY(QDir().mkpath(folder));
    QVERIFY(QFile::copy(corpus_, folder + "/good.txt"));
    QVERIFY(writeRawName(folder, "binary" + kEscapes + ".txt", QByteArray("\0\1\2\3binary", 10)));
    r = runCli({"train", folder, "--preset", "tiny", "--steps", "1", "--out", dir.filePath("m.pt")});
    QVERIFY2(succeeded(r), qPrintable(describe(r)));
    QVERIFY2(r.err.contains(QLatin1String("skipped: ")) &&
                 r.err.contains(QLatin1String("binary\\x1B]0;owned\\x07\\x1B[2J\\x9B[31m\\u009B\\u202EZ.txt")),
             qPrintable(r.err));
    verifyTerminalSafe(r);
}

void TestCliHostile::stateDictKeysAreEscaped() {
    // A state_dict key the model does not have: the refusal names it, escaped.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath("state.pt");
    QVERIFY(writeFile(path, stateDictArchive({{"weight" + kTextEscapes, 4, {2, 2}, {2, 1}}})));
    const Result r = runCli({"import", path, "--corpus", corpus_, "-o", dir.filePath("out.pt")});
    QVERIFY2(r.finished && r.exitCode == 1, qPrintable(describe(r)));
    QVERIFY2(r.err.contains(QLatin1String("weight\\x1B]0;owned")), qPrintable(r.err));
    verifyNoStackTrace(r);
    verifyTerminalSafe(r);
    QVERIFY(!QFile::exists(dir.filePath("out.pt")));
}

void TestCliHostile::runFieldsAreEscaped() {
    // A library that another program wrote: its name, start and end are any text.
    {
        QVERIFY(QDir().mkpath(QFileInfo(runLibraryFile()).path()));
        auto library = chargpt::RunLibrary::open(QFile::encodeName(runLibraryFile()).toStdString());
        chargpt::RunStart start;
        start.name = ("run" + kEscapes).toStdString();
        start.origin = chargpt::RunOrigin::Cli;
        start.corpusName = ("corpus" + kEscapes).toStdString();
        const int64_t run = library->beginRun(start);
        library->endRun(run, chargpt::EndReason::Stopped, chargpt::RunFigures{});
        // Its start time, origin and end reason are text in the file too.
        sqlite3* db = nullptr;
        QCOMPARE(sqlite3_open(QFile::encodeName(runLibraryFile()).constData(), &db), SQLITE_OK);
        sqlite3_stmt* update = nullptr;
        QCOMPARE(sqlite3_prepare_v2(db, "UPDATE runs SET started = ?1, origin = ?1, end_reason = ?3 WHERE id = ?2", -1,
                                    &update, nullptr),
                 SQLITE_OK);
        const QByteArray endReason = "\x1b[2J" + kEscapes;
        sqlite3_bind_text(update, 1, kEscapes.constData(), int(kEscapes.size()), SQLITE_TRANSIENT);
        sqlite3_bind_int64(update, 2, run);
        sqlite3_bind_text(update, 3, endReason.constData(), int(endReason.size()), SQLITE_TRANSIENT);
        QCOMPARE(sqlite3_step(update), SQLITE_DONE);
        sqlite3_finalize(update);
        QCOMPARE(sqlite3_close(db), SQLITE_OK);
    }
    Result r = runCli({"runs"});
    QVERIFY2(succeeded(r), qPrintable(describe(r)));
    QVERIFY2(r.out.contains(QLatin1String("run\\x1B]0;owned")), qPrintable(r.out));
    QVERIFY2(r.out.contains(QLatin1String("\\x1B[2J")), qPrintable(r.out));  // the end reason's cell
    QVERIFY2(r.out.contains(QLatin1String("\\x1B]0;owned")), qPrintable(r.out));  // the start's cell
    verifyTerminalSafe(r);

    // As JSON: the same escapes are JSON's own, so the fields read back whole
    // (the lone byte 0x9B, not UTF-8, as U+FFFD).
    r = runCli({"runs", "--json"});
    QVERIFY2(succeeded(r), qPrintable(describe(r)));
    verifyTerminalSafe(r);
    const QJsonArray runs = lastJsonLine(r.out).value("runs").toArray();
    QVERIFY(!runs.isEmpty());
    const QJsonObject newest = runs.first().toObject();
    QCOMPARE(newest.value("name").toString(),
             QString::fromUtf8("run\x1b]0;owned\x07\x1b[2J\xef\xbf\xbd[31m\xc2\x9b\xe2\x80\xaeZ"));
    QVERIFY(newest.value("end_reason").toString().startsWith(QStringLiteral("\x1b[2J\x1b]0;owned")));
    QVERIFY(newest.value("started").toString().startsWith(QStringLiteral("\x1b]0;owned")));
}

void TestCliHostile::writingCommandsRefuseFifosAndHardLinks_data() {
    QTest::addColumn<QStringList>("args");  // OUT stands for the target
    QTest::addColumn<QString>("suffix");
    QTest::addColumn<QString>("kind");
    const QStringList attention{"attention", "MODEL", "--text", "the fox", "--out", "OUT"};
    const QStringList surprise{"surprise", "MODEL", "--text", "the quick fox", "--out", "OUT"};
    const QStringList import{"import", "MODEL", "--corpus", "CORPUS", "-o", "OUT"};
    const QStringList exportConfig{"export-config", "MODEL", "-o", "OUT"};
    for (const QString& kind : {QStringLiteral("fifo"), QStringLiteral("hardlink")}) {
        QTest::newRow(qPrintable("attention png " + kind)) << attention << ".png" << kind;
        QTest::newRow(qPrintable("attention svg " + kind)) << attention << ".svg" << kind;
        QTest::newRow(qPrintable("surprise png " + kind)) << surprise << ".png" << kind;
        QTest::newRow(qPrintable("surprise csv " + kind)) << surprise << ".csv" << kind;
        QTest::newRow(qPrintable("import " + kind)) << import << ".pt" << kind;
        QTest::newRow(qPrintable("export-config " + kind)) << exportConfig << ".json" << kind;
    }
}

void TestCliHostile::writingCommandsRefuseFifosAndHardLinks() {
    QFETCH(QStringList, args);
    QFETCH(QString, suffix);
    QFETCH(QString, kind);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString out = dir.filePath("out" + suffix), other = dir.filePath("other" + suffix);
    const QByteArray node = QFile::encodeName(out);
    if (kind == "fifo") {
        QCOMPARE(::mkfifo(node.constData(), 0644), 0);
    } else {
        QVERIFY(writeFile(out, "the file before"));
        QCOMPARE(::link(node.constData(), QFile::encodeName(other).constData()), 0);
    }
    struct stat before {};
    QCOMPARE(::lstat(node.constData(), &before), 0);
    args.replaceInStrings(QRegularExpression("^MODEL$"), model_);
    args.replaceInStrings(QRegularExpression("^CORPUS$"), corpus_);
    args.replaceInStrings(QRegularExpression("^OUT$"), out);
    const Result r = runCli(args, 60000);
    QVERIFY2(r.finished && r.status == QProcess::NormalExit && r.exitCode == 1, qPrintable(describe(r)));
    verifyNoStackTrace(r);
    const QStringList lines = r.err.split('\n', Qt::SkipEmptyParts);
    const QString says = kind == "fifo" ? "it is a named pipe (FIFO); only a regular file is replaced"
                                        : "it has 2 hard links";
    QVERIFY2(lines.size() == 1 && lines.first().startsWith("chargpt: cannot save to ") && lines.first().contains(says),
             qPrintable(describe(r)));
    struct stat after {};
    QCOMPARE(::lstat(node.constData(), &after), 0);
    QCOMPARE(after.st_mode, before.st_mode);
    QCOMPARE(after.st_ino, before.st_ino);
    QCOMPARE(after.st_nlink, before.st_nlink);
    if (kind == "hardlink") {
        QCOMPARE(readFile(out), QByteArray("the file before"));
        QCOMPARE(readFile(other), QByteArray("the file before"));
    }
    const QStringList entries = QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::System);
    QVERIFY2(entries.filter(".tmp-").isEmpty(), qPrintable(entries.join(' ')));
}

void TestCliHostile::benchLeavesNothingBehind() {
    // The bench's files go into one folder under TMPDIR, which goes when it
    // ends, also when it is stopped; its child training run is not recorded in
    // the user's run library. Before, `--only memory` added a run there, and a
    // stopped `--only runs` left a folder in /tmp (200 MB on a full run).
    const QStringList before = QDir("/tmp").entryList({"chargpt-bench-*"}, QDir::AllEntries | QDir::Hidden);
    QTemporaryDir tmp, data;
    QVERIFY(tmp.isValid() && data.isValid());
    auto environment = [&] {
        QProcessEnvironment e = cliEnvironment();
        e.insert("TMPDIR", tmp.path());
        e.insert("XDG_DATA_HOME", data.path());
        return e;
    };
    auto leftovers = [&] {
        const QStringList now = QDir("/tmp").entryList({"chargpt-bench-*"}, QDir::AllEntries | QDir::Hidden);
        QStringList left = QDir(tmp.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot);
        for (const QString& name : now)
            if (!before.contains(name)) left << "/tmp/" + name;
        return left;
    };

    QProcess memory;
    memory.setProcessEnvironment(environment());
    memory.start(CHARGPT_CLI, {"bench", "builtin:song100", "--only", "memory", "--steps", "1", "--no-reference"});
    QVERIFY(memory.waitForFinished(480000));  // four steps of book: a few seconds in Release, a minute under ASan
    QVERIFY2(memory.exitCode() == 0, memory.readAllStandardError().constData());
    QVERIFY2(memory.readAllStandardOutput().contains("peak resident memory of book training"), "no figure");
    QVERIFY2(leftovers().isEmpty(), qPrintable(leftovers().join(' ')));
    const QStringList userFiles = QDir(data.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot);
    QVERIFY2(userFiles.isEmpty(), qPrintable(userFiles.join(' ')));  // no run library made, no run recorded

    QProcess runs;
    runs.setProcessEnvironment(environment());
    runs.start(CHARGPT_CLI, {"bench", "builtin:song100", "--only", "runs", "--steps", "1", "--library-runs", "2",
                             "--library-steps", "100", "--gui-seconds", "1", "--no-reference"});
    QVERIFY(runs.waitForStarted(30000));
    // Stopped once it has written something.
    QDeadlineTimer started(60000);
    while (QDir(tmp.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot).isEmpty() &&
           before == QDir("/tmp").entryList({"chargpt-bench-*"}, QDir::AllEntries | QDir::Hidden) &&
           !started.hasExpired() && runs.state() == QProcess::Running)
        QThread::msleep(20);
    QThread::msleep(1500);
    QCOMPARE(runs.state(), QProcess::Running);
    ::kill(pid_t(runs.processId()), SIGTERM);
    QVERIFY(runs.waitForFinished(30000));
    QDeadlineTimer removed(15000);
    while (!leftovers().isEmpty() && !removed.hasExpired()) QThread::msleep(50);
    QVERIFY2(leftovers().isEmpty(), qPrintable(leftovers().join(' ')));
}

CHARGPT_TEST_MAIN(TestCliHostile)
}  // namespace tst_cli_hostile
#include "tst_cli_hostile.moc"
