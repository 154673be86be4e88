// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <vector>

#include "model/nn/CharGPT.h"

namespace chargpt {

// The decoding kernel behind generation: one sequence on the CPU, one character
// at a time. It computes what CharGPT::forward computes with a key/value cache
// (ForwardOptions::cache): LayerNorm, q/k/v, causal attention over the cached
// keys and values, projection, GELU feed-forward, final LayerNorm and head, in
// plain loops over a contiguous copy of the weights. The model is defined by
// CharGPT::forward alone; this is its fast path for a single position, as the
// fused kernels beside it are for training, and tst_sampler checks it against
// the forward's cached path step by step and for several positions at once. A position costs a few matrix-vector
// products; through LibTorch it costs about 35 operator calls per layer, whose
// overhead made generation about 3.7 times slower (docs/ARCHITECTURE.md).
class Decoder {
public:
    // True when the model's weights are fp32 on the CPU (the only case handled).
    static bool supports(const CharGPT& model);

    // Copies the weights: later training of `model` does not change this decoder.
    explicit Decoder(const CharGPT& model);

    // Forgets every cached position.
    void reset() { length_ = 0; }
    // Positions in the cache.
    int64_t length() const { return length_; }
    int64_t capacity() const { return S_; }
    int64_t vocabSize() const { return V_; }

    // Feeds `token` at the next position (length() must be below capacity()) and
    // returns the logits of the character after it (vocabSize() floats, valid
    // until the next call).
    const float* step(int64_t token);
    // Feeds n >= 1 tokens at the next positions (length() + n <= capacity())
    // and returns the logits after the last of them. The positions share each
    // read of the weights (matrix-matrix products), so refilling the cache after
    // the window moves costs far less than n steps.
    const float* feed(const int64_t* tokens, int64_t n);

private:
    struct Layer {
        // The linear weights transposed, (in, out) row-major.
        std::vector<float> ln1w, ln1b, qkv, projW, projB, ln2w, ln2b, ff1W, ff1B, ff2W, ff2B;
        std::vector<float> keys, values;  // (heads, S, H)
    };
    int64_t C_ = 0, H_ = 0, nh_ = 0, S_ = 0, V_ = 0;
    float scale_ = 1.0f;
    std::vector<float> tokenEmb_, posEmb_, lnw_, lnb_, lmW_, lmB_;
    std::vector<Layer> layers_;
    void reserve(int64_t n);
    // Scratch for the positions of one feed.
    std::vector<float> x_, h_, qkv_, att_, hidden_, scores_, logits_;
    int64_t length_ = 0;
};

}  // namespace chargpt
