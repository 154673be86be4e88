// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "model/generate/BatchSampler.h"
#include "model/generate/Sampling.h"
#include "model/nn/CharGPT.h"
#include "model/text/CharTokenizer.h"

namespace chargpt {

// Generates one character at a time. While the context is not full, each new
// character costs one cached position (Decoder on the CPU). Once it is full, the
// window is cropped to the last sequence_len tokens at every step (no cache, or
// exactWindow) or shifted by half (the default with the cache); see
// windowStart(). One sample of a BatchSampler: several samples decoded
// together each write what a Sampler with their seed writes.
class Sampler {
public:
    Sampler(CharGPT model, CharTokenizer tokenizer, SamplingOptions options);

    // Starts from these tokens; an empty prompt starts at end-of-text, as a
    // document does.
    void start(const std::vector<int64_t>& prompt) { batch_.start(prompt); }
    // The next character, or false when generation is over (maximum length, or
    // end-of-text when stopAtEndOfText). Throws Error when the model's scores
    // are not finite (see pickToken); the position is the new character's
    // index in context().
    bool next(SampleStep& step);
    bool finished() const { return batch_.finished(); }
    const std::vector<int64_t>& context() const { return batch_.context(0); }
    // Index in context() of the first token the next character is computed from.
    int64_t windowStart() const { return batch_.windowStart(0); }
    // The rule behind windowStart(): for n tokens of which the window began at
    // `previous`, the window that the next step uses.
    static int64_t nextWindowStart(int64_t previous, int64_t n, int64_t sequenceLen, bool slideEveryStep);

    // Runs start() and next() to the end; `onStep` may return false to stop.
    std::string generate(const std::vector<int64_t>& prompt,
                         const std::function<bool(const SampleStep&)>& onStep = {});

private:
    BatchSampler batch_;
    std::vector<SampleStreamStep> steps_;
};

}  // namespace chargpt
