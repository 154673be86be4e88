// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <torch/torch.h>

#include <cstdint>
#include <map>
#include <string>

#include "model/nn/CharGPT.h"
#include "model/text/CharTokenizer.h"
#include "model/train/RunConfig.h"
#include "model/train/LossHistory.h"

namespace chargpt {

// Everything a checkpoint holds. The file is a `torch.save`-compatible pickle
// of a plain dict, so Python reads it with torch.load:
//   format "chargpt-checkpoint", version, config{...}, vocab[...],
//   model{seed-style name: tensor}, optimizer{step, exp_avg{...}, exp_avg_sq{...}},
//   step, tokens_seen, weights_step, history{...}.
struct Checkpoint {
    RunConfig config;
    CharTokenizer tokenizer;
    CharGPT model{nullptr};
    // Optimizer moments under the model's own parameter names; empty when the
    // file has none (a model saved without training state).
    int64_t optimizerStep = 0;
    std::map<std::string, torch::Tensor> expAvg, expAvgSq;
    int64_t step = 0;
    int64_t tokensSeen = 0;
    // The step the weights are from: `step`, unless the weights of an earlier
    // evaluation (the best validation loss) were put back before saving. Saved
    // as "weights_step"; a file without it (older ones) means `step`, and so
    // does -1 here (loadCheckpoint always gives the number).
    int64_t weightsStep = -1;
    LossHistory history;
};

constexpr const char* kCheckpointFormat = "chargpt-checkpoint";
constexpr int64_t kCheckpointVersion = 1;

// Writes atomically: a temporary file beside `path`, flushed and synced, then
// renamed over it, so the previous file survives any failure. Throws
// chargpt::Error with a readable message.
void saveCheckpoint(const std::string& path, const Checkpoint& checkpoint);
// Reads and checks everything (format, version, config, vocabulary, every weight's
// name, shape and finiteness); throws chargpt::Error saying what is wrong.
Checkpoint loadCheckpoint(const std::string& path);


// Fused weights -> the seed's per-head names (`blocks.3.mha.heads.5.query.weight`)
// and back. Tensors are copied into new contiguous storage.
std::map<std::string, torch::Tensor> toSeedNames(const std::map<std::string, torch::Tensor>& fused,
                                                 const RunConfig& config);
std::map<std::string, torch::Tensor> fromSeedNames(const std::map<std::string, torch::Tensor>& seed,
                                                   const RunConfig& config);

}  // namespace chargpt
