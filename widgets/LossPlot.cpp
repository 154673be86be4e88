// SPDX-License-Identifier: GPL-3.0-or-later
// The loss plot's widget: its controls, graphs, legend and texts, for one run or several.
#include "widgets/LossPlot.h"
#include "widgets/PresentationScale.h"

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSlider>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <utility>

#include "widgets/AxisTitleFit.h"
#include "widgets/LossPlotData.h"
#include "widgets/Plot.h"

namespace {

constexpr int kReplotIntervalMs = 33;  // at most ~30 replots per second

const QColor kTrainColor(31, 119, 180);
const QColor kValColor(230, 110, 20);
const QColor kLearningRateColor(44, 160, 44);

}  // namespace

LossPlot::~LossPlot() = default;

QCustomPlot* LossPlot::plot() const { return plot_; }

LossPlot::LossPlot(QWidget* parent) : LossPlot(Layout::OneRun, parent) {}

LossPlot::LossPlot(Layout layout, QWidget* parent)
    : QWidget(parent), layout_(layout), plot_(new Plot(this)), curves_(std::make_unique<Curves>()) {
    auto* layoutBox = new QVBoxLayout(this);
    layoutBox->setContentsMargins(0, 0, 0, 0);

    controls_ = new QHBoxLayout;
    auto* controls = controls_;
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
    learningRateBox_->setVisible(layout_ == Layout::OneRun);  // runs are compared by their losses
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
    layoutBox->addLayout(controls);
    layoutBox->addWidget(plot_, 1);

    // The curves on a layer of their own under the main one: the marks stay
    // on top of them, however often the Runs layout redraws its series.
    plot_->addLayer(QStringLiteral("curves"), plot_->layer(QStringLiteral("main")), QCustomPlot::limBelow);
    plot_->setCurrentLayer(QStringLiteral("curves"));
    if (layout_ == Layout::OneRun) {
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
    }
    plot_->setCurrentLayer(QStringLiteral("main"));

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
    if (layout_ == Layout::Runs) {
        plot_->legend->setWrap(2);  // a run's name is long
        placeLegend();
    }

    placeholder_ = new QCPItemText(plot_);
    placeholder_->position->setType(QCPItemPosition::ptAxisRectRatio);
    placeholder_->position->setCoords(0.5, 0.5);
    placeholder_->setPositionAlignment(Qt::AlignCenter);
    placeholder_->setColor(QColor(120, 120, 120));
    placeholder_->setFont(scaledFont(font(), 1.2));

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
    // The labels' room depends on the plot's height, known once it is laid
    // out: a plot made lower (the Runs tab's, over the table of what differs)
    // is fitted again.
    connect(plot_, &QCustomPlot::afterLayout, this, [this] {
        if (fitAxisTitle(plot_->yAxis, lossTitles_)) plot_->replot(QCustomPlot::rpQueuedReplot);
        if (!followData_) return;
        const QCPRange range = plot_->yAxis->range();
        const QCPRange room = withLabelRoom(range);
        if (room.upper > range.upper + 1e-9 * std::abs(range.upper)) {
            plot_->yAxis->setRange(room);
            plot_->replot(QCustomPlot::rpQueuedReplot);
        }
    });
    connect(plot_, &QCustomPlot::beforeReplot, this, [this] { replotClock_.start(); });
    connect(plot_, &QCustomPlot::afterReplot, this, [this] {
        const qint64 cost = replotClock_.isValid() ? replotClock_.elapsed() : 0;
        replotTimer_.setInterval(int(std::clamp<qint64>(4 * cost, kReplotIntervalMs, 500)));
    });

    retranslateUi();
    replotNow();
}

void LossPlot::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void LossPlot::retranslateUi() {
    if (layout_ == Layout::OneRun) {
        rawTrainGraph_->setName(tr("train loss"));
        smoothedTrainGraph_->setName(tr("train loss (smoothed)"));
        valGraph_->setName(tr("validation loss"));
        learningRateGraph_->setName(tr("learning rate"));
    }
    plot_->xAxis->setLabel(xAxisLabel());
    QString shortTitle;
    switch (unit_) {
        case LossUnit::Nats:
            shortTitle = tr("loss (nats)");
            break;
        case LossUnit::Bits:
            shortTitle = tr("loss (bits)");
            break;
        case LossUnit::Perplexity:
            shortTitle = tr("perplexity");
            break;
    }
    if (layout_ == Layout::OneRun) {
        QString lossTitle;
        switch (unit_) {
        case LossUnit::Nats: lossTitle = tr("loss (nats per character)"); break;
        case LossUnit::Bits: lossTitle = tr("loss (bits per character)"); break;
        case LossUnit::Perplexity: lossTitle = tr("perplexity (e^loss)"); break;
        }
        lossTitles_ = {lossTitle, shortTitle};
    } else {  // shorter: the title also says which line is which
        lossTitles_ = {tr("%1; solid: validation, dashed: training").arg(shortTitle),
                       shortTitle + QLatin1Char('\n') + tr("solid: validation, dashed: training"),
                       shortTitle};
    }
    // The whole title; a low plot shows the first wording that fits (afterLayout).
    setAxisTitle(plot_->yAxis, lossTitles_.first());
    unitBox_->setItemText(int(LossUnit::Nats), tr("nats per character"));
    unitBox_->setItemText(int(LossUnit::Bits), tr("bits per character"));
    unitBox_->setItemText(int(LossUnit::Perplexity), tr("perplexity"));
    unitBox_->setToolTip(tr("Show the loss in nats per character, in bits per character (nats / ln 2) or as "
                            "perplexity (e^nats: how many characters the model hesitates between)"));
    marks_->retranslate(unit_);
    // The learning rate's axis keeps its turned label: a level title would
    // take a row of the plot whether the axis is shown or not.
    plot_->yAxis2->setLabel(tr("learning rate"));
    placeholder_->setText(!placeholderText_.isEmpty() ? placeholderText_
                          : layout_ == Layout::OneRun ? tr("No loss yet: press Start to train")
                                                      : tr("No runs to draw"));
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

QString LossPlot::xAxisLabel() const {
    switch (axis_) {
    case XAxis::Step: return tr("step");
    case XAxis::Tokens: return tr("tokens seen");
    case XAxis::Seconds: return tr("training time (s)");
    }
    return QString();
}

void LossPlot::placeLegend() {
    // A layout's column is no wider than its narrowest element allows, and an
    // empty legend allows only its margins: in its row it squeezed the plot to
    // the width of its axes. It is in the layout only while it names something.
    QCPLegend* legend = plot_->legend;
    const bool wanted = legend->itemCount() > 0;
    legend->setVisible(wanted);
    if ((legend->layout() != nullptr) == wanted)
        return;
    if (wanted) {
        plot_->plotLayout()->insertRow(0);
        plot_->plotLayout()->addElement(0, 0, legend);
        plot_->plotLayout()->setRowStretchFactor(0, 0.001);
    } else {
        plot_->plotLayout()->take(legend);
        plot_->plotLayout()->simplify();
    }
}

void LossPlot::addControl(QWidget* widget) {
    // A row of their own above the plot's: one row of both was wider than the
    // room beside the Runs tab's settings diff.
    if (!extraControls_) {
        extraControls_ = new QHBoxLayout;
        extraControls_->addStretch(1);
        static_cast<QVBoxLayout*>(layout())->insertLayout(0, extraControls_);
    }
    extraControls_->insertWidget(extraControls_->count() - 1, widget);
}

void LossPlot::setPlaceholderText(const QString& text) {
    placeholderText_ = text;
    retranslateUi();
}

void LossPlot::setExporter(const QString& suggestedName, Exporter exporter) {
    exportName_ = suggestedName;
    exporter_ = std::move(exporter);
}
