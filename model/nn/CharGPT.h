// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <torch/torch.h>

#include <utility>
#include <vector>

#include "model/nn/ModelConfig.h"

namespace chargpt {

// Keys and values of every layer for the positions seen so far, so that a new
// position costs one row of attention instead of a full recompute.
struct KVCache {
    std::vector<torch::Tensor> keys;    // per layer (B, heads, sequence_len, H)
    std::vector<torch::Tensor> values;  // per layer (B, heads, sequence_len, H)
    int64_t length = 0;                 // positions filled
    void reset() { length = 0; }
};

// Masked multi-head self-attention with all heads computed together: one Linear
// gives q, k and v for every head (C -> 3C), as in nanoGPT. Head h of the seed's
// MaskedAttention is rows [h*H, (h+1)*H) of each of the q, k, v thirds.
class CausalSelfAttentionImpl : public torch::nn::Module {
public:
    explicit CausalSelfAttentionImpl(const ModelConfig& config);
    // x (B, T, C) -> (B, T, C). When `weights` is given it receives the softmax
    // weights (B, heads, T, T). With `norm`, x is not yet normalised: norm(x)
    // goes into qkv without being kept for the backward pass (NormLinear.h).
    torch::Tensor forward(const torch::Tensor& x, torch::Tensor* weights = nullptr,
                          const torch::nn::LayerNormImpl* norm = nullptr);
    // x (B, t, C) holds positions cache.length .. cache.length + t - 1.
    torch::Tensor forwardCached(const torch::Tensor& x, torch::Tensor& keys,
                                torch::Tensor& values, int64_t cached);

    torch::nn::Linear qkv{nullptr};   // (3C, C), no bias
    torch::nn::Linear proj{nullptr};  // (C, C)

private:
    torch::Tensor attend(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v,
                         const torch::Tensor& mask, torch::Tensor* weights);
    int64_t nHead_, headSize_;
    double scale_;
    double dropout_;  // after proj, as the seed's MaskedMultiHeadAttention.dp
    torch::Tensor causalMask_;  // (T, T) float: 0 on and below the diagonal, -inf above
};
TORCH_MODULE(CausalSelfAttention);

class FeedForwardImpl : public torch::nn::Module {
public:
    explicit FeedForwardImpl(const ModelConfig& config);
    // (B, T, C) -> (B, T, C); with `norm`, of norm(x), as in CausalSelfAttention.
    torch::Tensor forward(const torch::Tensor& x, const torch::nn::LayerNormImpl* norm = nullptr);

    torch::nn::Linear ln1{nullptr};  // C -> 4C (the seed's name)
    torch::nn::Linear ln2{nullptr};  // 4C -> C

private:
    double dropout_;
};
TORCH_MODULE(FeedForward);

// Pre-norm block: x = x + mha(l1(x)); x = x + ff(l2(x)).
class BlockImpl : public torch::nn::Module {
public:
    explicit BlockImpl(const ModelConfig& config);
    torch::Tensor forward(const torch::Tensor& x, torch::Tensor* weights = nullptr);
    torch::Tensor forwardCached(const torch::Tensor& x, torch::Tensor& keys,
                                torch::Tensor& values, int64_t cached);

    torch::nn::LayerNorm l1{nullptr};
    CausalSelfAttention mha{nullptr};
    torch::nn::LayerNorm l2{nullptr};
    FeedForward ff{nullptr};
};
TORCH_MODULE(Block);

// The book's character-level GPT. Parameter names follow the seed's module tree
// (token_emb, pos_emb, blocks.<i>.l1, .mha, .l2, .ff.ln1/ln2, l, lm) except that
// each layer's heads are fused into mha.qkv; checkpoints split them per head.
class CharGPTImpl : public torch::nn::Module {
public:
    explicit CharGPTImpl(const ModelConfig& config);

    // idx (B, T) int64 with T <= sequence_len -> logits (B, T, vocab).
    torch::Tensor forward(const torch::Tensor& idx);
    // The logits and the softmax weights of every layer and head,
    // (L, B, heads, T, T). Only this path materialises them for the caller.
    std::pair<torch::Tensor, torch::Tensor> forwardWithAttention(const torch::Tensor& idx);

    KVCache makeCache(int64_t batch) const;
    // idx (B, t): the next t positions after those in the cache; appends their
    // keys and values and returns their logits (B, t, vocab). The cache must have
    // room: cache.length + t <= sequence_len.
    torch::Tensor forwardCached(const torch::Tensor& idx, KVCache& cache);

    const ModelConfig& config() const { return config_; }

    torch::nn::Embedding token_emb{nullptr}, pos_emb{nullptr};
    torch::nn::ModuleList blocks{nullptr};
    torch::nn::LayerNorm l{nullptr};
    torch::nn::Linear lm{nullptr};

private:
    torch::Tensor embed(const torch::Tensor& idx, int64_t firstPosition);
    ModelConfig config_;
};
TORCH_MODULE(CharGPT);

// An independent copy (same config, weights copied, same training/eval mode), for
// sampling or saving while the original goes on training. Call it on the thread
// that trains the original, between steps.
CharGPT cloneModel(const CharGPT& model);

}  // namespace chargpt
