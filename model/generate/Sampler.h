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
    double temperature = 1.0;  // 0: greedy (always the most likely character)
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
    // end-of-text when stopAtEndOfText).
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
void pickToken(const torch::Tensor& logits, const SamplingOptions& options, double uniform,
               const CharTokenizer& tokenizer, SampleStep& step);

}  // namespace chargpt
