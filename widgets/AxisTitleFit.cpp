// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/AxisTitleFit.h"

#include <qcustomplot.h>
#include <QFontMetricsF>

#include <algorithm>

#include "widgets/Plot.h"

bool fitAxisTitle(QCPAxis* axis, const QStringList& wordings) {
    if (!axis || wordings.isEmpty() || levelAxisTitle(axis)) return false;
    const QRect rect = axis->axisRect()->rect();
    const double length = axis->orientation() == Qt::Vertical ? rect.height() : rect.width();
    const QFontMetricsF metrics(axis->labelFont());
    QString chosen = wordings.last();
    for (const QString& wording : wordings) {
        double longest = 0.0;
        for (const QString& line : wording.split(QLatin1Char('\n')))
            longest = std::max(longest, metrics.horizontalAdvance(line));
        if (longest <= length) {
            chosen = wording;
            break;
        }
    }
    if (axis->label() == chosen) return false;
    axis->setLabel(chosen);
    return true;
}
