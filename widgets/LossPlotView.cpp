// SPDX-License-Identifier: GPL-3.0-or-later
// The loss plot's view: the scales, the marks, fitting the axes to the data and spacing the replots.
#include "widgets/LossPlot.h"

#include <QCheckBox>

#include <algorithm>
#include <cmath>

#include "widgets/LossPlotData.h"
#include "widgets/Plot.h"

namespace {

constexpr int kAntialiasedPoints = 5000;

const QCPRange kEmptyStepRange(0.0, 100.0);
const QCPRange kEmptyLossRange(0.0, 5.0);

// Widens a range by `fraction` of its size on each side (or by a fixed amount
// when the range is a single value) so no point sits on the frame.
QCPRange padded(const QCPRange& range, double fraction) {
    const double size = range.size();
    const double margin = size > 0.0 ? size * fraction : std::max(std::abs(range.lower) * 0.1, 0.5);
    return QCPRange(range.lower - margin, range.upper + margin);
}

// A log scale's ticks: QCPAxisTickerLog's powers of ten where the range holds
// two or more of them, else a plain ticker's round numbers. Losses of 2.4 to
// 4 bits hold no power of ten: QCPAxisTickerLog left them without a label.
class LossLogTicker : public QCPAxisTickerLog {
protected:
    double getTickStep(const QCPRange& range) override {
        const double lowest = std::ceil(std::log10(range.lower)),
                     highest = std::floor(std::log10(range.upper));
        decades_ = range.lower > 0.0 && highest - lowest >= 1.0;
        return decades_ ? QCPAxisTickerLog::getTickStep(range) : QCPAxisTicker::getTickStep(range);
    }
    int getSubTickCount(double tickStep) override {
        return decades_ ? QCPAxisTickerLog::getSubTickCount(tickStep)
                        : QCPAxisTicker::getSubTickCount(tickStep);
    }
    QVector<double> createTickVector(double tickStep, const QCPRange& range) override {
        return decades_ ? QCPAxisTickerLog::createTickVector(tickStep, range)
                        : QCPAxisTicker::createTickVector(tickStep, range);
    }

private:
    bool decades_ = true;
};

}  // namespace

void LossPlot::setLogScale(bool on) {
    const QSignalBlocker blocker(logScaleBox_);
    logScaleBox_->setChecked(on);
    plot_->yAxis->setScaleType(on ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    if (on)
        plot_->yAxis->setTicker(QSharedPointer<LossLogTicker>::create());
    else
        plot_->yAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
    followData_ = true;
    scheduleReplot();
}

bool LossPlot::logScale() const { return plot_->yAxis->scaleType() == QCPAxis::stLogarithmic; }

void LossPlot::setLearningRateVisible(bool on) {
    if (!learningRateGraph_)
        return;  // runs are compared by their losses
    const QSignalBlocker blocker(learningRateBox_);
    learningRateBox_->setChecked(on);
    learningRateGraph_->setVisible(on);
    plot_->yAxis2->setVisible(on);
    if (on)
        learningRateGraph_->addToLegend();
    else
        learningRateGraph_->removeFromLegend();
    followData_ = true;
    scheduleReplot();
}

void LossPlot::setReferenceLevels(double uniformNats, double unigramNats) {
    marks_->setReferenceLevels(uniformNats, unigramNats);
    marks_->refresh(unit_);
    scheduleReplot();
}

void LossPlot::setNgramFloors(const QVector<double>& nats) {
    marks_->setNgramFloors(nats);
    updateFloorsPassed();
    scheduleReplot();
}

void LossPlot::updateFloorsPassed() {
    const QVector<double>& floors = marks_->ngramFloors();
    QVector<qint64> passed(floors.size(), -1);
    for (qsizetype n = 0; n < floors.size(); ++n)
        passed[n] = chargpt::firstStepBelow(curves_->run.evaluations, floors[n]);
    marks_->setNgramPassed(passed);
    marks_->refresh(unit_);
}

void LossPlot::setOverfittingFrom(double step) {
    marks_->setOverfittingFrom(step);
    marks_->refresh(unit_);
    scheduleReplot();
}

void LossPlot::setStepCursor(double step) {
    marks_->setStepCursor(step);
    marks_->refresh(unit_);
    scheduleReplot();
}

void LossPlot::setBestPoint(double step, double valNats) {
    marks_->setBestPoint(step, valNats);
    marks_->refresh(unit_);
    scheduleReplot();
}

void LossPlot::resetView() {
    followData_ = true;
    replotNow();
}

void LossPlot::scheduleReplot() {
    if (!replotTimer_.isActive())
        replotTimer_.start();
}

void LossPlot::replotNow() { replot(When::Queued); }

void LossPlot::replot(When when) {
    replotTimer_.stop();
    // Thousands of antialiased segments cost more than they show.
    if (rawTrainGraph_)
        rawTrainGraph_->setAntialiased(rawTrainGraph_->data()->size() < kAntialiasedPoints);
    placeholder_->setVisible(!hasData());
    if (followData_)
        fitToData();
    // Hidden, the plot is not drawn: a run's points arrive many times a
    // second and each drawing held the window's thread for milliseconds.
    // Exports draw on their own, from the ranges set above.
    if (!isVisible()) {
        replotWhenShown_ = true;
        return;
    }
    replotWhenShown_ = false;
    ++replotCount_;
    if (when == When::AfterPaint)
        plot_->replotAfterPaint();
    else
        plot_->replot(QCustomPlot::rpQueuedReplot);
}

void LossPlot::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    // The page first, then the points that came while it was hidden.
    if (replotWhenShown_)
        replot(When::AfterPaint);
}

void LossPlot::fitToData() {
    // The reference lines belong in view: the distance to them is the point.
    const auto withReferences = [this](const QCPRange& range) {
        return marks_->withReferences(range, unit_);
    };
    const bool logScale = this->logScale();
    if (!hasData()) {
        plot_->xAxis->setRange(kEmptyStepRange);
        const QCPRange empty = logScale ? QCPRange(lossInUnit(0.1, unit_), lossInUnit(5.0, unit_))
                                        : QCPRange(kEmptyLossRange.lower, lossInUnit(kEmptyLossRange.upper, unit_));
        QCPRange range = withReferences(empty);
        if (range.upper > empty.upper)  // room above the highest line for its label
            range.upper *= logScale ? 1.5 : 1.1;
        plot_->yAxis->setRange(range);
        return;
    }
    plot_->rescaleAxes(/*onlyVisiblePlottables=*/true);
    plot_->xAxis->setRange(padded(plot_->xAxis->range(), 0.02));
    const QCPRange loss = withReferences(plot_->yAxis->range());
    if (!logScale)
        plot_->yAxis->setRange(padded(loss, 0.05));
    else if (loss.lower > 0.0)
        plot_->yAxis->setRange(loss.lower / 1.15, loss.upper * 1.15);
    plot_->yAxis->setRange(withLabelRoom(plot_->yAxis->range()));
    if (learningRateGraph_ && learningRateGraph_->visible())
        plot_->yAxis2->setRange(0.0, plot_->yAxis2->range().upper * 1.05);
}

QCPRange LossPlot::withLabelRoom(const QCPRange& range) const {
    return marks_->withLabelRoom(range, unit_, plot_->yAxis->axisRect()->height(), logScale());
}

bool LossPlot::hasData() const {
    if (layout_ == Layout::OneRun)
        return !rawTrainGraph_->data()->isEmpty() || !valGraph_->data()->isEmpty();
    for (const LossPlotDrawnSeries& s : curves_->series)
        if (!s.val.isEmpty() || !s.train.isEmpty())
            return true;
    return false;
}
