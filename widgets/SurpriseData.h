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
    qint64 step = -1;         // of the model that scored it
    QString problem;          // why the text could not be scored, or empty

    bool isEmpty() const { return characters.isEmpty(); }
    int size() const { return int(characters.size()); }
};

// The top of the colour scale, in bits: the surprise of a uniform guess over
// the vocabulary (log2 V), rounded up; 8 when the vocabulary is not known.
double surpriseScaleMaximum(int vocabularySize);
// Sequential scale (dark purple, red, orange, pale yellow): 0 bits is darkest
// (expected), `maximum` and beyond brightest (surprising). Brightness grows
// with bits.
QColor surpriseColor(double bits, double maximum);
// Black or white, whichever reads better on `background`.
QColor surpriseTextColor(const QColor& background);

// The tooltip of character `index`: its bits and probability, the rank of the
// true character and the model's five guesses with their probabilities.
QString surpriseToolTip(const SurpriseText& text, int index);

// The exports of the view and of `chargpt surprise`: a table with one row per
// character (text, position, character, bits, rank, guesses and
// probabilities), and a page with each character a span coloured by its bits
// whose title is its tooltip. Both escape what they must.
QString surpriseCsv(const QVector<SurpriseText>& texts);
QString surpriseHtml(const QVector<SurpriseText>& texts, const QString& title);

Q_DECLARE_METATYPE(SurpriseText)
