// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/generate/Filmstrip.h"

#include <exception>
#include <map>
#include <optional>
#include <utility>

#include "model/io/Checkpoint.h"
#include "model/record/KeptWeights.h"
#include "model/record/RunLibrary.h"
#include "model/runtime/Error.h"

namespace chargpt {

int64_t Filmstrip::sampledCount() const {
    int64_t n = 0;
    for (const FilmstripFrame& f : frames) n += f.sampled() ? 1 : 0;
    return n;
}

namespace {

// The weights the run of `record` keeps at `step` (model/record/KeptWeights.h,
// as RUN@STEP reads them), or the reason there are none to sample.
std::optional<Checkpoint> readFrameWeights(RunLibrary& library, const RunRecord& record, int64_t step,
                                           std::string& why) {
    try {
        return readKeptWeights(library, record, step);
    } catch (const RunLibraryBusy&) {
        throw;  // the library, not these weights
    } catch (const std::exception& e) {
        why = firstLine(e);
    }
    return std::nullopt;
}

}  // namespace

Filmstrip sampleFilmstrip(RunLibrary& library, int64_t run, const std::u32string& prompt,
                          const SamplingOptions& options, const FilmstripHooks& hooks) {
    Filmstrip strip;
    const std::vector<KeptWeights> kept = library.keptWeights(run);
    if (kept.empty()) return strip;
    // The run's record (its settings, which each frame's weights are checked
    // against) is read once: a strip of many unreadable steps costs one read each.
    const std::optional<RunRecord> record = library.run(run);
    if (!record) throw Error("the run library has no run " + std::to_string(run) + ".");
    std::map<int64_t, double> validation;
    for (const RunEvaluation& e : library.evaluations(run)) validation[e.step] = e.valLoss;

    // Frames are reported only once the prompt is known to be readable, so
    // skipped steps before the first readable one wait here.
    bool started = false;
    std::size_t reported = 0;
    auto report = [&] {
        if (!started) return;
        for (; reported < strip.frames.size(); ++reported)
            if (hooks.frame) hooks.frame(strip.frames[reported]);
    };
    bool stopped = false;
    const auto stop = [&] { return stopped || (stopped = hooks.stop && hooks.stop()); };

    for (const KeptWeights& weights : kept) {
        if (stop()) break;
        FilmstripFrame frame;
        frame.step = weights.step;
        if (const auto it = validation.find(weights.step); it != validation.end()) frame.valLoss = it->second;
        std::optional<Checkpoint> checkpoint =
            readFrameWeights(library, *record, weights.step, frame.skipped);
        if (checkpoint) {
            // As `chargpt sample` reads its prompt: characters the vocabulary
            // lacks are left out, and a prompt with none it has is refused.
            std::vector<UnknownChar> unknown;
            const std::vector<int64_t> tokens = checkpoint->tokenizer.encode(prompt, &unknown);
            const bool readable = prompt.empty() || !tokens.empty();
            if (!started) {
                if (!readable) throw Error("no character of the prompt is in the model's vocabulary.");
                strip.prompt.text = checkpoint->tokenizer.decode(tokens);
                strip.prompt.unknown = std::move(unknown);
                started = true;
                if (hooks.started) hooks.started(strip.prompt);
                report();
            }
            if (!readable) {
                frame.skipped = "no character of the prompt is in this step's vocabulary.";
            } else {
                try {
                    // In the precision the run trained in, as `chargpt sample` samples a checkpoint.
                    SamplingOptions frameOptions = options;
                    frameOptions.bf16 = checkpoint->config.bf16;
                    BatchSampler sampler(checkpoint->model, checkpoint->tokenizer, frameOptions, 1);
                    frame.text =
                        sampler
                            .generate(tokens, [&](const std::vector<SampleStreamStep>&) { return !stop(); })
                            .front();
                } catch (const std::exception& e) {
                    frame.text.clear();
                    frame.skipped = firstLine(e);
                }
            }
            checkpoint.reset();  // one model in memory at a time
            if (stopped) break;
        }
        strip.frames.push_back(std::move(frame));
        report();
    }
    // No kept weights could be read: the prompt was never read, and every frame says why.
    started = true;
    report();
    strip.stopped = stopped;
    return strip;
}

}  // namespace chargpt
