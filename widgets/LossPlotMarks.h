// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QCoreApplication>
#include <QStringList>
#include <QVector>
#include <Qt>

#include <limits>

#include "widgets/LossUnit.h"

class QCPGraph;
class QCPItemRect;
class QCPItemStraightLine;
class QCPItemText;
class QCPRange;
class QCustomPlot;
class QFont;
class QPointF;

// What the loss plot's numbers mean, drawn on it: two dashed reference lines
// across the whole width (the loss of a uniform guess over the vocabulary,
// ln V, with a faint band above it where a curve does worse than guessing;
// and the unigram entropy a model without context reaches), a vertical line
// where the model began to memorise with the region after it shaded, and a
// ring around the evaluation with the lowest validation loss, and a thin line
// at the step the window's timeline chose (the views' step). The levels and
// steps are kept in nats as given; refresh() draws them in the unit shown.
// LossPlot owns one; its texts are the loss plot's (same translation context).
class LossPlotMarks {
    Q_DECLARE_TR_FUNCTIONS(LossPlot)

public:
    // Adds the marks to `plot`, after its curves: the ring as a graph, the
    // lines, bands and labels as items. `font` is the widget's.
    LossPlotMarks(QCustomPlot* plot, const QFont& font);
    LossPlotMarks(const LossPlotMarks&) = delete;
    LossPlotMarks& operator=(const LossPlotMarks&) = delete;

    // NaN hides a line or a marker. Call refresh() to draw the change.
    void setReferenceLevels(double uniformNats, double unigramNats);
    // The n-gram floors (n = 1, 2, ...; empty hides them), drawn from n = 2
    // (the 1-gram is the unigram line's level): dotted lines labelled at the
    // left end, each with the first step whose validation loss passed it
    // (`passedAt`, -1 where none did yet).
    void setNgramFloors(const QVector<double>& nats);
    void setNgramPassed(const QVector<qint64>& passedAt);
    const QVector<double>& ngramFloors() const { return ngramNats_; }
    // The line and label of the n-gram floor (n from 2; null past the last).
    QCPItemStraightLine* ngramLine(int n) const;
    QCPItemText* ngramLabel(int n) const;
    void setOverfittingFrom(double step);
    void setBestPoint(double step, double valNats);
    void setStepCursor(double step);

    // Places every mark, and writes the reference labels, in `unit`.
    void refresh(LossUnit unit);
    // Every text, in the language now installed.
    void retranslate(LossUnit unit);

    // `range` of the loss axis (in `unit`) widened to take in the reference
    // lines: the distance to them is the point.
    QCPRange withReferences(const QCPRange& range, LossUnit unit) const;
    // `range` raised where an axis `height` pixels high leaves too little room
    // above the uniform guess for its label and, above that, the timeline's
    // step label (a low plot, a taller type): neither is cut nor overlaps.
    QCPRange withLabelRoom(const QCPRange& range, LossUnit unit, double height, bool logScale) const;
    // What the marks under `pixel` of the plot mean, a line each (the plot's
    // axes must be laid out).
    QStringList toolTipLines(const QPointF& pixel, LossUnit unit) const;

    enum class Reference { Uniform, Unigram };
    QCPItemStraightLine* referenceLine(Reference which) const;
    QCPItemText* referenceLabel(Reference which) const;
    QCPItemStraightLine* overfittingLine() const { return memorising_.line; }
    QCPItemRect* overfittingRegion() const { return memorising_.region; }
    QCPItemText* overfittingLabel() const { return memorising_.label; }
    QCPGraph* bestGraph() const { return bestGraph_; }
    QCPItemStraightLine* stepCursor() const { return cursor_.line; }
    QCPItemText* stepCursorLabel() const { return cursor_.label; }

private:
    // A straight line across the plot, horizontal at a loss or vertical at a
    // step, its label, and optionally the region past it shaded (above a
    // horizontal line, after a vertical one).
    struct Marker {
        Qt::Orientation orientation = Qt::Horizontal;
        QCPItemStraightLine* line = nullptr;
        QCPItemText* label = nullptr;
        QCPItemRect* region = nullptr;

        // Shows the marker at `at` (a loss in the unit shown, or a step), or
        // hides it when `at` is not finite.
        void place(double at);
    };
    struct MarkerStyle;
    Marker addMarker(Qt::Orientation orientation, const MarkerStyle& style);
    void refreshReferences(LossUnit unit);
    void refreshMarkers(LossUnit unit);
    // Sets a vertical marker's label at `alignment`, or beside its line where
    // that would cut it at the plot's edge.
    void keepLabelInside(Marker& marker, Qt::Alignment alignment);

    QCustomPlot* plot_;
    QCPGraph* bestGraph_ = nullptr;
    Marker uniform_;     // with the band above it
    Marker unigram_;
    Marker memorising_;  // with the region after it
    Marker cursor_;      // the timeline's step
    static constexpr int kMaxNgram = 5;
    Marker ngrams_[kMaxNgram - 1];  // n = 2 .. kMaxNgram
    QVector<double> ngramNats_;
    QVector<qint64> ngramPassed_;

    double uniformNats_ = std::numeric_limits<double>::quiet_NaN();
    double unigramNats_ = std::numeric_limits<double>::quiet_NaN();
    double overfittingStep_ = std::numeric_limits<double>::quiet_NaN();
    double bestStep_ = std::numeric_limits<double>::quiet_NaN();
    double bestNats_ = std::numeric_limits<double>::quiet_NaN();
    double cursorStep_ = std::numeric_limits<double>::quiet_NaN();
};
