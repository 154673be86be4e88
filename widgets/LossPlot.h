// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QElapsedTimer>
#include <QTimer>
#include <QVector>
#include <QWidget>

class QCheckBox;
class QCPGraph;
class QCPItemText;
class QCustomPlot;
class QLabel;
class QMouseEvent;
class QPushButton;
class QSlider;

// Training curves: the raw loss of every step (light), its exponential moving
// average (smoothing slider), the validation loss of each evaluation, and
// optionally the learning rate on a right-hand axis. Log-scale toggle, drag to
// pan, wheel to zoom, double click to follow the data again, hover tooltips with
// exact values, export to PNG, SVG, PDF and CSV. Every point is kept; bursts of
// appends are merged into at most one replot per ~33 ms.
class LossPlot : public QWidget {
    Q_OBJECT

public:
    explicit LossPlot(QWidget* parent = nullptr);

    // Replaces everything shown. Each step pairs with the loss (and learning
    // rate, when given) at the same index.
    void setHistory(const QVector<double>& steps, const QVector<double>& trainLoss,
                    const QVector<double>& evalSteps, const QVector<double>& valLoss,
                    const QVector<double>& learningRates = {});
    void appendSteps(const QVector<double>& steps, const QVector<double>& losses,
                     const QVector<double>& learningRates);
    void appendEval(double step, double valLoss);
    void clear();

    // Weight of the past in the moving average, in [0, 1).
    double smoothing() const { return smoothing_; }
    void setSmoothing(double smoothing);
    void setLogScale(bool on);
    void setLearningRateVisible(bool on);

    int trainPointCount() const;
    int evalPointCount() const;
    int replotCount() const { return replotCount_; }

    // Exports by the file's suffix: .png, .svg, .pdf or .csv. Returns false and
    // sets `error` on failure.
    bool exportTo(const QString& path, QString* error = nullptr) const;
    bool exportCsv(const QString& path, QString* error = nullptr) const;

    QCustomPlot* plot() const { return plot_; }

public slots:
    // Fits both axes to the data and follows new points again.
    void resetView();
    void chooseExportFile();

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
    void showTooltip(QMouseEvent* event);

    QCustomPlot* plot_ = nullptr;
    QCPGraph* rawTrainGraph_ = nullptr;
    QCPGraph* smoothedTrainGraph_ = nullptr;
    QCPGraph* valGraph_ = nullptr;
    QCPGraph* learningRateGraph_ = nullptr;
    QCPItemText* placeholder_ = nullptr;
    QLabel* smoothingLabel_ = nullptr;
    QSlider* smoothingSlider_ = nullptr;
    QCheckBox* logScaleBox_ = nullptr;
    QCheckBox* learningRateBox_ = nullptr;
    QPushButton* fitButton_ = nullptr;
    QPushButton* exportButton_ = nullptr;
    QTimer replotTimer_;
    QElapsedTimer replotClock_;
    int replotCount_ = 0;

    double smoothing_ = 0.9;
    // Debiased EMA state: the running average starts at 0 and is divided by
    // (1 - smoothing^count), so the first points are not pulled towards 0.
    double emaAccumulator_ = 0.0;
    int emaCount_ = 0;

    bool followData_ = true;  // false once the user pans or zooms
};
