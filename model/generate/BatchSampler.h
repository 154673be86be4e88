// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "model/generate/NextWindow.h"
#include "model/generate/Sampling.h"
#include "model/nn/CharGPT.h"
#include "model/nn/kernels/Decoder.h"
#include "model/text/CharTokenizer.h"

namespace chargpt {

// One character of one sample.
struct SampleStreamStep {
    int64_t sample = 0;
    SampleStep step;
};

// Samples continuing one prompt (one, or several), generated one character at
// a time and decoded together: on the CPU every step reads the weights once
// for all the samples still running (Decoder::stepStreams). Sample i uses the
// seed options.seed + i and writes exactly what a batch of one with that seed
// writes, the same characters with the same probabilities. While a sample's
// context is not full, each new character costs one cached position (the
// Decoder on the CPU). Once it is full, its window is cropped to the last
// sequence_len tokens at every step (no cache, or exactWindow) or shifted by
// half (the default with the cache): each sample's window moves on its own
// (nextWindowStart).
class BatchSampler {
public:
    // The largest number of samples of one batch.
    static constexpr int64_t kMaxSamples = 64;

    BatchSampler(CharGPT model, CharTokenizer tokenizer, SamplingOptions options, int64_t samples);

    int64_t samples() const { return int64_t(streams_.size()); }
    // Starts every sample from these tokens; an empty prompt starts at
    // end-of-text, as a document does.
    void start(const std::vector<int64_t>& prompt);
    // The next character of every sample still running, in the order of the
    // samples; a sample that ends at end-of-text (stopAtEndOfText) reports
    // nothing for its last step. False when no sample reported a character:
    // all have ended. Throws Error when the model's scores are not finite.
    bool next(std::vector<SampleStreamStep>& steps);
    bool finished() const;
    bool finished(int64_t sample) const { return streams_.at(std::size_t(sample)).finished; }
    // The sample's tokens so far: the prompt (of several samples, only its
    // last sequence_len tokens, all that any window reads) and its characters.
    const std::vector<int64_t>& context(int64_t sample) const { return streams_.at(std::size_t(sample)).tokens; }
    // Index in context(sample) of the first token its next character is computed from.
    int64_t windowStart(int64_t sample) const { return streams_.at(std::size_t(sample)).windowStart; }

    // The rule behind windowStart(): for n tokens of which the window began at
    // `previous`, the window that the next step uses.
    static int64_t nextWindowStart(int64_t previous, int64_t n, int64_t sequenceLen, bool slideEveryStep);

    // Runs start() and next() to the end: the text of each sample. `onStep`
    // hears each step that reported characters (next()'s steps) and may
    // return false to stop there.
    std::vector<std::string> generate(
        const std::vector<int64_t>& prompt,
        const std::function<bool(const std::vector<SampleStreamStep>&)>& onStep = {});

private:
    struct Stream {
        std::mt19937_64 rng;
        std::vector<int64_t> tokens;
        std::vector<float> logits;  // the scores for the next character (the decoder's or the forward's)
        KVCache cache;              // LibTorch path (a model off the CPU, a rung of the ladder)
        int64_t cacheStart = 0;     // index in tokens of the cache's position 0
        int64_t windowStart = 0;
        int64_t produced = 0;
        bool finished = true;
    };
    void computeLogits(const std::vector<int64_t>& running);
    // Where a stream's next window will start, its window starting at `start`
    // (the window moves by half once it is full: nextWindowStart).
    int64_t nextWindowAt(int64_t start) const;
    // The forward's scores after the stream's last token into s.logits.
    void forwardLogits(Stream& s, int64_t from, bool cached);

    CharGPT model_;
    CharTokenizer tokenizer_;
    SamplingOptions options_;
    std::vector<Stream> streams_;
    std::optional<Decoder> decoder_;
    // One sample on two or more threads: its next window, decoded on another thread.
    std::unique_ptr<NextWindow> next_;
};

}  // namespace chargpt
