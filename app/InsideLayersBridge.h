// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Where model/analysis/FeedForwardProbe and ResidualStream become the Inside
// page's plain values (widgets/InsideLayersData.h). Qt-only header, for
// InsideBridge (computeInsideFrame) and the tests.

#include <cstdint>
#include <vector>

#include "widgets/InsideLayersData.h"

namespace chargpt {
struct Checkpoint;
}

// Neurons of each layer shown in the heatmap, examples per neuron, and how
// many characters of the sample text they are looked for in (its first ones).
constexpr int kShownNeurons = 32;
constexpr int kNeuronExamples = 5;
constexpr int64_t kNeuronSampleTokens = 4096;

// The probe's last sequence_len tokens `probe` (at least one) through every
// layer's feed-forward: the kShownNeurons neurons that peak highest, where the
// first kNeuronSampleTokens tokens of `sample` fire each most (none when
// `sample` is empty), and the same-input check. Call it on the thread that
// owns the model.
FeedForwardProbeData feedForwardProbeOf(const chargpt::Checkpoint& checkpoint, const std::vector<int64_t>& probe,
                                        const std::vector<int64_t>& sample);

// The residual stream of `probe` (its last sequence_len tokens).
ResidualStreamData residualStreamOf(const chargpt::Checkpoint& checkpoint, const std::vector<int64_t>& probe);
