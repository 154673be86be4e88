// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The one place where the model's attention becomes the widgets' values. This
// header is Qt-only (the checkpoint is only named), so widgets, moc'd files and
// the CLI's Qt code include it without LibTorch.

#include <QString>
#include <QStringList>
#include <QVector>

#include <optional>

#include "widgets/AttentionData.h"
#include "widgets/StudioValues.h"  // AttentionProbe, HeadScores

namespace chargpt {
struct Checkpoint;
}

// Runs the checkpoint's model on `text` (CharGPT::attentionMaps: no dropout and
// no gradients, the model's mode left as it is) and returns every layer's
// attention, or only that of `layer` (0-based) when given. Throws chargpt::Error
// with a readable message for an empty probe, a probe with no character in the
// vocabulary, or a layer the model does not have. Call it on the thread that
// owns the model.
AttentionProbe computeAttention(const chargpt::Checkpoint& checkpoint, const QString& text,
                                std::optional<int> layer = std::nullopt);

// Head `head` of layer `layer`'s scores for the probe, as CharGPT::attentionMaps
// computes them. Same errors, cropping, unknown-character handling and thread
// as computeAttention.
HeadScores computeHeadScores(const chargpt::Checkpoint& checkpoint, const QString& text, int layer, int head);
