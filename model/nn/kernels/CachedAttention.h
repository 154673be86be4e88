// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <torch/torch.h>

namespace chargpt {

// Causal scaled dot-product attention as cached decoding needs it, for many
// small heads at once and never for the masked triangle: queries at positions
// past .. past + T - 1 over keys and values at positions 0 .. past + T - 1.
// q (N, T, H), k and v (N, past + T, H), float32 on the CPU, N = batch x heads.
// Returns (N, T, H); when `weights` is given it receives the softmax weights
// (N, T, past + T), exactly 0 where masked. Without gradients (evaluation and
// decoding; training runs PackedAttention).
bool cachedAttentionSupported(const torch::Tensor& q);
torch::Tensor cachedCausalAttention(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v,
                                    double scale, int64_t past, torch::Tensor* weights = nullptr);

}  // namespace chargpt
