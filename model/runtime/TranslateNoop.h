// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Marks a text of the model's (a label, a unit, a rung's title) for the
// translators: lupdate reads it as QT_TRANSLATE_NOOP (app/CMakeLists.txt), the
// compiler as the text itself. The window translates it where it shows it;
// the command line prints it as it is. Standard C++ only.
#define CHARGPT_TRANSLATE_NOOP(context, text) text
