// SPDX-License-Identifier: GPL-3.0-or-later
// The loss plot's curves in nats, as given, and what is drawn of them (its
// graphs hold them in the unit shown).
#pragma once

#include <qcustomplot.h>

#include "widgets/LossPlot.h"

// A series of the Runs layout as drawn: its points against the x axis chosen,
// in nats, and its graphs.
struct LossPlotDrawnSeries {
    LossPlot::Series given;
    QVector<double> valX, val, valLow, valHigh;  // the finite validation losses
    QVector<double> trainX, train;               // the smoothed training loss
    QCPGraph* valGraph = nullptr;
    QCPGraph* lowGraph = nullptr;   // the band, when there is one
    QCPGraph* highGraph = nullptr;
    QCPGraph* trainGraph = nullptr;  // when the training lines are shown
};

// The colour of the Runs layout's `i`-th series (LossPlotSeries.cpp), which the
// Runs tab's health comparison gives the same run.
QColor runSeriesColor(int i);

struct LossPlot::Curves {
    chargpt::LossCurve run;          // one run, as given
    QCPGraphDataContainer smoothed;  // its moving average
    QVector<LossPlotDrawnSeries> series;  // several runs
};
