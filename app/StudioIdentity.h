// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The names Qt files the studio's settings and data under, set by both
// programs (chargpt-studio and chargpt), and the files kept there.

#include <QCoreApplication>
#include <QStandardPaths>
#include <QString>

#include <string>

inline void setStudioIdentity() {
    QCoreApplication::setOrganizationName(QStringLiteral("CharGPT"));
    QCoreApplication::setApplicationName(QStringLiteral("CharGPT Studio"));
}

// The run library (model/record/RunLibrary.h), in the user's data folder:
// $XDG_DATA_HOME/CharGPT/CharGPT Studio/runs.sqlite, or under ~/.local/share
// without XDG_DATA_HOME. Empty when there is no data folder (no home).
inline std::string runLibraryPath() {
    const QString folder = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    return folder.isEmpty() ? std::string() : (folder + QStringLiteral("/runs.sqlite")).toStdString();
}
