// SPDX-License-Identifier: GPL-3.0-or-later
// The file dialog every attention export goes through.
#pragma once

#include <QString>

#include <functional>

class QWidget;

// Asks for a PNG or SVG file name (starting at `suggestedName`) and runs
// `write` on it; a failure is shown in a message box. False when cancelled or
// failed.
bool exportWithFileDialog(QWidget* parent, const QString& suggestedName,
                          const std::function<bool(const QString&, QString*)>& write);
