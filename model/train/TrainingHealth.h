// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Training health: per layer, how large the gradients are, how large the
// updates are against the weights (the lecture's "update to data ratio", about
// 1e-3 when healthy), how many feed-forward units never fire, and how spread
// each head's attention is; measured every few steps so that it costs little
// (chargpt bench --only health), and the warnings a learner should hear of
// (HealthFigures.h). The Trainer drives it (Trainer::health); the functions
// below are its parts, which tst_traininghealth checks against the same
// quantities written out in LibTorch.

#include <torch/torch.h>

#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

#include "model/nn/CharGPT.h"
#include "model/train/HealthFigures.h"

namespace chargpt {

// The norm of each block's gradients (all its parameters together); a block
// without gradients gives 0.
std::vector<double> layerGradientNorms(const CharGPT& model);
// Copies of each block's parameters, and the norm of the change since such a
// copy over the copy's norm, per block.
std::vector<std::vector<torch::Tensor>> layerWeights(const CharGPT& model);
std::vector<double> updateRatios(const std::vector<std::vector<torch::Tensor>>& before, const CharGPT& model);
// What the model does with `inputs` (B, T), without gradients or dropout, in
// float32: each layer's share of feed-forward units that never fire and each
// head's mean attention entropy and weight on the previous character, into
// `figures` (deadShare, headEntropy, previousShare).
void measureActivity(CharGPT& model, const torch::Tensor& inputs, HealthFigures& figures);

class TrainingHealth {
public:
    struct Options {
        int64_t every = 25;         // steps between two measurements (and step 1)
        int64_t sequences = 8;      // of the step's batch that the activity is measured on
        double layerFactor = 10.0;  // a layer's update ratio this many times the others' median
        double largeFactor = 100.0; // the median update ratio this many times kHealthyUpdateRatio
        double spikeFactor = 10.0;  // a step's gradient norm this many times the recent median
        int64_t window = 100;       // steps the spike check's medians look back over
    };
    TrainingHealth() : TrainingHealth(Options{}) {}
    explicit TrainingHealth(Options options);

    const Options& options() const { return options_; }
    // Whether the step about to be taken (numbered from 1) is measured.
    bool due(int64_t step) const { return step == 1 || (options_.every > 0 && step % options_.every == 0); }

    // On a step that is due, after the backward pass and before clipping and
    // the update: the gradients, the weights before the update and the activity
    // on the first `sequences` rows of the step's `inputs`.
    void beforeUpdate(CharGPT& model, const torch::Tensor& inputs);
    // After every step's update: `gradNorm` the norm of all gradients before
    // clipping (NaN when not known). The figures when the step was measured
    // (beforeUpdate called for it); warnings() then holds what it found.
    std::optional<HealthFigures> afterUpdate(const CharGPT& model, int64_t step, double loss, double gradNorm);
    // The warnings found since the last call, each said once (a layer's once, a
    // count of heads again when it grows, a spike at most once per window).
    std::vector<HealthWarning> takeWarnings();
    // Seconds spent measuring and checking so far, and the steps measured:
    // what `chargpt bench --only health` sets against the step time.
    double busySeconds() const { return busySeconds_; }
    int64_t measuredSteps() const { return measuredSteps_; }

private:
    void checkSpike(int64_t step, double loss, double gradNorm);
    void checkFigures(const HealthFigures& figures);

    Options options_;
    bool measuring_ = false;
    HealthFigures pending_;
    std::vector<std::vector<torch::Tensor>> before_;
    std::deque<double> recentLoss_, recentGradNorm_;
    std::vector<HealthWarning> warnings_;
    std::vector<bool> layerSaid_;
    bool largeSaid_ = false;
    std::optional<int64_t> lastSpike_;  // the step of the last spike warned of, if any
    int64_t previousSaid_ = 0, collapsedSaid_ = 0;
    double busySeconds_ = 0.0;
    int64_t measuredSteps_ = 0;
};

}  // namespace chargpt
