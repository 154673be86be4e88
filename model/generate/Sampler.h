// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "model/nn/CharGPT.h"
#include "model/text/CharTokenizer.h"
#include "model/nn/kernels/Decoder.h"

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

// Generates one character at a time. While the context is not full, each new
// character costs one cached position (Decoder on the CPU). Once it is full, the
// window is cropped to the last sequence_len tokens at every step (no cache, or
// exactWindow) or shifted by half (the default with the cache); see
// windowStart().
class Sampler {
public:
    Sampler(CharGPT model, CharTokenizer tokenizer, SamplingOptions options);

    // Starts from these tokens; an empty prompt starts at end-of-text, as a
    // document does.
    void start(const std::vector<int64_t>& prompt);
    // The next character, or false when generation is over (maximum length, or
    // end-of-text when stopAtEndOfText). Throws Error when the model's scores
    // are not finite (see pickToken); the position is the new character's
    // index in context().
    bool next(SampleStep& step);
    bool finished() const { return finished_; }
    const std::vector<int64_t>& context() const { return tokens_; }
    // Index in context() of the first token the next character is computed from.
    int64_t windowStart() const { return windowStart_; }
    // The rule behind windowStart(): for n tokens of which the window began at
    // `previous`, the window that the next step uses.
    static int64_t nextWindowStart(int64_t previous, int64_t n, int64_t sequenceLen, bool slideEveryStep);

    // Runs start() and next() to the end; `onStep` may return false to stop.
    std::string generate(const std::vector<int64_t>& prompt,
                         const std::function<bool(const SampleStep&)>& onStep = {});

private:
    torch::Tensor nextLogits();  // (vocab) float for the current context
    CharGPT model_;
    CharTokenizer tokenizer_;
    SamplingOptions options_;
    std::mt19937_64 rng_;
    std::vector<int64_t> tokens_;
    KVCache cache_;                  // LibTorch path (a model off the CPU)
    std::optional<Decoder> decoder_;  // CPU path
    int64_t cacheStart_ = 0;  // index in tokens_ of the cache's position 0
    int64_t windowStart_ = 0;
    int64_t produced_ = 0;
    bool finished_ = true;
};

// Picks a token from logits (vocab) with the options' temperature, top-k and
// top-p; `uniform` in [0, 1) decides. Fills step.token, probability and top.
// Throws Error when a score is NaN or infinite ("the model produced non-finite
// scores at position N; ..." with N = `position` when it is given): such
// scores never pick a character.
void pickToken(const torch::Tensor& logits, const SamplingOptions& options, double uniform,
               const CharTokenizer& tokenizer, SampleStep& step, int64_t position = -1);

// Whether `temperature` samples as temperature 0 does (the likeliest token,
// ties to the lowest index): 0 itself and every positive temperature below
// ~1.9e-48, where exp(-gap / temperature) is 0 for any two different float
// scores, so that the tempered distribution is already its limit.
bool samplesGreedily(double temperature);

}  // namespace chargpt
