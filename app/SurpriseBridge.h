// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Where model/analysis/Surprise becomes the widgets' SurpriseText. Qt-only
// header (the checkpoint is only named), for the inspector, the CLI and the tests.

#include <QString>
#include <string_view>

#include "widgets/SurpriseData.h"

namespace chargpt {
struct Checkpoint;
struct SurpriseResult;
}  // namespace chargpt

// Scores `text` with the checkpoint's model (chargpt::computeSurprise: no
// dropout, no gradients, long texts in windows) and returns every character
// of it, those the vocabulary lacks marked unknown, with the checkpoint's step.
// An empty text gives an empty value. With `without`, the text is scored a
// second time with that part knocked out: each character's withoutBits, the
// mean and the part's name (SurpriseText::without). With `against` (the same
// run's weights at an earlier step, A), the text is scored by that model too
// instead: each character's withoutBits, the mean and A's step
// (SurpriseText::comparedStep); a character A's vocabulary lacks is not
// compared. Throws chargpt::Error with a readable message for a text with no
// character in the vocabulary or one too long, or a part the model lacks.
// Call it on the thread that owns the models.
SurpriseText computeSurpriseText(const chargpt::Checkpoint& checkpoint, const QString& text,
                                 const KnockoutPart* without = nullptr,
                                 const chargpt::Checkpoint* against = nullptr);
// The widgets' value of `scored`, what chargpt::computeSurprise made of
// `text` with the checkpoint's model: every character of the text, those the
// vocabulary lacks marked unknown (no knock-out compared).
SurpriseText surpriseTextOf(const chargpt::Checkpoint& checkpoint, std::u32string_view text,
                            const chargpt::SurpriseResult& scored);
// Scores `text` (of which `result` is the widgets' value) a second time with
// `without` knocked out: each character's withoutBits, the mean and the
// part's name. The part must be one the model has.
void addKnockedOut(SurpriseText& result, const chargpt::Checkpoint& checkpoint, std::u32string_view text,
                   const KnockoutPart& without);
