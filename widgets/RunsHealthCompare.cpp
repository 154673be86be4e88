// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/RunsHealthCompare.h"

#include <QEvent>
#include <QLabel>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <iterator>

#include "widgets/AxisTitleFit.h"
#include "widgets/LossPlotData.h"
#include "widgets/Plot.h"

RunsHealthCompare::RunsHealthCompare(QWidget* parent) : QWidget(parent), plot_(new Plot(this)) {
    setObjectName(QStringLiteral("runsHealthCompare"));
    title_ = new QLabel(this);
    note_ = new QLabel(this);
    note_->setObjectName(QStringLiteral("runsHealthNote"));
    note_->setTextFormat(Qt::PlainText);  // run names come from the library
    note_->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(title_);
    layout->addWidget(plot_, 1);
    layout->addWidget(note_);
    plot_->setMinimumHeight(160);
    rects_[0] = plot_->axisRect();
    rects_[1] = new QCPAxisRect(plot_);
    plot_->plotLayout()->addElement(0, 1, rects_[1]);
    for (QCPAxisRect* rect : rects_) {
        rect->setupFullAxesBox(true);
        QCPAxis* y = rect->axis(QCPAxis::atLeft);
        y->setScaleType(QCPAxis::stLogarithmic);
        y->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
        y->setNumberFormat(QStringLiteral("eb"));
        y->setNumberPrecision(0);
        rect->axis(QCPAxis::atBottom)->setRange(0, 1);
    }
    auto* guide = new QCPItemStraightLine(plot_);
    QCPAxisRect* ratio = rects_[int(Panel::UpdateRatio)];
    guide->setClipAxisRect(ratio);
    for (QCPItemPosition* p : {guide->point1, guide->point2})
        p->setAxes(ratio->axis(QCPAxis::atBottom), ratio->axis(QCPAxis::atLeft));
    guide->point1->setCoords(0, chargpt::kHealthyUpdateRatio);
    guide->point2->setCoords(1, chargpt::kHealthyUpdateRatio);
    guide->setPen(QPen(QColor(60, 60, 60), 1.5, Qt::DashLine));
    plot_->legend->setVisible(true);
    plot_->legend->setFont(QFont(font().family(), std::max(7, font().pointSize() - 2)));
    // Each panel's title in the words that fit its height (the panels are low).
    connect(plot_, &QCustomPlot::afterLayout, this, [this] {
        bool changed = false;
        for (int panel = 0; panel < int(std::size(rects_)); ++panel)
            changed = fitAxisTitle(rects_[panel]->axis(QCPAxis::atLeft), titles_[panel]) || changed;
        if (changed) plot_->replot(QCustomPlot::rpQueuedReplot);
    });
    retranslate();  // and draws
}

void RunsHealthCompare::setRuns(const QVector<RunRow>& runs) {
    runs_ = runs;
    for (auto it = health_.begin(); it != health_.end();) {
        const bool compared =
            std::any_of(runs_.begin(), runs_.end(), [&](const RunRow& r) { return r.id == it.key(); });
        it = compared ? std::next(it) : health_.erase(it);
    }
    redraw();
}

void RunsHealthCompare::setHealth(const QVector<qint64>& ids, const std::vector<chargpt::RunHealth>& health) {
    for (int i = 0; i < ids.size() && std::size_t(i) < health.size(); ++i)
        health_[ids[i]] = health[std::size_t(i)].figures;
    redraw();
}

QString RunsHealthCompare::noteText() const { return note_->text(); }

void RunsHealthCompare::redraw() {
    for (auto& panel : graphs_) {
        for (QCPGraph* g : panel) plot_->removeGraph(g);
        panel.clear();
    }
    QStringList without;
    int drawn = 0;
    for (int index = 0; index < runs_.size(); ++index) {
        const RunRow& run = runs_[index];
        const auto found = health_.constFind(run.id);
        if (found == health_.constEnd()) continue;  // not read yet
        if (found->empty()) {
            without << tr("run %1").arg(run.id);
            continue;
        }
        // The colour and name the loss comparison gives the run (its series
        // are in the runs' order where no seeds are grouped).
        const QColor color = runSeriesColor(index);
        ++drawn;
        for (int p = 0; p < 2; ++p) {
            QCPAxisRect* rect = rects_[p];
            QCPGraph* g = plot_->addGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
            g->setPen(QPen(color, 1.5));
            g->setName(run.name.isEmpty() ? tr("run %1").arg(run.id)
                                          : tr("run %1 · %2").arg(run.id).arg(run.name));
            if (p != 0) g->removeFromLegend();
            for (const chargpt::HealthFigures& f : *found) {
                const double v = p == 0 ? f.gradNorm : chargpt::medianUpdateRatio(f);
                if (std::isfinite(v) && v > 0.0) g->addData(double(f.step), v);
            }
            graphs_[p] << g;
        }
    }
    for (int p = 0; p < 2; ++p) {
        bool first = true;
        for (QCPGraph* g : graphs_[p]) {
            if (g->data()->isEmpty()) continue;
            g->rescaleAxes(!first);
            first = false;
        }
        QCPAxis* y = rects_[p]->axis(QCPAxis::atLeft);
        QCPRange r = first ? QCPRange(1e-4, 1.0) : y->range();
        if (p == int(Panel::UpdateRatio)) {
            r.expand(chargpt::kHealthyUpdateRatio * 0.5);
            r.expand(chargpt::kHealthyUpdateRatio * 2.0);
        }
        y->setRange(r.lower * 0.8, r.upper * 1.25);
        if (first) rects_[p]->axis(QCPAxis::atBottom)->setRange(0, 1);
    }
    plot_->legend->setVisible(drawn > 0);
    // Only what there is: nothing while no run is ticked, the note alone while none kept health.
    setVisible(!runs_.isEmpty());
    plot_->setVisible(drawn > 0);
    note_->setText(without.isEmpty()
                       ? QString()
                       : tr("No health kept for %1 (trained before it was measured, or with chargpt train).")
                             .arg(without.join(QStringLiteral(", "))));
    note_->setVisible(!without.isEmpty());
    plot_->replotAfterPaint();
}

void RunsHealthCompare::retranslate() {
    title_->setText(tr("Training health of the compared runs"));
    titles_[int(Panel::GradNorm)] = QStringList{tr("gradient norm")};
    titles_[int(Panel::UpdateRatio)] =
        QStringList{tr("update / weight (median)"), tr("update / weight\n(median)"), tr("update / weight")};
    for (int panel = 0; panel < int(std::size(rects_)); ++panel)
        rects_[panel]->axis(QCPAxis::atLeft)->setLabel(titles_[panel].first());
    for (QCPAxisRect* rect : rects_) rect->axis(QCPAxis::atBottom)->setLabel(tr("step"));
    redraw();
}

void RunsHealthCompare::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) retranslate();
    QWidget::changeEvent(event);
}
