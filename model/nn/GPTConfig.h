// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace chargpt {

// Architecture and training settings of one CharGPT model. The defaults are a
// 4-layer model with nanoGPT's CPU training recipe; preset() gives the named
// presets, which start from them.
struct GPTConfig {
    // Architecture.
    int64_t vocab_size = 0;  // 0 until a tokenizer sets it
    int64_t emb_size = 128;  // C
    int64_t head_size = 32;  // H; heads = C / H
    int64_t n_layer = 4;
    int64_t sequence_len = 64;  // context T
    double dropout = 0.0;

    // Training.
    int64_t batch_size = 12;
    double learning_rate = 1e-3;
    double min_learning_rate = 1e-4;  // floor of the cosine decay
    double weight_decay = 0.1;        // AdamW, matrices only
    double beta1 = 0.9;
    double beta2 = 0.99;
    double grad_clip = 1.0;  // 0 disables clipping
    int64_t warmup_steps = 100;
    int64_t max_steps = 2000;   // 0: no step limit (a time limit is needed then)
    double time_limit_s = 0.0;  // 0: no time limit
    int64_t eval_interval = 250;
    int64_t eval_iters = 20;
    double val_fraction = 0.1;
    uint64_t seed = 12046;
    // Matrix products in bfloat16 (CPU autocast; weights, optimizer and loss stay
    // float32). Several times the fp32 matrix throughput on CPUs with AVX512-BF16 or AMX.
    bool bf16 = false;

    int64_t n_head() const { return head_size > 0 ? emb_size / head_size : 0; }

    // Empty when the settings can build and train a model, else a sentence saying
    // which value is wrong and why. A vocab_size of 0 is accepted (not known yet).
    std::string validate() const;

    // Trainable parameters for the current vocab_size.
    int64_t parameterCount() const;

    // Rough peak memory of training, in bytes (a double: absurd settings do not
    // overflow): weights, gradients and two AdamW moments in fp32, plus the
    // activations autograd keeps for one batch.
    double trainingMemoryBytes() const;
    // Empty when trainingMemoryBytes() fits in `availableBytes`, else a sentence
    // with both figures saying which settings to lower.
    std::string memoryProblem(double availableBytes) const;

    // "book", "fast" or "tiny"; nullopt for an unknown name. `fast` multiplies
    // in bfloat16 when this CPU does so natively (cpuHasFastBf16()).
    static std::optional<GPTConfig> preset(const std::string& name);
    static std::vector<std::string> presetNames();

    static constexpr int64_t kMaxVocabulary = 65536;
};

}  // namespace chargpt
