// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

// A tooltip that shows `text` as it is. Qt takes a tooltip that looks like
// markup before its first line break for rich text: a run named
// "<img src=…>" showed a picture from the disk, and a character '<' of the
// probe text started a tag. Every tooltip that holds text from a file, a name
// or the model's characters is set through this: the text escaped, in rich
// text that keeps its spaces and line breaks. Empty stays empty (no tooltip).
QString plainToolTip(const QString& text);
