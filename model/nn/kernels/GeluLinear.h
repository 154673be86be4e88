// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <torch/torch.h>

namespace chargpt {

// linear(gelu(u), weight, bias), the second half of the feed-forward, keeping
// only u for the backward pass: gelu(u) is recomputed there instead of kept.
// With autograd as usual, both u and gelu(u) stay alive until the backward pass
// (4 x emb_size values each per token and layer), the largest activations of
// the model; this halves them. GELU is exact (erf, to 5e-7) and vectorised,
// and the backward pass makes one pass over u for both gelu(u) and its
// derivative; the linear layers run as nn::Linear does, autocast included.
torch::Tensor geluLinear(const torch::Tensor& u, const torch::Tensor& weight, const torch::Tensor& bias);

}  // namespace chargpt
