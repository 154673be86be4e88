// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/AttributionHistoryView.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "widgets/AttentionData.h"
#include "widgets/AttributionView.h"
#include "widgets/Plot.h"

namespace {

// Six colours apart from the logit's black.
const QColor kLineColours[] = {QColor(31, 119, 180), QColor(214, 39, 40),   QColor(44, 160, 44),
                               QColor(255, 127, 14), QColor(148, 103, 189), QColor(140, 86, 75)};

}  // namespace

AttributionHistoryView::AttributionHistoryView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    summary_ = new QLabel(this);
    summary_->setWordWrap(true);
    summary_->setTextFormat(Qt::PlainText);
    plot_ = new Plot(this);
    plot_->setMinimumHeight(260);
    plot_->legend->setVisible(true);
    plot_->legend->setFont(font());
    stopButton_ = new QPushButton(this);
    stopButton_->setObjectName(QStringLiteral("stopHistory"));
    stopButton_->setVisible(false);
    connect(stopButton_, &QPushButton::clicked, this, &AttributionHistoryView::stopRequested);
    auto* top = new QHBoxLayout;
    top->addWidget(summary_, 1);
    top->addWidget(stopButton_, 0, Qt::AlignTop);
    layout->addLayout(top);
    layout->addWidget(plot_, 1);
    changeTitle_ = new QLabel(this);
    changeTitle_->setWordWrap(true);
    changeTable_ = new QTableWidget(0, 4, this);
    changeTable_->setObjectName(QStringLiteral("abChanges"));
    changeTable_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    changeTable_->verticalHeader()->setVisible(false);
    changeTable_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    changeTable_->setMaximumHeight(190);
    layout->addWidget(changeTitle_);
    layout->addWidget(changeTable_);
    retranslateUi();
}

void AttributionHistoryView::setMarks(std::optional<qint64> a, std::optional<qint64> b) {
    markA_ = a;
    markB_ = b;
    fillChanges();
}

void AttributionHistoryView::setRunning(bool running) {
    running_ = running;
    stopButton_->setVisible(running);
    summary_->setText(summary());
}

int AttributionHistoryView::nearestMeasured(qint64 step) const {
    int best = 0;
    for (int i = 1; i < history_.steps.size(); ++i)
        if (std::abs(history_.steps[i] - step) < std::abs(history_.steps[best] - step)) best = i;
    return best;
}

std::pair<qint64, qint64> AttributionHistoryView::comparedSteps() const {
    if (!history_.isValid() || !markA_ || !markB_) return {-1, -1};
    return {history_.steps[nearestMeasured(*markA_)], history_.steps[nearestMeasured(*markB_)]};
}

QVector<AttributionHistoryView::Change> AttributionHistoryView::changes() const {
    QVector<Change> out;
    if (!history_.isValid() || !markA_ || !markB_) return out;
    const int a = nearestMeasured(*markA_), b = nearestMeasured(*markB_);
    for (int p = 0; p < history_.values.size(); ++p) {
        const QVector<double>& v = history_.values[p];
        if (v.size() != history_.steps.size() || !std::isfinite(v[a]) || !std::isfinite(v[b])) continue;
        out.append({p, v[a], v[b]});
    }
    std::stable_sort(out.begin(), out.end(), [](const Change& x, const Change& y) {
        return std::abs(x.difference()) > std::abs(y.difference());
    });
    if (out.size() > kChanges) out.resize(kChanges);
    return out;
}

void AttributionHistoryView::fillChanges() {
    const QVector<Change> rows = changes();
    const auto [a, b] = comparedSteps();
    changeTitle_->setVisible(!rows.isEmpty());
    changeTable_->setVisible(!rows.isEmpty());
    changeTable_->setHorizontalHeaderLabels(
        {tr("part"), tr("A (step %1)").arg(a), tr("B (step %1)").arg(b), tr("B - A")});
    changeTitle_->setText(
        a == b ? tr("What changed between A and B: nothing, they are the same kept step (%1).").arg(a)
               : tr("What changed between A and B: each part's share of the logit at the kept steps "
                    "measured nearest to the marks, largest change first."));
    changeTable_->setRowCount(int(rows.size()));
    for (int r = 0; r < rows.size(); ++r) {
        const Change& c = rows[r];
        const double d = c.difference();
        const QStringList cells = {AttributionView::partName(history_.parts[c.part]),
                                   QString::number(c.a, 'f', 2), QString::number(c.b, 'f', 2),
                                   (d > 0 ? QStringLiteral("+") : QString()) + QString::number(d, 'f', 2)};
        for (int column = 0; column < 4; ++column) {
            auto* item = new QTableWidgetItem(cells[column]);
            if (column > 0) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            if (column == 3 && std::abs(d) >= 0.005)
                item->setForeground(d > 0 ? QColor(26, 120, 50) : QColor(190, 40, 40));
            changeTable_->setItem(r, column, item);
        }
    }
}

void AttributionHistoryView::setHistory(const AttributionHistory& history) {
    history_ = history;
    retranslateUi();
}

QVector<int> AttributionHistoryView::shownParts() const {
    QVector<int> order;
    QVector<double> peak;
    for (int p = 0; p < history_.values.size(); ++p) {
        double most = 0.0;
        for (const double v : history_.values[p])
            if (std::isfinite(v)) most = std::max(most, std::abs(v));
        order.append(p);
        peak.append(most);
    }
    std::stable_sort(order.begin(), order.end(), [&peak](int a, int b) { return peak[a] > peak[b]; });
    if (order.size() > kLines) order.resize(kLines);
    return order;
}

QString AttributionHistoryView::summary() const {
    const AttributionHistory& h = history_;
    if (running_) return tr("Measuring the attribution at each kept step…");
    if (!h.problem.isEmpty()) return tr("Nothing across the kept steps: %1").arg(h.problem);
    if (!h.isValid())
        return tr(
            "Across the kept steps: click a character while the timeline shows a run whose weights are kept "
            "at two steps or more.");
    const QVector<int> shown = shownParts();
    QString text = tr("'%1' across %2 kept steps, %3 to %4: its logit went from %5 to %6.")
                       .arg(displayCharacter(h.chosen))
                       .arg(h.steps.size())
                       .arg(h.steps.first())
                       .arg(h.steps.last())
                       .arg(h.logits.first(), 0, 'f', 2)
                       .arg(h.logits.last(), 0, 'f', 2);
    if (!shown.isEmpty()) {
        // The part whose share grew most: a head switching on.
        int grew = shown.first();
        for (const int p : shown)
            if (h.values[p].last() - h.values[p].first() > h.values[grew].last() - h.values[grew].first())
                grew = p;
        text += QLatin1Char(' ') + tr("%1's share grew most, from %2 to %3.")
                                       .arg(AttributionView::partName(h.parts[grew]))
                                       .arg(h.values[grew].first(), 0, 'f', 2)
                                       .arg(h.values[grew].last(), 0, 'f', 2);
    }
    return text;
}

void AttributionHistoryView::draw() {
    plot_->clearGraphs();
    const AttributionHistory& h = history_;
    plot_->setVisible(h.isValid());
    if (!h.isValid()) return;
    QVector<double> steps;
    for (const qint64 s : h.steps) steps.append(double(s));
    QCPGraph* logit = plot_->addGraph();
    logit->setData(steps, h.logits, true);
    logit->setPen(QPen(Qt::black, 2, Qt::DashLine));
    logit->setScatterStyle(QCPScatterStyle::ssDisc);
    logit->setName(tr("logit of '%1'").arg(displayCharacter(h.chosen)));
    const QVector<int> shown = shownParts();
    for (int i = 0; i < shown.size(); ++i) {
        QCPGraph* line = plot_->addGraph();
        line->setData(steps, h.values[shown[i]], true);
        line->setPen(QPen(kLineColours[i % 6], 2));
        line->setScatterStyle(QCPScatterStyle::ssCircle);
        line->setName(AttributionView::partName(h.parts[shown[i]]));
    }
    plot_->xAxis->setLabel(tr("step"));
    plot_->yAxis->setLabel(tr("share of the logit"));
    plot_->rescaleAxes();
    plot_->yAxis->scaleRange(1.1);
    plot_->replot();
}

void AttributionHistoryView::retranslateUi() {
    summary_->setText(summary());
    stopButton_->setText(tr("Stop"));
    stopButton_->setToolTip(tr("Stop measuring the kept steps"));
    draw();
    fillChanges();
}

void AttributionHistoryView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) retranslateUi();
    QWidget::changeEvent(event);
}
