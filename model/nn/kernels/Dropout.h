// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <torch/torch.h>

namespace chargpt {

// Inverted dropout: zeroes each element with probability p and scales the rest by
// 1 / (1 - p). On the CPU the mask comes from a counter-based hash (one draw from
// the global generator per call, so torch::manual_seed still decides it), which
// is many times faster than LibTorch's per-element Bernoulli sampling and gives
// the same mask for any thread count. Elsewhere it is torch::dropout.
torch::Tensor dropout(const torch::Tensor& x, double p, bool training);

}  // namespace chargpt
