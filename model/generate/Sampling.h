// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <torch/torch.h>

#include "model/text/CharTokenizer.h"

// What generation is asked for and what each step reports, and the picking of
// one character from the model's scores (Sampling.cpp).

namespace chargpt {

struct SamplingOptions {
    // 0: greedy (always the most likely character). A positive temperature so
    // small that the scores divided by it lose all meaning (samplesGreedily())
    // is its limit: greedy too, the pick's probability 1.
    double temperature = 1.0;
    int64_t topK = 0;          // 0: all characters
    double topP = 1.0;         // nucleus: smallest set whose probability reaches topP
    uint64_t seed = 12046;
    int64_t maxNewChars = 500;
    bool stopAtEndOfText = true;
    int64_t candidates = 10;  // how many of the likeliest characters each step reports
    bool useCache = true;     // false: recompute the whole context at every step
    // Only with the cache, once the text is longer than the context: true
    // recomputes the last sequence_len characters for every new one (exactly what
    // a full recompute does); false keeps the last half of the window in a fresh
    // cache and goes on from there, so each character sees between half and all
    // of the context, at a small fraction of the cost.
    bool exactWindow = false;
    // Multiply in bf16 (inputs and weights rounded, products summed in fp32), as
    // a model that trains in bf16 does (RunConfig::bf16): the decoder then
    // reads half the bytes per character; the forward passes run under
    // autocast. On the CPU only.
    bool bf16 = false;
};

struct Candidate {
    int64_t token = 0;
    std::string text;
    float probability = 0.0f;  // in the distribution sampled from
};

struct SampleStep {
    int64_t token = 0;
    std::string text;
    float probability = 0.0f;
    std::vector<Candidate> top;  // likeliest first
};

// Picks a token from logits (vocab) with the options' temperature, top-k and
// top-p; `uniform` in [0, 1) decides. Fills step.token, probability and top.
// Throws Error when a score is NaN or infinite ("the model produced non-finite
// scores at position N; ..." with N = `position` when it is given): such
// scores never pick a character.
void pickToken(const torch::Tensor& logits, const SamplingOptions& options, double uniform,
               const CharTokenizer& tokenizer, SampleStep& step, int64_t position = -1);
// The same from V scores in memory (the decoder's): no tensor, no copy.
void pickToken(const float* logits, int64_t V, const SamplingOptions& options, double uniform,
               const CharTokenizer& tokenizer, SampleStep& step, int64_t position = -1);

// Whether `temperature` samples as temperature 0 does (the likeliest token,
// ties to the lowest index): 0 itself and every positive temperature below
// ~1.9e-48, where exp(-gap / temperature) is 0 for any two different float
// scores, so that the tempered distribution is already its limit.
bool samplesGreedily(double temperature);

}  // namespace chargpt
