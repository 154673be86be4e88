// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace chargpt {

class Corpus;
struct RunConfig;

// Where the time of a training step goes, by operator: LibTorch's own profiler
// (its record of every operator and of the model's kernels, which mark
// themselves) over a few steps of a run, each operator's self time (its time
// less that of the operators it called), per step.
struct OperatorTime {
    std::string name;
    double msPerStep = 0.0;
    double callsPerStep = 0.0;
};
struct StepProfile {
    double stepMs = 0.0;                   // wall time of a profiled step
    std::vector<OperatorTime> operators;  // by self time, largest first
};
StepProfile profileTrainingSteps(const RunConfig& config, const Corpus& corpus, int warmup, int steps);

}  // namespace chargpt
