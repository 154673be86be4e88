// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>

#include "model/nn/ConfigProblem.h"

namespace chargpt {

// The architecture of one CharGPT model: what the network's shapes follow. The
// defaults are nanoGPT's 4-layer CPU model; training settings are apart
// (model/train/TrainConfig.h), and a run's whole configuration is
// model/train/RunConfig.h.
struct ModelConfig {
    int64_t vocab_size = 0;  // 0 until a tokenizer sets it
    int64_t emb_size = 128;  // C
    int64_t head_size = 32;  // H; heads = C / H
    int64_t n_layer = 4;
    int64_t sequence_len = 64;  // context T
    double dropout = 0.0;

    int64_t n_head() const { return head_size > 0 ? emb_size / head_size : 0; }

    // None when a model of this shape can be built, else the first setting that
    // is wrong. A vocab_size of 0 is accepted (not known yet).
    ConfigProblem validate() const;

    // Trainable parameters for the current vocab_size.
    int64_t parameterCount() const;

    static constexpr int64_t kMaxVocabulary = 65536;
};

}  // namespace chargpt
