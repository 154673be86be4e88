// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/nn/ConfigProblem.h"
#include "model/nn/ModelConfig.h"
#include "model/train/TrainConfig.h"

namespace chargpt {

// A run's whole configuration: the model's architecture and how it trains. What
// the presets name, the settings panel edits, the trainer runs, and checkpoints,
// config JSON, the run library and the app's settings store, field by field as
// model/train/RunFields.h lists them.
struct RunConfig : ModelConfig, TrainConfig {
    // The preset these settings started from ("" for none), whatever was
    // changed since: the settings panel shows it, the run library records it.
    std::string preset_name;
    // OpenMP threads of the program that trains (0: one per core). The
    // program's, not the run's: in no file of a run; the app applies it at
    // its next start.
    int64_t threads = 0;

    // None when the settings can build and train a model, else the first setting
    // that is wrong, with the numbers involved. A vocab_size of 0 is accepted
    // (not known yet).
    ConfigProblem validate() const;

    // Rough peak memory of training, in bytes (a double: absurd settings do not
    // overflow): weights, gradients and two AdamW moments in fp32, plus the
    // activations autograd keeps for one batch.
    double trainingMemoryBytes() const;
    // None when trainingMemoryBytes() fits in `availableBytes` (or that is not
    // positive), else Problem::TooMuchMemory with both figures.
    ConfigProblem memoryProblem(double availableBytes) const;

    // "book", "fast" or "tiny" (preset_name set), or a rung of the
    // architecture ladder ("ladder-1-bigram", model/train/Ladder.h); nullopt
    // for an unknown name. The window starts from `fast`. `fast` multiplies
    // in bfloat16 when this CPU does so natively (cpuHasFastBf16()).
    //
    // With trainTokens > 0 (the size of the training part, Dataset::trainSize)
    // the preset is fitted to the text (fitToText()).
    static std::optional<RunConfig> preset(const std::string& name, int64_t trainTokens = 0);
    // The presets the settings panel offers: book, fast and tiny (the
    // ladder's rungs are trained together, model/record/LadderRuns.h).
    static std::vector<std::string> presetNames();

    // Fits the run to a training text of `trainTokens` tokens, so that it
    // passes over it at most about kFitPasses times (model/train/Learning.h):
    // a text the preset's steps cover in fewer passes keeps its step count; a
    // smaller one first gets smaller batches (down to kFitMinBatch), then
    // fewer steps (down to kFitMinSteps), dropout kFitDropout and weight decay
    // kFitWeightDecay. The
    // evaluation interval gives about 15 evaluations a run, and the warm-up at
    // most a tenth of the steps. Measured numbers: see RunConfig.cpp.
    void fitToText(int64_t trainTokens);
    // The part of fitToText() that follows from the step count alone: about
    // kFitEvaluations evaluations a run. The app applies it to whatever steps
    // the user sets.
    void fitEvaluations();
    static constexpr double kFitPasses = 20.0;
    static constexpr int64_t kFitMinBatch = 8;
    static constexpr int64_t kFitMinSteps = 300;
    static constexpr double kFitDropout = 0.4;
    static constexpr double kFitWeightDecay = 1.0;
    static constexpr int64_t kFitEvaluations = 15;
};

// The fast preset but its precision (RunConfig::preset("fast") multiplies in
// bfloat16 where the CPU does so natively): what the window and `chargpt
// train` start from, and what every rung of the ladder trains with. Here, not
// in RunConfig.cpp, so that `chargpt --help` names its values without LibTorch.
//
// The most a 2-core CPU learns in about two minutes. Measured on
// tinyshakespeare with a 120 s limit (bf16): fewer, wider-batched steps of a
// shallower model beat the 4-layer nanoGPT recipe (2 layers: val 1.58; 3
// layers: 1.66; 4 layers: 1.71; the recipe's batch 12 and lr 1e-3: 1.86 in
// fp32), because in that time more updates count for more than depth. A large
// learning rate decayed almost to zero pays too.
inline RunConfig fastPresetSettings() {
    RunConfig c;
    c.n_layer = 2;
    c.batch_size = 32;
    c.learning_rate = 5e-3;
    c.min_learning_rate = 1e-5;
    c.warmup_steps = 50;
    c.max_steps = 3000;
    return c;
}

}  // namespace chargpt
