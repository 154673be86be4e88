// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/session/LearningRateFinder.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "model/runtime/Error.h"
#include "model/session/TrainingSession.h"

namespace chargpt {

LearningRateFinding findLearningRate(const RunConfig& settings, const Corpus& corpus, const LearningRateSweep& sweep,
                                     const std::function<void(int64_t, double, double)>& onStep) {
    if (!(sweep.fromRate > 0.0) || !(sweep.toRate > sweep.fromRate) || sweep.steps < 10)
        throw Error("a learning-rate sweep needs 0 < from < to and at least 10 steps.");
    RunConfig config = settings;
    config.max_steps = sweep.steps;
    config.time_limit_s = 0.0;
    config.eval_iters = 1;                  // the one evaluation before the first step
    config.eval_interval = sweep.steps + 1;  // and none after it
    SessionOptions options;
    options.control = sweep.control;
    TrainingSession session(config, corpus, options);
    Trainer& trainer = session.trainer();
    const double ratio = sweep.toRate / sweep.fromRate;
    trainer.learningRateSchedule = [&](int64_t step) {
        return sweep.fromRate * std::pow(ratio, double(step) / double(sweep.steps - 1));
    };
    LearningRateFinding found;
    double average = 0.0, lowest = std::numeric_limits<double>::infinity();
    trainer.onStep = [&](const StepFigures& s) {
        const double rate = s.learningRate, loss = s.loss;
        if (!std::isfinite(loss)) {
            found.ranAway = true;
            trainer.stop();
            return;
        }
        average = sweep.smoothing * average + (1.0 - sweep.smoothing) * loss;
        const double smoothed = average / (1.0 - std::pow(sweep.smoothing, double(found.losses.size() + 1)));
        found.rates.push_back(rate);
        found.losses.push_back(loss);
        found.smoothed.push_back(smoothed);
        lowest = std::min(lowest, smoothed);
        if (onStep) onStep(s.step, rate, loss);
        if (found.smoothed.size() > 10 && smoothed > sweep.divergence * lowest) {
            found.ranAway = true;
            trainer.stop();
        }
    };
    trainer.run();
    if (found.smoothed.size() < 10) throw Error("the sweep ended before it had ten steps to read.");
    const auto at = std::min_element(found.smoothed.begin(), found.smoothed.end());
    const std::size_t lowestIndex = std::size_t(at - found.smoothed.begin());
    found.lowest = found.rates[lowestIndex];
    found.suggested = found.lowest / 10.0;
    // The steepest fall of the smoothed loss against log(rate), before its
    // lowest point and past the first tenth (where the average still warms up).
    double steepest = std::numeric_limits<double>::infinity();
    found.steepest = found.rates[lowestIndex];
    for (std::size_t i = std::max<std::size_t>(1, found.smoothed.size() / 10); i <= lowestIndex; ++i) {
        const double slope = (found.smoothed[i] - found.smoothed[i - 1]) /
                             (std::log(found.rates[i]) - std::log(found.rates[i - 1]));
        if (slope < steepest) {
            steepest = slope;
            found.steepest = found.rates[i];
        }
    }
    return found;
}

}  // namespace chargpt
