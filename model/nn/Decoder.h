// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <torch/torch.h>

#include <cstdint>

#include "model/nn/CharGPT.h"

namespace chargpt {

// Generation one character at a time, for one sequence on the CPU: each step is
// CharGPT::forward over one new position with the key/value cache (the same
// block code as training and evaluation), on a copy of the model.
class Decoder {
public:
    // True when the model's weights are fp32 on the CPU (the only case handled).
    static bool supports(const CharGPT& model);

    // Copies the weights: later training of `model` does not change this decoder.
    // Call it on the thread that trains `model` (cloneModel).
    explicit Decoder(const CharGPT& model);

    // Forgets every cached position.
    void reset() { cache_.reset(); }
    // Positions in the cache.
    int64_t length() const { return cache_.length; }
    int64_t capacity() const { return model_->config().sequence_len; }
    int64_t vocabSize() const { return model_->config().vocab_size; }

    // Feeds `token` at the next position (length() must be below capacity()) and
    // returns the logits of the character after it (vocabSize() floats, valid
    // until the next call).
    const float* step(int64_t token);

private:
    CharGPT model_{nullptr};  // the copy, in evaluation mode
    KVCache cache_;
    torch::Tensor token_;   // (1, 1) int64: the position fed
    torch::Tensor logits_;  // (vocab) float32
};

}  // namespace chargpt
