// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

// Text shown on a terminal, made safe: the one place where untrusted text (a
// prompt, what a model learned, a weight name or key from a checkpoint, a file
// name, a field of the run library, a message built from any of them) is
// prepared for printing, so that its bytes cannot move the cursor, clear the
// screen, set the window title, send the terminal commands or reorder the line.
// C0 controls and ESC (newline and tab too unless `breaks` keeps them) become
// \xHH; DEL, the C1 controls (U+0080 to U+009F) and the bidirectional overrides
// and isolates (U+202A to U+202E, U+2066 to U+2069) become \uHHHH; a byte that
// is not part of valid UTF-8 (a lone 0x9B, which some terminals take for CSI)
// becomes \xHH. Everything else is kept as it is.
enum class LineBreaks { Keep, Escape };
std::string terminalSafe(const std::string& text, LineBreaks breaks = LineBreaks::Keep);
