// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Runs the `chargpt` binary as a user would, for the CLI tests: the run, what
// a failure prints, and the checks every CLI test makes of a run.

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStringList>
#include <QTemporaryDir>
#include <QTest>

#ifndef CHARGPT_CLI
#error "CHARGPT_CLI must name the chargpt executable"
#endif

namespace cli_run {

struct Result {
    int exitCode = -1;
    QProcess::ExitStatus status = QProcess::CrashExit;
    QString out, err;
    QByteArray rawOut, rawErr;  // the bytes as written, for checks of what reaches a terminal
    bool started = false, finished = false;
    qint64 ms = 0;
};

// The data folder every chargpt run of the test program gets (XDG_DATA_HOME):
// its runs go into a run library of the test's own, never the user's.
inline QString dataHome() {
    static QTemporaryDir folder;
    return folder.path();
}

// The run library the runs of this test program record into.
inline QString runLibraryFile() { return dataHome() + QStringLiteral("/CharGPT/CharGPT Studio/runs.sqlite"); }

// The environment chargpt runs in: this program's, with its own data folder.
inline QProcessEnvironment cliEnvironment() {
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("XDG_DATA_HOME"), dataHome());
    return environment;
}

// Runs chargpt with `args` in `environment`, and `input` (when given) on its
// standard input, closed after it; a run past `timeoutMs` is killed (finished
// stays false).
inline Result runCliIn(const QProcessEnvironment& environment, const QStringList& args, int timeoutMs = 120000,
                       const QByteArray& input = QByteArray()) {
    QProcess p;
    p.setProcessEnvironment(environment);
    p.setProgram(QStringLiteral(CHARGPT_CLI));
    p.setArguments(args);
    QElapsedTimer timer;
    timer.start();
    p.start();
    Result r;
    r.started = p.waitForStarted(30000);
    if (!r.started) return r;
    if (!input.isNull()) {
        p.write(input);
        p.closeWriteChannel();
    }
    r.finished = p.waitForFinished(timeoutMs);
    if (!r.finished) {
        p.kill();
        p.waitForFinished(5000);
    }
    r.ms = timer.elapsed();
    r.exitCode = p.exitCode();
    r.status = p.exitStatus();
    r.rawOut = p.readAllStandardOutput();
    r.rawErr = p.readAllStandardError();
    r.out = QString::fromUtf8(r.rawOut);
    r.err = QString::fromUtf8(r.rawErr);
    return r;
}

// The same in cliEnvironment().
inline Result runCli(const QStringList& args, int timeoutMs = 120000, const QByteArray& input = QByteArray()) {
    return runCliIn(cliEnvironment(), args, timeoutMs, input);
}

// The exit status, the time and the start of both outputs, for a failure's message.
inline QString describe(const Result& r) {
    return QStringLiteral("exit %1 after %2 ms, stdout:\n%3\nstderr:\n%4")
        .arg(r.exitCode)
        .arg(r.ms)
        .arg(r.out.left(2000), r.err.left(2000));
}

// Ended by itself, with exit status 0.
inline bool succeeded(const Result& r) { return r.finished && r.status == QProcess::NormalExit && r.exitCode == 0; }

// Whether the binary is there to run (initTestCase checks it first).
inline bool cliExists() { return QFileInfo(QStringLiteral(CHARGPT_CLI)).isExecutable(); }

// No trace of a crash or of an exception that escaped: a refusal is one line.
inline void verifyNoStackTrace(const Result& r) {
    for (const char* bad : {"terminate called", "what():", "Exception raised from", "frame #", "Aborted",
                            "Segmentation", "internal error"})
        QVERIFY2(!r.err.contains(QLatin1String(bad)), qPrintable(describe(r)));
}

// The JSON object on the last line of `out` (empty when that line is not one).
inline QJsonObject lastJsonLine(const QString& out) {
    const QStringList lines = out.split('\n', Qt::SkipEmptyParts);
    if (lines.isEmpty()) return {};
    return QJsonDocument::fromJson(lines.last().toUtf8()).object();
}

// The sample of `chargpt sample --json` without --samples: its `samples` is
// always a list; an empty object unless the list holds exactly one.
inline QJsonObject onlySample(const QJsonObject& summary) {
    const QJsonArray samples = summary.value("samples").toArray();
    return samples.size() == 1 ? samples.first().toObject() : QJsonObject();
}

inline QByteArray readFile(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

inline bool writeFile(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

}  // namespace cli_run
