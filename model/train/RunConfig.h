// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/nn/ConfigProblem.h"
#include "model/nn/ModelConfig.h"
#include "model/train/TrainConfig.h"

namespace chargpt {

// A run's whole configuration: the model's architecture and how it trains. What
// checkpoints store and the presets name.
struct RunConfig : ModelConfig, TrainConfig {
    // None when the settings can build and train a model, else the first setting
    // that is wrong, with the numbers involved. A vocab_size of 0 is accepted
    // (not known yet).
    ConfigProblem validate() const;

    // Rough peak memory of training, in bytes (a double: absurd settings do not
    // overflow): weights, gradients and two AdamW moments in fp32, plus the
    // activations autograd keeps for one batch.
    double trainingMemoryBytes() const;
    // None when trainingMemoryBytes() fits in `availableBytes` (or that is not
    // positive), else Problem::TooMuchMemory with both figures.
    ConfigProblem memoryProblem(double availableBytes) const;

    // "book", "fast" or "tiny"; nullopt for an unknown name. `fast` multiplies
    // in bfloat16 when this CPU does so natively (cpuHasFastBf16()).
    static std::optional<RunConfig> preset(const std::string& name);
    static std::vector<std::string> presetNames();
};

}  // namespace chargpt
