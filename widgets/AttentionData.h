// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>
#include <QVector>

#include <cmath>
#include <limits>

// Attention weights of one head as the views take them: plain values, no tensors.
// Rows are queries, columns are keys, both positions of the same probe text.
// Query row r sits at text position firstQueryPosition + r, so a square T x T
// matrix has firstQueryPosition 0 and the attention row of only the newest
// character (1 x T) has firstQueryPosition T - 1.
struct AttentionMatrix {
    QStringList queryChars;  // one character per row
    QStringList keyChars;    // one character per column
    int firstQueryPosition = 0;
    QVector<float> weights;  // row-major queryCount() x keyCount(); NaN where masked

    int queryCount() const { return int(queryChars.size()); }
    int keyCount() const { return int(keyChars.size()); }
    int queryPosition(int row) const { return firstQueryPosition + row; }
    bool isValid() const {
        return queryCount() > 0 && keyCount() > 0 &&
               weights.size() == qsizetype(queryCount()) * keyCount();
    }
    float weight(int row, int key) const { return weights[qsizetype(row) * keyCount() + key]; }
    bool isMasked(int row, int key) const { return std::isnan(weight(row, key)); }

    // Marks every key after its query as masked (NaN), as the causal mask does.
    void applyCausalMask();

    // A square causal matrix over `characters`: weights is T x T row-major;
    // entries above the diagonal are replaced by NaN.
    static AttentionMatrix causal(const QStringList& characters, const QVector<float>& weights);

    static constexpr float masked() { return std::numeric_limits<float>::quiet_NaN(); }
};

struct LayerAttention {
    QVector<AttentionMatrix> heads;
};

// layers[l].heads[h]
struct ModelAttention {
    QVector<LayerAttention> layers;
    int headCount() const { return layers.isEmpty() ? 0 : int(layers.first().heads.size()); }
};

// What a head does, in four numbers computed from its weights. Position 0 can
// only attend to itself, so its row is left out of every mean: a head that
// always looks one character back has distance exactly 1.
struct HeadSummary {
    double entropy = 0.0;             // nats, mean over rows i >= 1
    double meanDistance = 0.0;        // mean over rows i >= 1 of sum_j w_ij * (i - j), in positions
    double previousTokenShare = 0.0;  // mean of w_{i,i-1} over rows i >= 1
    double lineStartShare = 0.0;      // mean weight on the first key of the query's line
};

enum class SummaryFigure { Entropy, MeanDistance, PreviousTokenShare, LineStartShare };

// The line of text position i starts after the last newline before i (or at 0);
// rows that are themselves the start of a line are left out of lineStartShare,
// where attending to it is the only choice for the first row.
HeadSummary summarizeHead(const AttentionMatrix& matrix);

double summaryValue(const HeadSummary& summary, SummaryFigure figure);

// How far a head's attention moved between two snapshots on the same text:
// the mean over rows i >= 1 of the total variation distance between the rows,
// half the sum of |w_ij - v_ij| (0: the same weights; 1: all weight on other
// keys). NaN when the two matrices are not of the same text.
double attentionChange(const AttentionMatrix& now, const AttentionMatrix& then);
QString summaryFigureName(SummaryFigure figure);       // translated, e.g. "Entropy"
QString summaryFigureShortName(SummaryFigure figure);  // translated, e.g. "prev"
QList<SummaryFigure> allSummaryFigures();

// How a character is drawn on an axis: newline, space, tab and end-of-text get
// visible symbols, other control characters a middle dot.
QString displayCharacter(const QString& character);
// A probability or share as every view writes it: "42.0%", "0.35%" below a
// tenth (two decimals), empty when it is not finite.
QString percentText(double share);

// Characters of `text` one code point each (a Chinese character is one entry).
QStringList splitCharacters(const QString& text);
