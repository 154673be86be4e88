// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/LearningRateView.h"

#include <QEvent>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QTextStream>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include "widgets/Plot.h"
#include "widgets/ViewExport.h"

namespace {

QCPItemStraightLine* verticalLine(Plot* plot, const QPen& pen) {
    auto* line = new QCPItemStraightLine(plot);
    line->setPen(pen);
    line->setVisible(false);
    return line;
}

void placeAt(QCPItemStraightLine* line, double rate) {
    line->setVisible(std::isfinite(rate) && rate > 0.0);
    line->point1->setCoords(rate, 0.0);
    line->point2->setCoords(rate, 1.0);
}

QString rateText(double rate) { return QString::number(rate, 'g', 2); }

}  // namespace

LearningRateView::LearningRateView(QWidget* parent) : QDialog(parent), plot_(new Plot(this)) {
    setObjectName(QStringLiteral("learningRateView"));
    resize(720, 520);
    auto* layout = new QVBoxLayout(this);
    intro_ = new QLabel(this);
    intro_->setWordWrap(true);
    layout->addWidget(intro_);
    layout->addWidget(plot_, 1);
    summary_ = new QLabel(this);
    summary_->setObjectName(QStringLiteral("learningRateSummary"));
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(summary_);
    auto* buttons = new QHBoxLayout;
    findButton_ = new QPushButton(this);
    findButton_->setObjectName(QStringLiteral("findLearningRate"));
    useButton_ = new QPushButton(this);
    useButton_->setObjectName(QStringLiteral("useLearningRate"));
    useButton_->setEnabled(false);
    exportButton_ = new QPushButton(this);
    exportButton_->setObjectName(QStringLiteral("exportLearningRate"));
    buttons->addWidget(findButton_);
    buttons->addStretch(1);
    buttons->addWidget(useButton_);
    buttons->addWidget(exportButton_);
    layout->addLayout(buttons);

    raw_ = plot_->addGraph();
    raw_->setLineStyle(QCPGraph::lsNone);
    raw_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, QColor(150, 170, 200), 3));
    smoothed_ = plot_->addGraph();
    smoothed_->setPen(QPen(QColor(31, 119, 180), 2));
    QCPAxis* x = plot_->xAxis;
    x->setScaleType(QCPAxis::stLogarithmic);
    x->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    x->setNumberFormat(QStringLiteral("eb"));
    x->setNumberPrecision(0);
    x->setRange(1e-5, 1);
    plot_->yAxis->setRange(0, 5);
    steepestLine_ = verticalLine(plot_, QPen(QColor(44, 160, 44), 1.5, Qt::DashLine));
    suggestionLine_ = verticalLine(plot_, QPen(QColor(214, 39, 40), 2));
    plot_->legend->setVisible(true);
    plot_->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);

    connect(findButton_, &QPushButton::clicked, this, [this] { emit running_ ? stopRequested() : findRequested(); });
    connect(useButton_, &QPushButton::clicked, this, [this] {
        if (suggested_ > 0.0)
            emit rateChosen(suggested_);
    });
    connect(exportButton_, &QPushButton::clicked, this, &LearningRateView::chooseExportFile);
    retranslate();
}

void LearningRateView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QDialog::changeEvent(event);
}

void LearningRateView::retranslate() {
    setWindowTitle(tr("Learning-rate finder"));
    intro_->setText(tr("Find trains a new model of the current settings for a few hundred steps while its learning "
                       "rate grows from 1e-5 to 1. The loss falls while the rate is useful and climbs once it is too "
                       "large. The model you train is not touched."));
    findButton_->setText(running_ ? tr("Stop") : tr("Find"));
    useButton_->setText(suggested_ > 0.0 ? tr("Use this rate (%1)").arg(rateText(suggested_)) : tr("Use this rate"));
    exportButton_->setText(tr("Export…"));
    plot_->xAxis->setLabel(tr("learning rate (log scale)"));
    setAxisTitle(plot_->yAxis, tr("training loss, nats"));
    raw_->setName(tr("loss of each step"));
    smoothed_->setName(tr("smoothed loss"));
    if (!failure_.isEmpty())
        summary_->setText(tr("The sweep found nothing: %1").arg(failure_));
    else if (suggested_ > 0.0)
        summary_->setText(tr("Steepest fall at %1; lowest loss at %2. Suggested: %3, a tenth of the lowest point "
                             "(red line).%4")
                              .arg(rateText(finding_.steepest), rateText(finding_.lowest), rateText(suggested_),
                                   finding_.ranAway ? tr(" The loss ran away past it, so the sweep ended early.")
                                                    : QString()));
    else
        summary_->setText(running_ ? tr("Sweeping…") : QString());
    plot_->replotAfterPaint();
}

void LearningRateView::setRunning(bool running) {
    running_ = running;
    retranslate();
}

void LearningRateView::clear() {
    raw_->data()->clear();
    smoothed_->data()->clear();
    finding_ = {};
    suggested_ = 0.0;
    failure_.clear();
    placeAt(steepestLine_, std::nan(""));
    placeAt(suggestionLine_, std::nan(""));
    useButton_->setEnabled(false);
    retranslate();
}

void LearningRateView::addStep(qint64, double rate, double loss) {
    if (rate > 0.0 && std::isfinite(loss))
        raw_->addData(rate, loss);
    fit();
}

void LearningRateView::showFinding(const chargpt::LearningRateFinding& finding) {
    finding_ = finding;
    suggested_ = finding.suggested;
    failure_.clear();
    raw_->data()->clear();
    smoothed_->data()->clear();
    for (std::size_t i = 0; i < finding.rates.size(); ++i) {
        raw_->addData(finding.rates[i], finding.losses[i]);
        if (i < finding.smoothed.size())
            smoothed_->addData(finding.rates[i], finding.smoothed[i]);
    }
    placeAt(steepestLine_, finding.steepest);
    placeAt(suggestionLine_, finding.suggested);
    useButton_->setEnabled(suggested_ > 0.0);
    fit();
    retranslate();
}

void LearningRateView::showFailure(const QString& why) {
    failure_ = why;
    retranslate();
}

QString LearningRateView::summaryText() const { return summary_->text(); }

void LearningRateView::fit() {
    if (raw_->data()->isEmpty())
        return;
    bool found = false;
    const QCPRange rates = raw_->data()->keyRange(found, QCP::sdPositive);
    if (found)
        plot_->xAxis->setRange(std::min(rates.lower, 1e-5), std::max(rates.upper * 1.5, 1e-3));
    // The loss axis from below the lowest point to a little above the start:
    // the run-away end would flatten everything else.
    const QCPGraph* shown = smoothed_->data()->isEmpty() ? raw_ : smoothed_;
    double low = INFINITY, first = NAN;
    for (const QCPGraphData& p : *shown->data()) {
        low = std::min(low, p.value);
        if (std::isnan(first))
            first = p.value;
    }
    for (const QCPGraphData& p : *raw_->data())
        low = std::min(low, p.value);  // the steps' own losses lie below their average
    if (std::isfinite(low) && std::isfinite(first))
        plot_->yAxis->setRange(low - 0.1 * std::max(first - low, 0.1), std::max(first, low) + 0.3 * std::max(first - low, 0.3));
    plot_->replotAfterPaint();
}

void LearningRateView::chooseExportFile() {
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export the learning-rate sweep"), QStringLiteral("learning-rate.png"),
        tr("PNG image (*.png);;SVG image (*.svg);;PDF document (*.pdf);;CSV table of all points (*.csv)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!exportTo(path, &error)) ViewExport::showFailureAt(exportButton_, error);
}

bool LearningRateView::exportTo(const QString& path, QString* error) const {
    return ViewExport::writePlot(
        path, plot_, QSize(800, 500), [this] { return csvText(); }, error);
}

QString LearningRateView::csvText() const {
    QString text;
    QTextStream out(&text);
    out << "step,learning_rate,loss,smoothed_loss\n";
    for (std::size_t i = 0; i < finding_.rates.size(); ++i) {
        out << (i + 1) << ',' << QString::number(finding_.rates[i], 'g', 9) << ','
            << QString::number(finding_.losses[i], 'g', 9) << ','
            << (i < finding_.smoothed.size() ? QString::number(finding_.smoothed[i], 'g', 9) : QString()) << '\n';
    }
    out.flush();
    return text;
}
