// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/HeadRolesView.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPainter>
#include <QPushButton>
#include <QSplitter>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <tuple>
#include <utility>

#include "widgets/ValueGrid.h"
#include "widgets/ViewExport.h"
#include "widgets/Plot.h"

namespace {

QString score(double value) { return std::isfinite(value) ? QLocale().toString(value, 'f', 3) : QString(); }

// A colour per head: hues around the circle, in the order of the heads,
// alternately lighter and darker so that neighbours differ.
QColor headColor(int layer, int head, int layers, int heads) {
    const int count = std::max(1, layers * heads), index = layer * heads + head;
    const int hue = int(std::lround(330.0 * index / count)) % 360;
    return QColor::fromHsv(hue, 210, index % 2 == 0 ? 215 : 150);
}

}  // namespace

HeadRolesView::HeadRolesView(QWidget* parent) : QWidget(parent) {
    explanation_ = new QLabel(this);
    explanation_->setWordWrap(true);
    roleLabel_ = new QLabel(this);
    roleBox_ = new QComboBox(this);
    roleBox_->addItem(QString(), int(HeadRole::PreviousToken));
    roleBox_->addItem(QString(), int(HeadRole::Induction));
    status_ = new QLabel(this);
    status_->setTextFormat(Qt::PlainText);  // messages name files and hold text read from them: never markup
    status_->setWordWrap(true);
    exportButton_ = new QPushButton(this);

    plot_ = new Plot(this);
    plot_->setMinimumSize(280, 200);
    plot_->legend->setVisible(true);
    plot_->legend->setFont(font());
    // Heads join the legend only when it is shown (rebuildPlot): a legend of
    // 192 hidden entries made removing the lines quadratic, about 6 ms at
    // every step of the timeline for `book`.
    plot_->setAutoAddPlottableToLegend(false);
    plot_->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
    plot_->yAxis->setRange(0.0, 1.0);
    chanceLine_ = new QCPItemStraightLine(plot_);
    chanceLine_->setPen(QPen(Qt::gray, 1.2, Qt::DashLine));
    chanceLine_->setVisible(false);
    stepLine_ = new QCPItemStraightLine(plot_);
    stepLine_->setPen(QPen(QColor(120, 120, 120), 1.0, Qt::DotLine));
    stepLine_->setVisible(false);

    heatmap_ = new ValueGrid(this);
    heatmap_->setMaximumCellSize(44.0);
    heatmap_->setToolTipFunction([this](int layer, int head) { return toolTipText(layer, head); });

    auto* top = new QHBoxLayout;
    top->addWidget(roleLabel_);
    top->addWidget(roleBox_);
    top->addWidget(status_, 1);
    top->addWidget(exportButton_);
    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(plot_);
    splitter->addWidget(heatmap_);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 1);
    // The lines over the run take most of the width; the small layer x head
    // grid needs little (the splitter scales these to the width it gets).
    splitter->setSizes({3000, 1000});
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(explanation_);
    layout->addLayout(top);
    layout->addWidget(splitter, 1);

    connect(roleBox_, &QComboBox::currentIndexChanged, this, [this] {
        rebuildPlot();
        updateHeatmap();
    });
    connect(exportButton_, &QPushButton::clicked, this, [this] {
        ViewExport::chooseAndExport(
            this, tr("Export the head roles"), QStringLiteral("head-roles.png"),
            [this](const QString& path, QString* error) { return exportTo(path, error); });
    });
    retranslateUi();
}

void HeadRolesView::setHeadRoles(const HeadRoles& roles) {
    roles_ = roles;
    problem_.clear();
    rebuildPlot();
    updateHeatmap();
}

void HeadRolesView::showProblem(const QString& message) {
    problem_ = message;
    updateStatus();
}

void HeadRolesView::setCurrentStep(qint64 step) {
    currentStep_ = step;
    updateHeatmap();
}

int HeadRolesView::currentFrame() const {
    if (roles_.frames.isEmpty()) return -1;
    return currentStep_ ? roles_.frameAt(*currentStep_) : int(roles_.frames.size()) - 1;
}

void HeadRolesView::setComparedStep(std::optional<qint64> step) {
    comparedStep_ = step;
    updateHeatmap();
}

int HeadRolesView::comparedFrame() const {
    if (!comparedStep_ || currentFrame() < 0) return -1;
    const int frame = roles_.frameAt(*comparedStep_);
    return frame >= 0 && roles_.frames[frame].step == *comparedStep_ ? frame : -1;
}

HeadRole HeadRolesView::role() const { return HeadRole(roleBox_->currentData().toInt()); }

void HeadRolesView::setRole(HeadRole role) { roleBox_->setCurrentIndex(roleBox_->findData(int(role))); }

void HeadRolesView::rebuildPlot() {
    plot_->clearGraphs();
    const HeadRole role = this->role();
    // A legend of dozens of heads would hide the lines.
    const bool legend = !roles_.isEmpty() && roles_.layers * roles_.heads <= 16;
    if (!roles_.isEmpty()) {
        for (int l = 0; l < roles_.layers; ++l)
            for (int h = 0; h < roles_.heads; ++h) {
                QCPGraph* graph = plot_->addGraph();
                if (legend)
                    graph->addToLegend();
                graph->setName(headName(l, h));
                graph->setPen(QPen(headColor(l, h, roles_.layers, roles_.heads), 1.6));
                QVector<double> steps, values;
                for (int f = 0; f < roles_.frames.size(); ++f) {
                    const double value = roles_.score(role, f, l, h);
                    if (!std::isfinite(value)) continue;
                    steps << double(roles_.frames[f].step);
                    values << value;
                }
                graph->setData(steps, values, true);
                if (steps.size() == 1)  // one snapshot (an opened checkpoint): a line would not show
                    graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 7));
            }
        const double first = double(roles_.frames.first().step), last = double(roles_.frames.last().step);
        if (last > first)
            plot_->xAxis->setRange(first, last);
        else
            plot_->xAxis->setRange(first - 1.0, first + 1.0);  // the one snapshot in the middle
    }
    const double chance = roles_.chance(role);
    chanceLine_->setVisible(std::isfinite(chance));
    if (std::isfinite(chance)) {
        chanceLine_->point1->setCoords(0.0, chance);
        chanceLine_->point2->setCoords(1.0, chance);
    }
    // The scores and the chance line, with a little room around them: the
    // lines of a young model, all below 0.2, are not squeezed to the bottom
    // of 0..1. Scores are shares of attention: never past 0 or 1.
    double low = std::isfinite(chance) ? chance : 1.0, high = std::isfinite(chance) ? chance : 0.0;
    for (int f = 0; f < roles_.frames.size(); ++f)
        for (float v :
             role == HeadRole::Induction ? roles_.frames[f].induction : roles_.frames[f].previousToken)
            if (std::isfinite(v)) {
                low = std::min(low, double(v));
                high = std::max(high, double(v));
            }
    if (low > high) std::tie(low, high) = std::pair(0.0, 1.0);
    const double room = std::max(0.02, (high - low) * 0.08);
    plot_->yAxis->setRange(std::max(0.0, low - room), std::min(1.02, high + room));
    setAxisTitle(plot_->yAxis, headRoleName(role));
    plot_->legend->setVisible(legend);
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void HeadRolesView::updateHeatmap() {
    const HeadRole role = this->role();
    const int frame = currentFrame();
    const int compared = comparedFrame();
    ValueGridData data;
    data.minimum = compared >= 0 ? -1.0 : 0.0;  // scores are shares of attention, 0..1
    data.maximum = 1.0;
    data.diverging = compared >= 0;
    data.scaleTitle = compared >= 0
                          ? tr("change of the %1 since step %2").arg(headRoleName(role).toLower()).arg(*comparedStep_)
                          : headRoleName(role);
    if (!roles_.isEmpty()) {
        for (int l = 0; l < roles_.layers; ++l) data.rowLabels << tr("L%1").arg(l + 1);
        for (int h = 0; h < roles_.heads; ++h) data.columnLabels << tr("H%1").arg(h + 1);
        for (int l = 0; l < roles_.layers; ++l)
            for (int h = 0; h < roles_.heads; ++h) {
                double value = roles_.score(role, frame, l, h);
                if (compared >= 0) value -= roles_.score(role, compared, l, h);
                data.values << value;
                QString text = std::isfinite(value) ? QLocale().toString(value, 'f', 2) : QString();
                if (compared >= 0 && value > 0.0) text.prepend(QLatin1Char('+'));
                data.cellTexts << text;
            }
    }
    heatmap_->setData(data);
    stepLine_->setVisible(frame >= 0);
    if (frame >= 0) {
        const double step = double(roles_.frames[frame].step);
        stepLine_->point1->setCoords(step, 0.0);
        stepLine_->point2->setCoords(step, 1.0);
    }
    plot_->replot(QCustomPlot::rpQueuedReplot);
    updateStatus();
}

QString HeadRolesView::toolTipText(int layer, int head) const {
    const int frame = currentFrame();
    if (frame < 0) return QString();
    const HeadRole role = this->role();
    const double value = roles_.score(role, frame, layer, head);
    QString text = tr("%1 at step %2: %3 %4")
                       .arg(headName(layer, head))
                       .arg(roles_.frames[frame].step)
                       .arg(headRoleName(role), score(value));
    if (const int compared = comparedFrame(); compared >= 0)
        text += QLatin1Char('\n') + tr("At step %1 (A): %2").arg(roles_.frames[compared].step).arg(
                                         score(roles_.score(role, compared, layer, head)));
    const double chance = roles_.chance(role);
    if (std::isfinite(chance))
        text += QLatin1Char('\n') + tr("A head attending evenly scores %1.").arg(score(chance));
    return text;
}

void HeadRolesView::updateStatus() {
    exportButton_->setEnabled(!roles_.isEmpty());
    if (!problem_.isEmpty()) {
        status_->setText(problem_);
        return;
    }
    const int frame = currentFrame();
    if (frame < 0) {
        status_->setText(tr("Train a model: the scores of every head are measured at each snapshot."));
        return;
    }
    QString text = tr("Heatmap at step %1 (%2 of the %3 steps measured here).")
                       .arg(roles_.frames[frame].step)
                       .arg(frame + 1)
                       .arg(roles_.frames.size());
    if (comparedFrame() >= 0)
        text += QLatin1Char(' ') + tr("Each head's change since step %1 (A): red rose, blue fell.").arg(*comparedStep_);
    else if (comparedStep_)
        text += QLatin1Char(' ') + tr("Step %1 (A) is not among the steps measured, so nothing is compared.")
                                       .arg(*comparedStep_);
    status_->setText(text);
}

QString HeadRolesView::csv() const {
    QString out = QStringLiteral(
        "step,head,layer,head_index,previous_token,induction,previous_token_chance,"
        "induction_chance\n");
    for (int f = 0; f < roles_.frames.size(); ++f)
        for (int l = 0; l < roles_.layers; ++l)
            for (int h = 0; h < roles_.heads; ++h)
                out += QStringList{QString::number(roles_.frames[f].step),
                                   ViewExport::csvField(headName(l, h)),
                                   QString::number(l + 1),
                                   QString::number(h + 1),
                                   ViewExport::csvNumber(roles_.score(HeadRole::PreviousToken, f, l, h)),
                                   ViewExport::csvNumber(roles_.score(HeadRole::Induction, f, l, h)),
                                   ViewExport::csvNumber(roles_.previousTokenChance),
                                   ViewExport::csvNumber(roles_.inductionChance)}
                           .join(QLatin1Char(',')) +
                       QLatin1Char('\n');
    return out;
}

bool HeadRolesView::exportTo(const QString& path, QString* error) const {
    const ValueGridData data = heatmap_->data();
    const QFont font = this->font();
    const QFontMetrics metrics(font);
    const QSize gridSize = ValueGrid::preferredSize(data, font, 40.0);
    const int margin = 12, line = metrics.height() + 2;
    const QSize plotSize(640, std::max(360, gridSize.height()));
    const QSize size(plotSize.width() + gridSize.width() + 3 * margin, plotSize.height() + line + 2 * margin);
    const int frame = currentFrame();
    const QString title = frame >= 0 ? tr("%1 of every head; heatmap at step %2")
                                           .arg(headRoleName(role()))
                                           .arg(roles_.frames[frame].step)
                                     : headRoleName(role());
    return ViewExport::write(
        path, roles_.isEmpty() ? QSize() : size,
        [&](QPainter& painter, const QRectF& target) {
            QFont bold = font;
            bold.setBold(true);
            painter.setPen(Qt::black);
            painter.setFont(bold);
            painter.drawText(QPointF(target.left() + margin, target.top() + margin + metrics.ascent()),
                             title);
            const double y = target.top() + margin + line;
            ViewExport::paintPlot(painter, QRectF(QPointF(target.left() + margin, y), QSizeF(plotSize)),
                                  plot_);
            painter.setFont(font);
            ValueGrid::paintGrid(
                painter,
                QRectF(target.left() + 2 * margin + plotSize.width(), y, gridSize.width(), gridSize.height()),
                data, font, Qt::black, 40.0);
        },
        [this] { return csv(); }, error);
}

void HeadRolesView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) retranslateUi();
    QWidget::changeEvent(event);
}

void HeadRolesView::retranslateUi() {
    explanation_->setText(tr(
        "What each head has learned to look at, snapshot by snapshot. A previous-token head attends to the "
        "character just before; an induction head finds an earlier occurrence of the current character and "
        "attends to what followed it, so it can continue a repeated text (Olsson et al., 2022). Induction "
        "heads "
        "tend to appear suddenly, after previous-token heads, and the loss drops when they do. The dashed "
        "line "
        "is the score of a head that attends evenly."));
    roleLabel_->setText(tr("Score:"));
    roleBox_->setItemText(0, headRoleName(HeadRole::PreviousToken));
    roleBox_->setItemText(1, headRoleName(HeadRole::Induction));
    exportButton_->setText(tr("Export…"));
    exportButton_->setToolTip(
        tr("Save the plot and the heatmap as a PNG or SVG picture, or the scores as CSV"));
    plot_->xAxis->setLabel(tr("step"));
    rebuildPlot();
    updateHeatmap();
}
