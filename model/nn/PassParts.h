// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What CharGPT::forward prepares before its layers run and collects after each:
// the checks of a pass's size, the knock-out's per-layer switches, and the taps
// that hand each layer's inspection tensors to ForwardOptions. Kept here so that
// the forward itself reads as the model: embed, blocks, head.
#include <torch/torch.h>

#include <cstdint>
#include <vector>

#include "model/nn/CharGPT.h"

namespace chargpt {

// Throws chargpt::Error when a pass over T new positions after `first` cached
// ones does not fit the model's context, or when the attention maps that
// `options` asks for would take more memory than a pass may.
void checkPassFits(const ModelConfig& config, int64_t batch, int64_t T, int64_t first,
                   const ForwardOptions& options);

// A KnockOut as switches per layer, checked against the model's layers and
// heads (chargpt::Error for one it lacks). Empty: nothing is knocked out.
class LayerSwitches {
public:
    LayerSwitches(const ModelConfig& config, const KnockOut* knockOut,
                  const torch::TensorOptions& maskOptions);
    // Sets extras' headMask, attention and feedForward for `layer`.
    void apply(std::size_t layer, LayerExtras& extras) const;

private:
    std::vector<torch::Tensor> headMasks_;  // (nh) per layer; undefined where no head is knocked out
    std::vector<char> attentionOn_, feedForwardOn_;
};

// The per-layer tensors ForwardOptions asks for: `extrasFor` points a layer's
// LayerExtras at them, `collect` hands them on once the layer has run.
class LayerTaps {
public:
    LayerTaps(const ForwardOptions& options, int64_t firstPosition)
        : options_(options), first_(firstPosition) {}
    // The residual stream after `blocksDone` blocks: the hook may replace it.
    void residual(int64_t blocksDone, torch::Tensor& x) const;
    LayerExtras extrasFor(std::size_t layer, torch::Tensor* causalMask);
    void collect(std::size_t layer, torch::Tensor& x);

private:
    const ForwardOptions& options_;
    int64_t first_;
    torch::Tensor weights_, scores_, attentionWrite_, feedForwardWrite_, hidden_;
};

}  // namespace chargpt
