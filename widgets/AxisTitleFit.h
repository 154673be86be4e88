// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A turned axis title that fits its axis: QCustomPlot centres it on the axis
// and cuts both ends where the axis is shorter (a small panel, a larger
// type). The first of several wordings that fits is shown instead: the whole
// title, then shorter or broken into lines.

#include <QStringList>

class QCPAxis;

// Sets the first of `wordings` whose longest line is no longer than `axis`
// as laid out now (the last when none is); a level title above the plot
// (setAxisTitle's, for Chinese) is left as it is. True when the title
// changed: the plot must be laid out again.
bool fitAxisTitle(QCPAxis* axis, const QStringList& wordings);
