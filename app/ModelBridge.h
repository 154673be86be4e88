// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The one place where the GUI reaches into model/: this header is Qt-only, so
// the windows that include it compile without LibTorch.

#include <QString>
#include <QVector>

#include "CheckpointPanel.h"

// A checkpoint's loss history as the plot takes it.
struct LossCurves {
    QVector<double> steps;
    QVector<double> trainLoss;
    QVector<double> evalSteps;
    QVector<double> valLoss;
};

struct CheckpointForDisplay {
    CheckpointSummary summary;
    LossCurves curves;
};

// Loads `path` with chargpt::loadCheckpoint. Throws std::exception whose what()
// is a readable sentence (LibTorch's backtraces are stripped).
CheckpointForDisplay readCheckpointForDisplay(const QString& path);
