// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <torch/torch.h>

namespace chargpt {

// linear(gelu(u), weight, bias), the second half of the feed-forward, keeping
// only u for the backward pass: gelu(u) is recomputed there instead of kept.
// With autograd as usual, both u and gelu(u) stay alive until the backward pass
// (4 x emb_size values each per token and layer), the largest activations of
// the model; this halves them. The same operators run in the same precision
// (autocast included), so results equal the unfused expression.
torch::Tensor geluLinear(const torch::Tensor& u, const torch::Tensor& weight, const torch::Tensor& bias);

}  // namespace chargpt
