// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Models with large random weights (distributions that are not flat) and a
// generation that records each pick, for the sampling tests.

#include <torch/torch.h>

#include "model/generate/BatchSampler.h"
#include "model/nn/CharGPT.h"
#include "model/text/CharTokenizer.h"
#include "model/train/RunConfig.h"

#include <string>
#include <vector>

namespace sampler_fixtures {

using chargpt::BatchSampler;
using chargpt::CharGPT;
using chargpt::CharTokenizer;
using chargpt::SampleStep;
using chargpt::SampleStreamStep;
using chargpt::SamplingOptions;

inline const std::u32string kAlphabet = U"abcdefghijklmnopqrstuvwxyz .,\n";

// A shape other than the tiny preset's: 0 keeps the preset's value.
struct Shape {
    int64_t emb = 0, head = 0, context = 0;
};

inline CharGPT makeModel(const CharTokenizer& tokenizer, uint64_t seed, double weightStd, Shape shape = {}) {
    chargpt::RunConfig c = *chargpt::RunConfig::preset("tiny");
    if (shape.emb) c.emb_size = shape.emb;
    if (shape.head) c.head_size = shape.head;
    if (shape.context) c.sequence_len = shape.context;
    c.vocab_size = tokenizer.vocabSize();
    torch::manual_seed(seed);
    CharGPT model(c);
    torch::NoGradGuard noGrad;
    // Bigger weights than the initialisation, for distributions that are not flat.
    for (torch::Tensor& p : model->parameters()) p.normal_(0.0, weightStd);
    model->eval();
    return model;
}

struct Run {
    std::vector<int64_t> tokens;
    std::vector<float> probabilities;
    std::string text;
};

inline Run generate(const CharGPT& model, const CharTokenizer& tokenizer, const SamplingOptions& options,
             const std::vector<int64_t>& prompt) {
    BatchSampler sampler(model, tokenizer, options, 1);
    Run run;
    run.text = sampler
                   .generate(prompt,
                             [&](const std::vector<SampleStreamStep>& steps) {
                                 run.tokens.push_back(steps.front().step.token);
                                 run.probabilities.push_back(steps.front().step.probability);
                                 return true;
                             })
                   .front();
    return run;
}

// The next character of a sampler of one sample; false when it has ended.
inline bool nextOf(BatchSampler& sampler, SampleStep& step) {
    std::vector<SampleStreamStep> steps;
    if (!sampler.next(steps)) return false;
    step = std::move(steps.front().step);
    return true;
}

}  // namespace sampler_fixtures
