// SPDX-License-Identifier: GPL-3.0-or-later
// Every font a plot shows, named by what shows it, for the tests that check
// presentation mode's type on the plots (tst_plotfonts, tst_presentation).
#pragma once

#include <QFont>
#include <QList>
#include <QString>

#include <utility>

#include "qcustomplot.h"

namespace plot_fonts {

// Every font of `plot` (axes' tick labels and titles, colour scales, title
// elements, the legend and its entries, text items), in one order.
inline QList<std::pair<QString, QFont>> fontsOf(QCustomPlot* plot) {
    QList<std::pair<QString, QFont>> fonts;
    const auto axis = [&](const QString& name, QCPAxis* a) {
        fonts.append({name + QStringLiteral(" ticks"), a->tickLabelFont()});
        fonts.append({name + QStringLiteral(" title"), a->labelFont()});
    };
    int n = 0;
    for (QCPLayoutElement* element : plot->plotLayout()->elements(true)) {
        const QString name = QString::number(n++);
        if (auto* rect = qobject_cast<QCPAxisRect*>(element)) {
            const QList<QCPAxis*> axes = rect->axes();
            for (int i = 0; i < axes.size(); ++i) axis(name + QStringLiteral(" axis %1").arg(i), axes[i]);
        }
        if (auto* scale = qobject_cast<QCPColorScale*>(element))
            axis(name + QStringLiteral(" colours"), scale->axis());
        if (auto* title = qobject_cast<QCPTextElement*>(element))
            fonts.append({name + QStringLiteral(" title"), title->font()});
    }
    if (plot->legend) {
        fonts.append({QStringLiteral("legend"), plot->legend->font()});
        for (int i = 0; i < plot->legend->itemCount(); ++i)
            fonts.append({QStringLiteral("legend entry %1").arg(i), plot->legend->item(i)->font()});
    }
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto* text = qobject_cast<QCPItemText*>(plot->item(i)))
            fonts.append({QStringLiteral("text %1").arg(i), text->font()});
    return fonts;
}

// The size of `font` in its own unit (points, or pixels where it has none).
inline double sizeOf(const QFont& font) {
    return font.pointSizeF() > 0 ? font.pointSizeF() : font.pixelSize();
}

}  // namespace plot_fonts
