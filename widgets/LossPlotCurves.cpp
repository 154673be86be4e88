// SPDX-License-Identifier: GPL-3.0-or-later
// The loss plot's curves: the points given (kept in nats), their moving average, the unit shown.
#include "LossPlot.h"

#include <QCheckBox>
#include <QComboBox>
#include <QSlider>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

#include "LossPlotNats.h"

namespace {

// A copy of `nats` in `unit`.
void convertInto(const QCPGraphDataContainer& nats, LossUnit unit, QCPGraph* graph) {
    QVector<double> keys, values;
    keys.reserve(nats.size());
    values.reserve(nats.size());
    for (auto it = nats.constBegin(); it != nats.constEnd(); ++it) {
        keys.append(it->key);
        values.append(lossInUnit(it->value, unit));
    }
    graph->setData(keys, values, /*alreadySorted=*/true);
}

}  // namespace

void LossPlot::setHistory(const QVector<double>& steps, const QVector<double>& trainLoss,
                          const QVector<double>& evalSteps, const QVector<double>& valLoss,
                          const QVector<double>& learningRates) {
    const qsizetype trainCount = std::min(steps.size(), trainLoss.size());
    const qsizetype evalCount = std::min(evalSteps.size(), valLoss.size());
    QVector<QCPGraphData> train(trainCount), val(evalCount);
    for (qsizetype i = 0; i < trainCount; ++i)
        train[i] = QCPGraphData(steps[i], trainLoss[i]);
    for (qsizetype i = 0; i < evalCount; ++i)
        val[i] = QCPGraphData(evalSteps[i], valLoss[i]);
    nats_->train.set(train, /*alreadySorted=*/true);
    nats_->val.set(val, /*alreadySorted=*/true);
    convertInto(nats_->train, unit_, rawTrainGraph_);
    convertInto(nats_->val, unit_, valGraph_);
    const qsizetype rateCount = std::min(steps.size(), learningRates.size());
    learningRateGraph_->setData(steps.first(rateCount), learningRates.first(rateCount), /*alreadySorted=*/true);
    rebuildSmoothedGraph();
    followData_ = true;
    scheduleReplot();
}

void LossPlot::appendSteps(const QVector<double>& steps, const QVector<double>& losses,
                           const QVector<double>& learningRates) {
    const qsizetype count = std::min(steps.size(), losses.size());
    QVector<QCPGraphData> points(count);
    QVector<double> shown(count);
    for (qsizetype i = 0; i < count; ++i) {
        points[i] = QCPGraphData(steps[i], losses[i]);
        shown[i] = lossInUnit(losses[i], unit_);
    }
    nats_->train.add(points, /*alreadySorted=*/true);
    rawTrainGraph_->addData(steps.first(count), shown, /*alreadySorted=*/true);
    for (qsizetype i = 0; i < count; ++i)
        addSmoothedPoint(steps[i], losses[i]);
    const qsizetype rateCount = std::min(steps.size(), learningRates.size());
    learningRateGraph_->addData(steps.first(rateCount), learningRates.first(rateCount), /*alreadySorted=*/true);
    scheduleReplot();
}

void LossPlot::appendEval(double step, double valLoss) {
    nats_->val.add(QCPGraphData(step, valLoss));
    valGraph_->addData(step, lossInUnit(valLoss, unit_));
    scheduleReplot();
}

void LossPlot::clear() {
    nats_->train.clear();
    nats_->smoothed.clear();
    nats_->val.clear();
    rawTrainGraph_->data()->clear();
    smoothedTrainGraph_->data()->clear();
    valGraph_->data()->clear();
    learningRateGraph_->data()->clear();
    smoother_.reset();
    followData_ = true;
    scheduleReplot();
}

void LossPlot::setSmoothing(double smoothing) {
    smoothing = std::clamp(smoothing, 0.0, 0.999);
    if (smoothing == smoothing_)
        return;
    smoothing_ = smoothing;
    const QSignalBlocker blocker(smoothingSlider_);
    smoothingSlider_->setValue(int(std::lround(smoothing * 100)));
    rebuildSmoothedGraph();
    scheduleReplot();
}

void LossPlot::setUnit(LossUnit unit) {
    {
        const QSignalBlocker blocker(unitBox_);
        unitBox_->setCurrentIndex(int(unit));
    }
    if (unit == unit_)
        return;
    const bool wasPerplexity = unit_ == LossUnit::Perplexity;
    unit_ = unit;
    refreshShownValues();
    retranslateUi();  // the axis title and the labels name the unit
    // Perplexity spans orders of magnitude (e^12 is 160,000): a log scale shows
    // it as the nats show, and leaving it restores the scale from before.
    if (unit == LossUnit::Perplexity && !wasPerplexity) {
        logScaleBeforePerplexity_ = logScaleBox_->isChecked();
        setLogScale(true);
    } else if (wasPerplexity && unit != LossUnit::Perplexity) {
        setLogScale(logScaleBeforePerplexity_);
    }
    followData_ = true;
    scheduleReplot();
    emit unitChanged(unit);
}

void LossPlot::refreshShownValues() {
    convertInto(nats_->train, unit_, rawTrainGraph_);
    convertInto(nats_->smoothed, unit_, smoothedTrainGraph_);
    convertInto(nats_->val, unit_, valGraph_);
    marks_->refresh(unit_);
}

int LossPlot::trainPointCount() const { return rawTrainGraph_->data()->size(); }
int LossPlot::evalPointCount() const { return valGraph_->data()->size(); }

void LossPlot::addSmoothedPoint(double step, double loss) {
    if (!std::isfinite(loss))
        return;  // a diverged step would poison every later average
    const double smoothed = smoother_.add(step, loss);
    nats_->smoothed.add(QCPGraphData(step, smoothed));
    smoothedTrainGraph_->addData(step, lossInUnit(smoothed, unit_));
}

void LossPlot::rebuildSmoothedGraph() {
    smoother_ = GapSmoother(smoothing_);
    QVector<QCPGraphData> points;
    points.reserve(nats_->train.size());
    for (const QCPGraphData& point : nats_->train) {
        if (std::isfinite(point.value))
            points.append(QCPGraphData(point.key, smoother_.add(point.key, point.value)));
    }
    nats_->smoothed.set(points, /*alreadySorted=*/true);
    convertInto(nats_->smoothed, unit_, smoothedTrainGraph_);
}
