// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The activation patching lab's values, no tensors: app/PatchingBridge fills
// them from model/analysis/Patching (docs/ARCHITECTURE.md).

#include <QMetaType>
#include <QString>
#include <QStringList>
#include <QVector>

#include <optional>

// What the lab asks: two prompts of the same length and the character whose
// logit difference (over the corrupted run's likeliest other) is measured.
struct PatchingPrompts {
    QString clean, corrupted, target;

    // A preset on `text` (a sample of the corpus): `length` characters of it
    // (whole code points) as the clean prompt, the character after them as the
    // target, and the same prompt with one character changed to another of the
    // text as the corrupted one. `seed` picks where; another seed, another
    // preset. Empty when the text is too short or has one character only.
    static PatchingPrompts presetFrom(const QString& text, int length, quint32 seed);
    // The same change on a prompt of the user's own (or the why window's):
    // `prompt` as the clean one, one character changed (among those of
    // `alphabet`). Empty when it cannot.
    static PatchingPrompts corruptedFrom(const QString& prompt, const QString& target,
                                         const QString& alphabet, quint32 seed);
};

struct PatchingResult {
    QStringList clean, corrupted;  // one character each, the same length
    QString target, wrong;         // the measure: logit[target] - logit[wrong] at the last position
    double cleanDifference = 0.0, corruptedDifference = 0.0;
    int layers = 0, heads = 0;
    // Restored fractions (NaN: not measured). Residual: (layers + 1) x
    // positions, row 0 the embeddings, row i the output of block i. Heads:
    // layers x heads, each head's output patched at every position.
    // Feed-forward: layers x positions, each block's feed-forward output at
    // one position (empty: the model has none).
    QVector<double> residual, perHead, feedForward;
    std::optional<qint64> step;  // of the model; none when unknown
    QString problem;             // why there is no result, or empty

    int positions() const { return int(clean.size()); }
    bool isValid() const {
        return problem.isEmpty() && positions() > 0 &&
               residual.size() == qsizetype(layers + 1) * positions() &&
               perHead.size() == qsizetype(layers) * heads &&
               (feedForward.isEmpty() || feedForward.size() == qsizetype(layers) * positions());
    }
};

Q_DECLARE_METATYPE(PatchingPrompts)
Q_DECLARE_METATYPE(PatchingResult)
