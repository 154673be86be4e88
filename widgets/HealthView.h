// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QWidget>

#include <vector>

#include "model/train/HealthFigures.h"

class Plot;
class QCPAxisRect;
class QCPGraph;
class QCPItemStraightLine;
class QLabel;
class QPushButton;

// The training health panel, beside the loss curves: four small plots against
// the step, a line per layer in each: the gradient norm (log scale), the
// update-to-weight ratio (log scale, with the 1e-3 guide), the share of the
// feed-forward's units that never fire, and the heads' attention entropy (each
// layer's mean, a marker where a head collapsed to near zero). The figures
// are model/train/HealthFigures.h's, live as a run trains or a past run's from
// the run library, and under them the warnings the run said. Exported as a
// picture or every figure as CSV.
class HealthView : public QWidget {
    Q_OBJECT

public:
    enum class Panel { GradNorm = 0, UpdateRatio, DeadUnits, Entropy };

    explicit HealthView(QWidget* parent = nullptr);

    // A warning in the window's language, with its numbers.
    static QString warningText(const chargpt::HealthWarning& warning);

    // New measured steps after those shown (a run as it trains).
    void append(const std::vector<chargpt::HealthFigures>& figures);
    // These figures instead of those shown (a past run, or none); their warnings gone.
    void setFigures(const std::vector<chargpt::HealthFigures>& figures);
    // A past run's figures and the warnings it said.
    void setHealth(const chargpt::RunHealth& health);
    void clear() { setFigures({}); }
    const std::vector<chargpt::HealthFigures>& figures() const { return figures_; }
    // Warnings said after those listed (a run as it trains), listed under the
    // plot in the window's language, the latest last.
    void addWarnings(const std::vector<chargpt::HealthWarning>& warnings);
    const std::vector<chargpt::HealthWarning>& warnings() const { return warnings_; }
    QString warningListText() const;
    // A vertical line at `step` in every plot (where a warning was found); NaN: none.
    void markStep(double step);
    double markedStep() const { return marked_; }

    // The timeline's chosen step: the measurement nearest it is marked in every
    // plot and its figures said under them; NaN: none.
    void setStepCursor(double step);
    // The measured step shown for the cursor (NaN: none), and what is said of it.
    double cursorStep() const;
    QString readoutText() const;

    bool exportTo(const QString& path, QString* error = nullptr) const;
    QString csvText() const;

    // For tests: the plot, a panel's graphs (one per layer), the collapse markers.
    Plot* plot() const { return plot_; }
    QCPAxisRect* panel(Panel panel) const { return rects_[int(panel)]; }
    const std::vector<QCPGraph*>& graphs(Panel panel) const { return graphs_[int(panel)]; }
    QCPGraph* collapseMarkers() const { return collapsed_; }
    QCPItemStraightLine* guideLine() const { return guide_; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    void chooseExportFile();
    // Graphs for `layers` layers in every panel (again when the count changes).
    void makeGraphs(int layers);
    void addPoints(const chargpt::HealthFigures& f);
    void fitAxes();
    void showWarnings();
    void showCursor();

    Plot* plot_ = nullptr;
    QLabel* title_ = nullptr;
    QLabel* emptyNote_ = nullptr;
    QLabel* warningList_ = nullptr;
    QLabel* readout_ = nullptr;
    QPushButton* exportButton_ = nullptr;
    QCPAxisRect* rects_[4] = {};
    std::vector<QCPGraph*> graphs_[4];
    QCPGraph* collapsed_ = nullptr;
    QCPItemStraightLine* guide_ = nullptr;
    QCPItemStraightLine* collapseLine_ = nullptr;
    std::vector<QCPItemStraightLine*> stepLines_;
    std::vector<QCPItemStraightLine*> cursorLines_;
    double cursor_;
    std::vector<chargpt::HealthFigures> figures_;
    std::vector<chargpt::HealthWarning> warnings_;
    double marked_;
};
