// SPDX-License-Identifier: GPL-3.0-or-later
#include "LossPlot.h"

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSaveFile>
#include <QSlider>
#include <QSvgGenerator>
#include <QTextStream>
#include <QToolTip>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace {

constexpr int kReplotIntervalMs = 33;  // at most ~30 replots per second
constexpr int kAntialiasedPoints = 5000;

const QCPRange kEmptyStepRange(0.0, 100.0);
const QCPRange kEmptyLossRange(0.0, 5.0);

const QColor kTrainColor(31, 119, 180);
const QColor kValColor(230, 110, 20);
const QColor kLearningRateColor(44, 160, 44);

// Widens a range by `fraction` of its size on each side (or by a fixed amount
// when the range is a single value) so no point sits on the frame.
QCPRange padded(const QCPRange& range, double fraction) {
    const double size = range.size();
    const double margin = size > 0.0 ? size * fraction : std::max(std::abs(range.lower) * 0.1, 0.5);
    return QCPRange(range.lower - margin, range.upper + margin);
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

struct LossPlot::NatsCurves {
    QCPGraphDataContainer train, smoothed, val;
};

LossPlot::~LossPlot() = default;

LossPlot::LossPlot(QWidget* parent)
    : QWidget(parent), plot_(new QCustomPlot(this)), nats_(std::make_unique<NatsCurves>()) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);

    auto* controls = new QHBoxLayout;
    smoothingLabel_ = new QLabel(this);
    smoothingSlider_ = new QSlider(Qt::Horizontal, this);
    smoothingSlider_->setObjectName(QStringLiteral("smoothingSlider"));
    smoothingSlider_->setRange(0, 99);
    smoothingSlider_->setValue(int(std::lround(smoothing_ * 100)));
    smoothingSlider_->setMaximumWidth(160);
    logScaleBox_ = new QCheckBox(this);
    logScaleBox_->setObjectName(QStringLiteral("logScale"));
    learningRateBox_ = new QCheckBox(this);
    learningRateBox_->setObjectName(QStringLiteral("showLearningRate"));
    unitBox_ = new QComboBox(this);
    unitBox_->setObjectName(QStringLiteral("lossUnit"));
    unitBox_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    for (int i = 0; i < 3; ++i)
        unitBox_->addItem(QString());
    fitButton_ = new QPushButton(this);
    exportButton_ = new QPushButton(this);
    exportButton_->setObjectName(QStringLiteral("exportButton"));
    controls->addWidget(smoothingLabel_);
    controls->addWidget(smoothingSlider_);
    controls->addSpacing(12);
    controls->addWidget(logScaleBox_);
    controls->addWidget(learningRateBox_);
    controls->addSpacing(12);
    controls->addWidget(unitBox_);
    controls->addStretch(1);
    controls->addWidget(fitButton_);
    controls->addWidget(exportButton_);
    layout->addLayout(controls);
    layout->addWidget(plot_, 1);

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

    learningRateGraph_ = plot_->addGraph(plot_->xAxis, plot_->yAxis2);
    learningRateGraph_->setPen(QPen(kLearningRateColor, 1.5, Qt::DashLine));
    learningRateGraph_->setVisible(false);
    learningRateGraph_->removeFromLegend();

    // After the curves: the lines and labels draw over them (the shaded
    // regions lie on the grid layer, under them).
    marks_ = std::make_unique<LossPlotMarks>(plot_, font());
    marks_->refresh(unit_);

    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    // Elements antialias by their own setting, so the raw curve can turn it off.
    plot_->setAntialiasedElements(QCP::aeLegendItems | QCP::aeItems);
    plot_->setNoAntialiasingOnDrag(true);

    // The legend in a row above the plot: inside, it would hide the end of a
    // validation curve that rises to the top.
    plot_->legend->setVisible(true);
    plot_->legend->setBrush(Qt::NoBrush);
    plot_->legend->setBorderPen(Qt::NoPen);
    plot_->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    plot_->legend->setMargins(QMargins(4, 2, 4, 0));
    plot_->axisRect()->insetLayout()->take(plot_->legend);
    plot_->axisRect()->insetLayout()->simplify();
    plot_->plotLayout()->insertRow(0);
    plot_->plotLayout()->addElement(0, 0, plot_->legend);
    plot_->plotLayout()->setRowStretchFactor(0, 0.001);

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
    connect(plot_, &QCustomPlot::mouseMove, this, &LossPlot::showTooltip);

    connect(smoothingSlider_, &QSlider::valueChanged, this, [this](int value) { setSmoothing(value / 100.0); });
    connect(logScaleBox_, &QCheckBox::toggled, this, &LossPlot::setLogScale);
    connect(learningRateBox_, &QCheckBox::toggled, this, &LossPlot::setLearningRateVisible);
    connect(unitBox_, &QComboBox::activated, this, [this](int index) { setUnit(LossUnit(index)); });
    connect(fitButton_, &QPushButton::clicked, this, &LossPlot::resetView);
    connect(exportButton_, &QPushButton::clicked, this, &LossPlot::chooseExportFile);

    replotTimer_.setSingleShot(true);
    replotTimer_.setInterval(kReplotIntervalMs);
    connect(&replotTimer_, &QTimer::timeout, this, &LossPlot::replotNow);
    // A redraw of a very long run takes a while; spacing redraws to four times
    // their cost keeps the GUI thread at least 3/4 free for the user.
    connect(plot_, &QCustomPlot::beforeReplot, this, [this] { replotClock_.start(); });
    connect(plot_, &QCustomPlot::afterReplot, this, [this] {
        const qint64 cost = replotClock_.isValid() ? replotClock_.elapsed() : 0;
        replotTimer_.setInterval(int(std::clamp<qint64>(4 * cost, kReplotIntervalMs, 500)));
    });

    retranslateUi();
    replotNow();
}

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

void LossPlot::setLogScale(bool on) {
    const QSignalBlocker blocker(logScaleBox_);
    logScaleBox_->setChecked(on);
    plot_->yAxis->setScaleType(on ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    if (on)
        plot_->yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
    else
        plot_->yAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
    followData_ = true;
    scheduleReplot();
}

void LossPlot::setLearningRateVisible(bool on) {
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

void LossPlot::setReferenceLevels(double uniformNats, double unigramNats) {
    marks_->setReferenceLevels(uniformNats, unigramNats);
    marks_->refresh(unit_);
    scheduleReplot();
}

void LossPlot::setOverfittingFrom(double step) {
    marks_->setOverfittingFrom(step);
    marks_->refresh(unit_);
    scheduleReplot();
}

void LossPlot::setBestPoint(double step, double valNats) {
    marks_->setBestPoint(step, valNats);
    marks_->refresh(unit_);
    scheduleReplot();
}

void LossPlot::refreshShownValues() {
    convertInto(nats_->train, unit_, rawTrainGraph_);
    convertInto(nats_->smoothed, unit_, smoothedTrainGraph_);
    convertInto(nats_->val, unit_, valGraph_);
    marks_->refresh(unit_);
}

QString LossPlot::unitName() const {
    switch (unit_) {
    case LossUnit::Nats: return QStringLiteral("nats");
    case LossUnit::Bits: return QStringLiteral("bits");
    case LossUnit::Perplexity: return QStringLiteral("perplexity");
    }
    return QString();
}

int LossPlot::trainPointCount() const { return rawTrainGraph_->data()->size(); }
int LossPlot::evalPointCount() const { return valGraph_->data()->size(); }

void LossPlot::resetView() {
    followData_ = true;
    replotNow();
}

void LossPlot::chooseExportFile() {
    QString selected;
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export loss curves"), QStringLiteral("loss.png"),
        tr("PNG image (*.png);;SVG image (*.svg);;PDF document (*.pdf);;CSV table of all points (*.csv)"),
        &selected);
    if (path.isEmpty())
        return;
    QString error;
    if (!exportTo(path, &error))
        QToolTip::showText(exportButton_->mapToGlobal(QPoint(0, exportButton_->height())), error, exportButton_);
}

bool LossPlot::exportTo(const QString& path, QString* error) const {
    const QString suffix = QFileInfo(path).suffix().toLower();
    const int width = std::max(plot_->width(), 800), height = std::max(plot_->height(), 500);
    bool ok = false;
    if (suffix == QLatin1String("csv")) {
        return exportCsv(path, error);
    } else if (suffix == QLatin1String("png")) {
        ok = plot_->savePng(path, width, height);
    } else if (suffix == QLatin1String("pdf")) {
        ok = plot_->savePdf(path, width, height);
    } else if (suffix == QLatin1String("svg")) {
        // QCustomPlot 2.1 has no saveSvg: paint the plot into an SVG generator.
        QSvgGenerator generator;
        generator.setFileName(path);
        generator.setSize(QSize(width, height));
        generator.setViewBox(QRect(0, 0, width, height));
        generator.setTitle(tr("Loss curves"));
        QCPPainter painter;
        if (painter.begin(&generator)) {
            plot_->toPainter(&painter, width, height);
            ok = painter.end();
        }
    } else {
        if (error)
            *error = tr("Unknown file type “%1”: use .png, .svg, .pdf or .csv.").arg(suffix);
        return false;
    }
    if (!ok && error)
        *error = tr("Could not write %1.").arg(path);
    return ok;
}

bool LossPlot::exportCsv(const QString& path, QString* error) const {
    // One row per step that has a value, every point included.
    struct Row {
        double train = std::nan(""), smoothed = std::nan(""), rate = std::nan(""), val = std::nan("");
    };
    std::map<double, Row> rows;
    for (const QCPGraphData& p : nats_->train) rows[p.key].train = p.value;
    for (const QCPGraphData& p : nats_->smoothed) rows[p.key].smoothed = p.value;
    for (const QCPGraphData& p : *learningRateGraph_->data()) rows[p.key].rate = p.value;
    for (const QCPGraphData& p : nats_->val) rows[p.key].val = p.value;

    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Text)) {
        if (error)
            *error = file.errorString();
        return false;
    }
    QTextStream out(&file);
    const auto cell = [](double v) { return std::isnan(v) ? QString() : QString::number(v, 'g', 9); };
    // The losses in nats always; in bits or perplexity, that unit's three
    // columns after them (the smoothed one converted from the smoothed nats,
    // as the plot shows it).
    out << "step,train_loss,train_loss_smoothed,learning_rate,val_loss";
    if (unit_ != LossUnit::Nats) {
        const QString u = unitName();
        out << ",train_" << u << ",train_" << u << "_smoothed,val_" << u;
    }
    out << '\n';
    for (const auto& [step, row] : rows) {
        out << QString::number(step, 'g', 15) << ',' << cell(row.train) << ',' << cell(row.smoothed) << ','
            << cell(row.rate) << ',' << cell(row.val);
        if (unit_ != LossUnit::Nats)
            out << ',' << cell(lossInUnit(row.train, unit_)) << ',' << cell(lossInUnit(row.smoothed, unit_)) << ','
                << cell(lossInUnit(row.val, unit_));
        out << '\n';
    }
    out.flush();
    if (!file.commit()) {
        if (error)
            *error = file.errorString();
        return false;
    }
    return true;
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
    learningRateGraph_->setName(tr("learning rate"));
    plot_->xAxis->setLabel(tr("step"));
    switch (unit_) {
    case LossUnit::Nats: plot_->yAxis->setLabel(tr("loss (nats per character)")); break;
    case LossUnit::Bits: plot_->yAxis->setLabel(tr("loss (bits per character)")); break;
    case LossUnit::Perplexity: plot_->yAxis->setLabel(tr("perplexity (e^loss)")); break;
    }
    unitBox_->setItemText(int(LossUnit::Nats), tr("nats per character"));
    unitBox_->setItemText(int(LossUnit::Bits), tr("bits per character"));
    unitBox_->setItemText(int(LossUnit::Perplexity), tr("perplexity"));
    unitBox_->setToolTip(tr("Show the loss in nats per character, in bits per character (nats / ln 2) or as "
                            "perplexity (e^nats: how many characters the model hesitates between)"));
    marks_->retranslate(unit_);
    plot_->yAxis2->setLabel(tr("learning rate"));
    placeholder_->setText(tr("No loss yet: press Start to train"));
    smoothingLabel_->setText(tr("Smoothing:"));
    smoothingSlider_->setToolTip(tr("Weight of the past in the smoothed curve"));
    logScaleBox_->setText(tr("Log scale"));
    learningRateBox_->setText(tr("Learning rate"));
    fitButton_->setText(tr("Fit"));
    fitButton_->setToolTip(tr("Fit the view to the data and follow new points (or double-click the plot)"));
    exportButton_->setText(tr("Export…"));
    exportButton_->setToolTip(tr("Save the plot as PNG, SVG or PDF, or all points as CSV"));
    scheduleReplot();
}

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

void LossPlot::scheduleReplot() {
    if (!replotTimer_.isActive())
        replotTimer_.start();
}

void LossPlot::replotNow() {
    replotTimer_.stop();
    // Thousands of antialiased segments cost more than they show.
    rawTrainGraph_->setAntialiased(rawTrainGraph_->data()->size() < kAntialiasedPoints);
    placeholder_->setVisible(!hasData());
    if (followData_)
        fitToData();
    ++replotCount_;
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void LossPlot::fitToData() {
    // The reference lines belong in view: the distance to them is the point.
    const auto withReferences = [this](const QCPRange& range) {
        return marks_->withReferences(range, unit_);
    };
    const bool logScale = plot_->yAxis->scaleType() == QCPAxis::stLogarithmic;
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
    if (learningRateGraph_->visible())
        plot_->yAxis2->setRange(0.0, plot_->yAxis2->range().upper * 1.05);
}

bool LossPlot::hasData() const {
    return !rawTrainGraph_->data()->isEmpty() || !valGraph_->data()->isEmpty();
}
