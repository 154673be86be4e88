// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/AttentionData.h"

#include <QCoreApplication>
#include <QLocale>

#include <cmath>
#include <limits>

void AttentionMatrix::applyCausalMask() {
    for (int row = 0; row < queryCount(); ++row)
        for (int key = queryPosition(row) + 1; key < keyCount(); ++key)
            weights[qsizetype(row) * keyCount() + key] = masked();
}

AttentionMatrix AttentionMatrix::causal(const QStringList& characters,
                                        const QVector<float>& weights) {
    AttentionMatrix matrix;
    matrix.queryChars = characters;
    matrix.keyChars = characters;
    matrix.weights = weights;
    matrix.weights.resize(qsizetype(characters.size()) * characters.size());
    matrix.applyCausalMask();
    return matrix;
}

namespace {

bool isNewline(const QString& character) {
    return character == QLatin1String("\n");
}

}  // namespace

HeadSummary summarizeHead(const AttentionMatrix& matrix) {
    HeadSummary summary;
    if (!matrix.isValid())
        return summary;

    const int keys = matrix.keyCount();
    double entropySum = 0.0, distanceSum = 0.0, previousSum = 0.0, lineStartSum = 0.0;
    int rows = 0, rowsWithPrevious = 0, rowsAfterLineStart = 0;

    // Line start of each key position, from the key characters.
    QVector<int> lineStart(keys, 0);
    for (int position = 1; position < keys; ++position)
        lineStart[position] =
            isNewline(matrix.keyChars[position - 1]) ? position : lineStart[position - 1];

    for (int row = 0; row < matrix.queryCount(); ++row) {
        const int position = matrix.queryPosition(row);
        if (position < 1)
            continue;
        double entropy = 0.0, distance = 0.0;
        for (int key = 0; key < keys; ++key) {
            const double w = matrix.weight(row, key);
            if (std::isnan(w) || w <= 0.0)
                continue;
            entropy -= w * std::log(w);
            distance += w * (position - key);
        }
        entropySum += entropy;
        distanceSum += distance;
        ++rows;

        if (position - 1 < keys) {
            const double w = matrix.weight(row, position - 1);
            previousSum += std::isnan(w) ? 0.0 : w;
            ++rowsWithPrevious;
        }
        if (position < keys && lineStart[position] < position) {
            const double w = matrix.weight(row, lineStart[position]);
            lineStartSum += std::isnan(w) ? 0.0 : w;
            ++rowsAfterLineStart;
        }
    }
    if (rows > 0) {
        summary.entropy = entropySum / rows;
        summary.meanDistance = distanceSum / rows;
    }
    summary.previousTokenShare = rowsWithPrevious ? previousSum / rowsWithPrevious : 0.0;
    summary.lineStartShare = rowsAfterLineStart ? lineStartSum / rowsAfterLineStart : 0.0;
    return summary;
}

double summaryValue(const HeadSummary& summary, SummaryFigure figure) {
    switch (figure) {
    case SummaryFigure::Entropy:
        return summary.entropy;
    case SummaryFigure::MeanDistance:
        return summary.meanDistance;
    case SummaryFigure::PreviousTokenShare:
        return summary.previousTokenShare;
    case SummaryFigure::LineStartShare:
        return summary.lineStartShare;
    }
    return 0.0;
}

double attentionChange(const AttentionMatrix& now, const AttentionMatrix& then) {
    const double none = std::numeric_limits<double>::quiet_NaN();
    if (!now.isValid() || !then.isValid() || now.queryCount() != then.queryCount() ||
        now.firstQueryPosition != then.firstQueryPosition || now.keyChars != then.keyChars)
        return none;
    double sum = 0.0;
    int rows = 0;
    for (int r = 0; r < now.queryCount(); ++r) {
        if (now.queryPosition(r) < 1) continue;  // position 0 can only attend to itself
        double row = 0.0;
        for (int k = 0; k < now.keyCount(); ++k)
            if (!now.isMasked(r, k) && !then.isMasked(r, k))
                row += std::abs(double(now.weight(r, k)) - double(then.weight(r, k)));
        sum += row / 2.0;
        ++rows;
    }
    return rows > 0 ? sum / rows : none;
}

QString summaryFigureName(SummaryFigure figure) {
    switch (figure) {
    case SummaryFigure::Entropy:
        return QCoreApplication::translate("AttentionData", "Entropy");
    case SummaryFigure::MeanDistance:
        return QCoreApplication::translate("AttentionData", "Mean distance");
    case SummaryFigure::PreviousTokenShare:
        return QCoreApplication::translate("AttentionData", "Previous-character share");
    case SummaryFigure::LineStartShare:
        return QCoreApplication::translate("AttentionData", "Line-start share");
    }
    return QString();
}

QString summaryFigureShortName(SummaryFigure figure) {
    switch (figure) {
    case SummaryFigure::Entropy:
        return QCoreApplication::translate("AttentionData", "ent");
    case SummaryFigure::MeanDistance:
        return QCoreApplication::translate("AttentionData", "dist");
    case SummaryFigure::PreviousTokenShare:
        return QCoreApplication::translate("AttentionData", "prev");
    case SummaryFigure::LineStartShare:
        return QCoreApplication::translate("AttentionData", "start");
    }
    return QString();
}

QList<SummaryFigure> allSummaryFigures() {
    return {SummaryFigure::Entropy, SummaryFigure::MeanDistance,
            SummaryFigure::PreviousTokenShare, SummaryFigure::LineStartShare};
}

QString percentText(double share) {
    return std::isfinite(share) ? QLocale().toString(100.0 * share, 'f', share >= 0.1 ? 1 : 2) + QLatin1Char('%')
                                : QString();
}

QString displayCharacter(const QString& character) {
    if (character == QLatin1String("\n"))
        return QStringLiteral("\u21B5");  // ↵
    if (character == QLatin1String(" "))
        return QStringLiteral("\u2423");  // ␣
    if (character == QLatin1String("\t"))
        return QStringLiteral("\u21E5");  // ⇥
    if (character == QLatin1String("\r"))
        return QStringLiteral("\u240D");  // ␍
    if (character == QLatin1String("<|e|>") || character.isEmpty())
        return QStringLiteral("\u2205");  // ∅
    if (character.size() == 1 && character.at(0).category() == QChar::Other_Control)
        return QStringLiteral("\u00B7");
    return character;
}

QStringList splitCharacters(const QString& text) {
    QStringList characters;
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (text.at(i).isHighSurrogate() && i + 1 < text.size() && text.at(i + 1).isLowSurrogate()) {
            characters.append(text.mid(i, 2));
            ++i;
        } else {
            characters.append(QString(text.at(i)));
        }
    }
    return characters;
}
