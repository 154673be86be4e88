// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// "Why this character?" as the attribution view takes it: plain values, no
// tensors. app/AttributionBridge fills it from model/analysis/Attribution
// (docs/ARCHITECTURE.md).

#include <QMetaType>
#include <QString>
#include <QStringList>
#include <QVector>

#include <optional>

// One part of the model and what it adds to the chosen character's logit.
struct AttributionBar {
    enum Kind { TokenEmbedding, PositionEmbedding, Head, ProjectionBias, FeedForward, FeedForwardBias, FinalNormBias,
                HeadBias };
    Kind kind = TokenEmbedding;
    std::optional<int> layer;  // counted from 0, for the parts of a layer; else none
    std::optional<int> head;   // counted from 0, for a head; else none
    double logit = 0.0;   // its share of the logit
    double margin = 0.0;  // its share of the margin over the runner-up
};

// Where one head looked from the position explained: its softmax weight on
// each character read (they sum to 1).
struct AttentionPath {
    int layer = -1, head = -1;  // counted from 0
    double logit = 0.0;         // what the head adds to the logit
    QVector<double> weights;    // one per character read
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
    QVector<AttentionPath> paths;        // the heads that add most to the logit, most first
    std::optional<qint64> step;          // of the model; none when unknown
    QString problem;                     // why there is no attribution, or empty

    bool isValid() const { return problem.isEmpty() && !bars.isEmpty(); }
};

// The attribution of one clicked character at each kept step of a run (the
// time machine): each part's share of the logit, step by step.
struct AttributionHistory {
    QString chosen;                   // the character explained
    QVector<qint64> steps;            // the kept steps measured, oldest first
    QVector<double> logits;           // its logit at each
    QVector<AttributionBar> parts;    // each part of the model once (their values: at the last step)
    QVector<QVector<double>> values;  // per part, its share of the logit at each step
    QString problem;                  // why there is none, or empty

    bool isValid() const { return problem.isEmpty() && steps.size() >= 2 && values.size() == parts.size(); }
};

Q_DECLARE_METATYPE(CharacterAttribution)
Q_DECLARE_METATYPE(AttributionHistory)
