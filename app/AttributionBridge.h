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
CharacterAttribution attributionOf(const chargpt::Checkpoint& checkpoint, const QStringList& characters, int index);
