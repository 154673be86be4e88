// SPDX-License-Identifier: GPL-3.0-or-later
// The loss plot's hover tooltip: the exact values under the pointer.
#include "widgets/LossPlot.h"

#include <QMouseEvent>
#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <vector>

#include "widgets/LossPlotData.h"
#include "widgets/Plot.h"

namespace {

// The point of `points` (sorted by step) whose step is nearest to `key`, or null.
template <typename Point>
const Point* nearestStep(const std::vector<Point>& points, double key) {
    if (points.empty())
        return nullptr;
    auto it = std::lower_bound(points.begin(), points.end(), key,
                               [](const Point& p, double k) { return double(p.step) < k; });
    if (it == points.end())
        --it;
    if (it != points.begin()) {
        auto previous = it - 1;
        if (std::abs(double(previous->step) - key) < std::abs(double(it->step) - key))
            it = previous;
    }
    return &*it;
}

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
    if (layout_ == Layout::Runs) {
        lines << seriesToolTipLines(pixel);
    } else if (hasData()) {
        const chargpt::LossCurve& run = curves_->run;
        if (const chargpt::LossCurve::Step* p = nearestStep(run.steps, key)) {
            const double step = double(p->step);
            lines << tr("step %1").arg(step) << tr("train loss %1").arg(formatLoss(p->loss, unit_));
            if (const QCPGraphData* s = nearest(&curves_->smoothed, step))
                lines << tr("smoothed %1").arg(formatLoss(s->value, unit_));
            if (learningRateGraph_->visible() && std::isfinite(p->learningRate))
                lines << tr("learning rate %1").arg(p->learningRate, 0, 'g', 4);
        }
        if (const chargpt::LossCurve::Evaluation* v = nearestStep(run.evaluations, key)) {
            const double pixels = std::abs(plot_->xAxis->coordToPixel(double(v->step)) - pixel.x());
            if (pixels < 20)
                lines << tr("validation loss %1 (step %2)").arg(formatLoss(v->valLoss, unit_)).arg(double(v->step));
        }
    }
    // What the markers mean, when the pointer is on one.
    lines << marks_->toolTipLines(pixel, unit_);
    return lines.join(QLatin1Char('\n'));
}
