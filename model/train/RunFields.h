// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The fields of a run's settings (RunConfig), each described once: its key in
// every store (checkpoints, config JSON, the run library, the app's
// QSettings, the settings panel's field names), its label and unit, the range
// the settings panel offers, the setting validation calls it, whether a
// preset sets it and where it is kept. Its default is RunConfig's own
// (defaultValue() reads it). The settings panel builds its rows from this
// table, and every reader and writer of settings walks it.
//
// Standard C++ only: the widgets include it.

#include <cstdint>
#include <cstring>
#include <limits>
#include <string_view>

#include "model/nn/ConfigProblem.h"
#include "model/runtime/Runtime.h"
#include "model/runtime/TranslateNoop.h"
#include "model/train/RunConfig.h"

namespace chargpt {

enum class FieldKind { Integer, Real, Flag };

struct RunField {
    const char* key;    // "emb_size": the one name of the field everywhere
    const char* label;  // "Embedding width", in English (translated in the context "RunFields")
    const char* unit;   // "s", or "" for a plain number
    // What it does, in English (translated in the context "RunFields"): the
    // settings panel's tooltip and the help of the CLI's option that sets it,
    // both followed by its range and the value a user starts from
    // (startingValue). "" for a field neither shows.
    const char* help = "";
    FieldKind kind = FieldKind::Integer;
    double minimum = 0.0;  // the values the settings panel offers
    double maximum = 0.0;
    int decimals = 0;   // Real: decimals the panel shows, and its step
    double step = 1.0;
    Setting setting = Setting::None;  // what validation (ConfigProblem) calls it
    // The settings panel's row that edits it: its own key, the key of the row
    // that sets it along with its own (the learning rate sets the floor of its
    // decay), or "" when no row shows it.
    const char* row = "";
    bool presetSets = true;  // choosing a preset sets it (else the user's value stays)
    bool inFiles = true;     // in checkpoints, config JSON and the run library
    bool remembered = true;  // in the app's settings (QSettings)
    bool optionalInFiles = false;  // files written before it existed lack it: the default then
    // Files keep it only when it is not its default (implies optionalInFiles):
    // the files of the whole model stay as they were before it existed.
    bool keptOnlyWhenChanged = false;
    const char* oldKey = nullptr;  // its QSettings key in earlier versions, if another
    // The option of the `chargpt` commands that sets it ("--batch"), with the
    // help and the range above; null for a field no command line sets (the
    // precision is the word fp32 or bf16, not a number: --precision).
    const char* option = nullptr;
    // The member it is: one of these is set, by kind (seed: unsignedInteger).
    int64_t RunConfig::*integer = nullptr;
    uint64_t RunConfig::*unsignedInteger = nullptr;
    double RunConfig::*real = nullptr;
    bool RunConfig::*flag = nullptr;
    // How an edit in the panel or a stored setting sets it, where that changes
    // more than the field (TrainConfig::setLearningRate); null: the value only.
    void (*edit)(RunConfig&, double) = nullptr;

    bool shown() const { return std::strcmp(row, key) == 0; }

    // Integer fields; a seed above the int64_t range reads as its largest value.
    int64_t integerIn(const RunConfig& c) const {
        if (integer) return c.*integer;
        const uint64_t u = c.*unsignedInteger;
        return u > uint64_t(std::numeric_limits<int64_t>::max()) ? std::numeric_limits<int64_t>::max()
                                                                  : int64_t(u);
    }
    void setInteger(RunConfig& c, int64_t value) const {
        if (integer)
            c.*integer = value;
        else
            c.*unsignedInteger = value < 0 ? 0 : uint64_t(value);
    }
    double realIn(const RunConfig& c) const { return c.*real; }
    // The value as it is, for what a file says.
    void setReal(RunConfig& c, double value) const { c.*real = value; }
    // The value as the user sets it (edit, where there is one).
    void editReal(RunConfig& c, double value) const {
        if (edit)
            edit(c, value);
        else
            c.*real = value;
    }
    bool flagIn(const RunConfig& c) const { return c.*flag; }
    void setFlag(RunConfig& c, bool value) const { c.*flag = value; }

    // Any kind as a number (a seed past 2^53 rounds: use integerIn for it).
    double numberIn(const RunConfig& c) const {
        switch (kind) {
            case FieldKind::Integer: return double(integerIn(c));
            case FieldKind::Real: return realIn(c);
            case FieldKind::Flag: return flagIn(c) ? 1.0 : 0.0;
        }
        return 0.0;
    }
    double defaultValue() const { return numberIn(RunConfig()); }
    // Whether a file leaves it out for `c`: keptOnlyWhenChanged, and its default.
    bool leftOutOfFiles(const RunConfig& c) const { return keptOnlyWhenChanged && numberIn(c) == defaultValue(); }

    bool same(const RunConfig& a, const RunConfig& b) const {
        switch (kind) {
            case FieldKind::Integer: return integerIn(a) == integerIn(b);
            case FieldKind::Real: return realIn(a) == realIn(b);
            case FieldKind::Flag: return flagIn(a) == flagIn(b);
        }
        return false;
    }
    void copy(RunConfig& to, const RunConfig& from) const {
        switch (kind) {
            case FieldKind::Integer: setInteger(to, integerIn(from)); break;
            case FieldKind::Real: setReal(to, realIn(from)); break;
            case FieldKind::Flag: setFlag(to, flagIn(from)); break;
        }
    }

    // Builders for the table below.
    constexpr RunField hidden() const { RunField f = *this; f.row = ""; return f; }
    constexpr RunField shownIn(const char* otherRow) const { RunField f = *this; f.row = otherRow; return f; }
    constexpr RunField userChoice() const { RunField f = *this; f.presetSets = false; return f; }
    constexpr RunField programOnly() const { RunField f = *this; f.inFiles = false; return f; }
    constexpr RunField filesOnly() const { RunField f = *this; f.remembered = false; return f; }
    constexpr RunField newerThanFirstFiles() const { RunField f = *this; f.optionalInFiles = true; return f; }
    constexpr RunField onlyWhenChanged() const {
        RunField f = *this;
        f.optionalInFiles = f.keptOnlyWhenChanged = true;
        return f;
    }
    constexpr RunField storedBeforeAs(const char* key) const { RunField f = *this; f.oldKey = key; return f; }
    constexpr RunField editedBy(void (*how)(RunConfig&, double)) const { RunField f = *this; f.edit = how; return f; }
    constexpr RunField setBy(const char* flag) const {
        RunField f = *this;
        f.option = flag;
        return f;
    }
    constexpr RunField explained(const char* text) const {
        RunField f = *this;
        f.help = text;
        return f;
    }
};

namespace fields {

constexpr RunField integer(const char* key, const char* label, int64_t RunConfig::*member, double minimum,
                           double maximum, Setting setting) {
    RunField f{key, label, ""};
    f.kind = FieldKind::Integer;
    f.minimum = minimum;
    f.maximum = maximum;
    f.setting = setting;
    f.row = key;
    f.integer = member;
    return f;
}

constexpr RunField real(const char* key, const char* label, double RunConfig::*member, double minimum,
                        double maximum, int decimals, double step, Setting setting) {
    RunField f{key, label, ""};
    f.kind = FieldKind::Real;
    f.minimum = minimum;
    f.maximum = maximum;
    f.decimals = decimals;
    f.step = step;
    f.setting = setting;
    f.row = key;
    f.real = member;
    return f;
}

constexpr RunField seed(const char* key, const char* label, uint64_t RunConfig::*member) {
    RunField f{key, label, ""};
    f.kind = FieldKind::Integer;
    f.maximum = double(std::numeric_limits<int64_t>::max());  // a checkpoint stores it as int64
    f.row = key;
    f.unsignedInteger = member;
    return f;
}

constexpr RunField flag(const char* key, const char* label, bool RunConfig::*member) {
    RunField f{key, label, ""};
    f.kind = FieldKind::Flag;
    f.maximum = 1.0;
    f.row = key;
    f.flag = member;
    return f;
}

constexpr RunField withUnit(RunField f, const char* unit) {
    f.unit = unit;
    return f;
}

inline void editLearningRate(RunConfig& c, double rate) { c.setLearningRate(rate); }

// A switch of the network's parts (ModelConfig): no row of the panel, set by
// the presets of the architecture ladder, in files only when off.
constexpr RunField part(const char* key, const char* label, bool RunConfig::*member) {
    RunField f = flag(key, label, member).hidden().onlyWhenChanged();
    f.setting = Setting::Parts;
    return f;
}

constexpr double kIntMax = double(std::numeric_limits<int>::max());

// In the order of the settings panel's rows and of the files' keys.
inline constexpr RunField kTable[] = {
    integer("vocab_size", CHARGPT_TRANSLATE_NOOP("RunFields", "Vocabulary size"), &RunConfig::vocab_size, 0,
            double(ModelConfig::kMaxVocabulary), Setting::VocabSize)
        .hidden()
        .filesOnly(),  // the corpus's
    // The shapes reach as far as a model file may (a checkpoint's context of
    // 16,384 was shown as 4,096); the settings' assessment says what fits.
    integer("emb_size", CHARGPT_TRANSLATE_NOOP("RunFields", "Embedding width"), &RunConfig::emb_size, 0,
            double(ModelConfig::kMaxWidth), Setting::EmbSize)
        .explained(CHARGPT_TRANSLATE_NOOP("RunFields", "Width of the token vectors (emb_size)")),
    integer("head_size", CHARGPT_TRANSLATE_NOOP("RunFields", "Head size"), &RunConfig::head_size, 0,
            double(ModelConfig::kMaxWidth), Setting::HeadSize)
        .explained(CHARGPT_TRANSLATE_NOOP(
            "RunFields", "Width of one attention head (head_size); the width must be a multiple of it")),
    integer("n_layer", CHARGPT_TRANSLATE_NOOP("RunFields", "Layers"), &RunConfig::n_layer, 0,
            double(ModelConfig::kMaxLayers), Setting::Layers)
        .explained(CHARGPT_TRANSLATE_NOOP(
            "RunFields", "Transformer blocks, one after the other (n_layer); 0 makes a bigram model")),
    integer("sequence_len", CHARGPT_TRANSLATE_NOOP("RunFields", "Context length"), &RunConfig::sequence_len,
            0, double(ModelConfig::kMaxContext), Setting::SequenceLen)
        .explained(CHARGPT_TRANSLATE_NOOP(
            "RunFields", "Characters the model reads at once to predict the next (sequence_len)")),
    part("positions", CHARGPT_TRANSLATE_NOOP("RunFields", "Position embeddings"), &RunConfig::positions),
    part("scaled_attention", CHARGPT_TRANSLATE_NOOP("RunFields", "Scaled attention"),
         &RunConfig::scaled_attention),
    part("attention_projection", CHARGPT_TRANSLATE_NOOP("RunFields", "Attention projection"),
         &RunConfig::attention_projection),
    part("feed_forward", CHARGPT_TRANSLATE_NOOP("RunFields", "Feed-forward"), &RunConfig::feed_forward),
    part("residual", CHARGPT_TRANSLATE_NOOP("RunFields", "Residual connections"), &RunConfig::residual),
    part("final_norm", CHARGPT_TRANSLATE_NOOP("RunFields", "Final LayerNorm"), &RunConfig::final_norm),
    // How a model imported from nanoGPT, minGPT or the lecture's code computes (ModelConfig).
    integer("activation", CHARGPT_TRANSLATE_NOOP("RunFields", "Feed-forward activation"),
            &RunConfig::activation, 0, 2, Setting::Parts)
        .hidden()
        .onlyWhenChanged(),
    part("qkv_bias", CHARGPT_TRANSLATE_NOOP("RunFields", "Biases on q, k and v"), &RunConfig::qkv_bias),
    part("biases", CHARGPT_TRANSLATE_NOOP("RunFields", "Biases"), &RunConfig::biases),
    part("head_bias", CHARGPT_TRANSLATE_NOOP("RunFields", "Head bias"), &RunConfig::head_bias),
    part("tied_head", CHARGPT_TRANSLATE_NOOP("RunFields", "Head tied to the token embedding"),
         &RunConfig::tied_head),
    real("dropout", CHARGPT_TRANSLATE_NOOP("RunFields", "Dropout"), &RunConfig::dropout, 0.0, 1.0, 2, 0.05,
         Setting::Dropout)
        .explained(CHARGPT_TRANSLATE_NOOP("RunFields",
                                          "The share of activations dropped while training, 0 for none"))
        .setBy("--dropout"),
    real("weight_decay", CHARGPT_TRANSLATE_NOOP("RunFields", "Weight decay"), &RunConfig::weight_decay, 0.0,
         10.0, 2, 0.05, Setting::WeightDecay)
        .explained(
            CHARGPT_TRANSLATE_NOOP("RunFields",
                                   "How hard AdamW pulls the weight matrices towards zero at each step; more "
                                   "of it keeps a model trained on a small text from memorising it"))
        .setBy("--weight-decay"),
    integer("batch_size", CHARGPT_TRANSLATE_NOOP("RunFields", "Batch size"), &RunConfig::batch_size, 0, 4096,
            Setting::BatchSize)
        .explained(CHARGPT_TRANSLATE_NOOP("RunFields", "Sequences per step"))
        .setBy("--batch"),
    real("learning_rate", CHARGPT_TRANSLATE_NOOP("RunFields", "Learning rate"), &RunConfig::learning_rate,
         0.0, 1.0, 5, 0.0001, Setting::LearningRate)
        .explained(CHARGPT_TRANSLATE_NOOP("RunFields",
                                          "Peak learning rate, reached after the warm-up; a cosine decay "
                                          "then lowers it towards the lowest learning rate"))
        .editedBy(&editLearningRate)
        .setBy("--lr"),
    real("min_learning_rate", CHARGPT_TRANSLATE_NOOP("RunFields", "Lowest learning rate"),
         &RunConfig::min_learning_rate, 0.0, 1.0, 6, 0.00001, Setting::MinLearningRate)
        .shownIn("learning_rate"),
    real("beta1", CHARGPT_TRANSLATE_NOOP("RunFields", "AdamW beta1"), &RunConfig::beta1, 0.0, 1.0, 3, 0.01,
         Setting::Betas)
        .hidden(),
    real("beta2", CHARGPT_TRANSLATE_NOOP("RunFields", "AdamW beta2"), &RunConfig::beta2, 0.0, 1.0, 3, 0.01,
         Setting::Betas)
        .hidden(),
    real("grad_clip", CHARGPT_TRANSLATE_NOOP("RunFields", "Gradient clipping"), &RunConfig::grad_clip, 0.0,
         1e6, 2, 0.1, Setting::GradClip)
        .hidden(),
    integer("warmup_steps", CHARGPT_TRANSLATE_NOOP("RunFields", "Warm-up steps"), &RunConfig::warmup_steps, 0,
            1000000, Setting::WarmupSteps)
        .explained(
            CHARGPT_TRANSLATE_NOOP("RunFields", "Steps over which the learning rate rises to its peak")),
    integer("max_steps", CHARGPT_TRANSLATE_NOOP("RunFields", "Steps"), &RunConfig::max_steps, 0, kIntMax,
            Setting::MaxSteps)
        .explained(
            CHARGPT_TRANSLATE_NOOP("RunFields",
                                   "Total steps of the model's training; 0 for no limit (set a time limit "
                                   "then). A model that already reached it trains this many more."))
        .setBy("--steps"),
    withUnit(real("time_limit_s", CHARGPT_TRANSLATE_NOOP("RunFields", "Time limit"), &RunConfig::time_limit_s,
                  0.0, 1e7, 0, 10.0, Setting::TimeLimit),
             CHARGPT_TRANSLATE_NOOP("RunFields", "s"))
        .explained(CHARGPT_TRANSLATE_NOOP("RunFields", "Seconds after which training stops, 0 for none"))
        .userChoice()
        .storedBeforeAs("time_limit")
        .setBy("--time-limit"),
    integer("eval_interval", CHARGPT_TRANSLATE_NOOP("RunFields", "Evaluation interval"),
            &RunConfig::eval_interval, 1, kIntMax, Setting::EvalInterval)
        .hidden(),
    integer("eval_iters", CHARGPT_TRANSLATE_NOOP("RunFields", "Evaluation batches"), &RunConfig::eval_iters,
            1, 1000000, Setting::EvalIters)
        .explained(CHARGPT_TRANSLATE_NOOP(
            "RunFields", "Batches of each split per evaluation; fewer are faster and noisier"))
        .hidden()
        .setBy("--eval-iters"),
    real("val_fraction", CHARGPT_TRANSLATE_NOOP("RunFields", "Validation fraction"), &RunConfig::val_fraction,
         0.0, 1.0, 3, 0.01, Setting::ValFraction)
        .hidden(),
    seed("seed", CHARGPT_TRANSLATE_NOOP("RunFields", "Seed"), &RunConfig::seed)
        .explained(CHARGPT_TRANSLATE_NOOP("RunFields", "Random seed of the first weights and of the batches"))
        .userChoice()
        .setBy("--seed"),
    integer("threads", CHARGPT_TRANSLATE_NOOP("RunFields", "Threads"), &RunConfig::threads, 0, kMaxThreads,
            Setting::None)
        .userChoice()
        .programOnly()
        .setBy("--threads"),
    flag("bf16", CHARGPT_TRANSLATE_NOOP("RunFields", "Precision"), &RunConfig::bf16)
        .userChoice()
        .newerThanFirstFiles(),
};

}  // namespace fields

// Every field, in the order of the settings panel and of the files.
constexpr const auto& runFields() { return fields::kTable; }

// The field of `key`, or null.
inline const RunField* runField(std::string_view key) {
    for (const RunField& f : runFields())
        if (key == f.key) return &f;
    return nullptr;
}

// The field validation calls `setting`, or null (Betas: beta1).
inline const RunField* runField(Setting setting) {
    if (setting == Setting::None) return nullptr;
    for (const RunField& f : runFields())
        if (f.setting == setting) return &f;
    return nullptr;
}

// The value a user meets when they set nothing: the fast preset's
// (fastPresetSettings) for a field a preset sets, as the window and `chargpt
// train` start from it; RunConfig's own for the others (the seed, the time
// limit). The panel's tooltips and the CLI's help name it.
inline double startingValue(const RunField& f) {
    return f.numberIn(f.presetSets ? fastPresetSettings() : RunConfig());
}

// Whether the fields a preset sets and the panel shows are equal in both:
// settings left as a preset made them (preset_name and the user's own
// choices apart).
inline bool samePresetFields(const RunConfig& a, const RunConfig& b) {
    for (const RunField& f : runFields())
        if (f.presetSets && f.shown() && !f.same(a, b)) return false;
    return true;
}

// `preset` with the user's own choices of `current` (the fields no preset
// sets: seed, time limit, threads, precision).
inline RunConfig withUserChoices(RunConfig preset, const RunConfig& current) {
    for (const RunField& f : runFields())
        if (!f.presetSets) f.copy(preset, current);
    return preset;
}

}  // namespace chargpt
