// SPDX-License-Identifier: GPL-3.0-or-later
#include "LossPlot.h"

#include <QEvent>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace {

constexpr int kReplotIntervalMs = 33;  // at most ~30 replots per second

const QCPRange kEmptyStepRange(0.0, 100.0);
const QCPRange kEmptyLossRange(0.0, 5.0);

const QColor kTrainColor(31, 119, 180);
const QColor kValColor(230, 110, 20);

// Widens a range by `fraction` of its size on each side (or by a fixed amount
// when the range is a single value) so no point sits on the frame.
QCPRange padded(const QCPRange& range, double fraction) {
    const double size = range.size();
    const double margin = size > 0.0 ? size * fraction : std::max(std::abs(range.lower) * 0.1, 0.5);
    return QCPRange(range.lower - margin, range.upper + margin);
}

}  // namespace

LossPlot::LossPlot(QWidget* parent) : QWidget(parent), plot_(new QCustomPlot(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_);

    QColor rawColor = kTrainColor;
    rawColor.setAlpha(90);
    rawTrainGraph_ = plot_->addGraph();
    rawTrainGraph_->setPen(QPen(rawColor, 1.0));

    smoothedTrainGraph_ = plot_->addGraph();
    smoothedTrainGraph_->setPen(QPen(kTrainColor, 2.0));

    valGraph_ = plot_->addGraph();
    valGraph_->setPen(QPen(kValColor, 2.0));
    valGraph_->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(kValColor, 1.5), QBrush(Qt::white), 7.0));

    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    plot_->setAntialiasedElements(QCP::aeAll);
    plot_->setNoAntialiasingOnDrag(true);

    plot_->legend->setVisible(true);
    plot_->legend->setBrush(QBrush(QColor(255, 255, 255, 220)));
    plot_->legend->setBorderPen(QPen(QColor(180, 180, 180)));
    plot_->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);

    placeholder_ = new QCPItemText(plot_);
    placeholder_->position->setType(QCPItemPosition::ptAxisRectRatio);
    placeholder_->position->setCoords(0.5, 0.5);
    placeholder_->setPositionAlignment(Qt::AlignCenter);
    placeholder_->setColor(QColor(120, 120, 120));
    QFont placeholderFont = font();
    if (placeholderFont.pointSizeF() > 0)
        placeholderFont.setPointSizeF(placeholderFont.pointSizeF() * 1.2);
    placeholder_->setFont(placeholderFont);

    // Any pan or zoom by hand stops the view from following new points.
    connect(plot_, &QCustomPlot::mousePress, this, [this](QMouseEvent*) { followData_ = false; });
    connect(plot_, &QCustomPlot::mouseWheel, this, [this](QWheelEvent*) { followData_ = false; });
    connect(plot_, &QCustomPlot::mouseDoubleClick, this, [this](QMouseEvent*) { resetView(); });

    replotTimer_.setSingleShot(true);
    replotTimer_.setInterval(kReplotIntervalMs);
    connect(&replotTimer_, &QTimer::timeout, this, &LossPlot::replotNow);

    retranslateUi();
    replotNow();
}

void LossPlot::setHistory(const QVector<double>& steps, const QVector<double>& trainLoss,
                          const QVector<double>& evalSteps, const QVector<double>& valLoss) {
    const qsizetype trainCount = std::min(steps.size(), trainLoss.size());
    const qsizetype evalCount = std::min(evalSteps.size(), valLoss.size());
    rawTrainGraph_->setData(steps.first(trainCount), trainLoss.first(trainCount));
    valGraph_->setData(evalSteps.first(evalCount), valLoss.first(evalCount));
    rebuildSmoothedGraph();
    followData_ = true;
    scheduleReplot();
}

void LossPlot::appendStep(double step, double loss) {
    rawTrainGraph_->addData(step, loss);
    addSmoothedPoint(step, loss);
    scheduleReplot();
}

void LossPlot::appendEval(double step, double valLoss) {
    valGraph_->addData(step, valLoss);
    scheduleReplot();
}

void LossPlot::clear() {
    rawTrainGraph_->data()->clear();
    smoothedTrainGraph_->data()->clear();
    valGraph_->data()->clear();
    emaAccumulator_ = 0.0;
    emaCount_ = 0;
    followData_ = true;
    scheduleReplot();
}

void LossPlot::setSmoothing(double smoothing) {
    smoothing = std::clamp(smoothing, 0.0, 0.999);
    if (smoothing == smoothing_)
        return;
    smoothing_ = smoothing;
    rebuildSmoothedGraph();
    scheduleReplot();
}

void LossPlot::resetView() {
    followData_ = true;
    replotNow();
}

void LossPlot::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void LossPlot::retranslateUi() {
    rawTrainGraph_->setName(tr("train loss"));
    smoothedTrainGraph_->setName(tr("train loss (smoothed)"));
    valGraph_->setName(tr("validation loss"));
    plot_->xAxis->setLabel(tr("step"));
    plot_->yAxis->setLabel(tr("loss"));
    placeholder_->setText(tr("No loss history yet: open a checkpoint"));
    plot_->setToolTip(tr("Drag to pan, scroll to zoom, double-click to fit the data"));
    scheduleReplot();
}

void LossPlot::addSmoothedPoint(double step, double loss) {
    if (!std::isfinite(loss))
        return;  // a diverged step would poison every later average
    emaAccumulator_ = smoothing_ * emaAccumulator_ + (1.0 - smoothing_) * loss;
    ++emaCount_;
    const double debias = 1.0 - std::pow(smoothing_, emaCount_);
    smoothedTrainGraph_->addData(step, emaAccumulator_ / debias);
}

void LossPlot::rebuildSmoothedGraph() {
    smoothedTrainGraph_->data()->clear();
    emaAccumulator_ = 0.0;
    emaCount_ = 0;
    for (const QCPGraphData& point : *rawTrainGraph_->data())
        addSmoothedPoint(point.key, point.value);
}

void LossPlot::scheduleReplot() {
    if (!replotTimer_.isActive())
        replotTimer_.start();
}

void LossPlot::replotNow() {
    replotTimer_.stop();
    placeholder_->setVisible(!hasData());
    if (followData_)
        fitToData();
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void LossPlot::fitToData() {
    if (!hasData()) {
        plot_->xAxis->setRange(kEmptyStepRange);
        plot_->yAxis->setRange(kEmptyLossRange);
        return;
    }
    plot_->rescaleAxes(/*onlyVisiblePlottables=*/true);
    plot_->xAxis->setRange(padded(plot_->xAxis->range(), 0.02));
    plot_->yAxis->setRange(padded(plot_->yAxis->range(), 0.05));
}

bool LossPlot::hasData() const {
    return !rawTrainGraph_->data()->isEmpty() || !valGraph_->data()->isEmpty();
}
