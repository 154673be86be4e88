// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QVector>
#include <QWidget>

#include "RunsData.h"

class QCheckBox;
class QComboBox;
class QCustomPlot;
class QLabel;
class QPushButton;
class QSlider;
class QTableWidget;

// The runs ticked in the Runs tab, overlaid: each run's validation loss (solid)
// and smoothed training loss (dashed) in a colour of its own, against the step,
// the tokens seen or the training time; runs that differ only in their seed
// drawn once, as their mean with a band from the lowest to the highest; beside
// it, the settings that differ between the runs, and only those.
class RunsCompare : public QWidget {
    Q_OBJECT

public:
    enum class XAxis { Step, Tokens, Seconds };

    explicit RunsCompare(QWidget* parent = nullptr);

    // The runs to compare and their curves (matched by id; a run without its
    // curve yet is listed in the diff and drawn once it arrives).
    void setRuns(const QVector<RunRow>& runs, const QVector<RunCurve>& curves);
    const QVector<RunRow>& runs() const { return runs_; }
    void setXAxis(XAxis axis);
    XAxis xAxis() const { return axis_; }
    void setSmoothing(double smoothing);

    // .png, .svg or .pdf: the plot and the diff; .csv: every point drawn.
    bool exportTo(const QString& path, QString* error = nullptr) const;
    QString csv() const;

    QCustomPlot* plot() const { return plot_; }
    QTableWidget* diffTable() const { return diff_; }
    // The series drawn (a run, or a seed group's mean), for tests.
    QStringList seriesNames() const;
    void retranslate();

protected:
    void changeEvent(QEvent* event) override;

private:
    // One line drawn: a run, or the mean of a seed group with its band.
    struct Series {
        QString name;
        QVector<qint64> ids;
        QVector<double> valX, val, valLow, valHigh;
        QVector<double> trainX, train;
    };
    void rebuild();
    void redraw();
    QVector<Series> series() const;
    const RunCurve* curveOf(qint64 id) const;

    QVector<RunRow> runs_;
    QVector<RunCurve> curves_;
    XAxis axis_ = XAxis::Step;
    double smoothing_ = 0.9;
    QComboBox* axisBox_ = nullptr;
    QLabel* axisLabel_ = nullptr;
    QCheckBox* trainBox_ = nullptr;
    QLabel* smoothingLabel_ = nullptr;
    QSlider* smoothingSlider_ = nullptr;
    QPushButton* export_ = nullptr;
    QCustomPlot* plot_ = nullptr;
    QLabel* diffTitle_ = nullptr;
    QTableWidget* diff_ = nullptr;
};
