// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <vector>

namespace chargpt {

// Every point of a run, kept for plots and saved in checkpoints.
struct LossHistory {
    std::vector<int64_t> steps;      // one entry per training step
    std::vector<float> trainLoss;    // loss of that step's batch
    std::vector<float> learningRate;
    std::vector<int64_t> evalSteps;  // one entry per evaluation
    std::vector<float> evalTrainLoss;
    std::vector<float> evalValLoss;
};

}  // namespace chargpt
