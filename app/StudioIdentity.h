// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The names Qt files the studio's settings and data under, set by both
// programs (chargpt-studio and chargpt), and the files kept there.

#include <QCoreApplication>
#include <QStandardPaths>
#include <QString>

#include <memory>
#include <string>

#include "model/record/RunLibrary.h"

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

// A connection of its own to the run library, for a thread that reads kept
// weights (the inspector, the filmstrip). Throws chargpt::Error when there is
// no data folder or the library cannot be opened.
inline std::unique_ptr<chargpt::RunLibrary> openRunLibraryToReadKept() {
    const std::string path = runLibraryPath();
    if (path.empty()) throw chargpt::Error("there is no data folder, so no run is kept.");
    return chargpt::RunLibrary::open(path);
}
