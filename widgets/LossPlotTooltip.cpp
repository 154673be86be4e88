// SPDX-License-Identifier: GPL-3.0-or-later
// The loss plot's hover tooltip: the exact values under the pointer.
#include "LossPlot.h"

#include <QMouseEvent>
#include <QToolTip>
#include <qcustomplot.h>

#include <cmath>

#include "LossPlotNats.h"

namespace {

// The point of `data` whose key is nearest to `key`, or null.
const QCPGraphData* nearest(const QCPGraphDataContainer* data, double key) {
    if (data->isEmpty())
        return nullptr;
    auto it = data->findBegin(key, /*expandedRange=*/false);
    if (it == data->constEnd())
        --it;
    if (it != data->constBegin()) {
        auto previous = it - 1;
        if (std::abs(previous->key - key) < std::abs(it->key - key))
            it = previous;
    }
    return &*it;
}

}  // namespace

void LossPlot::showTooltip(QMouseEvent* event) {
    const QString text = toolTipAt(event->position());
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), text, plot_);
}

QString LossPlot::toolTipAt(const QPointF& pixel) const {
    QStringList lines;
    const double key = plot_->xAxis->pixelToCoord(pixel.x());
    if (hasData()) {
        if (const QCPGraphData* p = nearest(&nats_->train, key)) {
            lines << tr("step %1").arg(p->key) << tr("train loss %1").arg(formatLoss(p->value, unit_));
            if (const QCPGraphData* s = nearest(&nats_->smoothed, p->key))
                lines << tr("smoothed %1").arg(formatLoss(s->value, unit_));
            if (learningRateGraph_->visible())
                if (const QCPGraphData* r = nearest(learningRateGraph_->data().data(), p->key))
                    lines << tr("learning rate %1").arg(r->value, 0, 'g', 4);
        }
        if (const QCPGraphData* v = nearest(&nats_->val, key)) {
            const double pixels = std::abs(plot_->xAxis->coordToPixel(v->key) - pixel.x());
            if (pixels < 20)
                lines << tr("validation loss %1 (step %2)").arg(formatLoss(v->value, unit_)).arg(v->key);
        }
    }
    // What the markers mean, when the pointer is on one.
    lines << marks_->toolTipLines(pixel, unit_);
    return lines.join(QLatin1Char('\n'));
}
