// SPDX-License-Identifier: GPL-3.0-or-later
// A head's title and summary figures as text, for the tiles, tooltips and the large view.
#include "widgets/AttentionHeadText.h"

#include <QCoreApplication>
#include <QStringList>

namespace AttentionHeadText {

QString figuresText(const HeadSummary& summary, std::optional<SummaryFigure> emphasised) {
    QStringList parts;
    for (SummaryFigure figure : allSummaryFigures()) {
        const int decimals = figure == SummaryFigure::MeanDistance ? 1 : 2;
        QString part = QStringLiteral("%1 %2").arg(summaryFigureShortName(figure),
                                                   QString::number(summaryValue(summary, figure),
                                                                   'f', decimals));
        if (emphasised && *emphasised == figure)
            part = QStringLiteral("<b>%1</b>").arg(part);
        parts.append(part);
    }
    return parts.mid(0, 2).join(QStringLiteral(" · ")) + QStringLiteral("<br>") +
           parts.mid(2).join(QStringLiteral(" · "));
}

QString figuresSentence(const HeadSummary& summary) {
    QStringList parts;
    for (SummaryFigure figure : allSummaryFigures())
        parts.append(QStringLiteral("%1: %2").arg(
            summaryFigureName(figure), QString::number(summaryValue(summary, figure), 'f', 3)));
    return parts.join(QStringLiteral(", "));
}

QString headTitle(int layer, int head) {
    return QCoreApplication::translate("AttentionGrid", "Layer %1 · head %2").arg(layer + 1).arg(head + 1);
}

}  // namespace AttentionHeadText
