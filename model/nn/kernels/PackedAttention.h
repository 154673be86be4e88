// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <torch/torch.h>

namespace chargpt {

// Causal scaled dot-product attention of every head of a layer in one kernel,
// read straight from the qkv linear's output and written straight in the
// layout the projection reads, so no head is ever copied out, transposed or
// concatenated by LibTorch (per layer of the book preset that was four passes
// over the activations forward and four backward, and ~1,000 tiny matrix
// products in bf16).
//
// qkv: (B, T, 3C), queries, keys and values side by side, head h in columns
// [h H, (h + 1) H) of each third, as CausalSelfAttention's qkv linear makes
// them; float32 or bfloat16 on the CPU. Returns (B, T, C), the heads side by
// side (the seed's concatenation), in qkv's type. Differentiable with respect
// to qkv. When `weights` is given it receives the softmax weights (B, heads,
// T, T) in float32, exactly 0 above the diagonal.
//
// Inside, sixteen queries (or keys) are one vector of lanes and a head's
// vectors stay in registers: the scores, the softmax and the weighted sum of
// the values are computed together in float32 (also for bfloat16 inputs),
// never for the masked triangle, and the softmax weights are not kept for the
// backward pass (it recomputes them from each query's log-sum-exp).
bool packedAttentionSupported(const torch::Tensor& qkv, int64_t heads);
// Supported, and faster here than LibTorch's operators (measured: all but bf16
// heads larger than 16).
bool packedAttentionPays(const torch::Tensor& qkv, int64_t heads);
torch::Tensor packedCausalAttention(const torch::Tensor& qkv, int64_t heads, double scale,
                                    torch::Tensor* weights = nullptr);

}  // namespace chargpt
