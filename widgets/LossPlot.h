// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QElapsedTimer>
#include <QStringList>
#include <QTimer>
#include <QVector>
#include <QWidget>

#include <functional>
#include <memory>

#include "widgets/CurveSmoothing.h"
#include "widgets/LossPlotMarks.h"
#include "widgets/LossUnit.h"
#include "model/train/LossCurve.h"

class QCheckBox;
struct LossPlotDrawnSeries;
class QHBoxLayout;
class QComboBox;
class QCPGraph;
class QCPItemRect;
class QCPItemStraightLine;
class QCPItemText;
class Plot;
class QCustomPlot;
class QLabel;
class QMouseEvent;
class QPushButton;
class QSlider;

// The loss plot, of one run as it trains (the Training tab) or of several runs
// side by side (the Runs tab's comparison). Both draw losses kept in nats as
// the loss store gives them (chargpt::LossCurve) in the unit chosen (nats, bits
// per character or perplexity), with a log-scale toggle, the smoothing slider,
// the reference lines, drag to pan, wheel to zoom, double click to follow the
// data again, hover tooltips with exact values, and export to PNG, SVG, PDF and
// CSV. Every point is kept; bursts of appends are merged into at most one
// replot per ~33 ms.
//
// One run: the raw loss of every step (light), its moving average, the
// validation loss of each evaluation, optionally the learning rate on a
// right-hand axis, and a marker where the model began to memorise its text with
// the best validation point ringed. Several runs: each series (a run, or the
// mean of runs with a band from the lowest to the highest) in a colour of its
// own and named in the legend, its validation loss solid and its smoothed
// training loss dashed, against the step, the tokens seen or the time.
//
// What the numbers mean: two dashed reference lines (a uniform guess over the
// vocabulary, and the unigram entropy a model without context reaches); the
// lines and markers are LossPlotMarks.
class LossPlot : public QWidget {
    Q_OBJECT

public:
    enum class Layout { OneRun, Runs };
    enum class XAxis { Step, Tokens, Seconds };

    // One series of the Runs layout.
    struct Series {
        QString name;  // in the legend and the CSV
        QString runs;  // the runs it stands for, as the CSV's runs column ("3", "1 2")
        chargpt::LossCurve curve;
        // The lowest and highest validation loss at each evaluation of `curve`
        // (runs drawn as their mean), in nats; empty: no band.
        QVector<double> valLow, valHigh;
    };

    explicit LossPlot(QWidget* parent = nullptr);
    LossPlot(Layout layout, QWidget* parent = nullptr);
    ~LossPlot() override;

    Layout layoutKind() const { return layout_; }

    // One run: replaces everything shown, or adds the points that followed.
    void setCurve(const chargpt::LossCurve& curve);
    void append(const chargpt::LossCurve& more);
    // The same from lists: each step pairs with the loss (and learning rate,
    // when given) at the same index.
    void setHistory(const QVector<double>& steps, const QVector<double>& trainLoss,
                    const QVector<double>& evalSteps, const QVector<double>& valLoss,
                    const QVector<double>& learningRates = {});
    void appendSteps(const QVector<double>& steps, const QVector<double>& losses,
                     const QVector<double>& learningRates);
    void appendEval(double step, double valLoss);
    void clear();
    // The run shown, in nats as given (one run).
    const chargpt::LossCurve& curve() const;

    // Several runs: replaces the series drawn, a colour each in their order.
    void setSeries(const QVector<Series>& series);
    int seriesCount() const;
    // What the Runs layout draws against, and whether the dashed training
    // lines are drawn.
    void setXAxis(XAxis axis);
    XAxis xAxis() const { return axis_; }
    void setTrainingShown(bool on);
    // Puts `widget` in a row of controls above the plot's own.
    void addControl(QWidget* widget);
    // The text over an empty plot.
    void setPlaceholderText(const QString& text);

    // Weight of the past in the moving average, in [0, 1).
    double smoothing() const { return smoothing_; }
    void setSmoothing(double smoothing);
    void setLogScale(bool on);
    bool logScale() const;
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
    // Dotted lines at the n-gram floors of the text (nats, n = 1, 2, ...;
    // empty hides them), each labelled with the first step whose validation
    // loss passed it. They stay until set again.
    void setNgramFloors(const QVector<double>& nats);
    // A vertical line at `step` with the region after it shaded: validation loss
    // rose from there while training loss fell. NaN clears it.
    void setOverfittingFrom(double step);
    // Rings the evaluation with the lowest validation loss; a NaN clears it.
    // Markers and reference lines survive setHistory, clear and resetView: only
    // these setters change them.
    void setBestPoint(double step, double valNats);
    // A thin vertical line at `step`, the step the window's timeline chose
    // (the one-run layout); NaN hides it.
    void setStepCursor(double step);

    int trainPointCount() const;
    int evalPointCount() const;
    int replotCount() const { return replotCount_; }

    // Exports by the file's suffix: .png, .svg, .pdf or .csv. Returns false and
    // sets `error` on failure.
    bool exportTo(const QString& path, QString* error = nullptr) const;
    bool exportCsv(const QString& path, QString* error = nullptr) const;
    // Every point as CSV. One run: a row per step with a value, in nats and in
    // the shown unit. Several: a row per point drawn (series, runs, curve, x,
    // loss in nats, and in the shown unit).
    QString csvText() const;
    // What the Export button does instead of exportTo (a view that exports
    // more than its plot), and the file name it suggests.
    using Exporter = std::function<bool(const QString& path, QString* error)>;
    void setExporter(const QString& suggestedName, Exporter exporter);

    QCustomPlot* plot() const;
    // What is drawn, for tests and screenshots (values in the shown unit).
    using Reference = LossPlotMarks::Reference;
    QCPItemStraightLine* referenceLine(Reference which) const { return marks_->referenceLine(which); }
    QCPItemText* referenceLabel(Reference which) const { return marks_->referenceLabel(which); }
    QCPItemStraightLine* overfittingLine() const { return marks_->overfittingLine(); }
    QCPItemRect* overfittingRegion() const { return marks_->overfittingRegion(); }
    QCPItemText* overfittingLabel() const { return marks_->overfittingLabel(); }
    // One run's graphs (null in the Runs layout).
    QCPGraph* trainGraph() const { return rawTrainGraph_; }
    QCPGraph* smoothedGraph() const { return smoothedTrainGraph_; }
    QCPGraph* validationGraph() const { return valGraph_; }
    QCPGraph* bestGraph() const { return marks_->bestGraph(); }
    QCPItemStraightLine* stepCursor() const { return marks_->stepCursor(); }
    QCPItemText* stepCursorLabel() const { return marks_->stepCursorLabel(); }
    QCPItemStraightLine* ngramLine(int n) const { return marks_->ngramLine(n); }
    QCPItemText* ngramLabel(int n) const { return marks_->ngramLabel(n); }
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
    void showEvent(QShowEvent* event) override;

private:
    void retranslateUi();
    void addSmoothedPoint(double step, double loss);
    void rebuildSmoothedGraph();
    void appendToGraphs(const chargpt::LossCurve& more);
    // The first step the validation loss passed each n-gram floor, told to the marks.
    void updateFloorsPassed();
    void redrawSeries();  // the Runs layout's graphs, from the series and the settings
    void removeSeriesGraphs(LossPlotDrawnSeries& drawn);
    QStringList seriesToolTipLines(const QPointF& pixel) const;
    QString seriesCsvText() const;
    QString xAxisLabel() const;
    void placeLegend();  // the Runs layout's legend row, while it names a series
    void scheduleReplot();
    void replotNow();
    // Queued: on the next pass of the event loop; AfterPaint: after the
    // window's next paint (Plot::replotAfterPaint).
    enum class When { Queued, AfterPaint };
    void replot(When when);
    void fitToData();
    // `range` with room for the reference labels at the plot's height now.
    QCPRange withLabelRoom(const QCPRange& range) const;
    bool hasData() const;
    void showTooltip(QMouseEvent* event);
    void refreshShownValues();  // every graph and mark from the nats it keeps
    QString unitName() const;

    Layout layout_;
    Plot* plot_ = nullptr;
    QCPGraph* rawTrainGraph_ = nullptr;
    QCPGraph* smoothedTrainGraph_ = nullptr;
    QCPGraph* valGraph_ = nullptr;
    QCPGraph* learningRateGraph_ = nullptr;
    // The curves in nats, as given, and what is drawn of them; the graphs hold
    // them in the shown unit.
    struct Curves;
    std::unique_ptr<Curves> curves_;
    // Markers and reference lines survive setHistory, clear and resetView:
    // only their setters change them.
    std::unique_ptr<LossPlotMarks> marks_;
    QCPItemText* placeholder_ = nullptr;
    QString placeholderText_;
    QHBoxLayout* controls_ = nullptr;
    QHBoxLayout* extraControls_ = nullptr;  // addControl's row
    QComboBox* unitBox_ = nullptr;
    QLabel* smoothingLabel_ = nullptr;
    QSlider* smoothingSlider_ = nullptr;
    QCheckBox* logScaleBox_ = nullptr;
    QCheckBox* learningRateBox_ = nullptr;
    QPushButton* fitButton_ = nullptr;
    QPushButton* exportButton_ = nullptr;
    QString exportName_ = QStringLiteral("loss.png");
    Exporter exporter_;
    QTimer replotTimer_;
    QElapsedTimer replotClock_;
    int replotCount_ = 0;
    // A redraw asked for while the plot was hidden (another tab shown): done
    // when it is shown, not at the pace of the data.
    bool replotWhenShown_ = false;

    double smoothing_ = 0.9;
    // Debiased EMA state: the running average starts at 0 and is divided by
    // (1 - smoothing^count), so the first points are not pulled towards 0.
    GapSmoother smoother_{smoothing_};

    bool followData_ = true;  // false once the user pans or zooms

    XAxis axis_ = XAxis::Step;
    bool trainingShown_ = true;
    LossUnit unit_ = LossUnit::Nats;
    bool logScaleBeforePerplexity_ = false;
    QStringList lossTitles_;  // the loss axis's title, whole first (fitAxisTitle)
};
