// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QPointer>

#include <map>
#include <utility>

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
//
// Presentation mode's larger type is one call, setFontScale: every plot's
// fonts `factor` times their usual size (axes' tick labels and titles, colour
// scales, title elements, legends and their entries, text items), those a view
// adds or sets while it holds scaled at the plot's next replot, and at 1 each
// given back exactly as it was.
class Plot : public QCustomPlot {
public:
    explicit Plot(QWidget* parent = nullptr);
    ~Plot() override;

    // Replots on the pass of the event loop after the window's next paint.
    void replotAfterPaint();

    // Scales the fonts of every plot there is, and of those made later, by
    // `factor` (a factor not above 0 or not finite counts as 1).
    static void setFontScale(double factor);
    static double fontScale();
    // What `font`, shown by `owner` in this plot, is at the usual type: the
    // font itself when this plot did not scale it.
    QFont usualFont(const QObject* owner, const QFont& font) const;

protected:
    void resizeEvent(QResizeEvent* event) override;
    void paintEvent(QPaintEvent* event) override;

private:
    // Sets each font of this plot to fontScale() times its usual size;
    // `fromUsual`: every font it has now is at the usual size.
    void applyFontScale(bool fromUsual);

    bool replotAfterPaint_ = false;
    // Each font this plot scaled, by its owner and its place there: the usual
    // font, and the one set (a font that differs from it was set anew).
    struct ScaledFont {
        QPointer<QObject> owner;
        QFont usual;
        QFont shown;
    };
    std::map<std::pair<const QObject*, int>, ScaledFont> scaledFonts_;
};

// Sets `axis`'s title. QCustomPlot turns a vertical axis's title a quarter
// turn, which sets Chinese characters on their sides, overlapping: a title in
// Chinese (or Japanese or Korean) on a vertical axis is written level, in a
// row above the plot, at the axis's side, instead. Any other title is the
// axis's own label, as QCustomPlot draws it.
void setAxisTitle(QCPAxis* axis, const QString& text);
// The level title setAxisTitle put above `axis`, or null.
QCPTextElement* levelAxisTitle(const QCPAxis* axis);
