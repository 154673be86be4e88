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

#include "model/train/RunConfig.h"

namespace chargpt {

struct LadderRung {
    int number;         // 1 to kLadderRungs, the chapter's order
    const char* name;   // "ladder-1-bigram": the preset's name
    const char* title;  // "bigram": what the rung is, in a few words
    const char* adds;   // what it adds to the rung before, and why
};

inline constexpr LadderRung kLadder[] = {
    {1, "ladder-1-bigram", "bigram",
     "token embeddings and the language-model head only: each character guesses the next from itself alone"},
    {2, "ladder-2-attention", "one attention head",
     "position embeddings and one masked self-attention head (x = head(tok + pos), no projection, residual or "
     "LayerNorm): each position looks back over the context"},
    {3, "ladder-3-unscaled", "one head, unscaled",
     "the same without dividing the scores by sqrt(head size): the softmax saturates and attends to one "
     "character"},
    {4, "ladder-4-heads", "heads and projection",
     "several smaller heads, scaled again, and the output projection: several things looked at at once"},
    {5, "ladder-5-feedforward", "+ feed-forward",
     "the feed-forward after the attention: each position thinks about what it gathered"},
    {6, "ladder-6-block", "one whole block",
     "residual connections and pre-norm LayerNorms around both halves: one whole block, which trains deep"},
    {7, "ladder-7-gpt", "CharGPT",
     "blocks stacked, with the final LayerNorm: the full CharGPT (the fast preset's shape)"},
};
inline constexpr int kLadderRungs = int(sizeof kLadder / sizeof kLadder[0]);

// The rung of preset `name`, or null.
const LadderRung* ladderRung(std::string_view name);

// The settings of rung `number` (1 to kLadderRungs; preset_name is its name),
// every rung with the same training settings: those of the fast preset but
// kLadderSteps steps. Throws chargpt::Error for another number.
RunConfig ladderSettings(int number);

// Steps each rung trains unless told otherwise: about a minute for the
// largest rung on two cores (README, "The ladder").
inline constexpr int64_t kLadderSteps = 1500;

}  // namespace chargpt
