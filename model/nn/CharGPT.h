// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <torch/torch.h>

#include <functional>
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

// Where ForwardOptions::hook sees a pass, each (B, T, C) as the pass computes it.
enum class PassPart {
    Residual,     // layer 0: the token plus position embeddings; layer i: the output of block i - 1
    Heads,        // the layer's heads side by side before its projection: head h is columns [h*H, (h+1)*H)
    FeedForward,  // what the layer's feed-forward adds to the residual stream
};
// Reads a part of the pass, or replaces it (same shape): the pass goes on with
// what `value` holds when it returns. Activation patching and the direct logit
// attribution (model/analysis/Patching.h, Attribution.h) use it.
using PassHook = std::function<void(PassPart part, int64_t layer, torch::Tensor& value)>;

// What one layer's forward pass reads and reports besides its output; every
// field is optional.
struct LayerExtras {
    // With both: the layer's key/value cache (B, nh, sequence_len, H). The input
    // holds positions `cached` .. cached + T - 1; their keys and values are
    // written there and the attention runs over positions 0 .. cached + T - 1.
    torch::Tensor* keys = nullptr;
    torch::Tensor* values = nullptr;
    int64_t cached = 0;
    torch::Tensor* weights = nullptr;  // receives the softmax weights (B, nh, T, Tk)
    torch::Tensor* scores = nullptr;   // receives q.kT/sqrt(H) before the causal mask (B, nh, T, Tk)
    bool dropout = true;               // false: none, even in training mode
    // Knock-out (KnockOut below): `headMask` (nh) multiplies each head's output
    // before the output projection; `attention` / `feedForward` false: that half
    // of the block adds nothing to the residual stream.
    const torch::Tensor* headMask = nullptr;
    bool attention = true;
    bool feedForward = true;
    // The causal mask (T, Tk) of this pass, shared by its layers: made by the
    // first layer that needs it (the fused kernels do not), for the positions
    // the pass covers, never for the whole context the settings allow.
    torch::Tensor* causalMask = nullptr;
    // Inspection (ForwardOptions below): receive what the attention and the
    // feed-forward add to the residual stream (B, T, C), zeros for a half that
    // is knocked out, and the feed-forward's hidden activations (B, T, 4C).
    torch::Tensor* attentionWrite = nullptr;
    torch::Tensor* feedForwardWrite = nullptr;
    torch::Tensor* feedForwardHidden = nullptr;
    const PassHook* hook = nullptr;  // ForwardOptions::hook, called with this layer's number
    int64_t layer = 0;
};

// Leaves `name` out of `module`'s parameters and clears `member` (a LayerNorm
// or Linear of a model without that bias or weight, ModelConfig).
void dropParameter(torch::nn::Module& module, const std::string& name, torch::Tensor& member);

// Causal multi-head self-attention with all heads computed together: one Linear
// gives q, k and v for every head (C -> 3C), as in nanoGPT. Head h of the seed's
// MaskedAttention is rows [h*H, (h+1)*H) of each of the q, k, v thirds.
class CausalSelfAttentionImpl : public torch::nn::Module {
public:
    explicit CausalSelfAttentionImpl(const ModelConfig& config);
    // x (B, T, C) -> (B, T, C). With `norm`, x is not yet normalised: norm(x) goes
    // into qkv without being kept for the backward pass (NormLinear.h).
    torch::Tensor forward(const torch::Tensor& x, const torch::nn::LayerNormImpl* norm = nullptr,
                          const LayerExtras& extras = {});

    torch::nn::Linear qkv{nullptr};   // (3C, C), no bias
    torch::nn::Linear proj{nullptr};  // (C, C); none without ModelConfig::attention_projection

private:
    // The heads side by side (B, T, C) through the projection (when there is one) and dropout.
    torch::Tensor project(const torch::Tensor& y, const LayerExtras& extras);
    torch::Tensor attend(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v, int64_t past,
                         const LayerExtras& extras);
    int64_t nHead_, headSize_;
    double scale_;  // 1/sqrt(H), or 1 without ModelConfig::scaled_attention
    double dropout_;  // after proj, as the seed's MaskedMultiHeadAttention.dp
};
TORCH_MODULE(CausalSelfAttention);

// The 4x feed-forward: ln2(gelu(ln1(x))), exact (erf) GELU, or the activation
// of ModelConfig::activation (minGPT's tanh GELU, the lecture's ReLU).
// The names are the seed's PyTorch code's, and so its state_dict keys: ln1 and
// ln2 are the feed-forward's two Linears (not LayerNorms), and the block's two
// LayerNorms are l1 and l2. They are kept so that its files load as they are.
class FeedForwardImpl : public torch::nn::Module {
public:
    explicit FeedForwardImpl(const ModelConfig& config);
    // (B, T, C) -> (B, T, C); with `norm`, of norm(x), as in CausalSelfAttention.
    // `hidden`, when set, receives gelu(ln1(.)) (B, T, 4C), the activations
    // ln2 reads (to the kernel's 5e-7 of its GELU's erf).
    torch::Tensor forward(const torch::Tensor& x, const torch::nn::LayerNormImpl* norm = nullptr,
                          bool dropout = true, torch::Tensor* hidden = nullptr);

    torch::nn::Linear ln1{nullptr};  // C -> 4C (the seed's name)
    torch::nn::Linear ln2{nullptr};  // 4C -> C

private:
    torch::Tensor activate(const torch::Tensor& u) const;
    double dropout_;
    int64_t activation_;
};
TORCH_MODULE(FeedForward);

// Pre-norm block: x = x + mha(l1(x)); x = x + ff(l2(x)). A rung of the
// architecture ladder may lack the feed-forward (and l2), or the residual
// connections and both norms: x = ff(mha(x)), or mha(x) alone.
class BlockImpl : public torch::nn::Module {
public:
    explicit BlockImpl(const ModelConfig& config);
    torch::Tensor forward(const torch::Tensor& x, const LayerExtras& extras = {});

    torch::nn::LayerNorm l1{nullptr};  // none without ModelConfig::residual
    CausalSelfAttention mha{nullptr};
    torch::nn::LayerNorm l2{nullptr};  // none without the residual connections or the feed-forward
    FeedForward ff{nullptr};           // none without ModelConfig::feed_forward

private:
    torch::Tensor forwardWithoutResidual(const torch::Tensor& x, const LayerExtras& extras);
};
TORCH_MODULE(Block);

// Parts of the network whose output a forward pass replaces by zero, to measure
// what they are worth (model/analysis/Ablation.h):
// - a head (layer, head): its output, softmax(q kT / sqrt(H)) v, is zeroed
//   before the output projection, so the projection's bias and the other
//   heads still reach the residual stream;
// - a layer's attention: the whole sublayer adds nothing to the residual
//   stream (projection bias included): x + mha(l1(x)) becomes x;
// - a layer's feed-forward: likewise, h + ff(l2(h)) becomes h.
// In a layer without residual connections (a rung of the architecture
// ladder) a knocked-out half's output is zeros.
// Layers and heads count from 0; forward() throws chargpt::Error for one that
// does not exist. Listing a part twice is the same as once.
struct KnockOut {
    std::vector<std::pair<int64_t, int64_t>> heads;  // (layer, head)
    std::vector<int64_t> attention;                   // layers
    std::vector<int64_t> feedForward;                 // layers
    bool empty() const { return heads.empty() && attention.empty() && feedForward.empty(); }
};

// How CharGPT::forward runs and what it reports besides the logits; the
// defaults give the logits of a plain (training or evaluation) pass.
struct ForwardOptions {
    // The input continues the cached positions (cache.length + T <= sequence_len);
    // their keys and values are appended and cache.length grows by T.
    KVCache* cache = nullptr;
    bool dropout = true;  // false: none, even in training mode
    // Receive one tensor per layer: the softmax weights (B, nh, T, Tk), and the
    // scores q.kT/sqrt(H) before the causal mask (B, nh, T, Tk); Tk = T without
    // a cache. Asking for scores takes the unfused attention.
    std::vector<torch::Tensor>* weights = nullptr;
    std::vector<torch::Tensor>* scores = nullptr;
    // Receives the residual stream, L + 1 tensors (B, T, C): [0] the token plus
    // position embeddings, [i] the output of block i - 1 (so [L] is what the
    // final LayerNorm reads). Nothing is copied or computed when null.
    std::vector<torch::Tensor>* residuals = nullptr;
    // Receive one tensor per layer: what its attention and its feed-forward
    // add to the residual stream (B, T, C) (zeros for a knocked-out half), and
    // the feed-forward's hidden activations after the GELU (B, T, 4C; an
    // undefined tensor for a knocked-out feed-forward, which does not run).
    std::vector<torch::Tensor>* attentionWrites = nullptr;
    std::vector<torch::Tensor>* feedForwardWrites = nullptr;
    std::vector<torch::Tensor>* feedForwardHidden = nullptr;
    // Parts to knock out; null or empty: none, and the pass is the plain one.
    const KnockOut* knockOut = nullptr;
    // Called with each PassPart of the pass, which it may read or replace.
    const PassHook* hook = nullptr;
};

// Every layer's attention for an input, from CharGPT::attentionMaps.
struct AttentionMaps {
    torch::Tensor logits;   // (B, T, vocab)
    torch::Tensor scores;   // (L, B, nh, T, T): q.kT/sqrt(H) of each head, before the causal mask
    torch::Tensor weights;  // (L, B, nh, T, T): softmax of the masked scores, exactly 0 above the diagonal
};

// The book's character-level GPT. Parameter names follow the seed's module tree
// (token_emb, pos_emb, blocks.<i>.l1, .mha, .l2, .ff.ln1/ln2, l, lm) except that
// each layer's heads are fused into mha.qkv; checkpoints split them per head.
class CharGPTImpl : public torch::nn::Module {
public:
    explicit CharGPTImpl(const ModelConfig& config);

    // idx (B, T) int64 with T <= sequence_len -> logits (B, T, vocab). The one
    // forward pass; the methods below are thin wrappers over it.
    torch::Tensor forward(const torch::Tensor& idx, const ForwardOptions& options = {});

    // The logits and the softmax weights of every layer and head,
    // (L, B, heads, T, T), in the model's mode (dropout when training).
    std::pair<torch::Tensor, torch::Tensor> forwardWithAttention(const torch::Tensor& idx);

    // Logits, scores before the mask and weights of every layer and head, as in
    // evaluation mode (no dropout) and without gradients whatever the model's
    // mode, which it leaves as it is. What inspection shows of the attention.
    // A model without layers gives maps of L = 0.
    AttentionMaps attentionMaps(const torch::Tensor& idx);

    // The residual stream (..., C) read out as logits (..., vocab): the final
    // LayerNorm (when the model has one) and the head.
    torch::Tensor head(const torch::Tensor& x);

    KVCache makeCache(int64_t batch) const;
    // idx (B, t): the next t positions after those in the cache; appends their
    // keys and values and returns their logits (B, t, vocab). The cache must have
    // room: cache.length + t <= sequence_len.
    torch::Tensor forwardCached(const torch::Tensor& idx, KVCache& cache);

    const ModelConfig& config() const { return config_; }

    torch::nn::Embedding token_emb{nullptr}, pos_emb{nullptr};  // pos_emb: none without ModelConfig::positions
    torch::nn::ModuleList blocks{nullptr};
    torch::nn::LayerNorm l{nullptr};  // none without ModelConfig::final_norm
    torch::nn::Linear lm{nullptr};

private:
    ModelConfig config_;
};
TORCH_MODULE(CharGPT);

// An independent copy (same config, weights copied, same training/eval mode), for
// sampling or saving while the original goes on training. Call it on the thread
// that trains the original, between steps.
CharGPT cloneModel(const CharGPT& model);

}  // namespace chargpt
