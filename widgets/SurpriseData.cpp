// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/SurpriseData.h"

#include <QCoreApplication>
#include <QLocale>
#include <algorithm>
#include <array>

#include "widgets/AttentionData.h"  // displayCharacter, percentText

namespace {

// The Surprise tab's words, in its context (a class, so that lupdate finds them).
class SurpriseWords {
    Q_DECLARE_TR_FUNCTIONS(SurpriseView)
};

// A character as the tooltip and the exports name it: visible symbols for
// newline, space and tab, with the quoted character otherwise.
QString quoted(const QString& character) {
    if (character == QLatin1String("\n")) return SurpriseWords::tr("↵ (newline)");
    if (character == QLatin1String(" ")) return SurpriseWords::tr("␣ (space)");
    if (character == QLatin1String("\t")) return SurpriseWords::tr("⇥ (tab)");
    if (character == QLatin1String("<|e|>")) return SurpriseWords::tr("end of text");
    return QStringLiteral("“%1”").arg(displayCharacter(character));
}

QString csvField(const QString& field) {
    if (!field.contains(QLatin1Char(',')) && !field.contains(QLatin1Char('"')) &&
        !field.contains(QLatin1Char('\n')) && !field.contains(QLatin1Char('\r')))
        return field;
    QString escaped = field;
    escaped.replace(QLatin1String("\""), QLatin1String("\"\""));
    return QLatin1Char('"') + escaped + QLatin1Char('"');
}

// "+1.25 bits", "−0.40 bits": a difference in bits, its sign always shown.
QString signedBits(double bits) {
    const QString magnitude = QLocale().toString(std::abs(bits), 'f', 2);
    return SurpriseWords::tr("%1%2 bits")
        .arg(bits < 0 ? QStringLiteral("−") : QStringLiteral("+"), magnitude);
}

// A comparison's mean: "without L1 H2: 3.10 (+0.40)", "at step 200: 3.10 (+0.40)".
QString comparedMean(const SurpriseText& text) {
    const QString bits = QLocale().toString(text.withoutMeanBits, 'f', 2);
    const QString change = signedBits(text.withoutMeanBits - text.meanBits);
    return text.comparedStep ? SurpriseWords::tr("at step %1: %2 (%3)")
                                   .arg(QString::number(*text.comparedStep), bits, change)
                             : SurpriseWords::tr("without %1: %2 (%3)").arg(text.without, bits, change);
}

// The colour at `t` (0..1) along evenly spaced `stops`, linearly between two.
template <std::size_t N>
QColor alongStops(const std::array<QColor, N>& stops, double t) {
    const double x = std::clamp(t, 0.0, 1.0) * double(N - 1);
    const int i = std::min(int(x), int(N) - 2);
    const double f = x - i;
    const QColor& a = stops[std::size_t(i)];
    const QColor& b = stops[std::size_t(i) + 1];
    return QColor::fromRgbF(float(a.redF() + (b.redF() - a.redF()) * f),
                            float(a.greenF() + (b.greenF() - a.greenF()) * f),
                            float(a.blueF() + (b.blueF() - a.blueF()) * f));
}

QString number(double value, int decimals) {
    return std::isfinite(value) ? QString::number(value, 'f', decimals) : QString();
}

}  // namespace

double surpriseScaleMaximum(int vocabularySize) {
    if (vocabularySize < 2) return 8.0;
    return std::max(1.0, std::ceil(std::log2(double(vocabularySize))));
}

QColor surpriseColor(double bits, double maximum) {
    // Stops of a perceptually ordered scale (after matplotlib's "inferno"),
    // whose lightness rises from the first to the last.
    static const std::array<QColor, 6> stops = {QColor(0x00, 0x00, 0x04), QColor(0x42, 0x0a, 0x68),
                                                QColor(0x93, 0x26, 0x67), QColor(0xdd, 0x51, 0x3a),
                                                QColor(0xfc, 0xa5, 0x0a), QColor(0xfc, 0xff, 0xa4)};
    if (!std::isfinite(bits)) return bits > 0 ? stops.back() : stops.front();
    return alongStops(stops, bits / std::max(1e-9, maximum));
}

QColor surpriseDifferenceColor(double difference) {
    // Stops of a diverging scale (after ColorBrewer's RdBu): blue, white, red.
    static const std::array<QColor, 5> stops = {QColor(0x21, 0x66, 0xac), QColor(0x92, 0xc5, 0xde),
                                                QColor(0xf7, 0xf7, 0xf7), QColor(0xf4, 0xa5, 0x82),
                                                QColor(0xb2, 0x18, 0x2b)};
    if (std::isnan(difference)) return stops[2];
    return alongStops(stops, (difference / kSurpriseDifferenceScale + 1.0) / 2.0);
}

QColor surpriseCharColor(const SurpriseText& text, const SurpriseChar& character) {
    if (text.isComparison() && std::isfinite(character.withoutBits))
        return surpriseDifferenceColor(double(character.withoutBits) - double(character.bits));
    return surpriseColor(character.bits, surpriseScaleMaximum(text.vocabularySize));
}

QColor surpriseTextColor(const QColor& background) {
    const double luminance =
        0.2126 * background.redF() + 0.7152 * background.greenF() + 0.0722 * background.blueF();
    return luminance > 0.45 ? QColor(Qt::black) : QColor(Qt::white);
}

QString surpriseToolTip(const SurpriseText& text, int index) {
    if (index < 0 || index >= text.size()) return QString();
    const SurpriseChar& c = text.characters[index];
    if (!c.known)
        return SurpriseWords::tr("%1 is not in the model's vocabulary: left out of what the model read.")
            .arg(quoted(c.character));
    if (!c.scored())
        return SurpriseWords::tr("%1 is the first character: nothing before it to guess it from.")
            .arg(quoted(c.character));
    QStringList lines;
    lines << SurpriseWords::tr("%1: %2 bits (the model gave it %3)")
                 .arg(quoted(c.character), QLocale().toString(double(c.bits), 'f', 2),
                      percentText(c.probability()));
    lines << (c.rank == 1
                  ? SurpriseWords::tr("The model's first guess.")
                  : SurpriseWords::tr("Rank %1 among the model's guesses.").arg(QLocale().toString(c.rank)));
    if (!c.guesses.isEmpty()) {
        lines << SurpriseWords::tr("Its guesses:");
        for (qsizetype g = 0; g < c.guesses.size(); ++g) {
            const double p = g < c.probabilities.size() ? double(c.probabilities[g]) : 0.0;
            lines << QStringLiteral("  %1. %2  %3").arg(g + 1).arg(quoted(c.guesses[g]), percentText(p));
        }
    }
    if (text.isComparison() && std::isfinite(c.withoutBits)) {
        const QString bits = QLocale().toString(double(c.withoutBits), 'f', 2);
        const QString change = signedBits(double(c.withoutBits) - double(c.bits));
        lines << (text.comparedStep
                      ? SurpriseWords::tr("At step %1: %2 bits (%3)")
                            .arg(QString::number(*text.comparedStep), bits, change)
                      : SurpriseWords::tr("Without %1: %2 bits (%3)").arg(text.without, bits, change));
    }
    return lines.join(QLatin1Char('\n'));
}

QString surpriseMeanText(const SurpriseText& text) {
    if (!text.problem.isEmpty()) return text.problem;
    if (text.isEmpty()) return QString();
    QStringList parts;
    if (std::isfinite(text.meanBits))
        parts << QCoreApplication::translate("SurpriseView", "%1 bits per character over %n character(s)",
                                             nullptr, text.scored)
                     .arg(QLocale().toString(text.meanBits, 'f', 2));
    else
        parts << QCoreApplication::translate("SurpriseView",
                                             "too short to score: it needs two characters the model knows");
    if (text.isComparison() && std::isfinite(text.withoutMeanBits) && std::isfinite(text.meanBits))
        parts << comparedMean(text);
    if (text.unknown > 0)
        parts << QCoreApplication::translate("SurpriseView", "%n not in the vocabulary, left out", nullptr,
                                             text.unknown);
    return parts.join(QStringLiteral("; "));
}

const SurpriseText* surpriseComparison(const QVector<SurpriseText>& texts) {
    for (const SurpriseText& text : texts)
        if (text.isComparison()) return &text;
    return nullptr;
}

QString surpriseComparisonText(const QString& without) {
    return SurpriseWords::tr(
               "Colour: how many more bits the model needs without %1. Red: that part helped it read this "
               "character; blue: it reads it better without; white: no difference.")
        .arg(without);
}

QString surpriseComparisonText(const SurpriseText& compared) {
    // A comparison by step is of a scored model, whose step is known.
    if (!compared.comparedStep || !compared.step) return surpriseComparisonText(compared.without);
    return SurpriseWords::tr(
               "Colour: how many more bits the model needed at step %1 than at step %2. Red: "
               "learned in between; blue: it read this character better then; white: no change.")
        .arg(QString::number(*compared.comparedStep), QString::number(*compared.step));
}

QString surpriseDifferenceLabel(const SurpriseText& compared) {
    return compared.comparedStep ? SurpriseWords::tr("Bits more at step %1:").arg(*compared.comparedStep)
                                 : SurpriseWords::tr("Bits more without %1:").arg(compared.without);
}

QString surpriseCsv(const QVector<SurpriseText>& texts) {
    QStringList header{QStringLiteral("text"), QStringLiteral("position"), QStringLiteral("char"),
                       QStringLiteral("bits"), QStringLiteral("rank")};
    for (int g = 1; g <= 5; ++g) header << QStringLiteral("guess%1").arg(g) << QStringLiteral("p%1").arg(g);
    const SurpriseText* compared = surpriseComparison(texts);
    const bool comparison = compared != nullptr;
    const bool byStep = comparison && compared->comparedStep;
    if (byStep)
        header << QStringLiteral("compared_step") << QStringLiteral("bits_at_compared_step");
    else if (comparison)
        header << QStringLiteral("knocked_out") << QStringLiteral("bits_knocked_out");
    QString out = header.join(QLatin1Char(',')) + QLatin1Char('\n');
    for (const SurpriseText& text : texts) {
        for (int i = 0; i < text.size(); ++i) {
            const SurpriseChar& c = text.characters[i];
            QStringList row{csvField(text.label), QString::number(i), csvField(c.character),
                            c.scored() ? number(c.bits, 4) : QString(),
                            c.scored() ? QString::number(c.rank) : QString()};
            for (int g = 0; g < 5; ++g) {
                const bool has = g < c.guesses.size();
                row << (has ? csvField(c.guesses[g]) : QString())
                    << (has && g < c.probabilities.size() ? number(c.probabilities[g], 6) : QString());
            }
            if (comparison)
                // A text not compared says -1 in the file, as it always did.
                row << (byStep ? QString::number(text.comparedStep.value_or(-1)) : csvField(text.without))
                    << (c.scored() ? number(c.withoutBits, 4) : QString());
            out += row.join(QLatin1Char(',')) + QLatin1Char('\n');
        }
    }
    return out;
}

QString surpriseHtml(const QVector<SurpriseText>& texts, const QString& title) {
    QString out;
    out += QStringLiteral("<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n<title>%1</title>\n")
               .arg(title.toHtmlEscaped());
    out += QStringLiteral(
        "<style>\nbody { font-family: sans-serif; margin: 2em; }\n"
        ".text { font-family: monospace; font-size: 15px; line-height: 1.9; white-space: pre-wrap; "
        "word-break: break-all; }\n"
        ".text span { padding: 2px 0; }\n.unknown { color: #888; background: #e8e8e8; text-decoration: "
        "line-through; }\n"
        "</style>\n</head>\n<body>\n");
    out +=
        QStringLiteral("<h1>%1</h1>\n<p>%2</p>\n")
            .arg(title.toHtmlEscaped(), SurpriseWords::tr("Each character is coloured by how surprised the "
                                                          "model was to see it after the characters "
                                                          "before it: dark = expected, bright = surprising "
                                                          "(in bits, −log₂ p). Hover a character for the "
                                                          "model's guesses.")
                                            .toHtmlEscaped());
    if (const SurpriseText* compared = surpriseComparison(texts))
        out += QStringLiteral("<p>%1</p>\n").arg(surpriseComparisonText(*compared).toHtmlEscaped());
    for (const SurpriseText& text : texts) {
        QString heading = text.label;
        if (std::isfinite(text.meanBits))
            heading +=
                QStringLiteral(" — ") +
                SurpriseWords::tr("%1 bits per character").arg(QLocale().toString(text.meanBits, 'f', 2));
        if (text.isComparison() && std::isfinite(text.withoutMeanBits) && std::isfinite(text.meanBits))
            heading += QStringLiteral("; ") + comparedMean(text);
        if (text.step)
            heading += QStringLiteral(" (") + SurpriseWords::tr("step %1").arg(*text.step) + QLatin1Char(')');
        out += QStringLiteral("<h2>%1</h2>\n").arg(heading.toHtmlEscaped());
        if (!text.problem.isEmpty()) out += QStringLiteral("<p>%1</p>\n").arg(text.problem.toHtmlEscaped());
        out += QStringLiteral("<div class=\"text\">");
        for (int i = 0; i < text.size(); ++i) {
            const SurpriseChar& c = text.characters[i];
            const QString tip = surpriseToolTip(text, i).toHtmlEscaped();
            QString shown = c.character;
            if (shown == QLatin1String("\n"))
                shown = QStringLiteral("↵\n");
            else if (shown == QLatin1String("\t"))
                shown = QStringLiteral("⇥   ");
            else if (shown.size() == 1 && shown.at(0).category() == QChar::Other_Control)
                shown = displayCharacter(shown);
            if (!c.known) {
                out += QStringLiteral("<span class=\"unknown\" title=\"%1\">%2</span>")
                           .arg(tip, shown.toHtmlEscaped());
                continue;
            }
            const QColor background = c.scored() ? surpriseCharColor(text, c) : QColor(0xdd, 0xdd, 0xdd);
            const QColor foreground = c.scored() ? surpriseTextColor(background) : QColor(Qt::black);
            out += QStringLiteral("<span style=\"background:%1;color:%2\" title=\"%3\">%4</span>")
                       .arg(background.name(), foreground.name(), tip, shown.toHtmlEscaped());
        }
        out += QStringLiteral("</div>\n");
    }
    out += QStringLiteral("</body>\n</html>\n");
    return out;
}
