// SPDX-License-Identifier: GPL-3.0-or-later
// `chargpt-studio --measure-stall SECONDS` with stored settings of each kind,
// each in a settings folder of its own (XDG_CONFIG_HOME): whatever keeps a
// measurement from running ends it within seconds, with a message on stderr,
// no figures and exit 1; a stored thread count beyond the machine's cores is
// capped, with a message. `chargpt-studio --measure-scrub` with an empty run
// library, a run that keeps no weights, and a tiny run that keeps five steps.
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <memory>
#include "TestProgram.h"

namespace tst_measurestall {

namespace {

struct Run {
    bool finished = false;
    QProcess::ExitStatus status = QProcess::CrashExit;
    int exitCode = -1;
    QString out, err;
    qint64 ms = 0;
    QString describe() const {
        return QStringLiteral("exit %1 after %2 ms\nstdout:\n%3\nstderr:\n%4").arg(exitCode).arg(ms).arg(out, err);
    }
};

// The tiny preset, as the settings panel stores it; `overrides` replace keys.
QByteArray settingsFile(const QMap<QString, QString>& overrides, const QString& corpus) {
    QMap<QString, QString> s{{"preset", "tiny"},       {"emb_size", "32"},    {"head_size", "8"},
                             {"n_layer", "2"},         {"sequence_len", "16"}, {"dropout", "0"},
                             {"batch_size", "16"},     {"learning_rate", "0.003"}, {"warmup_steps", "10"},
                             {"max_steps", "100000"}, {"time_limit", "0"},   {"seed", "1"},
                             {"threads", "0"},         {"bf16", "false"}};
    for (auto it = overrides.begin(); it != overrides.end(); ++it) s[it.key()] = it.value();
    QByteArray text = "[settings]\n";
    for (auto it = s.begin(); it != s.end(); ++it) text += it.key().toUtf8() + '=' + it.value().toUtf8() + '\n';
    if (!corpus.isEmpty()) text += "\n[corpus]\nsource=" + corpus.toUtf8() + '\n';
    return text;
}

}  // namespace

class TestMeasureStall : public QObject {
    Q_OBJECT

private slots:
    void cannotStart_data();
    void cannotStart();
    void refusedCorpus();
    void threadsCappedAtCores();
    void scrubWithNoRun();
    void scrubARunWithoutSnapshots();
    void scrubBesideStallIsRefused();
    void scrubPrintsFigures();

private:
    Run measure(const QByteArray& settings, double seconds, int timeoutMs);
    // A folder of its own for the app's settings and data, with `settings`.
    QString makeHome(const QByteArray& settings);
    Run studio(const QString& home, const QStringList& arguments, int timeoutMs);
    // `chargpt train` of the tiny preset on the Tang poems for `steps` steps,
    // recorded in the run library of `home`, with `extra` options.
    bool trainTiny(const QString& home, int steps, const QStringList& extra);
    QTemporaryDir dir_;
    int runs_ = 0;
};

QString TestMeasureStall::makeHome(const QByteArray& settings) {
    const QString home = dir_.filePath(QStringLiteral("home%1").arg(++runs_));
    QDir().mkpath(home + QStringLiteral("/CharGPT"));
    QFile f(home + QStringLiteral("/CharGPT/CharGPT Studio.conf"));
    if (f.open(QIODevice::WriteOnly)) f.write(settings);
    f.close();
    return home;
}

Run TestMeasureStall::measure(const QByteArray& settings, double seconds, int timeoutMs) {
    return studio(makeHome(settings), {QStringLiteral("--measure-stall"), QString::number(seconds)}, timeoutMs);
}

bool TestMeasureStall::trainTiny(const QString& home, int steps, const QStringList& extra) {
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char* name : {"XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"})
        env.insert(QString::fromLatin1(name), home);
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(CHARGPT_CLI), QStringList{QStringLiteral("train"), QStringLiteral("builtin:tang300"),
                                                     QStringLiteral("--preset"), QStringLiteral("tiny"),
                                                     QStringLiteral("--steps"), QString::number(steps),
                                                     QStringLiteral("--eval-iters"), QStringLiteral("1"),
                                                     QStringLiteral("--out"), home + QStringLiteral("/tiny.pt")} +
                                             extra);
    const bool done = p.waitForStarted(30000) && p.waitForFinished(120000);
    if (!done || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
        qWarning("%s", qPrintable(QString::fromUtf8(p.readAllStandardError())));
    return done && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
}

Run TestMeasureStall::studio(const QString& home, const QStringList& arguments, int timeoutMs) {
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char* name : {"XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"})
        env.insert(QString::fromLatin1(name), home);
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("LANG"), QStringLiteral("C"));
    env.insert(QStringLiteral("LC_ALL"), QStringLiteral("C"));
    env.remove(QStringLiteral("OMP_NUM_THREADS"));
    p.setProcessEnvironment(env);
    QElapsedTimer timer;
    timer.start();
    p.start(QStringLiteral(CHARGPT_STUDIO), arguments);
    Run r;
    r.finished = p.waitForStarted(30000) && p.waitForFinished(timeoutMs);
    if (!r.finished) {
        p.kill();
        p.waitForFinished(5000);
    }
    r.ms = timer.elapsed();
    r.status = p.exitStatus();
    r.exitCode = p.exitCode();
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

void TestMeasureStall::cannotStart_data() {
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("value");
    QTest::newRow("width not a multiple of the head size") << "emb_size" << "36";
    QTest::newRow("no layers") << "n_layer" << "0";
    QTest::newRow("too big for the machine's memory") << "batch_size" << "4096";
}

// Start stayed disabled and the measurement waited for ever, printing nothing.
void TestMeasureStall::cannotStart() {
    QFETCH(QString, key);
    QFETCH(QString, value);
    QMap<QString, QString> overrides{{key, value}};
    if (value == QLatin1String("4096"))  // as wide and deep as the panel allows
        overrides = {{"emb_size", "4096"}, {"head_size", "64"}, {"n_layer", "128"}, {"sequence_len", "4096"},
                     {"batch_size", "4096"}};
    const Run r = measure(settingsFile(overrides, QString()), 30, 60000);
    QVERIFY2(r.finished && r.status == QProcess::NormalExit, qPrintable(r.describe()));
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.ms < 20000, qPrintable(r.describe()));
    QVERIFY2(r.err.contains(QLatin1String("chargpt-studio: cannot measure: the stored settings cannot train: ")),
             qPrintable(r.describe()));
    QVERIFY2(!r.out.contains(QLatin1String("seconds")), qPrintable(r.describe()));  // no figures
}

// A stored corpus that is refused printed "seconds": -9223368195.9.
void TestMeasureStall::refusedCorpus() {
    const QString empty = dir_.filePath(QStringLiteral("empty.txt"));
    QFile f(empty);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.close();
    const Run r = measure(settingsFile({}, empty), 30, 60000);
    QVERIFY2(r.finished && r.status == QProcess::NormalExit, qPrintable(r.describe()));
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.ms < 20000, qPrintable(r.describe()));
    QVERIFY2(r.err.contains(QLatin1String("chargpt-studio: cannot measure: the corpus could not be loaded: ")),
             qPrintable(r.describe()));
    QVERIFY2(!r.out.contains(QLatin1String("seconds")), qPrintable(r.describe()));
}

// A stored 4,000 ran 4,000 threads (on 2 cores, 1,024 took 22 s for 3 tiny steps).
void TestMeasureStall::threadsCappedAtCores() {
    const int cores = QThread::idealThreadCount();
    if (cores >= 4000) QSKIP("this machine has 4,000 cores or more");
    // The Tang poems: the default corpus (4.7 MB) takes most of 2 s to set up under a sanitizer.
    const Run r = measure(settingsFile({{"threads", "4000"}}, QStringLiteral("builtin:tang300")), 2, 120000);
    QVERIFY2(r.finished && r.status == QProcess::NormalExit && r.exitCode == 0, qPrintable(r.describe()));
    QVERIFY2(r.err.contains(QLatin1String("chargpt-studio: the Threads setting (4000) is more than this machine's ")),
             qPrintable(r.describe()));
    const QStringList lines = r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QVERIFY2(!lines.isEmpty(), qPrintable(r.describe()));
    const QJsonObject figures = QJsonDocument::fromJson(lines.last().toUtf8()).object();
    const double seconds = figures.value(QStringLiteral("seconds")).toDouble(-1);
    QVERIFY2(seconds >= 2.0 && seconds < 30.0, qPrintable(r.describe()));
    QVERIFY2(figures.value(QStringLiteral("steps")).toInt() > 0, qPrintable(r.describe()));
    QCOMPARE(figures.value(QStringLiteral("ended")).toString(), QStringLiteral("stopped"));
}

// The Tang poems (a small corpus, quick to open) as the app's corpus.
const QByteArray kTangSettings = "[corpus]\nsource=builtin:tang300\n";

void TestMeasureStall::scrubWithNoRun() {
    const Run r = studio(makeHome(kTangSettings), {QStringLiteral("--measure-scrub")}, 60000);
    QVERIFY2(r.finished && r.status == QProcess::NormalExit, qPrintable(r.describe()));
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains(QLatin1String("chargpt-studio: cannot measure: the run library holds no run.")),
             qPrintable(r.describe()));
    QVERIFY2(!r.out.contains(QLatin1String("moves")), qPrintable(r.describe()));
}

void TestMeasureStall::scrubARunWithoutSnapshots() {
    const QString home = makeHome(kTangSettings);
    QVERIFY(trainTiny(home, 4, {QStringLiteral("--no-snapshots")}));
    const Run r = studio(home, {QStringLiteral("--measure-scrub")}, 60000);
    QVERIFY2(r.finished && r.status == QProcess::NormalExit, qPrintable(r.describe()));
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains(QLatin1String("chargpt-studio: cannot measure: run ")) &&
                 r.err.contains(QLatin1String(" keeps the weights of 0 step(s)")),
             qPrintable(r.describe()));
    QVERIFY2(!r.out.contains(QLatin1String("moves")), qPrintable(r.describe()));
}

// One measurement at a time: the two together are a mistake in the command line.
void TestMeasureStall::scrubBesideStallIsRefused() {
    const Run r = studio(makeHome(kTangSettings),
                         {QStringLiteral("--measure-scrub"), QStringLiteral("--measure-stall"), QStringLiteral("2")},
                         60000);
    QVERIFY2(r.finished && r.status == QProcess::NormalExit, qPrintable(r.describe()));
    QCOMPARE(r.exitCode, 2);  // the usage, no figures
    QVERIFY2(r.out.contains(QLatin1String("--measure-scrub")) && !r.out.contains(QLatin1String("\"moves\"")),
             qPrintable(r.describe()));
}

// Eight steps keep the weights of steps 0, 1, 2, 4 and 8: three passes over
// them are a dozen moves. No figure is checked against a time (the bench's).
void TestMeasureStall::scrubPrintsFigures() {
    const QString home = makeHome(kTangSettings);
    QVERIFY(trainTiny(home, 8, {}));
    const Run r = studio(home, {QStringLiteral("--measure-scrub")}, 120000);
    QVERIFY2(r.finished && r.status == QProcess::NormalExit && r.exitCode == 0, qPrintable(r.describe()));
    const QStringList lines = r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QVERIFY2(!lines.isEmpty(), qPrintable(r.describe()));
    const QJsonObject figures = QJsonDocument::fromJson(lines.last().toUtf8()).object();
    QVERIFY2(figures.value(QStringLiteral("kept_steps")).toInt() >= 2, qPrintable(r.describe()));
    QVERIFY2(figures.value(QStringLiteral("moves")).toInt() > 0, qPrintable(r.describe()));
    for (const char* key : {"median_ms", "p90_ms", "max_ms", "longest_stall_ms"})
        QVERIFY2(figures.value(QLatin1String(key)).toDouble(-1) >= 0, qPrintable(r.describe()));
    QVERIFY2(figures.value(QStringLiteral("median_ms")).toDouble() <= figures.value(QStringLiteral("max_ms")).toDouble(),
             qPrintable(r.describe()));
}

CHARGPT_TEST_GUILESS_MAIN(TestMeasureStall)
}  // namespace tst_measurestall
#include "tst_measurestall.moc"
