// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Where model/analysis/Attribution becomes the widgets' CharacterAttribution.
// Qt-only header (the checkpoint is only named), for the inspector and the tests.

#include <QStringList>

#include "widgets/AttributionData.h"

namespace chargpt {
struct Checkpoint;
}  // namespace chargpt

// Why the model wrote character `index` of `characters` (one code point each,
// as a text view shows them): the attribution of that character after the
// known characters before it (those the vocabulary lacks are left out, as
// the Surprise view leaves them out), the last context's worth of them. The
// character explained is the clicked one when the vocabulary has it, else the
// model's likeliest. Throws chargpt::Error with a readable message for the
// first character (nothing before it), an index outside the text or a model
// the attribution refuses. Call it on the thread that owns the model.
// With the attribution, the attention paths of the kAttentionPaths heads that
// add most to the logit.
constexpr int kAttentionPaths = 3;
CharacterAttribution attributionOf(const chargpt::Checkpoint& checkpoint, const QStringList& characters, int index);

// The attributions of one character at several steps, oldest first, as lines
// per part: the parts matched by kind, layer and head (those of another
// architecture refused). Its problem says why when fewer than two steps are given.
AttributionHistory historyOf(const QVector<qint64>& steps, const QVector<CharacterAttribution>& attributions);
