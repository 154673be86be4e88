// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/Plot.h"

// A replot marks the plot for the window's next paint instead of painting the
// window at once (phImmediateRefresh).
Plot::Plot(QWidget* parent) : QCustomPlot(parent) { setPlottingHint(QCP::phImmediateRefresh, false); }

void Plot::replotAfterPaint() {
    replotAfterPaint_ = true;
    update();
}

void Plot::resizeEvent(QResizeEvent* event) {
    Q_UNUSED(event)
    setViewport(rect());
    replotAfterPaint();
}

void Plot::paintEvent(QPaintEvent* event) {
    QCustomPlot::paintEvent(event);
    if (!replotAfterPaint_)
        return;
    replotAfterPaint_ = false;
    // Posted while the window paints, so it is handled on the next pass; a
    // replot already queued by then draws the same.
    QMetaObject::invokeMethod(
        this,
        [this] {
            if (!mReplotQueued)
                replot();
        },
        Qt::QueuedConnection);
}
