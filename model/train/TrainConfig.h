// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>

namespace chargpt {

// How a model trains: nanoGPT's CPU recipe by default. The architecture is
// model/nn/ModelConfig.h; model/train/RunConfig.h joins the two.
struct TrainConfig {
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

    // Sets the learning rate and keeps the floor of its decay at most a tenth
    // of it (the one place that rule is written).
    void setLearningRate(double rate) {
        learning_rate = rate;
        if (min_learning_rate > rate / 10.0) min_learning_rate = rate / 10.0;
    }
};

}  // namespace chargpt
