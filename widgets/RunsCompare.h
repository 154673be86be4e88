// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QVector>
#include <QWidget>

#include "widgets/LossPlot.h"
#include "widgets/RunsData.h"

class QCheckBox;
class QComboBox;
class QCustomPlot;
class QLabel;
class QTableWidget;

// The runs ticked in the Runs tab, overlaid on a LossPlot (the Training tab's
// plot, in its Runs layout: units, log scale, reference lines, export): each
// run's validation loss (solid) and smoothed training loss (dashed) in a
// colour of its own, against the step, the tokens seen or the training time;
// runs that differ only in their seed drawn once, as their mean with a band
// from the lowest to the highest; beside it, the settings that differ between
// the runs, and only those.
class RunsCompare : public QWidget {
    Q_OBJECT

public:
    using XAxis = LossPlot::XAxis;

    explicit RunsCompare(QWidget* parent = nullptr);

    // The runs to compare and their curves (matched by id; a run without its
    // curve yet is listed in the diff and drawn once it arrives).
    void setRuns(const QVector<RunRow>& runs, const QVector<RunCurve>& curves);
    const QVector<RunRow>& runs() const { return runs_; }
    void setXAxis(XAxis axis);
    XAxis xAxis() const { return lossPlot_->xAxis(); }
    void setSmoothing(double smoothing);

    // .png, .svg or .pdf: the plot and the diff; .csv: every point drawn (the
    // plot's CSV, in nats and in the unit shown).
    bool exportTo(const QString& path, QString* error = nullptr) const;
    QString csv() const;

    LossPlot* lossPlot() const { return lossPlot_; }
    QCustomPlot* plot() const;
    QTableWidget* diffTable() const { return diff_; }
    // The series drawn (a run, or a seed group's mean), for tests.
    QStringList seriesNames() const;
    void retranslate();

protected:
    void changeEvent(QEvent* event) override;

private:
    void rebuild();
    void redraw();
    QVector<LossPlot::Series> series() const;
    const RunCurve* curveOf(qint64 id) const;
    // ln V when every run has the same vocabulary, else NaN.
    double uniformGuessNats() const;

    QVector<RunRow> runs_;
    QVector<RunCurve> curves_;
    QComboBox* axisBox_ = nullptr;
    QLabel* axisLabel_ = nullptr;
    QCheckBox* trainBox_ = nullptr;
    LossPlot* lossPlot_ = nullptr;
    QLabel* diffTitle_ = nullptr;
    QTableWidget* diff_ = nullptr;
};
