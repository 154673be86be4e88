// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <torch/torch.h>

namespace chargpt {

// Causal scaled dot-product attention for many small heads at once, without
// LibTorch's batched matrix multiply (which on a CPU without MKL runs one tiny
// GEMM per head: about 1,000 calls per layer for the book preset) and without
// ever computing the masked upper triangle.
//
// q, k, v: (N, T, H) float32 on the CPU, N = batch x heads. Returns (N, T, H);
// when `weights` is given it receives the softmax weights (N, T, T), exactly 0
// above the diagonal. Differentiable with respect to q, k and v.
bool fusedAttentionSupported(const torch::Tensor& q);
torch::Tensor fusedCausalAttention(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v,
                                   double scale, torch::Tensor* weights = nullptr);

// The same for queries at positions past .. past + T - 1 over keys and values at
// positions 0 .. past + T - 1, as cached decoding has them: q (N, T, H), k and v
// (N, past + T, H). Without gradients (evaluation and decoding only).
torch::Tensor cachedCausalAttention(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v,
                                    double scale, int64_t past, torch::Tensor* weights = nullptr);

}  // namespace chargpt
