// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// How surprised a model was by each character of a text, as the Surprise view
// and its exports take it: plain values, no tensors. app/SurpriseBridge fills
// them from model/analysis/Surprise (docs/ARCHITECTURE.md).

#include <QColor>
#include <QMetaType>
#include <QString>
#include <QStringList>
#include <QVector>

#include <cmath>
#include <limits>
#include <optional>

#include "widgets/InsideData.h"  // KnockoutPart

// One character of a scored text.
struct SurpriseChar {
    QString character;  // one code point
    // -log2 p(character | the characters before it); NaN when not scored: the
    // first character the model knows, or one it does not know.
    float bits = std::numeric_limits<float>::quiet_NaN();
    int rank = 0;       // 1: the model's likeliest guess; 0 when not scored
    bool known = true;  // false: not in the vocabulary, left out of what the model read
    QStringList guesses;           // the likeliest next characters, likeliest first (up to 5)
    QVector<float> probabilities;  // of each guess
    // The bits of the model compared with: with SurpriseText::without knocked
    // out, or at SurpriseText::comparedStep; NaN when not compared.
    float withoutBits = std::numeric_limits<float>::quiet_NaN();

    bool scored() const { return !std::isnan(bits); }
    double probability() const { return scored() ? std::exp2(-double(bits)) : 0.0; }
};

// One scored text (a pane of the view).
struct SurpriseText {
    QString label;  // what the text is ("Validation text"); the exports' heading
    QVector<SurpriseChar> characters;
    double meanBits = std::numeric_limits<double>::quiet_NaN();  // over the scored characters
    int scored = 0;
    int unknown = 0;          // characters left out: not in the vocabulary
    int vocabularySize = 0;   // of the model, end-of-text included; 0 when unknown
    std::optional<qint64> step;  // of the model that scored it; none when unknown
    QString problem;          // why the text could not be scored, or empty
    // The part of the model knocked out for comparison ("L1 H2"), or empty;
    // then each character's withoutBits and this mean are of the model without it.
    QString without;
    // Or the earlier step (A) of the same run compared with: then each
    // character's withoutBits and this mean are those of the model at that step.
    std::optional<qint64> comparedStep;
    double withoutMeanBits = std::numeric_limits<double>::quiet_NaN();

    bool isEmpty() const { return characters.isEmpty(); }
    bool isComparison() const { return !without.isEmpty() || comparedStep; }
    int size() const { return int(characters.size()); }
};

// What the Surprise view asks to have scored: its texts (by pane), and what to
// compare with, if anything: the model without a part, or the model at a step
// the timeline marked (A; `against` wins when both are given).
struct SurpriseRequest {
    QStringList texts;
    std::optional<KnockoutPart> without;
    std::optional<KeptStep> against;
};

// The top of the colour scale, in bits: the surprise of a uniform guess over
// the vocabulary (log2 V), rounded up; 8 when the vocabulary is not known.
double surpriseScaleMaximum(int vocabularySize);
// Sequential scale (dark purple, red, orange, pale yellow): 0 bits is darkest
// (expected), `maximum` and beyond brightest (surprising). Brightness grows
// with bits.
QColor surpriseColor(double bits, double maximum);
// The difference scale of a comparison, in bits either side of 0.
constexpr double kSurpriseDifferenceScale = 4.0;
// Diverging scale for withoutBits - bits: white at 0, red when the model is
// more surprised without the part (the part helped here), blue when less;
// full colour at kSurpriseDifferenceScale and beyond.
QColor surpriseDifferenceColor(double difference);
// The colour of a scored character of `text`: its difference when the text is
// a comparison (and the character was compared), else its bits.
QColor surpriseCharColor(const SurpriseText& text, const SurpriseChar& character);
// Black or white, whichever reads better on `background`.
QColor surpriseTextColor(const QColor& background);

// The tooltip of character `index`: its bits and probability, the rank of the
// true character and the model's five guesses with their probabilities; in a
// comparison, its bits without the part.
QString surpriseToolTip(const SurpriseText& text, int index);

// What a text's heading says under its title: the mean in bits per character
// over how many characters (and without the part, in a comparison), how many
// were left out, or why it was not scored; empty for an empty text.
QString surpriseMeanText(const SurpriseText& text);

// The first comparison among `texts`, or null.
const SurpriseText* surpriseComparison(const QVector<SurpriseText>& texts);
// What the colours of a comparison without `without` ("L1 H2") mean.
QString surpriseComparisonText(const QString& without);
// What the colours of `compared` mean: without its part, or between its
// compared step (A) and its own step.
QString surpriseComparisonText(const SurpriseText& compared);
// The label of the difference scale: "Bits more without L1 H2:", "Bits more at step 200:".
QString surpriseDifferenceLabel(const SurpriseText& compared);

// The exports of the view and of `chargpt surprise`: a table with one row per
// character (text, position, character, bits, rank, guesses and
// probabilities; with a comparison, the part and the bits without it), and a
// page with each character a span coloured as in the view whose title is its
// tooltip. Both escape what they must.
QString surpriseCsv(const QVector<SurpriseText>& texts);
QString surpriseHtml(const QVector<SurpriseText>& texts, const QString& title);

Q_DECLARE_METATYPE(SurpriseText)
