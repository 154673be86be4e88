// SPDX-License-Identifier: GPL-3.0-or-later
// The loss plot's curves of one run: the points given (kept in nats), their
// moving average, the unit shown.
#include "widgets/LossPlot.h"

#include <QCheckBox>
#include <QComboBox>
#include <QSlider>

#include <algorithm>
#include <cmath>

#include "widgets/LossPlotData.h"
#include "widgets/Plot.h"

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

// A curve of lists: each step with the loss (and learning rate) at its index.
chargpt::LossCurve curveOf(const QVector<double>& steps, const QVector<double>& losses,
                           const QVector<double>& learningRates) {
    chargpt::LossCurve curve;
    const qsizetype count = std::min(steps.size(), losses.size());
    curve.steps.reserve(std::size_t(count));
    for (qsizetype i = 0; i < count; ++i)
        curve.addStep(int64_t(steps[i]), -1, chargpt::LossCurve::kUnknown, losses[i],
                      i < learningRates.size() ? learningRates[i] : chargpt::LossCurve::kUnknown);
    return curve;
}

}  // namespace

const chargpt::LossCurve& LossPlot::curve() const { return curves_->run; }

void LossPlot::setCurve(const chargpt::LossCurve& curve) {
    if (layout_ != Layout::OneRun)
        return;
    curves_->run.clear();
    rawTrainGraph_->data()->clear();
    valGraph_->data()->clear();
    learningRateGraph_->data()->clear();
    appendToGraphs(curve);
    curves_->run = curve;
    rebuildSmoothedGraph();
    updateFloorsPassed();
    followData_ = true;
    scheduleReplot();
}

void LossPlot::append(const chargpt::LossCurve& more) {
    if (layout_ != Layout::OneRun)
        return;
    appendToGraphs(more);
    curves_->run.append(more);
    for (const chargpt::LossCurve::Step& s : more.steps)
        addSmoothedPoint(double(s.step), s.loss);
    if (!more.evaluations.empty() && !marks_->ngramFloors().isEmpty())
        updateFloorsPassed();
    scheduleReplot();
}

void LossPlot::appendToGraphs(const chargpt::LossCurve& more) {
    QVector<double> steps, shown, rateSteps, rates;
    steps.reserve(qsizetype(more.steps.size()));
    shown.reserve(qsizetype(more.steps.size()));
    for (const chargpt::LossCurve::Step& s : more.steps) {
        steps.append(double(s.step));
        shown.append(lossInUnit(s.loss, unit_));
        if (std::isfinite(s.learningRate)) {
            rateSteps.append(double(s.step));
            rates.append(s.learningRate);
        }
    }
    rawTrainGraph_->addData(steps, shown, /*alreadySorted=*/true);
    learningRateGraph_->addData(rateSteps, rates, /*alreadySorted=*/true);
    for (const chargpt::LossCurve::Evaluation& e : more.evaluations)
        valGraph_->addData(double(e.step), lossInUnit(e.valLoss, unit_));
}

void LossPlot::setHistory(const QVector<double>& steps, const QVector<double>& trainLoss,
                          const QVector<double>& evalSteps, const QVector<double>& valLoss,
                          const QVector<double>& learningRates) {
    chargpt::LossCurve curve = curveOf(steps, trainLoss, learningRates);
    for (qsizetype i = 0; i < std::min(evalSteps.size(), valLoss.size()); ++i)
        curve.addEvaluation(int64_t(evalSteps[i]), -1, chargpt::LossCurve::kUnknown, chargpt::LossCurve::kUnknown,
                            valLoss[i]);
    setCurve(curve);
}

void LossPlot::appendSteps(const QVector<double>& steps, const QVector<double>& losses,
                           const QVector<double>& learningRates) {
    append(curveOf(steps, losses, learningRates));
}

void LossPlot::appendEval(double step, double valLoss) {
    chargpt::LossCurve curve;
    curve.addEvaluation(int64_t(step), -1, chargpt::LossCurve::kUnknown, chargpt::LossCurve::kUnknown, valLoss);
    append(curve);
}

void LossPlot::clear() {
    if (layout_ == Layout::Runs) {
        setSeries({});
        return;
    }
    curves_->run.clear();
    curves_->smoothed.clear();
    rawTrainGraph_->data()->clear();
    smoothedTrainGraph_->data()->clear();
    valGraph_->data()->clear();
    learningRateGraph_->data()->clear();
    smoother_.reset();
    updateFloorsPassed();
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
    if (layout_ == Layout::OneRun)
        rebuildSmoothedGraph();
    else
        redrawSeries();
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
    if (layout_ == Layout::OneRun) {
        QVector<double> steps, shown;
        for (const chargpt::LossCurve::Step& s : curves_->run.steps) {
            steps.append(double(s.step));
            shown.append(lossInUnit(s.loss, unit_));
        }
        rawTrainGraph_->setData(steps, shown, /*alreadySorted=*/true);
        steps.clear();
        shown.clear();
        for (const chargpt::LossCurve::Evaluation& e : curves_->run.evaluations) {
            steps.append(double(e.step));
            shown.append(lossInUnit(e.valLoss, unit_));
        }
        valGraph_->setData(steps, shown);
        convertInto(curves_->smoothed, unit_, smoothedTrainGraph_);
    } else {
        redrawSeries();
    }
    marks_->refresh(unit_);
}

int LossPlot::trainPointCount() const { return rawTrainGraph_ ? rawTrainGraph_->data()->size() : 0; }
int LossPlot::evalPointCount() const { return valGraph_ ? valGraph_->data()->size() : 0; }

void LossPlot::addSmoothedPoint(double step, double loss) {
    if (!std::isfinite(loss))
        return;  // a diverged step would poison every later average
    const double smoothed = smoother_.add(step, loss);
    curves_->smoothed.add(QCPGraphData(step, smoothed));
    smoothedTrainGraph_->addData(step, lossInUnit(smoothed, unit_));
}

void LossPlot::rebuildSmoothedGraph() {
    smoother_ = GapSmoother(smoothing_);
    QVector<QCPGraphData> points;
    points.reserve(qsizetype(curves_->run.steps.size()));
    for (const chargpt::LossCurve::Step& s : curves_->run.steps) {
        if (std::isfinite(s.loss))
            points.append(QCPGraphData(double(s.step), smoother_.add(double(s.step), s.loss)));
    }
    curves_->smoothed.set(points, /*alreadySorted=*/true);
    convertInto(curves_->smoothed, unit_, smoothedTrainGraph_);
}
