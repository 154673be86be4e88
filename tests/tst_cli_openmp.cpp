// SPDX-License-Identifier: GPL-3.0-or-later
// How `chargpt` sets OpenMP's short spin (model/runtime/OpenMPSpin.h): libgomp
// reads it once, as it loads, so the launcher (app/cli/CliLauncher.cpp), which
// loads neither it nor LibTorch, puts it in the environment of the command
// runner it executes. Seen from outside: libgomp's own report of its settings
// (OMP_DISPLAY_ENV, once for each time it loads), the process's name while it
// runs, the commands that keep OpenMP's default, what is answered without
// loading LibTorch at all, a user's own values, values OpenMP does not take, and
// starts through the dynamic loader and through a copy of it.
#include <link.h>
#include <limits.h>
#include <stdlib.h>

#include <QDeadlineTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include "CliRun.h"
#include "TestProgram.h"

namespace tst_cli_openmp {

using namespace cli_run;

namespace {

// The environment of a user who set nothing for OpenMP (the suite's own runs
// set OMP_WAIT_POLICY, which would leave the spin alone), plus `extra`, and
// libgomp asked to report its settings when it loads.
QProcessEnvironment userEnvironment(const QStringList& extra = {}) {
    QProcessEnvironment environment = cliEnvironment();
    environment.remove(QStringLiteral("OMP_WAIT_POLICY"));
    environment.remove(QStringLiteral("GOMP_SPINCOUNT"));
    environment.insert(QStringLiteral("OMP_DISPLAY_ENV"), QStringLiteral("VERBOSE"));
    for (const QString& pair : extra) {
        const int eq = int(pair.indexOf('='));
        environment.insert(pair.left(eq), pair.mid(eq + 1));
    }
    return environment;
}

Result run(const QString& program, const QStringList& args, const QProcessEnvironment& environment) {
    QProcess p;
    p.setProcessEnvironment(environment);
    p.setProgram(program);
    p.setArguments(args);
    Result r;
    p.start();
    r.started = p.waitForStarted(30000);
    if (!r.started) return r;
    r.finished = p.waitForFinished(60000);
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

// The value libgomp reports for `name` in its last report, or "(none)".
QString lastReported(const QString& err, const QString& name) {
    const QString report = err.mid(err.lastIndexOf(QLatin1String("OPENMP DISPLAY ENVIRONMENT BEGIN")));
    const QRegularExpression line("^\\s*" + QRegularExpression::escape(name) + " = '([^']*)'",
                                  QRegularExpression::MultilineOption);
    const QRegularExpressionMatch match = line.match(report);
    return match.hasMatch() ? match.captured(1) : QStringLiteral("(none)");
}

// The dynamic loader named in this program's own headers.
int findInterpreter(dl_phdr_info* info, size_t, void* out) {
    for (int i = 0; i < info->dlpi_phnum; ++i)
        if (info->dlpi_phdr[i].p_type == PT_INTERP)
            *static_cast<QString*>(out) =
                QString::fromLocal8Bit(reinterpret_cast<const char*>(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr));
    return 1;
}

// How many times libgomp loaded (and reported its settings).
qsizetype loads(const Result& r) { return r.err.count(QLatin1String("OPENMP DISPLAY ENVIRONMENT BEGIN")); }

// A command that runs parallel work and ends at once, in the command runner: a
// checkpoint that is not there.
const QStringList kParallelCommand = {"sample", "/nonexistent/chargpt-openmp-test.pt"};

// It ran in the command runner and was refused as it should be.
bool refusedByTheRunner(const Result& r) {
    return r.finished && r.status == QProcess::NormalExit && r.exitCode == 1 &&
           r.err.contains(QLatin1String("chargpt: no such checkpoint"));
}

// What chargpt said on stderr besides that refusal.
QStringList notes(const Result& r) {
    QStringList lines;
    for (const QString& line : r.err.split('\n'))
        if (line.startsWith(QLatin1String("chargpt:")) && !line.contains(QLatin1String("no such checkpoint")))
            lines << line;
    return lines;
}

// The command runner the launcher executes (app/CMakeLists.txt).
QString runnerFile() {
    return QFileInfo(QFileInfo(CHARGPT_CLI).absolutePath() + QStringLiteral("/../libexec/chargpt/chargpt"))
        .canonicalFilePath();
}

QByteArray readProc(qint64 pid, const char* what) {
    QFile f(QStringLiteral("/proc/%1/%2").arg(pid).arg(QLatin1String(what)));
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

}  // namespace

class TestCliOpenMP : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void theRunnerStartsWithTheShortSpin();
    void keepsItsNameWhileItRuns();
    void commandsWithoutParallelWorkStartOnce_data();
    void commandsWithoutParallelWorkStartOnce();
    void aUsersValidValuesWin_data();
    void aUsersValidValuesWin();
    void valuesOpenMPIgnoresAreReplaced_data();
    void valuesOpenMPIgnoresAreReplaced();
    void throughTheDynamicLoaderTheSpinIsSetToo();
    void throughACopyOfTheLoaderTheSpinIsSetToo();
};

void TestCliOpenMP::initTestCase() { QVERIFY2(cliExists(), CHARGPT_CLI " is not built"); }

void TestCliOpenMP::theRunnerStartsWithTheShortSpin() {
    const Result r = run(CHARGPT_CLI, kParallelCommand, userEnvironment());
    QVERIFY2(refusedByTheRunner(r), qPrintable(describe(r)));
    // One report: libgomp loaded once, in the runner, with the spin set.
    QCOMPARE(loads(r), 1);
    QCOMPARE(lastReported(r.err, "OMP_WAIT_POLICY"), QStringLiteral("PASSIVE"));
    QCOMPARE(lastReported(r.err, "GOMP_SPINCOUNT"), QStringLiteral("2000"));
    QVERIFY2(notes(r).isEmpty(), qPrintable(describe(r)));  // nothing to say
}

void TestCliOpenMP::keepsItsNameWhileItRuns() {
    // The runner's file is named chargpt too: `pgrep -x chargpt` finds the
    // process, with the spin in its environment.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString corpus = dir.filePath("corpus.txt");
    QByteArray text;
    for (int i = 0; i < 400; ++i) text += "the quick brown fox jumps over the lazy dog. ";
    QVERIFY(writeFile(corpus, text));
    QProcess p;
    QProcessEnvironment environment = userEnvironment();
    environment.remove(QStringLiteral("OMP_DISPLAY_ENV"));
    p.setProcessEnvironment(environment);
    p.setProgram(CHARGPT_CLI);
    p.setArguments({"train", corpus, "--preset", "tiny", "--steps", "100000", "--out", dir.filePath("m.pt")});
    p.start();
    QVERIFY(p.waitForStarted(30000));
    const qint64 pid = p.processId();
    // Once the launcher executed the runner, the process is the runner's.
    // During execve the kernel points /proc/PID/exe at the new file before it
    // sets up the new program's environment area, which reads empty until then:
    // wait for both.
    QDeadlineTimer deadline(30000);
    QByteArray variables;
    for (;;) {
        const bool runner =
            QFileInfo(QFile::symLinkTarget(QStringLiteral("/proc/%1/exe").arg(pid))).canonicalFilePath() ==
            runnerFile();
        variables = runner ? readProc(pid, "environ") : QByteArray();
        if (!variables.isEmpty() || deadline.hasExpired() || p.state() != QProcess::Running) break;
        QThread::msleep(20);
    }
    const QByteArray comm = readProc(pid, "comm").trimmed();
    const QByteArray exe = QFile::symLinkTarget(QStringLiteral("/proc/%1/exe").arg(pid)).toLocal8Bit();
    p.kill();
    p.waitForFinished(10000);
    QVERIFY2(variables.contains(QByteArray("OMP_WAIT_POLICY=PASSIVE")), variables.constData());
    QVERIFY2(variables.contains(QByteArray("GOMP_SPINCOUNT=2000")), variables.constData());
    QCOMPARE(comm, QFileInfo(CHARGPT_CLI).fileName().toLocal8Bit());
    QCOMPARE(QFileInfo(QString::fromLocal8Bit(exe)).canonicalFilePath(), runnerFile());
}

void TestCliOpenMP::commandsWithoutParallelWorkStartOnce_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("says");  // on stdout, or for a refusal on stderr
    QTest::addColumn<int>("loads");     // 0: LibTorch (which needs libgomp) was never loaded
    QTest::newRow("--version") << QStringList{"--version"} << 0 << "chargpt " << 0;
    QTest::newRow("--help") << QStringList{"--help"} << 0 << "usage:" << 0;
    QTest::newRow("a command's --help") << QStringList{"train", "--help"} << 0 << "Usage: chargpt train" << 0;
    QTest::newRow("a number out of its range")
        << QStringList{"train", "--steps=-1"} << 1 << "chargpt: --steps must be between 0 and" << 0;
    QTest::newRow("an unknown option") << QStringList{"sample", "m.pt", "--bogus"} << 2
                                       << "chargpt: unknown option --bogus for 'sample'" << 0;
    QTest::newRow("runs") << QStringList{"runs"} << 0 << "" << 1;
}

void TestCliOpenMP::commandsWithoutParallelWorkStartOnce() {
    // The launcher answers the usage, the help, the version and every mistake
    // in the command line without loading LibTorch; a command that runs nothing
    // on OpenMP's threads keeps its default.
    QFETCH(QStringList, args);
    QFETCH(int, exitCode);
    QFETCH(QString, says);
    QFETCH(int, loads);
    const Result r = run(CHARGPT_CLI, args, userEnvironment());
    QVERIFY2(r.finished && r.status == QProcess::NormalExit && r.exitCode == exitCode, qPrintable(describe(r)));
    QVERIFY2((exitCode == 0 ? r.out : r.err).contains(says), qPrintable(describe(r)));
    QCOMPARE(tst_cli_openmp::loads(r), loads);
    if (loads > 0) QVERIFY2(lastReported(r.err, "GOMP_SPINCOUNT") != "2000", qPrintable(describe(r)));
    if (exitCode == 0) QVERIFY2(!r.err.contains(QLatin1String("chargpt:")), qPrintable(describe(r)));
}

void TestCliOpenMP::aUsersValidValuesWin_data() {
    QTest::addColumn<QStringList>("environment");
    QTest::addColumn<QString>("policy");
    QTest::addColumn<QString>("spin");
    QTest::newRow("ACTIVE") << QStringList{"OMP_WAIT_POLICY=active"} << "ACTIVE" << "(default)";
    QTest::newRow("PASSIVE, spaces") << QStringList{"OMP_WAIT_POLICY= Passive "} << "PASSIVE" << "(default)";
    QTest::newRow("spin count") << QStringList{"GOMP_SPINCOUNT=5k"} << "(any)" << "5000";
    QTest::newRow("infinite spin") << QStringList{"GOMP_SPINCOUNT=INFINITE"} << "(any)" << "(not 2000)";
}

void TestCliOpenMP::aUsersValidValuesWin() {
    QFETCH(QStringList, environment);
    QFETCH(QString, policy);
    QFETCH(QString, spin);
    const Result r = run(CHARGPT_CLI, kParallelCommand, userEnvironment(environment));
    QVERIFY2(refusedByTheRunner(r), qPrintable(describe(r)));
    QCOMPARE(loads(r), 1);
    if (policy != "(any)") QCOMPARE(lastReported(r.err, "OMP_WAIT_POLICY"), policy);
    if (spin == "(default)" || spin == "(not 2000)")
        QVERIFY2(lastReported(r.err, "GOMP_SPINCOUNT") != "2000", qPrintable(describe(r)));
    else
        QCOMPARE(lastReported(r.err, "GOMP_SPINCOUNT"), spin);
    QVERIFY2(notes(r).isEmpty(), qPrintable(describe(r)));
}

void TestCliOpenMP::valuesOpenMPIgnoresAreReplaced_data() {
    QTest::addColumn<QStringList>("environment");
    QTest::addColumn<QString>("named");
    QTest::newRow("policy") << QStringList{"OMP_WAIT_POLICY=garbage"} << "OMP_WAIT_POLICY";
    QTest::newRow("policy, trailing word") << QStringList{"OMP_WAIT_POLICY=passive please"} << "OMP_WAIT_POLICY";
    QTest::newRow("spin count") << QStringList{"GOMP_SPINCOUNT=lots"} << "GOMP_SPINCOUNT";
    QTest::newRow("spin count, unit") << QStringList{"GOMP_SPINCOUNT=12x"} << "GOMP_SPINCOUNT";
}

void TestCliOpenMP::valuesOpenMPIgnoresAreReplaced() {
    // libgomp ignores such a value and spins without end between parallel
    // regions (8x slower training on 2 cores); the short spin is set instead.
    QFETCH(QStringList, environment);
    QFETCH(QString, named);
    const Result r = run(CHARGPT_CLI, kParallelCommand, userEnvironment(environment));
    QVERIFY2(refusedByTheRunner(r), qPrintable(describe(r)));
    QCOMPARE(loads(r), 1);
    QCOMPARE(lastReported(r.err, "OMP_WAIT_POLICY"), QStringLiteral("PASSIVE"));
    QCOMPARE(lastReported(r.err, "GOMP_SPINCOUNT"), QStringLiteral("2000"));
    QVERIFY2(r.err.contains("chargpt: " + named + " is set to a value OpenMP does not take"), qPrintable(describe(r)));
}

// Started as `LOADER chargpt sample ...`, /proc/self/exe is the loader: the
// launcher finds its runner by the program the loader ran, and the runner
// starts with the short spin all the same.
void checkRunsThroughTheLoader(const QString& loader) {
    const Result r = run(loader, QStringList{CHARGPT_CLI} + kParallelCommand, userEnvironment({"OMP_WAIT_POLICY=junk"}));
    QVERIFY2(refusedByTheRunner(r), qPrintable(describe(r)));
    QCOMPARE(loads(r), 1);
    QCOMPARE(lastReported(r.err, "OMP_WAIT_POLICY"), QStringLiteral("PASSIVE"));
    QCOMPARE(lastReported(r.err, "GOMP_SPINCOUNT"), QStringLiteral("2000"));
    // The value OpenMP ignores was taken out of the environment, and said.
    QVERIFY2(r.err.contains(QLatin1String("chargpt: OMP_WAIT_POLICY is set to a value OpenMP does not take")),
             qPrintable(describe(r)));
    QVERIFY2(!r.err.contains(QLatin1String("libgomp: Invalid value")), qPrintable(describe(r)));
}

void TestCliOpenMP::throughTheDynamicLoaderTheSpinIsSetToo() {
    QString loader;
    dl_iterate_phdr(findInterpreter, &loader);
    QVERIFY2(QFileInfo(loader).isExecutable(), qPrintable(loader));
    checkRunsThroughTheLoader(loader);
}

void TestCliOpenMP::throughACopyOfTheLoaderTheSpinIsSetToo() {
    // A copy under another name is not the file the program names as its
    // interpreter; it is a loader all the same.
    QString loader;
    dl_iterate_phdr(findInterpreter, &loader);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString copy = dir.filePath(QStringLiteral("my-loader"));
    QVERIFY(QFile::copy(loader, copy));
    QVERIFY(QFile::setPermissions(copy, QFile::ReadOwner | QFile::ExeOwner));
    checkRunsThroughTheLoader(copy);
}

CHARGPT_TEST_MAIN(TestCliOpenMP)
}  // namespace tst_cli_openmp
#include "tst_cli_openmp.moc"
