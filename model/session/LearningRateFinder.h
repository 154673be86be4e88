// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The learning-rate finder (fastai's lr_find, after Smith's "Cyclical Learning
// Rates"): a new model of the settings trains for a few hundred steps while
// the learning rate grows exponentially from very small to very large; the
// training loss, smoothed, falls while the rate is useful and climbs once it
// is too large. Its suggestions: the rate where the smoothed loss falls
// fastest (against the log of the rate), and a tenth of the rate at its
// minimum. The run being trained is never touched: the sweep trains a model
// of its own and is not recorded.

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "model/train/RunConfig.h"

namespace chargpt {

class Corpus;
class TrainerControl;

struct LearningRateSweep {
    int64_t steps = 200;        // at most this many; the sweep ends early once the loss has run away
    double fromRate = 1e-5;
    double toRate = 1.0;
    double smoothing = 0.98;    // of the loss's moving average (bias-corrected)
    double divergence = 4.0;    // the sweep ends when the smoothed loss passes this times its lowest
    std::shared_ptr<TrainerControl> control;  // stop() ends it early; null: its own
};

struct LearningRateFinding {
    std::vector<double> rates;     // each step's learning rate
    std::vector<double> losses;    // its batch loss, nats
    std::vector<double> smoothed;  // the moving average up to it
    double steepest = 0.0;         // the rate where the smoothed loss falls fastest
    double lowest = 0.0;           // the rate at the lowest smoothed loss
    double suggested = 0.0;        // lowest / 10, the usual pick
    bool ranAway = false;          // ended because the loss passed `divergence` times its lowest
};

// Sweeps a new model of `settings` (its architecture, batch, dropout and
// precision; its steps and schedule are the sweep's) on `corpus`. Throws
// chargpt::Error as a TrainingSession does for settings that cannot train.
LearningRateFinding findLearningRate(const RunConfig& settings, const Corpus& corpus,
                                     const LearningRateSweep& sweep = {},
                                     const std::function<void(int64_t step, double rate, double loss)>& onStep = {});

}  // namespace chargpt
