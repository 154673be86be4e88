// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What the training health measurement (model/train/TrainingHealth.h) finds,
// as plain values: the figures of one measured step, per layer and per head,
// and the warnings drawn from them. The standard library only and
// header-only, so that the widgets hold them as they are and the run library
// keeps them.

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
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

// A warning as a value: what kind, where and its numbers; its words are in
// HealthWarningWords.h.
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

// A run's health as kept: its measured steps, oldest first, and the warnings
// it said (the run library, a past run's panel).
struct RunHealth {
    std::vector<HealthFigures> figures;
    std::vector<HealthWarning> warnings;
};

// The median of a step's layers' update ratios (those known); NaN when none is.
inline double medianUpdateRatio(const HealthFigures& f) {
    std::vector<double> known;
    for (double r : f.updateRatio)
        if (r == r) known.push_back(r);
    if (known.empty()) return HealthFigures::kUnknown;
    std::sort(known.begin(), known.end());
    const std::size_t n = known.size();
    return n % 2 ? known[n / 2] : 0.5 * (known[n / 2 - 1] + known[n / 2]);
}

// The index of the measured step nearest `step` in `figures` (by step, oldest
// first), the earlier of two as near; figures.size() when there are none.
inline std::size_t nearestMeasured(const std::vector<HealthFigures>& figures, int64_t step) {
    const auto after = std::lower_bound(figures.begin(), figures.end(), step,
                                        [](const HealthFigures& f, int64_t s) { return f.step < s; });
    if (after == figures.begin()) return figures.empty() ? figures.size() : 0;
    if (after == figures.end()) return figures.size() - 1;
    const auto before = after - 1;
    return std::size_t((step - before->step <= after->step - step ? before : after) - figures.begin());
}

// The healthy size of an update against its weights (the lecture's plot).
constexpr double kHealthyUpdateRatio = 1e-3;
// A head's entropy below this (nats) is "near zero": one character takes
// nearly all of its attention.
constexpr double kCollapsedEntropy = 0.1;
// A head that gives the previous character this much of its attention on
// average attends only to it.
constexpr double kPreviousCharacterShare = 0.9;

}  // namespace chargpt
