// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What the tests of model/analysis share (tst_analysis, tst_embeddingmap): a
// small model whose layers and heads matter, and the message of a refusal.

#include <torch/torch.h>

#include <QString>

#include <string>

#include "model/nn/CharGPT.h"
#include "model/runtime/Error.h"
#include "model/train/RunConfig.h"

namespace analysis_fixtures {

using chargpt::CharGPT;

// The tiny preset (2 layers of 4 heads, context 16) with 20 tokens, weights
// sharpened so that layers and heads matter.
inline chargpt::ModelConfig tinyConfig(double dropout = 0.0) {
    chargpt::ModelConfig c = *chargpt::RunConfig::preset("tiny");
    c.vocab_size = 20;
    c.dropout = dropout;
    return c;
}

inline CharGPT makeModel(double dropout = 0.0, uint64_t seed = 5) {
    torch::manual_seed(seed);
    CharGPT model(tinyConfig(dropout));
    torch::NoGradGuard noGrad;
    for (auto& p : model->parameters()) p.mul_(5.0);
    for (auto& item : model->named_parameters())  // LayerNorms back near 1, as trained ones are
        if (item.key().find(".l1.") != std::string::npos || item.key().find(".l2.") != std::string::npos ||
            item.key().rfind("l.", 0) == 0)
            item.value().fill_(item.key().find("weight") != std::string::npos ? 1.0 : 0.0);
    model->eval();
    return model;
}

inline double maxAbsDiff(const torch::Tensor& a, const torch::Tensor& b) {
    return (a - b).abs().max().item<double>();
}

// The message of the chargpt::Error `f` throws; empty when it throws none.
template <typename F>
inline QString errorOf(F&& f) {
    try {
        f();
    } catch (const chargpt::Error& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

}  // namespace analysis_fixtures
