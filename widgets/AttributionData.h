// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// "Why this character?" as the attribution view takes it: plain values, no
// tensors. app/AttributionBridge fills it from model/analysis/Attribution
// (docs/ARCHITECTURE.md).

#include <QMetaType>
#include <QString>
#include <QStringList>
#include <QVector>

// One part of the model and what it adds to the chosen character's logit.
struct AttributionBar {
    enum Kind { TokenEmbedding, PositionEmbedding, Head, ProjectionBias, FeedForward, FeedForwardBias, FinalNormBias,
                HeadBias };
    Kind kind = TokenEmbedding;
    int layer = -1;  // counted from 0, for the parts of a layer
    int head = -1;   // counted from 0, for a head
    double logit = 0.0;   // its share of the logit
    double margin = 0.0;  // its share of the margin over the runner-up
};

struct CharacterAttribution {
    QStringList characters;  // what the model read, one character each
    QString chosen;          // the character explained, the one after them
    QString runnerUp;        // the likeliest other character
    bool chosenIsTop = false;
    double logit = 0.0, margin = 0.0, probability = 0.0;
    double gap = 0.0;  // the logit minus the sum of the parts: float rounding
    QVector<AttributionBar> bars;        // every part, in the model's order
    QVector<double> gradientTimesInput;  // of each character read
    qint64 step = -1;  // of the model
    QString problem;   // why there is no attribution, or empty

    bool isValid() const { return problem.isEmpty() && !bars.isEmpty(); }
};

Q_DECLARE_METATYPE(CharacterAttribution)
