// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

namespace chargpt {

struct LossHistory;

// A run's losses as it trained, in nats: a point per training step and one per
// evaluation, each with the tokens seen and the time since the run started.
// The one store of a loss series: the training worker's progress carries the
// points since its previous update in one, the run library reads a run back
// into one (RunLibrary::lossCurve), a checkpoint's history becomes one
// (lossCurveOf), and the loss plot draws them, one run or several. The
// standard library only, so that the widgets hold it as it is.
struct LossCurve {
    static constexpr double kUnknown = std::numeric_limits<double>::quiet_NaN();

    struct Step {
        int64_t step = 0;
        int64_t tokens = -1;       // seen in total after the step; -1: not known
        double seconds = kUnknown;  // since the run started, pauses excluded
        double loss = kUnknown;     // the step's batch loss
        double learningRate = kUnknown;
    };
    struct Evaluation {
        int64_t step = 0;
        int64_t tokens = -1;
        double seconds = kUnknown;
        double trainLoss = kUnknown;  // on the fixed evaluation batches of each split
        double valLoss = kUnknown;
    };

    std::vector<Step> steps;              // by step
    std::vector<Evaluation> evaluations;  // by step

    bool empty() const { return steps.empty() && evaluations.empty(); }
    void clear();
    void addStep(int64_t step, int64_t tokens, double seconds, double loss, double learningRate);
    void addEvaluation(int64_t step, int64_t tokens, double seconds, double trainLoss, double valLoss);
    // `more`'s steps and evaluations after these.
    void append(const LossCurve& more);
    // Only `more`'s evaluations (a summary that keeps the evaluations of a run).
    void appendEvaluations(const LossCurve& more);
};

// A checkpoint's history (its steps, losses, learning rates and evaluations) as
// a curve; the tokens and times a checkpoint does not keep are unknown.
LossCurve lossCurveOf(const LossHistory& history);

// The tokens seen at `step` by the steps of a run (sorted by step): a step's
// own count, or the line through its neighbours between two steps or before
// the first (the steps kept of a long run are thinned, and an evaluation may
// come before the first step). -1 when no step knows its tokens.
int64_t tokensAt(const std::vector<LossCurve::Step>& steps, int64_t step);

// The step of the first of `evaluations` (by step) whose validation loss is
// below `floor` (where a run passes an n-gram floor); -1 when none is.
int64_t firstStepBelow(const std::vector<LossCurve::Evaluation>& evaluations, double floor);

}  // namespace chargpt
