// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QElapsedTimer>
#include <QTimer>
#include <QVector>
#include <QWidget>

#include <memory>

#include "CurveSmoothing.h"
#include "LossPlotMarks.h"
#include "LossUnit.h"

class QCheckBox;
class QComboBox;
class QCPGraph;
class QCPItemRect;
class QCPItemStraightLine;
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
//
// What the numbers mean: two dashed reference lines (a uniform guess over the
// vocabulary, and the unigram entropy a model without context reaches), a
// switch between nats, bits per character and perplexity, and a marker where
// the model began to memorise its text, with the best validation point ringed
// (the lines and markers are LossPlotMarks). Losses always come in nats; the
// plot converts what it shows.
class LossPlot : public QWidget {
    Q_OBJECT

public:
    explicit LossPlot(QWidget* parent = nullptr);
    ~LossPlot() override;

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

    // The unit of every curve, reference line, axis title and tooltip. Choosing
    // perplexity turns the log scale on (it spans orders of magnitude); the
    // toggle still turns it off.
    LossUnit unit() const { return unit_; }
    void setUnit(LossUnit unit);

    // Dashed horizontal lines: the loss of a uniform guess over the vocabulary
    // (ln V) and the unigram entropy of the training text, both in nats; NaN
    // hides a line. They stay until set again.
    void setReferenceLevels(double uniformNats, double unigramNats);
    // A vertical line at `step` with the region after it shaded: validation loss
    // rose from there while training loss fell. NaN clears it.
    void setOverfittingFrom(double step);
    // Rings the evaluation with the lowest validation loss; a NaN clears it.
    // Markers and reference lines survive setHistory, clear and resetView: only
    // these setters change them.
    void setBestPoint(double step, double valNats);

    int trainPointCount() const;
    int evalPointCount() const;
    int replotCount() const { return replotCount_; }

    // Exports by the file's suffix: .png, .svg, .pdf or .csv. Returns false and
    // sets `error` on failure.
    bool exportTo(const QString& path, QString* error = nullptr) const;
    bool exportCsv(const QString& path, QString* error = nullptr) const;
    // Every point as CSV: a row per step with a value, in nats and in the shown unit.
    QString csvText() const;

    QCustomPlot* plot() const { return plot_; }
    // What is drawn, for tests and screenshots (values in the shown unit).
    using Reference = LossPlotMarks::Reference;
    QCPItemStraightLine* referenceLine(Reference which) const { return marks_->referenceLine(which); }
    QCPItemText* referenceLabel(Reference which) const { return marks_->referenceLabel(which); }
    QCPItemStraightLine* overfittingLine() const { return marks_->overfittingLine(); }
    QCPItemRect* overfittingRegion() const { return marks_->overfittingRegion(); }
    QCPItemText* overfittingLabel() const { return marks_->overfittingLabel(); }
    QCPGraph* trainGraph() const { return rawTrainGraph_; }
    QCPGraph* smoothedGraph() const { return smoothedTrainGraph_; }
    QCPGraph* validationGraph() const { return valGraph_; }
    QCPGraph* bestGraph() const { return marks_->bestGraph(); }
    // The hover tooltip at a pixel of the plot (empty where there is nothing to say).
    QString toolTipAt(const QPointF& pixel) const;

signals:
    void unitChanged(LossUnit unit);

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
    void refreshShownValues();  // every graph and mark from the nats it keeps
    QString unitName() const;

    QCustomPlot* plot_ = nullptr;
    QCPGraph* rawTrainGraph_ = nullptr;
    QCPGraph* smoothedTrainGraph_ = nullptr;
    QCPGraph* valGraph_ = nullptr;
    QCPGraph* learningRateGraph_ = nullptr;
    // The curves in nats, as given; the graphs hold them in the shown unit.
    struct NatsCurves;
    std::unique_ptr<NatsCurves> nats_;
    // Markers and reference lines survive setHistory, clear and resetView:
    // only their setters change them.
    std::unique_ptr<LossPlotMarks> marks_;
    QCPItemText* placeholder_ = nullptr;
    QComboBox* unitBox_ = nullptr;
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
    GapSmoother smoother_{smoothing_};

    bool followData_ = true;  // false once the user pans or zooms

    LossUnit unit_ = LossUnit::Nats;
    bool logScaleBeforePerplexity_ = false;
};
