// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QTimer>
#include <QVector>
#include <QWidget>

class QCPGraph;
class QCPItemText;
class QCustomPlot;

// Training curves: the raw loss of every step (light), its exponential moving
// average, and the validation loss of each evaluation (markers and line).
// Drag pans, the wheel zooms, a double click goes back to following the data.
// Bursts of appends are merged into at most one replot per ~33 ms.
class LossPlot : public QWidget {
    Q_OBJECT

public:
    explicit LossPlot(QWidget* parent = nullptr);

    // Replaces everything shown. Each step pairs with the loss at the same index.
    void setHistory(const QVector<double>& steps, const QVector<double>& trainLoss,
                    const QVector<double>& evalSteps, const QVector<double>& valLoss);
    void appendStep(double step, double loss);
    void appendEval(double step, double valLoss);
    void clear();

    // Weight of the past in the moving average, in [0, 1).
    double smoothing() const { return smoothing_; }
    void setSmoothing(double smoothing);

    QCustomPlot* plot() const { return plot_; }

public slots:
    // Fits both axes to the data and follows new points again.
    void resetView();

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslateUi();
    void addSmoothedPoint(double step, double loss);
    void rebuildSmoothedGraph();
    void scheduleReplot();
    void replotNow();
    void fitToData();
    bool hasData() const;

    QCustomPlot* plot_ = nullptr;
    QCPGraph* rawTrainGraph_ = nullptr;
    QCPGraph* smoothedTrainGraph_ = nullptr;
    QCPGraph* valGraph_ = nullptr;
    QCPItemText* placeholder_ = nullptr;
    QTimer replotTimer_;

    double smoothing_ = 0.9;
    // Debiased EMA state: the running average starts at 0 and is divided by
    // (1 - smoothing^count), so the first points are not pulled towards 0.
    double emaAccumulator_ = 0.0;
    int emaCount_ = 0;

    bool followData_ = true;  // false once the user pans or zooms
};
