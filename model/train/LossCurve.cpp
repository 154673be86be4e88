// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/train/LossCurve.h"

#include <algorithm>
#include <cmath>

#include "model/train/LossHistory.h"

namespace chargpt {

void LossCurve::clear() {
    steps.clear();
    evaluations.clear();
}

void LossCurve::addStep(int64_t step, int64_t tokens, double seconds, double loss, double learningRate) {
    steps.push_back({step, tokens, seconds, loss, learningRate});
}

void LossCurve::addEvaluation(int64_t step, int64_t tokens, double seconds, double trainLoss, double valLoss) {
    evaluations.push_back({step, tokens, seconds, trainLoss, valLoss});
}

void LossCurve::append(const LossCurve& more) {
    steps.insert(steps.end(), more.steps.begin(), more.steps.end());
    appendEvaluations(more);
}

void LossCurve::appendEvaluations(const LossCurve& more) {
    evaluations.insert(evaluations.end(), more.evaluations.begin(), more.evaluations.end());
}

LossCurve lossCurveOf(const LossHistory& history) {
    LossCurve curve;
    const std::size_t steps = std::min(history.steps.size(), history.trainLoss.size());
    curve.steps.reserve(steps);
    for (std::size_t i = 0; i < steps; ++i)
        curve.addStep(history.steps[i], -1, LossCurve::kUnknown, history.trainLoss[i],
                      i < history.learningRate.size() ? double(history.learningRate[i]) : LossCurve::kUnknown);
    const std::size_t evaluations = std::min(history.evalSteps.size(), history.evalValLoss.size());
    curve.evaluations.reserve(evaluations);
    for (std::size_t i = 0; i < evaluations; ++i)
        curve.addEvaluation(history.evalSteps[i], -1, LossCurve::kUnknown,
                            i < history.evalTrainLoss.size() ? double(history.evalTrainLoss[i]) : LossCurve::kUnknown,
                            history.evalValLoss[i]);
    return curve;
}

int64_t tokensAt(const std::vector<LossCurve::Step>& steps, int64_t step) {
    const auto after = std::lower_bound(steps.begin(), steps.end(), step,
                                        [](const LossCurve::Step& s, int64_t at) { return s.step < at; });
    if (after != steps.end() && after->step == step && after->tokens >= 0)
        return after->tokens;
    const LossCurve::Step* before = after != steps.begin() && (after - 1)->tokens >= 0 ? &*(after - 1) : nullptr;
    const LossCurve::Step* next = after != steps.end() && after->tokens >= 0 ? &*after : nullptr;
    const LossCurve::Step* secondNext =
        next && after + 1 != steps.end() && (after + 1)->tokens >= 0 ? &*(after + 1) : nullptr;
    // The line through two steps, or through one and the origin (no tokens before step 0).
    const auto line = [step](const LossCurve::Step& a, double bStep, double bTokens) {
        if (double(a.step) == bStep)
            return double(a.tokens);
        const double slope = (double(a.tokens) - bTokens) / (double(a.step) - bStep);
        return double(a.tokens) + slope * (double(step) - double(a.step));
    };
    double tokens = -1.0;
    if (before && next)
        tokens = line(*before, double(next->step), double(next->tokens));
    else if (next && secondNext)
        tokens = line(*next, double(secondNext->step), double(secondNext->tokens));
    else if (next)
        tokens = line(*next, 0.0, 0.0);
    else if (before)
        tokens = double(before->tokens);  // past the last step: no more seen
    return tokens < 0.0 ? (before || next ? 0 : -1) : int64_t(std::llround(tokens));
}

int64_t firstStepBelow(const std::vector<LossCurve::Evaluation>& evaluations, double floor) {
    for (const LossCurve::Evaluation& e : evaluations)
        if (std::isfinite(e.valLoss) && e.valLoss < floor) return e.step;
    return -1;
}

}  // namespace chargpt
