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

namespace chargpt {
struct Checkpoint;
}

// The attention of a probe text, ready for AttentionGrid and AttentionOverview.
struct AttentionProbe {
    // layers[i] is layer firstLayer + i of the model; each head a T x T causal
    // matrix labelled with the characters of `text`, NaN above the diagonal.
    ModelAttention attention;
    int firstLayer = 0;
    int modelLayers = 0;  // layers of the model, whether computed or not
    // The T characters the model saw: the probe without the characters it does
    // not know, cropped to its last sequence_len characters.
    QString text;
    // Characters of the probe the vocabulary lacks, left out: their positions (in
    // characters, i.e. code points, of the probe as given) and the characters.
    QVector<int> unknownPositions;
    QStringList unknownCharacters;
    // Known characters dropped from the front to fit the context.
    int croppedCharacters = 0;
};

// Runs the checkpoint's model on `text` (CharGPT::attentionMaps: no dropout and
// no gradients, the model's mode left as it is) and returns every layer's
// attention, or only that of `layer` (0-based) when given. Throws chargpt::Error
// with a readable message for an empty probe, a probe with no character in the
// vocabulary, or a layer the model does not have. Call it on the thread that
// owns the model.
AttentionProbe computeAttention(const chargpt::Checkpoint& checkpoint, const QString& text,
                                std::optional<int> layer = std::nullopt);

// The scaled scores q k^T / sqrt(H) of one head for a probe text, before the
// softmax: what the softmax lab shows "from the live model".
struct HeadScores {
    int layer = 0, head = 0;
    int headSize = 0;
    QStringList characters;  // the T characters of the probe the model saw
    QVector<float> scaled;   // T x T row-major, before the mask
    QVector<float> masked;   // the same with -inf above the diagonal
    double scaledStd = 0.0;    // standard deviation of all T x T scaled scores
    double maskedStd = 0.0;    // of the finite (unmasked) scaled scores
    double unscaledStd = 0.0;  // of all q k^T before dividing by sqrt(H)
    int size() const { return int(characters.size()); }
};

// Head `head` of layer `layer`'s scores for the probe, as CharGPT::attentionMaps
// computes them. Same errors, cropping, unknown-character handling and thread
// as computeAttention.
HeadScores computeHeadScores(const chargpt::Checkpoint& checkpoint, const QString& text, int layer, int head);
