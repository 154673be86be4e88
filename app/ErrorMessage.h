// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <c10/util/Exception.h>  // LibTorch before Qt

#include <QString>

#include <exception>

// The message of an exception thrown by the model or by LibTorch, as the window
// shows it: a LibTorch error without the C++ stack it carries.
inline QString messageOf(const std::exception& error) {
    if (const auto* torchError = dynamic_cast<const c10::Error*>(&error))
        return QString::fromUtf8(torchError->what_without_backtrace());
    return QString::fromUtf8(error.what());
}
