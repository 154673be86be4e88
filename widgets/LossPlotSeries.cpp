// SPDX-License-Identifier: GPL-3.0-or-later
// The loss plot's Runs layout: several named series, a colour each, against the
// step, the tokens seen or the time; their tooltips and their CSV.
#include "widgets/LossPlot.h"

#include <QTextStream>

#include <cmath>

#include "widgets/LossPlotData.h"
#include "widgets/ViewExport.h"
#include "widgets/Plot.h"

// Colours that stay apart for the first series (ColorBrewer's Dark2, then Set1).
QColor runSeriesColor(int i) {
    static const QColor colors[] = {QColor(0x1b, 0x9e, 0x77), QColor(0xd9, 0x5f, 0x02), QColor(0x75, 0x70, 0xb3),
                                    QColor(0xe7, 0x29, 0x8a), QColor(0x66, 0xa6, 0x1e), QColor(0xe6, 0xab, 0x02),
                                    QColor(0xa6, 0x76, 0x1d), QColor(0x37, 0x7e, 0xb8), QColor(0xe4, 0x1a, 0x1c),
                                    QColor(0x4d, 0x4d, 0x4d)};
    return colors[i % int(std::size(colors))];
}

namespace {

// Where a point lies on the x axis chosen; NaN when the store does not know.
template <typename Point>
double xOf(const Point& p, LossPlot::XAxis axis) {
    switch (axis) {
    case LossPlot::XAxis::Step: return double(p.step);
    case LossPlot::XAxis::Tokens: return p.tokens >= 0 ? double(p.tokens) : std::nan("");
    case LossPlot::XAxis::Seconds: return p.seconds;
    }
    return std::nan("");
}

QVector<double> inUnit(const QVector<double>& nats, LossUnit unit) {
    QVector<double> shown;
    shown.reserve(nats.size());
    for (double v : nats)
        shown << lossInUnit(v, unit);
    return shown;
}

}  // namespace

void LossPlot::setSeries(const QVector<Series>& series) {
    if (layout_ != Layout::Runs)
        return;
    for (LossPlotDrawnSeries& d : curves_->series)
        removeSeriesGraphs(d);
    curves_->series.clear();
    for (const Series& s : series) {
        LossPlotDrawnSeries drawn;
        drawn.given = s;
        curves_->series.append(drawn);
    }
    followData_ = true;
    redrawSeries();
}

int LossPlot::seriesCount() const { return int(curves_->series.size()); }

void LossPlot::setXAxis(XAxis axis) {
    if (axis == axis_)
        return;
    axis_ = axis;
    plot_->xAxis->setLabel(xAxisLabel());
    followData_ = true;
    redrawSeries();
}

void LossPlot::setTrainingShown(bool on) {
    if (on == trainingShown_)
        return;
    trainingShown_ = on;
    followData_ = true;
    redrawSeries();
}

void LossPlot::removeSeriesGraphs(LossPlotDrawnSeries& d) {
    for (QCPGraph* graph : {d.valGraph, d.lowGraph, d.highGraph, d.trainGraph})
        if (graph)
            plot_->removeGraph(graph);  // and its legend item
    d.valGraph = d.lowGraph = d.highGraph = d.trainGraph = nullptr;
}

void LossPlot::redrawSeries() {
    if (layout_ != Layout::Runs)
        return;
    plot_->setCurrentLayer(QStringLiteral("curves"));
    for (int i = 0; i < curves_->series.size(); ++i) {
        LossPlotDrawnSeries& d = curves_->series[i];
        removeSeriesGraphs(d);
        d.valX.clear(), d.val.clear(), d.valLow.clear(), d.valHigh.clear(), d.trainX.clear(), d.train.clear();

        // The points the axis knows, in nats; the training loss smoothed by the step gap.
        const Series& s = d.given;
        const bool band = s.valLow.size() == qsizetype(s.curve.evaluations.size()) &&
                          s.valHigh.size() == s.valLow.size() && !s.valLow.isEmpty();
        for (std::size_t e = 0; e < s.curve.evaluations.size(); ++e) {
            const chargpt::LossCurve::Evaluation& point = s.curve.evaluations[e];
            const double x = xOf(point, axis_);
            if (!std::isfinite(x) || !std::isfinite(point.valLoss))
                continue;
            d.valX << x;
            d.val << point.valLoss;
            if (band) {
                d.valLow << s.valLow[qsizetype(e)];
                d.valHigh << s.valHigh[qsizetype(e)];
            }
        }
        GapSmoother smoother(smoothing_);
        for (const chargpt::LossCurve::Step& point : s.curve.steps) {
            const double x = xOf(point, axis_);
            if (!std::isfinite(x) || !std::isfinite(point.loss))
                continue;
            d.trainX << x;
            d.train << smoother.add(double(point.step), point.loss);
        }

        const QColor color = runSeriesColor(i);
        if (band) {
            QColor fill = color;
            fill.setAlpha(50);
            d.lowGraph = plot_->addGraph();
            d.lowGraph->setData(d.valX, inUnit(d.valLow, unit_), true);
            d.lowGraph->setPen(Qt::NoPen);
            d.lowGraph->removeFromLegend();
            d.highGraph = plot_->addGraph();
            d.highGraph->setData(d.valX, inUnit(d.valHigh, unit_), true);
            d.highGraph->setPen(Qt::NoPen);
            d.highGraph->setBrush(fill);
            d.highGraph->setChannelFillGraph(d.lowGraph);
            d.highGraph->removeFromLegend();
        }
        d.valGraph = plot_->addGraph();
        d.valGraph->setName(s.name);
        d.valGraph->setData(d.valX, inUnit(d.val, unit_), true);
        d.valGraph->setPen(QPen(color, band ? 3.0 : 2.0));
        d.valGraph->setScatterStyle(
            QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(color, 1.2), QBrush(Qt::white), 5.0));
        if (trainingShown_ && !d.train.isEmpty()) {
            d.trainGraph = plot_->addGraph();
            d.trainGraph->setData(d.trainX, inUnit(d.train, unit_), true);
            d.trainGraph->setPen(QPen(color, 1.2, Qt::DashLine));
            d.trainGraph->removeFromLegend();
        }
    }
    plot_->setCurrentLayer(QStringLiteral("main"));
    placeLegend();
    scheduleReplot();
}

QStringList LossPlot::seriesToolTipLines(const QPointF& pixel) const {
    // Each series' validation point under the pointer.
    QStringList lines;
    const QString axis = xAxisLabel();
    for (const LossPlotDrawnSeries& d : curves_->series) {
        for (int i = 0; i < d.valX.size(); ++i) {
            const double dx = plot_->xAxis->coordToPixel(d.valX[i]) - pixel.x();
            const double dy = plot_->yAxis->coordToPixel(lossInUnit(d.val[i], unit_)) - pixel.y();
            if (std::hypot(dx, dy) >= 8.0)
                continue;
            QString line = tr("%1: validation loss %2 (%3 %4)")
                               .arg(d.given.name, formatLoss(d.val[i], unit_), axis)
                               .arg(d.valX[i]);
            if (!d.valLow.isEmpty())
                line += tr(", lowest %1, highest %2")
                            .arg(formatLoss(d.valLow[i], unit_), formatLoss(d.valHigh[i], unit_));
            lines << line;
            break;
        }
    }
    return lines;
}

QString LossPlot::seriesCsvText() const {
    // A row per point drawn: the loss in nats, and in the unit shown when it is another.
    QString out;
    QTextStream stream(&out);
    const char* axis = axis_ == XAxis::Step ? "step" : axis_ == XAxis::Tokens ? "tokens" : "seconds";
    stream << "series,runs,curve," << axis << ",loss";
    if (unit_ != LossUnit::Nats)
        stream << ",loss_" << unitName();
    stream << '\n';
    for (const LossPlotDrawnSeries& d : curves_->series) {
        const QString head = ViewExport::csvField(d.given.name) + QLatin1Char(',') + ViewExport::csvField(d.given.runs);
        const auto row = [&](const char* curve, double x, double nats) {
            stream << head << ',' << curve << ',' << ViewExport::csvNumber(x, 12) << ','
                   << ViewExport::csvNumber(nats);
            if (unit_ != LossUnit::Nats)
                stream << ',' << ViewExport::csvNumber(lossInUnit(nats, unit_));
            stream << '\n';
        };
        for (int i = 0; i < d.valX.size(); ++i) {
            row("validation", d.valX[i], d.val[i]);
            if (!d.valLow.isEmpty()) {
                row("validation lowest", d.valX[i], d.valLow[i]);
                row("validation highest", d.valX[i], d.valHigh[i]);
            }
        }
        for (int i = 0; i < d.trainX.size(); ++i)
            row("training smoothed", d.trainX[i], d.train[i]);
    }
    return out;
}
