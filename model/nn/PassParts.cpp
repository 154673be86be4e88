// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/nn/PassParts.h"

#include <string>

#include "model/runtime/Error.h"

namespace chargpt {

void checkPassFits(const ModelConfig& config, int64_t batch, int64_t T, int64_t first,
                   const ForwardOptions& options) {
    if (first + T > config.sequence_len)
        throw Error("the context (" + std::to_string(first + T) + " characters) is longer than the model's " +
                    std::to_string(config.sequence_len) + ".");
    if (!options.weights && !options.scores) return;
    // Every layer's (B, nh, T, Tk) maps are kept, and while a layer runs its
    // scores, masked scores and softmax take three maps more: refused before
    // the pass when that would exceed what a model may take.
    const double maps = (options.weights ? 1.0 : 0.0) + (options.scores ? 1.0 : 0.0);
    const double layerMap = 4.0 * double(batch) * double(config.n_head()) * double(T) * double(first + T);
    const double bytes = layerMap * (maps * double(config.n_layer) + 3.0);
    if (bytes > ModelConfig::kMaxContextMemoryBytes)
        throw Error("the attention of every layer and head over " + std::to_string(T) + " characters needs " +
                    std::to_string(int64_t(bytes / 1e9 + 0.5)) + " GB (" + counted(config.n_layer, "layer") +
                    " of " + counted(config.n_head(), "head") +
                    "); use a shorter text (a pass may take at most 4.3 GB).");
}

LayerSwitches::LayerSwitches(const ModelConfig& config, const KnockOut* knockOut,
                             const torch::TensorOptions& maskOptions) {
    if (!knockOut || knockOut->empty()) return;
    const int64_t L = config.n_layer, nh = config.n_head();
    auto checkLayer = [L](int64_t layer, const char* what) {
        if (layer < 0 || layer >= L)
            throw Error(std::string("cannot knock out the ") + what + " of layer " + std::to_string(layer) +
                        ": the model has " + std::to_string(L) + " layer(s), numbered 0 to " +
                        std::to_string(L - 1) + ".");
    };
    headMasks_.resize(static_cast<std::size_t>(L));
    attentionOn_.assign(static_cast<std::size_t>(L), 1);
    feedForwardOn_.assign(static_cast<std::size_t>(L), 1);
    for (const auto& [layer, head] : knockOut->heads) {
        checkLayer(layer, "head");
        if (head < 0 || head >= nh)
            throw Error("cannot knock out head " + std::to_string(head) + " of layer " +
                        std::to_string(layer) + ": each layer has " + std::to_string(nh) +
                        " head(s), numbered 0 to " + std::to_string(nh - 1) + ".");
        torch::Tensor& mask = headMasks_[static_cast<std::size_t>(layer)];
        if (!mask.defined()) mask = torch::ones({nh}, maskOptions.requires_grad(false));
        mask[head] = 0.0;
    }
    for (const int64_t layer : knockOut->attention) {
        checkLayer(layer, "attention");
        attentionOn_[static_cast<std::size_t>(layer)] = 0;
    }
    for (const int64_t layer : knockOut->feedForward) {
        checkLayer(layer, "feed-forward");
        feedForwardOn_[static_cast<std::size_t>(layer)] = 0;
    }
}

void LayerSwitches::apply(std::size_t layer, LayerExtras& extras) const {
    if (attentionOn_.empty()) return;
    if (headMasks_[layer].defined()) extras.headMask = &headMasks_[layer];
    extras.attention = attentionOn_[layer] != 0;
    extras.feedForward = feedForwardOn_[layer] != 0;
}

void LayerTaps::residual(int64_t blocksDone, torch::Tensor& x) const {
    if (options_.hook) (*options_.hook)(PassPart::Residual, blocksDone, x);
    if (options_.residuals) options_.residuals->push_back(x);
}

LayerExtras LayerTaps::extrasFor(std::size_t layer, torch::Tensor* causalMask) {
    weights_ = scores_ = attentionWrite_ = feedForwardWrite_ = hidden_ = torch::Tensor();
    LayerExtras extras;
    if (options_.attentionWrites) extras.attentionWrite = &attentionWrite_;
    if (options_.feedForwardWrites) extras.feedForwardWrite = &feedForwardWrite_;
    if (options_.feedForwardHidden) extras.feedForwardHidden = &hidden_;
    if (options_.weights) extras.weights = &weights_;
    if (options_.scores) extras.scores = &scores_;
    extras.causalMask = causalMask;
    extras.dropout = options_.dropout;
    extras.hook = options_.hook;
    extras.layer = static_cast<int64_t>(layer);
    if (options_.cache) {
        extras.keys = &options_.cache->keys[layer];
        extras.values = &options_.cache->values[layer];
        extras.cached = first_;
    }
    return extras;
}

void LayerTaps::collect(std::size_t layer, torch::Tensor& x) {
    residual(static_cast<int64_t>(layer) + 1, x);
    if (options_.weights) options_.weights->push_back(weights_);
    if (options_.scores) options_.scores->push_back(scores_);
    if (options_.attentionWrites) options_.attentionWrites->push_back(attentionWrite_);
    if (options_.feedForwardWrites) options_.feedForwardWrites->push_back(feedForwardWrite_);
    if (options_.feedForwardHidden) options_.feedForwardHidden->push_back(hidden_);
}

}  // namespace chargpt
