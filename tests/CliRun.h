// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Runs the `chargpt` binary as a user would, for the CLI tests.

#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStringList>

#ifndef CHARGPT_CLI
#error "CHARGPT_CLI must name the chargpt executable"
#endif

namespace cli_run {

struct Result {
    int exitCode = -1;
    QProcess::ExitStatus status = QProcess::CrashExit;
    QString out, err;
    bool started = false, finished = false;
    qint64 ms = 0;
};

// Runs chargpt with `args`; a run past `timeoutMs` is killed (finished stays false).
inline Result runCli(const QStringList& args, int timeoutMs = 120000) {
    QProcess p;
    p.setProgram(QStringLiteral(CHARGPT_CLI));
    p.setArguments(args);
    QElapsedTimer timer;
    timer.start();
    p.start();
    Result r;
    r.started = p.waitForStarted(30000);
    if (!r.started) return r;
    r.finished = p.waitForFinished(timeoutMs);
    if (!r.finished) {
        p.kill();
        p.waitForFinished(5000);
    }
    r.ms = timer.elapsed();
    r.exitCode = p.exitCode();
    r.status = p.exitStatus();
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

// The JSON object on the last line of `out` (empty when that line is not one).
inline QJsonObject lastJsonLine(const QString& out) {
    const QStringList lines = out.split('\n', Qt::SkipEmptyParts);
    if (lines.isEmpty()) return {};
    return QJsonDocument::fromJson(lines.last().toUtf8()).object();
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
