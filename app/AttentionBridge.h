// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The one place where the model's attention becomes the widgets' values. This
// header is Qt-only (the checkpoint is only named), so widgets, moc'd files and
// the CLI's Qt code include it without LibTorch.

#include <QString>
#include <QStringList>
#include <QVector>

#include <optional>

#include "AttentionData.h"
#include "StudioValues.h"  // AttentionProbe, HeadScores

namespace chargpt {
struct Checkpoint;
}

// Runs the checkpoint's model on `text` in eval mode without gradients and
// returns every layer's attention, or only that of `layer` (0-based) when given.
// Throws chargpt::Error with a readable message for an empty probe, a probe with
// no character in the vocabulary, or a layer the model does not have. A model
// in training mode is cloned, not switched, so call it on the thread that owns
// the model.
AttentionProbe computeAttention(const chargpt::Checkpoint& checkpoint, const QString& text,
                                std::optional<int> layer = std::nullopt);

// Runs the model's blocks up to `layer` on the probe and computes head `head`'s
// q and k there (rows [h*H, (h+1)*H) of the first and second thirds of
// blocks[layer].mha.qkv applied to l1(x)). Same errors, cropping and
// unknown-character handling as computeAttention; a model in training mode is
// cloned, so call it on the thread that owns the model.
HeadScores computeHeadScores(const chargpt::Checkpoint& checkpoint, const QString& text, int layer, int head);
