// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/SurpriseLegend.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QLinearGradient>
#include <QPainter>

#include <algorithm>
#include <cmath>
#include <functional>

#include "widgets/SurpriseData.h"

namespace {

// Sets up `painter` (saved: restore it) and paints the bar of a legend in
// `target`, coloured by `colourAt(t)` for t from 0 (left) to 1 (right), with
// the pen left for the labels under it. Returns the bar.
QRectF paintBar(QPainter& painter, const QRectF& target, const QFont& font, const QColor& textColor,
                const std::function<QColor(double)>& colourAt) {
    painter.save();
    painter.setFont(font);
    const QFontMetricsF metrics(font);
    const double barHeight = std::max(8.0, target.height() - metrics.height() - 4);
    const QRectF bar(target.left() + 4, target.top(), target.width() - 8, barHeight);
    QLinearGradient gradient(bar.topLeft(), bar.topRight());
    for (int i = 0; i <= 20; ++i)
        gradient.setColorAt(i / 20.0, colourAt(i / 20.0));
    painter.fillRect(bar, gradient);
    painter.setPen(textColor);
    return bar;
}

}  // namespace

SurpriseLegend::SurpriseLegend(QWidget* parent) : QWidget(parent) {
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void SurpriseLegend::setMaximum(double bits) {
    maximum_ = bits;
    update();
}

void SurpriseLegend::setDifference(bool difference) {
    difference_ = difference;
    update();
}

QSize SurpriseLegend::sizeHint() const { return QSize(320, fontMetrics().height() * 2 + 12); }

void SurpriseLegend::paintLegend(QPainter& painter, const QRectF& target, double maximum, const QFont& font,
                                 const QColor& textColor) {
    const QRectF bar = paintBar(painter, target, font, textColor,
                                [maximum](double t) { return surpriseColor(maximum * t, maximum); });
    const QFontMetricsF metrics(font);
    const int steps = int(std::ceil(maximum));
    // The last label ("12+ bits") is drawn first; a tick label that would run
    // into it or into the previous label is left out (its tick stays).
    const QString lastLabel = QCoreApplication::translate("SurpriseView", "%1+ bits").arg(steps);
    const double lastWidth = metrics.horizontalAdvance(lastLabel);
    const double lastLeft = std::clamp(bar.right() - lastWidth / 2, target.left(), target.right() - lastWidth);
    painter.drawText(QPointF(lastLeft, bar.bottom() + 3 + metrics.ascent()), lastLabel);
    double free = target.left();
    for (int b = 0; b <= steps; ++b) {
        const double x = bar.left() + bar.width() * std::min(1.0, b / maximum);
        painter.drawLine(QPointF(x, bar.bottom()), QPointF(x, bar.bottom() + 3));
        if (b == steps)
            break;
        const QString label = QString::number(b);
        const double w = metrics.horizontalAdvance(label);
        const double left = std::max(x - w / 2, target.left());
        if (left < free || left + w > lastLeft - 4)
            continue;
        painter.drawText(QPointF(left, bar.bottom() + 3 + metrics.ascent()), label);
        free = left + w + 4;
    }
    painter.restore();
}

void SurpriseLegend::paintDifferenceLegend(QPainter& painter, const QRectF& target, const QFont& font,
                                           const QColor& textColor) {
    const double scale = kSurpriseDifferenceScale;
    const QRectF bar = paintBar(painter, target, font, textColor,
                                [scale](double t) { return surpriseDifferenceColor(scale * (2.0 * t - 1.0)); });
    const QFontMetricsF metrics(font);
    // Every other bit labelled, the sign always shown; the last one with its unit.
    const int steps = int(std::ceil(scale));
    for (int b = -steps; b <= steps; ++b) {
        const double x = bar.left() + bar.width() * (b + scale) / (2.0 * scale);
        painter.drawLine(QPointF(x, bar.bottom()), QPointF(x, bar.bottom() + 3));
        if (b % 2 != 0)
            continue;
        QString label = b == 0 ? QStringLiteral("0") : (b < 0 ? QStringLiteral("−%1") : QStringLiteral("+%1")).arg(std::abs(b));
        if (b == steps)
            label = QCoreApplication::translate("SurpriseView", "%1 bits").arg(label);
        const double w = metrics.horizontalAdvance(label);
        const double left = std::clamp(x - w / 2, target.left(), target.right() - w);
        painter.drawText(QPointF(left, bar.bottom() + 3 + metrics.ascent()), label);
    }
    painter.restore();
}

void SurpriseLegend::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    const QRectF target = QRectF(rect()).adjusted(0, 2, 0, 0);
    if (difference_)
        paintDifferenceLegend(painter, target, font(), palette().color(QPalette::WindowText));
    else
        paintLegend(painter, target, maximum_, font(), palette().color(QPalette::WindowText));
}
