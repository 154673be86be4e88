// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

namespace chargpt {

// One setting of a run (architecture or training), as validation names it.
enum class Setting {
    None,
    VocabSize,
    EmbSize,
    HeadSize,
    Layers,
    SequenceLen,
    Dropout,
    BatchSize,
    LearningRate,
    MinLearningRate,
    WeightDecay,
    Betas,
    GradClip,
    WarmupSteps,
    MaxSteps,
    TimeLimit,
    EvalInterval,
    EvalIters,
    ValFraction,
    Parts,   // the switches of the network's parts (ModelConfig::positions ...)
    Memory,  // the settings together need more memory than the machine has
};

// What is wrong with a setting.
enum class Problem {
    None,
    NotPositive,    // must be > 0 (`value`)
    NotDivisible,   // emb_size (`value`) is not a multiple of head_size (`limit`)
    TooSmall,       // below `limit`
    TooLarge,       // above `limit`
    OutOfRange,     // outside the setting's interval
    Negative,       // must be >= 0
    NeverEnds,      // neither a step count nor a time limit
    TooMuchMemory,  // needs `value` bytes, the machine has `limit`
    PartsWithoutLayers,  // a model without layers switches off a part of a layer
};

// The verdict of validation: none, or one setting, its problem and the numbers
// involved. The window words it in the user's language from these fields;
// message() is the English sentence the command line prints.
struct ConfigProblem {
    Setting setting = Setting::None;
    Problem problem = Problem::None;
    double value = 0.0;  // the setting's value (bytes needed for TooMuchMemory)
    double limit = 0.0;  // the bound it broke (head_size for NotDivisible, bytes available for TooMuchMemory)

    explicit operator bool() const { return problem != Problem::None; }
    // Empty when there is no problem.
    std::string message() const;
    // The settings a user changes to fix it (e.g. emb_size and head_size for
    // NotDivisible; batch, context, width and layers for TooMuchMemory).
    std::vector<Setting> settings() const;
};

// The snake-case name of a setting ("emb_size", "time_limit_s"); "" for None.
const char* settingName(Setting setting);

// "123 MiB" below a GiB, "1.5 GiB" below 10 GiB, "12 GiB" above.
std::string formatBytes(double bytes);

}  // namespace chargpt
