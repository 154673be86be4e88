// SPDX-License-Identifier: GPL-3.0-or-later
// A head's title and summary figures as text, for the tiles, tooltips and the large view.
#pragma once

#include <QString>

#include <optional>

#include "widgets/AttentionData.h"

namespace AttentionHeadText {

// The figures in two lines of rich text, the emphasised one in bold.
QString figuresText(const HeadSummary& summary, std::optional<SummaryFigure> emphasised);
// The figures in one sentence, with their full names.
QString figuresSentence(const HeadSummary& summary);
// "Layer 1 · head 2" for layer 0, head 1: indices from 0, shown from 1.
QString headTitle(int layer, int head);

}  // namespace AttentionHeadText
