// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>

namespace chargpt {

// A run's figures, the one copy of them: the trainer's StepFigures, the app's
// TrainingProgress and ModelSummary, the run library's row (RunLibrary,
// RunRecorder) and the Runs tab's RunRow are each a RunFigures with figures of
// their own, so a figure added here is carried, merged (`x.figures() =
// y.figures()`) and compared (sameFigures) everywhere at once. Neither Qt nor
// LibTorch: every layer may hold one.
struct RunFigures {
    int64_t step = 0;  // steps done in total (including earlier runs)
    int64_t tokensSeen = 0;
    double elapsedSeconds = 0.0;  // of this run, pauses excluded
    double tokensPerSecond = 0.0;
    double lastTrainLoss = std::numeric_limits<double>::quiet_NaN();  // at this run's latest evaluation
    double lastValLoss = std::numeric_limits<double>::quiet_NaN();
    std::optional<int64_t> bestStep;  // the evaluation with the lowest validation loss; none before the first
    double bestValLoss = std::numeric_limits<double>::quiet_NaN();
    // Since when validation loss rises while training loss falls (detectOverfitting's
    // sinceStep); none: not memorising. The run library does not keep it.
    std::optional<int64_t> overfittingSince;

    RunFigures& figures() { return *this; }
    const RunFigures& figures() const { return *this; }
};

// Whether `a` and `b` hold the same figures, every one of them; two unknown
// (NaN) figures count as equal.
inline bool sameFigures(const RunFigures& a, const RunFigures& b) {
    const auto same = [](double x, double y) { return x == y || (std::isnan(x) && std::isnan(y)); };
    return a.step == b.step && a.tokensSeen == b.tokensSeen && same(a.elapsedSeconds, b.elapsedSeconds) &&
           same(a.tokensPerSecond, b.tokensPerSecond) && same(a.lastTrainLoss, b.lastTrainLoss) &&
           same(a.lastValLoss, b.lastValLoss) && a.bestStep == b.bestStep &&
           same(a.bestValLoss, b.bestValLoss) && a.overfittingSince == b.overfittingSince;
}

}  // namespace chargpt
