// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What the fault tests start from and check a save left behind: a small
// corpus, an untrained checkpoint of it, the weights of a model, whether they
// are finite, and the temporary files a save killed half-way leaves.

#include <torch/torch.h>

#include "model/io/Checkpoint.h"
#include "model/nn/CharGPT.h"
#include "model/text/CharTokenizer.h"
#include "model/train/RunConfig.h"

#include <QDir>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <string>
#include <vector>

namespace fault_checks {

inline std::string catsText() {
    std::string text;
    for (int i = 0; i < 60; ++i) text += "the cat sat on the mat; the dog lay on the log.\n";
    return text;
}

// A model of `config` as initialised from `seed`, saved as if at `step`.
inline chargpt::Checkpoint untrainedCheckpoint(const chargpt::CharTokenizer& tokenizer, const chargpt::RunConfig& config,
                                               int64_t step, uint64_t seed) {
    torch::manual_seed(seed);
    chargpt::Checkpoint c;
    c.config = config;
    c.tokenizer = tokenizer;
    c.model = chargpt::CharGPT(config);
    c.step = step;
    return c;
}

inline std::vector<torch::Tensor> weightsOf(const chargpt::CharGPT& model) {
    std::vector<torch::Tensor> out;
    for (const torch::Tensor& p : model->parameters()) out.push_back(p.detach().clone());
    return out;
}

inline bool allFinite(const std::vector<torch::Tensor>& weights) {
    for (const torch::Tensor& w : weights)
        if (!torch::isfinite(w).all().item<bool>()) return false;
    return true;
}

// Temporary files a save leaves when it is killed half-way: ".NAME.tmp-PID-XXXXXX".
inline QStringList leftovers(const QString& folder, const QString& name) {
    return QDir(folder).entryList({"." + name + ".tmp-*"}, QDir::Files | QDir::Hidden);
}

}  // namespace fault_checks
