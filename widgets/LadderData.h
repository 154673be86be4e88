// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What the ladder view (LadderView) shows: the floors of the validation text
// and each rung of the architecture ladder as it trains, plain values filled
// in by the app from chargpt::trainLadder's hooks (model/record/LadderRuns.h).

#include <QMetaType>
#include <QString>
#include <QVector>
#include <QtGlobal>

#include <limits>
#include <optional>

inline constexpr double kLadderNoLoss = std::numeric_limits<double>::quiet_NaN();

// The losses of the validation text without a model (nats per character).
struct LadderFloors {
    double uniform = kLadderNoLoss;  // ln V: every character equally likely
    double unigram = kLadderNoLoss;  // the text's own character frequencies
    double bigram = kLadderNoLoss;   // one character back: the text's own pairs
};

// One rung as far as it has trained.
struct LadderRungData {
    // Unended: read back from the run library without an end (the program
    // that trained it was killed, or trains it still).
    enum class State { Training, Finished, Stopped, Failed, Unended };
    int number = 0;  // 1 to 7, the rung of model/train/Ladder.h
    State state = State::Training;
    qint64 parameters = 0;
    double bestValLoss = kLadderNoLoss;     // lowest validation loss so far
    double currentValLoss = kLadderNoLoss;  // at the last evaluation
    qint64 step = 0;                        // steps done
    qint64 totalSteps = 0;
    double seconds = 0.0;
    std::optional<qint64> runId;  // in the run library; none: not recorded
};

// What a ladder trains: the rungs (empty: all seven) and what every rung
// shares (0: each rung's own settings, as `chargpt ladder` without options).
struct LadderRequest {
    QVector<int> rungs;
    qint64 steps = 0;
    qint64 evalIters = 0;
    qint64 batchSize = 0;
};

Q_DECLARE_METATYPE(LadderFloors)
Q_DECLARE_METATYPE(LadderRungData)
