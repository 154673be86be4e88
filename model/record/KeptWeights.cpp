// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/record/KeptWeights.h"

#include <optional>

#include "model/io/ConfigJson.h"
#include "model/io/KeptWeightsCodec.h"
#include "model/runtime/Error.h"

namespace chargpt {

std::string keptStepsText(const std::vector<KeptWeights>& kept) {
    if (kept.empty()) return "none";
    std::string text;
    for (std::size_t i = 0; i < kept.size() && i < 12; ++i) text += (i ? ", " : "") + std::to_string(kept[i].step);
    if (kept.size() > 12) text += ", ... " + std::to_string(kept.back().step);
    return text;
}

namespace {

// What the library lists is all it reads: a step outside 0..kMaxStep is neither.
void checkStep(int64_t run, int64_t step) {
    if (step < 0 || step > RunLibrary::kMaxStep)
        throw Error("run " + std::to_string(run) + " keeps no weights at step " + std::to_string(step) +
                    ": a step is at most " + std::to_string(RunLibrary::kMaxStep) + ".");
}

}  // namespace

Checkpoint readKeptWeights(RunLibrary& library, int64_t run, int64_t step) {
    checkStep(run, step);
    const std::optional<RunRecord> record = library.run(run);
    if (!record) throw Error("the run library has no run " + std::to_string(run) + ".");
    return readKeptWeights(library, *record, step);
}

Checkpoint readKeptWeights(RunLibrary& library, const RunRecord& record, int64_t step) {
    const int64_t run = record.id;
    checkStep(run, step);
    const std::string where = "run " + std::to_string(run);
    const std::optional<std::string> bytes = library.keptWeightsBytes(run, step);
    if (!bytes)
        throw Error(where + " keeps no weights at step " + std::to_string(step) + " (it keeps steps " +
                    keptStepsText(library.keptWeights(run)) + ").");
    const std::string what = "the weights of " + where + " at step " + std::to_string(step);
    Checkpoint kept;
    try {
        kept = decodeKeptWeights(*bytes);
    } catch (const Error& e) {
        throw Error(what + " cannot be read: " + e.what());
    }
    // Checked against the step asked for and the run's own settings as it
    // recorded them: weights filed under another step, or of another
    // architecture, are not this run's at this step, whatever their bytes say.
    if (kept.step != step)
        throw Error(what + " hold the weights of step " + std::to_string(kept.step) + " (a damaged library).");
    if (!configFromJson(record.start.settingsJson).sameArchitecture(kept.config))
        throw Error(what + " are of another architecture than the run's settings (a damaged library).");
    return kept;
}

}  // namespace chargpt
