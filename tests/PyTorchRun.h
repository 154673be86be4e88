// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What tst_pytorch runs: programs (the CLI, /usr/bin/python3) with their
// output, files read back, and chargpt::Error's message.
#include <torch/torch.h>

#include <QFile>
#include <QProcess>
#include <QString>
#include <QStringList>

#include <map>
#include <string>

#include "model/io/PyTorchInterop.h"
#include "model/runtime/Error.h"

namespace pytorch_run {

using namespace chargpt;

inline const char* const kPython = "/usr/bin/python3";
inline const char* const kPrompt = "To be, or";

struct Result {
    int exitCode = -1;
    bool ok = false;
    QString out, err;
    QString describe() const {
        return QStringLiteral("exit %1, stdout:\n%2\nstderr:\n%3").arg(exitCode).arg(out.right(2000), err.right(3000));
    }
};

inline Result run(const QString& program, const QStringList& args, const QString& workingDirectory = QString(),
           const QStringList& environment = {}) {
    QProcess p;
    p.setProgram(program);
    p.setArguments(args);
    if (!workingDirectory.isEmpty()) p.setWorkingDirectory(workingDirectory);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("PYTHONIOENCODING"), QStringLiteral("utf-8"));
    for (const QString& entry : environment) env.insert(entry.section(QLatin1Char('='), 0, 0), entry.section(QLatin1Char('='), 1));
    p.setProcessEnvironment(env);
    p.start();
    Result r;
    if (!p.waitForStarted(30000)) {
        r.err = QStringLiteral("could not start ") + program;
        return r;
    }
    const bool finished = p.waitForFinished(240000);
    if (!finished) {
        p.kill();
        p.waitForFinished(5000);
    }
    r.exitCode = p.exitCode();
    r.ok = finished && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

inline Result cli(const QStringList& args) { return run(QStringLiteral(CHARGPT_CLI), args); }
inline Result python(const QStringList& args) { return run(QString::fromLatin1(kPython), args); }

inline QString source(const char* relative) { return QStringLiteral(CHARGPT_SOURCE_DIR "/") + QLatin1String(relative); }

inline QString readText(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

// Verse-like lines: enough text for a tiny model to learn, few characters.
// The corpus every PyTorch comparison trains on, written to `path`.
inline bool writeVerseCorpus(const QString& path) {
    const QStringList lines = {QStringLiteral("To be, or not to be, that is the question:"),
                               QStringLiteral("Whether tis nobler in the mind to suffer"),
                               QStringLiteral("The slings and arrows of outrageous fortune,"),
                               QStringLiteral("Or to take arms against a sea of troubles")};
    QString text;
    for (int i = 0; i < 24; ++i) text += lines[i % lines.size()] + QLatin1Char('\n');
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(text.toUtf8()) >= 0;
}

inline std::string std_(const QString& s) { return s.toStdString(); }

inline std::map<std::string, torch::Tensor> tensorsOf(const std::string& path) {
    std::map<std::string, torch::Tensor> out;
    for (const auto& [name, tensor] : readTorchStateDict(path).tensors) out[name] = tensor;
    return out;
}

// The message of the chargpt::Error `f` throws, or "" when it throws none.
template <typename F>
QString errorOf(F&& f) {
    try {
        f();
    } catch (const Error& e) {
        return QString::fromStdString(e.what());
    }
    return QString();
}


}  // namespace pytorch_run
