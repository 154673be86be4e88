// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/nn/CharGPT.h"

#include <ATen/CPUGeneratorImpl.h>

#include <cmath>
#include <limits>

#include "model/nn/kernels/Dropout.h"
#include "model/runtime/Error.h"
#include "model/nn/kernels/FusedAttention.h"
#include "model/nn/kernels/GeluLinear.h"
#include "model/nn/kernels/NormLinear.h"

namespace chargpt {

namespace {
// Splits (B, T, C) into heads: (B, heads, T, H).
torch::Tensor toHeads(const torch::Tensor& x, int64_t nHead, int64_t headSize) {
    return x.view({x.size(0), x.size(1), nHead, headSize}).transpose(1, 2);
}
}  // namespace

// ---- attention ---------------------------------------------------------------

CausalSelfAttentionImpl::CausalSelfAttentionImpl(const ModelConfig& c)
    : nHead_(c.n_head()),
      headSize_(c.head_size),
      scale_(1.0 / std::sqrt(double(c.head_size))),
      dropout_(c.dropout) {
    qkv = register_module("qkv", torch::nn::Linear(
                                     torch::nn::LinearOptions(c.emb_size, 3 * c.emb_size).bias(false)));
    proj = register_module("proj", torch::nn::Linear(c.emb_size, c.emb_size));
    // Not a registered buffer: it is derived from the config, never saved.
    causalMask_ = torch::zeros({c.sequence_len, c.sequence_len})
                      .masked_fill(torch::ones({c.sequence_len, c.sequence_len}, torch::kBool).triu(1),
                                   -std::numeric_limits<float>::infinity());
}

torch::Tensor CausalSelfAttentionImpl::attend(const torch::Tensor& q, const torch::Tensor& k,
                                              const torch::Tensor& v, const torch::Tensor& mask,
                                              torch::Tensor* weights) {
    // q (B, nh, Tq, H), k and v (B, nh, Tk, H); the heads go through one batched
    // matrix multiply as (B * nh) matrices.
    const int64_t B = q.size(0), Tq = q.size(2), Tk = k.size(2);
    auto q3 = q.reshape({B * nHead_, Tq, headSize_});
    if (Tq == Tk && mask.defined() && fusedAttentionSupported(q3)) {
        torch::Tensor w;
        auto y = fusedCausalAttention(q3, k.reshape({B * nHead_, Tk, headSize_}),
                                      v.reshape({B * nHead_, Tk, headSize_}), scale_, weights ? &w : nullptr);
        if (weights) *weights = w.view({B, nHead_, Tq, Tk});
        return y.view({B, nHead_, Tq, headSize_});
    }
    auto kT = k.reshape({B * nHead_, Tk, headSize_}).transpose(1, 2);  // (B*nh, H, Tk)
    // scores = q k^T / sqrt(H) with -inf added above the diagonal, in one call.
    auto scores = mask.defined() ? torch::baddbmm(mask, q3, kT, /*beta=*/1.0, /*alpha=*/scale_)
                                 : torch::bmm(q3, kT).mul_(scale_);  // (B*nh, Tq, Tk)
    auto att = torch::softmax(scores, -1);  // exact zeros where masked, rows sum to 1
    if (weights) *weights = att.view({B, nHead_, Tq, Tk});
    // As in the seed, the attention weights themselves get no dropout (its
    // MaskedAttention builds a Dropout but attention() never applies it).
    return torch::bmm(att, v.reshape({B * nHead_, Tk, headSize_})).view({B, nHead_, Tq, headSize_});
}

torch::Tensor CausalSelfAttentionImpl::forward(const torch::Tensor& x, torch::Tensor* weights,
                                               const torch::nn::LayerNormImpl* norm) {
    const int64_t B = x.size(0), T = x.size(1), C = x.size(2);
    auto all = norm ? normLinear(x, norm->weight, norm->bias, qkv->weight, qkv->bias, norm->options.eps())
                    : qkv(x);  // (B, T, 3C)
    auto parts = all.split(C, /*dim=*/2);  // 3 x (B, T, C)
    auto q = toHeads(parts[0], nHead_, headSize_);
    auto k = toHeads(parts[1], nHead_, headSize_);
    auto v = toHeads(parts[2], nHead_, headSize_);
    if (causalMask_.device() != x.device()) causalMask_ = causalMask_.to(x.device());
    auto mask = causalMask_.narrow(0, 0, T).narrow(1, 0, T);
    auto y = attend(q, k, v, mask, weights);             // (B, nh, T, H)
    y = y.transpose(1, 2).contiguous().view({B, T, C});  // heads side by side, as concat
    return chargpt::dropout(proj(y), dropout_, is_training());
}

torch::Tensor CausalSelfAttentionImpl::forwardCached(const torch::Tensor& x, torch::Tensor& keys,
                                                     torch::Tensor& values, int64_t cached) {
    const int64_t B = x.size(0), t = x.size(1), C = x.size(2);
    auto parts = qkv(x).split(C, 2);
    auto q = toHeads(parts[0], nHead_, headSize_);  // (B, nh, t, H)
    keys.narrow(2, cached, t).copy_(toHeads(parts[1], nHead_, headSize_));
    values.narrow(2, cached, t).copy_(toHeads(parts[2], nHead_, headSize_));
    auto k = keys.narrow(2, 0, cached + t);
    auto v = values.narrow(2, 0, cached + t);
    if (causalMask_.device() != x.device()) causalMask_ = causalMask_.to(x.device());
    // One new position sees every cached one: no mask needed.
    torch::Tensor mask;
    if (t > 1) mask = causalMask_.narrow(0, cached, t).narrow(1, 0, cached + t);
    auto y = attend(q, k, v, mask, nullptr);
    return proj(y.transpose(1, 2).contiguous().view({B, t, C}));
}

// ---- feed-forward and block ---------------------------------------------------

FeedForwardImpl::FeedForwardImpl(const ModelConfig& c) : dropout_(c.dropout) {
    ln1 = register_module("ln1", torch::nn::Linear(c.emb_size, 4 * c.emb_size));
    ln2 = register_module("ln2", torch::nn::Linear(4 * c.emb_size, c.emb_size));
}

torch::Tensor FeedForwardImpl::forward(const torch::Tensor& x, const torch::nn::LayerNormImpl* norm) {
    auto u = norm ? normLinear(x, norm->weight, norm->bias, ln1->weight, ln1->bias, norm->options.eps()) : ln1(x);
    return chargpt::dropout(geluLinear(u, ln2->weight, ln2->bias), dropout_, is_training());
}

BlockImpl::BlockImpl(const ModelConfig& c) {
    l1 = register_module("l1", torch::nn::LayerNorm(torch::nn::LayerNormOptions({c.emb_size})));
    mha = register_module("mha", CausalSelfAttention(c));
    l2 = register_module("l2", torch::nn::LayerNorm(torch::nn::LayerNormOptions({c.emb_size})));
    ff = register_module("ff", FeedForward(c));
}

torch::Tensor BlockImpl::forward(const torch::Tensor& x, torch::Tensor* weights) {
    // The norms are applied inside the first linear of each half (normLinear):
    // the same arithmetic, less memory kept for the backward pass.
    auto h = x + mha->forward(x, weights, l1.get());  // never in place: autograd needs x
    return h + ff->forward(h, l2.get());
}

torch::Tensor BlockImpl::forwardCached(const torch::Tensor& x, torch::Tensor& keys,
                                       torch::Tensor& values, int64_t cached) {
    auto h = x + mha->forwardCached(l1(x), keys, values, cached);
    return h + ff(l2(h));
}

// ---- the model ----------------------------------------------------------------

CharGPTImpl::CharGPTImpl(const ModelConfig& c) : config_(c) {
    if (const ConfigProblem problem = c.validate()) throw Error(problem.message());
    if (c.vocab_size < 2) throw Error("the model needs a vocabulary (vocab_size is not set).");
    token_emb = register_module("token_emb", torch::nn::Embedding(c.vocab_size, c.emb_size));
    pos_emb = register_module("pos_emb", torch::nn::Embedding(c.sequence_len, c.emb_size));
    blocks = register_module("blocks", torch::nn::ModuleList());
    for (int64_t i = 0; i < c.n_layer; ++i) blocks->push_back(Block(c));
    l = register_module("l", torch::nn::LayerNorm(torch::nn::LayerNormOptions({c.emb_size})));
    lm = register_module("lm", torch::nn::Linear(c.emb_size, c.vocab_size));

    // GPT-2 initialisation: N(0, 0.02), zero biases, residual projections scaled
    // down by sqrt(2 * n_layer) so deep stacks start stable.
    torch::NoGradGuard noGrad;
    const double residualStd = 0.02 / std::sqrt(2.0 * double(c.n_layer));
    for (auto& item : named_parameters()) {
        const std::string& name = item.key();
        torch::Tensor& p = item.value();
        const bool isNorm = name.rfind("l.", 0) == 0 || name.find(".l1.") != std::string::npos ||
                            name.find(".l2.") != std::string::npos;
        if (isNorm) continue;  // LayerNorm keeps weight 1, bias 0
        if (name.size() > 5 && name.compare(name.size() - 5, 5, ".bias") == 0) {
            p.zero_();
        } else if (name.find("mha.proj.weight") != std::string::npos ||
                   name.find("ff.ln2.weight") != std::string::npos) {
            p.normal_(0.0, residualStd);
        } else {
            p.normal_(0.0, 0.02);
        }
    }
}

torch::Tensor CharGPTImpl::embed(const torch::Tensor& idx, int64_t first) {
    const int64_t T = idx.size(1);
    if (first + T > config_.sequence_len)
        throw Error("the context (" + std::to_string(first + T) + " characters) is longer than the model's " +
                    std::to_string(config_.sequence_len) + ".");
    auto pos = torch::arange(first, first + T, torch::TensorOptions().dtype(torch::kInt64).device(idx.device()));
    return token_emb(idx) + pos_emb(pos);  // (B, T, C) + (T, C)
}

torch::Tensor CharGPTImpl::forward(const torch::Tensor& idx) {
    auto h = embed(idx, 0);
    for (const auto& block : *blocks) h = block->as<BlockImpl>()->forward(h);
    return lm(l(h));  // (B, T, vocab)
}

std::pair<torch::Tensor, torch::Tensor> CharGPTImpl::forwardWithAttention(const torch::Tensor& idx) {
    auto h = embed(idx, 0);
    std::vector<torch::Tensor> weights;
    weights.reserve(blocks->size());
    for (const auto& block : *blocks) {
        torch::Tensor w;
        h = block->as<BlockImpl>()->forward(h, &w);
        weights.push_back(w);
    }
    return {lm(l(h)), torch::stack(weights)};  // (B, T, vocab), (L, B, nh, T, T)
}

KVCache CharGPTImpl::makeCache(int64_t batch) const {
    KVCache cache;
    auto options = token_emb->weight.options().requires_grad(false);
    for (int64_t i = 0; i < config_.n_layer; ++i) {
        cache.keys.push_back(torch::zeros({batch, config_.n_head(), config_.sequence_len, config_.head_size}, options));
        cache.values.push_back(torch::zeros_like(cache.keys.back()));
    }
    return cache;
}

torch::Tensor CharGPTImpl::forwardCached(const torch::Tensor& idx, KVCache& cache) {
    auto h = embed(idx, cache.length);
    for (std::size_t i = 0; i < blocks->size(); ++i)
        h = blocks[i]->as<BlockImpl>()->forwardCached(h, cache.keys[i], cache.values[i], cache.length);
    cache.length += idx.size(1);
    return lm(l(h));
}

CharGPT cloneModel(const CharGPT& model) {
    // Building a model draws initial weights; keep the global generator (which
    // also draws the trainer's dropout masks) where it was.
    auto generator = at::detail::getDefaultCPUGenerator();
    at::Tensor generatorState;
    {
        std::lock_guard<std::mutex> lock(generator.mutex());
        generatorState = generator.get_state();
    }
    CharGPT copy(model->config());
    {
        std::lock_guard<std::mutex> lock(generator.mutex());
        generator.set_state(generatorState);
    }
    copy->to(model->token_emb->weight.device());
    torch::NoGradGuard noGrad;
    auto from = model->parameters();
    auto to = copy->parameters();
    for (std::size_t i = 0; i < from.size(); ++i) to[i].copy_(from[i]);
    copy->train(model->is_training());
    return copy;
}

}  // namespace chargpt
