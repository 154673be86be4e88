// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What the training health measurement (model/train/TrainingHealth.h) finds,
// as plain values: the figures of one measured step, per layer and per head,
// and the warnings drawn from them. The standard library only and
// header-only, so that the widgets hold them as they are and the run library
// keeps them.

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace chargpt {

// The figures of one measured step. Layers and heads count from 0.
struct HealthFigures {
    static constexpr double kUnknown = std::numeric_limits<double>::quiet_NaN();

    int64_t step = 0;             // the step measured (after its update)
    double loss = kUnknown;       // its batch loss, nats
    double gradNorm = kUnknown;   // of every gradient together, before clipping
    // Per layer (transformer block): the norm of its gradients before
    // clipping; the norm of its update over the norm of its weights (all of
    // the block's parameters together, from the weights before and after the
    // optimizer's step); the share of its feed-forward's hidden units that
    // never fire (activation <= 0 at every position of the step's batch),
    // unknown for a layer without a feed-forward.
    std::vector<double> layerGradNorm;
    std::vector<double> updateRatio;
    std::vector<double> deadShare;
    // [layer][head]: the mean entropy of the head's attention rows, nats (the
    // first position, which has one choice, left out), and the mean weight it
    // gives the previous character.
    std::vector<std::vector<double>> headEntropy;
    std::vector<std::vector<double>> previousShare;

    int64_t layers() const { return int64_t(updateRatio.size()); }
};

// A warning as a value: what kind, where and its numbers; the words are the
// reader's (English in healthWarningText, the window's language in the widgets).
struct HealthWarning {
    enum class Kind {
        LayerUpdates,       // `layer`'s updates `factor` times the median of the other layers'
        LargeUpdates,       // the layers' median update ratio `factor` times the 1e-3 guide
        LossSpike,          // the loss jumped at `step`, gradient norm `factor` times its median
        PreviousCharacter,  // `count` of `total` heads attend only to the previous character
        EntropyCollapse,    // `count` of `total` heads' entropy fell to near zero
    };
    Kind kind = Kind::LayerUpdates;
    int64_t step = 0;
    int64_t layer = -1;  // from 0; -1 when the warning is not about one layer
    double factor = 0.0;
    int64_t count = 0;
    int64_t total = 0;
};

// What one step's measurement gives the trainer's onHealth.
struct HealthReport {
    std::optional<HealthFigures> figures;  // none: a step not measured that found a warning
    std::vector<HealthWarning> warnings;
};

// The healthy size of an update against its weights (the lecture's plot).
constexpr double kHealthyUpdateRatio = 1e-3;
// A head's entropy below this (nats) is "near zero": one character takes
// nearly all of its attention.
constexpr double kCollapsedEntropy = 0.1;
// A head that gives the previous character this much of its attention on
// average attends only to it.
constexpr double kPreviousCharacterShare = 0.9;

// A warning in plain English (the command line, the tests).
inline std::string healthWarningText(const HealthWarning& w) {
    auto times = [](double f) {
        const int64_t rounded = f >= 10.0 ? int64_t(f + 0.5) : int64_t(f * 10.0 + 0.5);
        return f >= 10.0 ? std::to_string(rounded) + "x"
                         : std::to_string(rounded / 10) + "." + std::to_string(rounded % 10) + "x";
    };
    switch (w.kind) {
        case HealthWarning::Kind::LayerUpdates:
            return "layer " + std::to_string(w.layer + 1) + "'s updates are " + times(w.factor) +
                   " larger than the others";
        case HealthWarning::Kind::LargeUpdates:
            return "at step " + std::to_string(w.step) + " the updates are " + times(w.factor) +
                   " the healthy 1e-3 of the weights: the learning rate is likely too high";
        case HealthWarning::Kind::LossSpike:
            return "loss spike at step " + std::to_string(w.step) + ": gradient norm " + times(w.factor) +
                   " its median";
        case HealthWarning::Kind::PreviousCharacter:
            return std::to_string(w.count) + " of " + std::to_string(w.total) +
                   " heads attend only to the previous character";
        case HealthWarning::Kind::EntropyCollapse:
            return std::to_string(w.count) + " of " + std::to_string(w.total) +
                   " heads' attention collapsed onto one character (entropy near 0)";
    }
    return {};
}

}  // namespace chargpt
