// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The architecture ladder: the book chapter's model built in its order, each
// rung adding the part whose absence the rung before shows, all trained alike
// so that their losses compare. Each rung is also a preset (RunConfig::preset
// takes its name). `chargpt ladder` trains them (model/record/LadderRuns.h).
//
// Standard C++ only.

#include <optional>
#include <string>
#include <string_view>

#include "model/runtime/TranslateNoop.h"
#include "model/train/Learning.h"
#include "model/train/RunConfig.h"

namespace chargpt {

class Corpus;
class Dataset;

struct LadderRung {
    int number;         // 1 to kLadderRungs, the chapter's order
    const char* name;   // "ladder-1-bigram": the preset's name
    const char* title;  // "bigram": what the rung is, in a few words
    const char* adds;   // what it adds to the rung before, and why, in a sentence
};

// The titles and sentences are the window's too, which translates them
// (context "LadderView").
inline constexpr LadderRung kLadder[] = {
    {1, "ladder-1-bigram", CHARGPT_TRANSLATE_NOOP("LadderView", "bigram"),
     CHARGPT_TRANSLATE_NOOP("LadderView", "Token embeddings and the language-model head only: each character guesses "
                                          "the next from itself alone.")},
    {2, "ladder-2-attention", CHARGPT_TRANSLATE_NOOP("LadderView", "one attention head"),
     CHARGPT_TRANSLATE_NOOP("LadderView", "Position embeddings and one masked self-attention head: each position "
                                          "looks back over the context.")},
    {3, "ladder-3-unscaled", CHARGPT_TRANSLATE_NOOP("LadderView", "one head, unscaled"),
     CHARGPT_TRANSLATE_NOOP("LadderView", "The same without dividing the scores by √(head size): the softmax "
                                          "saturates and attends to one character.")},
    {4, "ladder-4-heads", CHARGPT_TRANSLATE_NOOP("LadderView", "heads and projection"),
     CHARGPT_TRANSLATE_NOOP("LadderView", "Several smaller heads, scaled again, and the output projection: several "
                                          "things looked at at once.")},
    {5, "ladder-5-feedforward", CHARGPT_TRANSLATE_NOOP("LadderView", "+ feed-forward"),
     CHARGPT_TRANSLATE_NOOP("LadderView",
                            "The feed-forward after the attention: each position thinks about what it gathered.")},
    {6, "ladder-6-block", CHARGPT_TRANSLATE_NOOP("LadderView", "one whole block"),
     CHARGPT_TRANSLATE_NOOP("LadderView", "Residual connections and pre-norm LayerNorms around both halves: one whole "
                                          "block, which trains deep.")},
    {7, "ladder-7-gpt", CHARGPT_TRANSLATE_NOOP("LadderView", "CharGPT"),
     CHARGPT_TRANSLATE_NOOP("LadderView", "Blocks stacked, with the final LayerNorm: the full CharGPT.")},
};
inline constexpr int kLadderRungs = int(sizeof kLadder / sizeof kLadder[0]);

// The rung of preset `name`, or null.
const LadderRung* ladderRung(std::string_view name);

// The settings of rung `number` (1 to kLadderRungs; preset_name is its name),
// every rung with the same training settings: those of the fast preset but
// kLadderSteps steps. Throws chargpt::Error for another number.
RunConfig ladderSettings(int number);

// The floors every rung is set beside (LadderReport::floors): those of the
// validation part of `data`, which every rung is evaluated on, over a
// vocabulary of `vocabSize`.
LossFloors ladderFloors(const Dataset& data, int64_t vocabSize);
// The same for `corpus` split with this context length and validation share
// over its own vocabulary, as a TrainingSession with `seed` splits it: the
// floors of a ladder read back from the run library, which keeps none. Throws
// chargpt::Error when the text is shorter than one context.
LossFloors ladderFloors(const Corpus& corpus, int64_t sequenceLen, double valFraction, uint64_t seed);

// Steps each rung trains unless told otherwise: about a minute for the
// largest rung on two cores (README, "The ladder").
inline constexpr int64_t kLadderSteps = 1500;

// What every rung trains with (ladderSettings starts from it): the fast
// preset's training settings (fastPresetSettings) but kLadderSteps steps, as
// `chargpt ladder --help` names them.
inline RunConfig ladderTraining() {
    RunConfig c = fastPresetSettings();
    c.max_steps = kLadderSteps;
    return c;
}

}  // namespace chargpt
