// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QMap>
#include <QStringList>
#include <QVector>
#include <QWidget>

#include <vector>

#include "model/train/HealthFigures.h"
#include "widgets/RunsData.h"

class Plot;
class QCPAxisRect;
class QCPGraph;
class QLabel;

// The training health of the runs ticked in the Runs tab, side by side: a
// line per run of the gradient norm (all gradients together, before clipping)
// and of its layers' median update-to-weight ratio with the 1e-3 guide, both
// on log scales against the step (HealthView shows one run's, per layer). A
// run that kept no health is named in the note under the plots; hidden while
// no run is ticked, the plots while none kept health.
class RunsHealthCompare : public QWidget {
    Q_OBJECT

public:
    enum class Panel { GradNorm = 0, UpdateRatio };

    explicit RunsHealthCompare(QWidget* parent = nullptr);

    // The runs compared; the health of those still compared is kept.
    void setRuns(const QVector<RunRow>& runs);
    // The health of compared runs, by id, as the run library keeps it.
    void setHealth(const QVector<qint64>& ids, const std::vector<chargpt::RunHealth>& health);
    const QVector<RunRow>& runs() const { return runs_; }

    // For tests: a panel's graphs (one per run with health, in the runs' order) and the note.
    const QVector<QCPGraph*>& graphs(Panel panel) const { return graphs_[int(panel)]; }
    QString noteText() const;
    Plot* plot() const { return plot_; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    void redraw();

    QVector<RunRow> runs_;
    QMap<qint64, std::vector<chargpt::HealthFigures>> health_;
    QLabel* title_ = nullptr;
    QLabel* note_ = nullptr;
    Plot* plot_ = nullptr;
    QCPAxisRect* rects_[2] = {};
    QStringList titles_[2];  // each panel's title, the whole first (fitAxisTitle)
    QVector<QCPGraph*> graphs_[2];
};
