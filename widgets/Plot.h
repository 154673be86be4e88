// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "qcustomplot.h"

// Every plot of the app is one of these. A QCustomPlot replots at once when it
// is resized and paints the window at once after each replot. A page shown for
// the first time is resized inside the event that shows it, so each of its
// plots was drawn there, drawn again by the replot its data asked for, and the
// whole page painted with them: the Runs and Ladder tabs held the window's
// thread 15 to 30 ms at their first showing. Here the page is painted first,
// with what the plot last drew, and a plot that was resized or shown with new
// data replots on the next pass of the event loop (between the two, the window
// takes input and timers), then paints itself alone.
class Plot : public QCustomPlot {
public:
    explicit Plot(QWidget* parent = nullptr);

    // Replots on the pass of the event loop after the window's next paint.
    void replotAfterPaint();

protected:
    void resizeEvent(QResizeEvent* event) override;
    void paintEvent(QPaintEvent* event) override;

private:
    bool replotAfterPaint_ = false;
};

// Sets `axis`'s title. QCustomPlot turns a vertical axis's title a quarter
// turn, which sets Chinese characters on their sides, overlapping: a title in
// Chinese (or Japanese or Korean) on a vertical axis is written level, in a
// row above the plot, at the axis's side, instead. Any other title is the
// axis's own label, as QCustomPlot draws it.
void setAxisTitle(QCPAxis* axis, const QString& text);
// The level title setAxisTitle put above `axis`, or null.
QCPTextElement* levelAxisTitle(const QCPAxis* axis);
