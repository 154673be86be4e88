// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/AttributionHistoryView.h"

#include <QEvent>
#include <QLabel>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include <qcustomplot.h>
#include "widgets/AttributionView.h"

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
    plot_ = new QCustomPlot(this);
    plot_->setMinimumHeight(260);
    plot_->legend->setVisible(true);
    plot_->legend->setFont(font());
    layout->addWidget(summary_);
    layout->addWidget(plot_, 1);
    retranslateUi();
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
    if (!h.problem.isEmpty()) return tr("Nothing across the kept steps: %1").arg(h.problem);
    if (!h.isValid())
        return tr(
            "Across the kept steps: click a character while the timeline shows a run whose weights are kept "
            "at two steps or more.");
    const QVector<int> shown = shownParts();
    QString text = tr("'%1' across %2 kept steps, %3 to %4: its logit went from %5 to %6.")
                       .arg(h.chosen)
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
    logit->setName(tr("logit of '%1'").arg(h.chosen));
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
    draw();
}

void AttributionHistoryView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) retranslateUi();
    QWidget::changeEvent(event);
}
