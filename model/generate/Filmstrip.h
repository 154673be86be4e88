// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The filmstrip of a run: a sample from each of the weights the run library
// keeps of it (steps 0, 1, 2, 4, ... and every evaluation), all from the same
// prompt, seed, temperature and length, so that the rows differ only by what
// the model had learned by then: noise, then characters, then words, then
// lines. Each row is exactly what `chargpt sample RUN@STEP` prints with the
// same options.

#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "model/generate/BatchSampler.h"
#include "model/text/CharTokenizer.h"

namespace chargpt {

class RunLibrary;

// One step of the strip.
struct FilmstripFrame {
    int64_t step = 0;
    // The validation loss of the evaluation at this step, in nats; NaN where
    // the run was not evaluated at this step.
    double valLoss = std::numeric_limits<double>::quiet_NaN();
    // The characters generated after the prompt (UTF-8); empty when skipped.
    std::string text;
    // Why this step has no sample (its weights cannot be read or sampled);
    // empty when it has one.
    std::string skipped;
    bool sampled() const { return skipped.empty(); }
};

// The prompt as the models read it: the characters of their vocabulary, and
// those left out.
struct FilmstripPrompt {
    std::string text;
    std::vector<UnknownChar> unknown;
};

// What the caller hears while the strip is made; each may be empty.
struct FilmstripHooks {
    // Once, when the first kept weights that can be read have read the prompt, before any
    // frame is reported or sampled.
    std::function<void(const FilmstripPrompt&)> started;
    // After each step, in the order of the steps (also a skipped one).
    std::function<void(const FilmstripFrame&)> frame;
    // Asked after every character: true stops the strip (the frame in
    // progress is dropped).
    std::function<bool()> stop;
};

struct Filmstrip {
    FilmstripPrompt prompt;
    std::vector<FilmstripFrame> frames;  // by step
    bool stopped = false;                // hooks.stop said so before the last step
    int64_t sampledCount() const;
};

// Samples every kept step that `library` lists for `run` (at most
// RunLibrary::kMaxListedKept, the listing's own bound), one at a time: the
// weights read as RUN@STEP reads them (model/record/KeptWeights.h), the
// prompt encoded by their vocabulary, and `options` handed to a BatchSampler of
// one as they are; then the weights are dropped before the next step's are read. The
// length is options.maxNewChars (a sample ends sooner where the model ends its
// document). Kept weights that cannot be read, that hold another step's weights
// or whose model gives no finite scores are reported as skipped with the reason,
// and the strip goes on. A run that keeps no weights (or that the library does
// not have) gives no frames. Throws chargpt::Error when the prompt is not empty
// and no character of it is in the vocabulary of the first kept weights that read (as
// `chargpt sample` refuses it), and when the library cannot be read.
Filmstrip sampleFilmstrip(RunLibrary& library, int64_t run, const std::u32string& prompt,
                          const SamplingOptions& options, const FilmstripHooks& hooks = {});

}  // namespace chargpt
