// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <torch/torch.h>

namespace chargpt {

// linear(layer_norm(x, normWeight, normBias), weight, bias) keeping only x and
// the normalisation's mean and 1/std for the backward pass: the normalised x,
// which LayerNorm and Linear would otherwise keep as well (emb_size values per
// token, twice in every block), is recomputed there. The same operators run in
// the same precision (autocast included). `bias` may be undefined.
// linear(x, weight, bias) where no gradient is needed; `bias` may be undefined.
// A single row of x (decoding one position) goes through a matrix-vector
// product: LibTorch's matrix product would repack the whole weight at every
// call, which costs more than the product itself.
torch::Tensor evalLinear(const torch::Tensor& x, const torch::Tensor& weight, const torch::Tensor& bias);

torch::Tensor normLinear(const torch::Tensor& x, const torch::Tensor& normWeight, const torch::Tensor& normBias,
                         const torch::Tensor& weight, const torch::Tensor& bias, double eps = 1e-5);

}  // namespace chargpt
