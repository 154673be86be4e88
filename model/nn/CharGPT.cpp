// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/nn/CharGPT.h"

#include <ATen/CPUGeneratorImpl.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "model/nn/PassParts.h"
#include "model/nn/kernels/CachedAttention.h"
#include "model/nn/kernels/Dropout.h"
#include "model/nn/kernels/GeluLinear.h"
#include "model/nn/kernels/NormLinear.h"
#include "model/nn/kernels/PackedAttention.h"
#include "model/nn/kernels/ResidualAdd.h"
#include "model/runtime/Error.h"

namespace chargpt {

// The forward pass in the shape of nanoGPT's model.py: token and position
// embeddings, pre-norm blocks of causal multi-head self-attention and a 4x GELU
// feed-forward, a final LayerNorm and the head. It is the model's definition:
// training, evaluation, cached decoding (ForwardOptions::cache) and the
// attention the app shows all run it, with options. Generation on the CPU uses
// a second forward, kernels/Decoder (one position at a time, in plain loops
// over a copy of the weights), which tst_sampler checks position by position
// against this forward and its cached path. The hand-written kernels behind it
// (model/nn/kernels) give the same arithmetic as the LibTorch expression they
// replace.

// LibTorch registers every bias a LayerNorm or Linear may have; a model without
// one leaves it out of its parameters (named_parameters skips an undefined one).
struct ParameterAccess : torch::nn::Module {
    static torch::OrderedDict<std::string, torch::Tensor>& of(torch::nn::Module& module) {
        return module.*(&ParameterAccess::parameters_);
    }
};

void dropParameter(torch::nn::Module& module, const std::string& name, torch::Tensor& member) {
    ParameterAccess::of(module)[name] = torch::Tensor();
    member = torch::Tensor();
}

namespace {
// ForwardOptions::hook, when there is one, on a part of this layer.
void seen(const LayerExtras& extras, PassPart part, torch::Tensor& value) {
    if (extras.hook) (*extras.hook)(part, extras.layer, value);
}

// (B, T, C) -> (B, nh, T, H)
torch::Tensor toHeads(const torch::Tensor& x, int64_t nHead, int64_t headSize) {
    return x.view({x.size(0), x.size(1), nHead, headSize}).transpose(1, 2);
}

// Every layer's (B, nh, T, T) maps as one (L, B, nh, T, T) tensor; (0, B, nh,
// T, T) for a model without layers. `like` is (B, T, ...) of the same pass.
// A LayerNorm of the model's settings: without a bias when ModelConfig::biases is off.
torch::nn::LayerNorm makeNorm(const ModelConfig& c) {
    torch::nn::LayerNorm norm(torch::nn::LayerNormOptions({c.emb_size}));
    if (!c.biases) dropParameter(*norm, "bias", norm->bias);
    return norm;
}

// norm(x) through `linear`: in one kernel (NormLinear.h) for the book's
// LayerNorm, in plain operators for one without a bias.
torch::Tensor normThenLinear(const torch::Tensor& x, const torch::nn::LayerNormImpl* norm,
                             torch::nn::Linear& linear) {
    if (!norm) return linear(x);
    if (norm->bias.defined())
        return normLinear(x, norm->weight, norm->bias, linear->weight, linear->bias, norm->options.eps());
    return linear(torch::layer_norm(x, {x.size(-1)}, norm->weight, norm->bias, norm->options.eps()));
}

torch::Tensor stackLayers(const std::vector<torch::Tensor>& layers, const torch::Tensor& like, int64_t heads) {
    if (!layers.empty()) return torch::stack(layers);
    const int64_t B = like.size(0), T = like.size(1);
    return torch::zeros({0, B, heads, T, T}, torch::dtype(torch::kFloat32).device(like.device()));
}
}  // namespace

// ---- attention ---------------------------------------------------------------

CausalSelfAttentionImpl::CausalSelfAttentionImpl(const ModelConfig& c)
    : nHead_(c.n_head()),
      headSize_(c.head_size),
      scale_(c.scaled_attention ? 1.0 / std::sqrt(double(c.head_size)) : 1.0),
      dropout_(c.dropout) {
    qkv = register_module("qkv", torch::nn::Linear(
                                     torch::nn::LinearOptions(c.emb_size, 3 * c.emb_size).bias(c.qkv_bias)));
    if (c.attention_projection)
        proj = register_module("proj",
                               torch::nn::Linear(torch::nn::LinearOptions(c.emb_size, c.emb_size).bias(c.biases)));
}

torch::Tensor CausalSelfAttentionImpl::project(const torch::Tensor& y, const LayerExtras& extras) {
    // Without a projection the heads side by side are the output (the ladder's
    // first rungs, as in the chapter before it adds one).
    return chargpt::dropout(proj ? proj(y) : y, dropout_, is_training() && extras.dropout);  // (B, T, C)
}

torch::Tensor CausalSelfAttentionImpl::forward(const torch::Tensor& x, const torch::nn::LayerNormImpl* norm,
                                               const LayerExtras& extras) {
    const int64_t B = x.size(0), T = x.size(1), C = x.size(2);
    const auto all = normThenLinear(x, norm, qkv);  // (B, T, 3C)
    if (!extras.keys && !extras.scores && packedAttentionPays(all, nHead_)) {
        // Training and whole-text evaluation: every head in one kernel, from qkv's
        // layout straight to the heads side by side (PackedAttention.h).
        torch::Tensor w;
        auto y = packedCausalAttention(all, nHead_, scale_, extras.weights ? &w : nullptr);  // (B, T, C)
        if (extras.weights) *extras.weights = w;  // (B, nh, T, T)
        if (extras.headMask)  // knocked-out heads give 0
            y = (y.view({B, T, nHead_, headSize_}) * extras.headMask->view({1, 1, nHead_, 1})).view({B, T, C});
        seen(extras, PassPart::Heads, y);
        return project(y, extras);  // (B, T, C)
    }
    const auto parts = all.split(C, /*dim=*/2);  // 3 x (B, T, C)
    auto q = toHeads(parts[0], nHead_, headSize_);  // (B, nh, T, H)
    auto k = toHeads(parts[1], nHead_, headSize_);  // (B, nh, T, H)
    auto v = toHeads(parts[2], nHead_, headSize_);  // (B, nh, T, H)
    const int64_t past = extras.keys ? extras.cached : 0;
    if (extras.keys) {  // cached decoding: the new positions' keys and values join the earlier ones
        extras.keys->narrow(2, past, T).copy_(k);
        extras.values->narrow(2, past, T).copy_(v);
        k = extras.keys->narrow(2, 0, past + T);    // (B, nh, Tk, H), Tk = past + T
        v = extras.values->narrow(2, 0, past + T);  // (B, nh, Tk, H)
    }
    auto y = attend(q, k, v, past, extras);              // (B, nh, T, H)
    if (extras.headMask) y = y * extras.headMask->view({1, nHead_, 1, 1});  // knocked-out heads give 0
    y = y.transpose(1, 2).contiguous().view({B, T, C});  // (B, T, C): heads side by side, as concat
    seen(extras, PassPart::Heads, y);
    return project(y, extras);                           // (B, T, C)
}

torch::Tensor CausalSelfAttentionImpl::attend(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v,
                                              int64_t past, const LayerExtras& extras) {
    // q (B, nh, T, H) holds positions past .. past + T - 1; k and v (B, nh, Tk, H)
    // positions 0 .. Tk - 1. The heads go through the batched products as B * nh
    // matrices.
    const int64_t B = q.size(0), T = q.size(2), Tk = k.size(2);
    const auto q3 = q.reshape({B * nHead_, T, headSize_});   // (B*nh, T, H)
    const auto k3 = k.reshape({B * nHead_, Tk, headSize_});  // (B*nh, Tk, H)
    const auto v3 = v.reshape({B * nHead_, Tk, headSize_});  // (B*nh, Tk, H)
    if (!extras.scores && !torch::GradMode::is_enabled() && cachedAttentionSupported(q3)) {
        // Cached decoding: the new positions against every cached one, in one kernel
        // that never computes the masked triangle; the weights only when asked for.
        torch::Tensor w;
        const auto y = cachedCausalAttention(q3, k3, v3, scale_, past, extras.weights ? &w : nullptr);  // (B*nh, T, H)
        if (extras.weights) *extras.weights = w.view({B, nHead_, T, Tk});
        return y.view({B, nHead_, T, headSize_});
    }
    // -inf where a query would see a later position; one new position sees all.
    // Made for this pass's positions only (a mask of the whole context per
    // layer cost a file claiming context 16,384 gigabytes), once for all layers.
    torch::Tensor mask;
    if (T > 1) {
        torch::Tensor own;
        torch::Tensor& shared = extras.causalMask ? *extras.causalMask : own;
        if (!shared.defined()) {
            const auto on = torch::TensorOptions().device(q.device());
            shared = torch::zeros({T, Tk}, on.dtype(torch::kFloat32))
                         .masked_fill(torch::ones({T, Tk}, on.dtype(torch::kBool)).triu(past + 1),
                                      -std::numeric_limits<float>::infinity());
        }
        mask = shared;  // (T, Tk)
    }
    const auto kT = k3.transpose(1, 2);                                  // (B*nh, H, Tk)
    torch::Tensor scores;                                                // (B*nh, T, Tk)
    if (extras.scores) {
        const auto raw = torch::bmm(q3, kT).mul_(scale_);  // (B*nh, T, Tk), before the mask
        *extras.scores = raw.view({B, nHead_, T, Tk});
        scores = mask.defined() ? raw + mask : raw;
    } else {  // scaled and masked in one call
        scores = mask.defined() ? torch::baddbmm(mask, q3, kT, /*beta=*/1.0, /*alpha=*/scale_)
                                : torch::bmm(q3, kT).mul_(scale_);
    }
    const auto att = torch::softmax(scores, -1);  // (B*nh, T, Tk): exact zeros where masked, rows sum to 1
    if (extras.weights) *extras.weights = att.view({B, nHead_, T, Tk});
    // As in the seed, the attention weights themselves get no dropout (its
    // MaskedAttention builds a Dropout but attention() never applies it).
    return torch::bmm(att, v3).view({B, nHead_, T, headSize_});  // (B, nh, T, H)
}

// ---- feed-forward and block ---------------------------------------------------

FeedForwardImpl::FeedForwardImpl(const ModelConfig& c) : dropout_(c.dropout), activation_(c.activation) {
    ln1 = register_module("ln1", torch::nn::Linear(torch::nn::LinearOptions(c.emb_size, 4 * c.emb_size).bias(c.biases)));
    ln2 = register_module("ln2", torch::nn::Linear(torch::nn::LinearOptions(4 * c.emb_size, c.emb_size).bias(c.biases)));
}

torch::Tensor FeedForwardImpl::activate(const torch::Tensor& u) const {
    switch (activation_) {
        case ModelConfig::GeluTanh: return torch::gelu(u, "tanh");
        case ModelConfig::Relu: return torch::relu(u);
        default: return torch::gelu(u);
    }
}

torch::Tensor FeedForwardImpl::forward(const torch::Tensor& x, const torch::nn::LayerNormImpl* norm, bool dropout,
                                       torch::Tensor* hidden) {
    const auto u = normThenLinear(x, norm, ln1);  // (B, T, 4C)
    if (hidden) *hidden = activate(u);            // (B, T, 4C), for inspection only
    // ln2(gelu(u)) in one kernel (GeluLinear.h) for the exact GELU and a bias, else in plain operators.
    const auto y = activation_ == ModelConfig::GeluErf && ln2->bias.defined() ? geluLinear(u, ln2->weight, ln2->bias)
                                                                              : ln2(activate(u));  // (B, T, C)
    return chargpt::dropout(y, dropout_, is_training() && dropout);
}

BlockImpl::BlockImpl(const ModelConfig& c) {
    // A part the config switches off is not made: its parameters do not exist.
    if (c.residual) l1 = register_module("l1", makeNorm(c));
    mha = register_module("mha", CausalSelfAttention(c));
    if (c.residual && c.feed_forward) l2 = register_module("l2", makeNorm(c));
    if (c.feed_forward) ff = register_module("ff", FeedForward(c));
}

namespace {

// Inspection names the two writes (attentionWrite, feedForwardWrite): the same
// tensors the pass adds or passes on.
torch::Tensor kept(torch::Tensor* to, const torch::Tensor& write) {
    if (to) *to = write;
    return write;
}

// The feed-forward's write, as the hook leaves it.
torch::Tensor fedForward(const LayerExtras& extras, torch::Tensor write) {
    seen(extras, PassPart::FeedForward, write);
    return kept(extras.feedForwardWrite, write);
}

}  // namespace

torch::Tensor BlockImpl::forwardWithoutResidual(const torch::Tensor& x, const LayerExtras& extras) {
    // The ladder's rungs before residual connections: x = ff(mha(x)), no
    // norms. A knocked-out half gives zeros, as a part's output does; its
    // write is what it passes on.
    auto h = mha->forward(x, nullptr, extras);  // (B, T, C)
    if (!extras.attention) h = torch::zeros_like(h);
    kept(extras.attentionWrite, h);
    if (!ff) {
        if (extras.feedForwardWrite) *extras.feedForwardWrite = torch::zeros_like(h);
        return h;
    }
    auto y = ff->forward(h, nullptr, extras.dropout, extras.feedForwardHidden);  // (B, T, C)
    if (!extras.feedForward) y = torch::zeros_like(y);
    return fedForward(extras, y);
}

torch::Tensor BlockImpl::forward(const torch::Tensor& x, const LayerExtras& extras) {
    // x + mha(l1(x)), then + ff(l2(.)). The norms are applied inside the first
    // linear of each half (normLinear): the same arithmetic, less memory kept for
    // the backward pass. Never in place: autograd needs x.
    if (!l1) return forwardWithoutResidual(x, extras);
    if (extras.attention && extras.feedForward && ff) {  // the plain pass
        const auto h = residualAdd(x, kept(extras.attentionWrite, mha->forward(x, l1.get(), extras)));  // (B, T, C)
        return residualAdd(h, fedForward(extras, ff->forward(h, l2.get(), extras.dropout,
                                                             extras.feedForwardHidden)));  // (B, T, C)
    }
    // Knock-out, or a rung without a feed-forward: a half that is off or
    // missing adds nothing. Its attention still runs when a cache or the
    // weights need it, and its output is dropped.
    torch::Tensor h = x;
    if (extras.attention)
        h = residualAdd(x, kept(extras.attentionWrite, mha->forward(x, l1.get(), extras)));  // (B, T, C)
    else if (extras.keys || extras.weights || extras.scores)
        mha->forward(x, l1.get(), extras);
    if (!extras.attention && extras.attentionWrite) *extras.attentionWrite = torch::zeros_like(x);
    if (!extras.feedForward || !ff) {
        if (extras.feedForwardWrite) *extras.feedForwardWrite = torch::zeros_like(x);
        return h;
    }
    return residualAdd(h, fedForward(extras, ff->forward(h, l2.get(), extras.dropout,
                                                         extras.feedForwardHidden)));  // (B, T, C)
}

// ---- the model ----------------------------------------------------------------

CharGPTImpl::CharGPTImpl(const ModelConfig& c) : config_(c) {
    if (const ConfigProblem problem = c.validate()) throw Error(problem.message());
    if (c.vocab_size < 2) throw Error("the model needs a vocabulary (vocab_size is not set).");
    token_emb = register_module("token_emb", torch::nn::Embedding(c.vocab_size, c.emb_size));
    if (c.positions) pos_emb = register_module("pos_emb", torch::nn::Embedding(c.sequence_len, c.emb_size));
    blocks = register_module("blocks", torch::nn::ModuleList());
    for (int64_t i = 0; i < c.n_layer; ++i) blocks->push_back(Block(c));
    if (c.final_norm) l = register_module("l", makeNorm(c));
    lm = register_module("lm", torch::nn::Linear(torch::nn::LinearOptions(c.emb_size, c.vocab_size).bias(c.head_bias)));
    // nanoGPT's weight tying: the head multiplies by the token embedding itself,
    // one parameter that both uses train (token_emb.weight; there is no lm.weight).
    if (c.tied_head) {
        dropParameter(*lm, "weight", lm->weight);
        lm->weight = token_emb->weight;
    }

    // GPT-2 initialisation: N(0, 0.02), zero biases, residual projections scaled
    // down by sqrt(2 * n_layer) so deep stacks start stable.
    torch::NoGradGuard noGrad;
    const double residualStd = 0.02 / std::sqrt(2.0 * double(std::max<int64_t>(c.n_layer, 1)));
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

torch::Tensor CharGPTImpl::forward(const torch::Tensor& idx, const ForwardOptions& options) {
    const int64_t B = idx.size(0), T = idx.size(1);
    const int64_t first = options.cache ? options.cache->length : 0;  // position of idx[:, 0]
    checkPassFits(config_, B, T, first, options);
    const LayerSwitches switches(config_, options.knockOut, token_emb->weight.options());
    LayerTaps taps(options, first);

    const auto pos = torch::arange(first, first + T, torch::dtype(torch::kInt64).device(idx.device()));  // (T)
    auto x = token_emb(idx);            // (B, T, C)
    if (pos_emb) x = x + pos_emb(pos);  // (B, T, C); pos_emb(pos) is (T, C)
    taps.residual(0, x);
    torch::Tensor causalMask;  // (T, Tk), made by the first layer that needs it
    for (std::size_t i = 0; i < blocks->size(); ++i) {
        LayerExtras extras = taps.extrasFor(i, &causalMask);
        switches.apply(i, extras);
        x = blocks[i]->as<BlockImpl>()->forward(x, extras);  // (B, T, C)
        taps.collect(i, x);
    }
    if (options.cache) options.cache->length += T;
    return head(x);  // (B, T, vocab)
}

torch::Tensor CharGPTImpl::head(const torch::Tensor& x) {
    return lm(l ? l(x) : x);  // (..., C) -> (..., vocab)
}

std::pair<torch::Tensor, torch::Tensor> CharGPTImpl::forwardWithAttention(const torch::Tensor& idx) {
    std::vector<torch::Tensor> weights;
    ForwardOptions options;
    options.weights = &weights;
    auto logits = forward(idx, options);                     // (B, T, vocab)
    return {logits, stackLayers(weights, idx, config_.n_head())};  // (L, B, nh, T, T)
}

AttentionMaps CharGPTImpl::attentionMaps(const torch::Tensor& idx) {
    torch::NoGradGuard noGrad;
    std::vector<torch::Tensor> weights, scores;
    ForwardOptions options;
    options.dropout = false;
    options.weights = &weights;
    options.scores = &scores;
    AttentionMaps maps;
    maps.logits = forward(idx, options);                             // (B, T, vocab)
    maps.scores = stackLayers(scores, maps.logits, config_.n_head());    // (L, B, nh, T, T)
    maps.weights = stackLayers(weights, maps.logits, config_.n_head());  // (L, B, nh, T, T)
    return maps;
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
    ForwardOptions options;
    options.cache = &cache;
    return forward(idx, options);
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
