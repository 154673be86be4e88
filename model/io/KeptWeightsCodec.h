// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The bytes of a run's kept weights (model/record/KeptWeights.h): its weights
// at one step, as the run library keeps them (model/record/RunLibrary.h; the
// table and the CLI call them "snapshots"): the settings, the vocabulary and
// every parameter in bfloat16, about half a float checkpoint and without the
// optimizer's state. Enough to sample from, or to compute any view at that
// step again; not to train further.

#include <cstdint>
#include <string>

#include "model/io/Checkpoint.h"

namespace chargpt {

// The kept weights of `model` (config and tokenizer are its own) at `step`, as bytes.
std::string encodeKeptWeights(const RunConfig& config, const CharTokenizer& tokenizer, const CharGPT& model,
                              int64_t step);

// The model of kept weights, as a checkpoint without optimizer state or
// history (step and weightsStep: the step they were kept at). Its messages
// call them a snapshot, the user's word. The bytes are untrusted: every
// size is checked against what is left before anything is allocated, the
// settings within ModelConfig's limits, the weights' count against the
// settings, each weight finite; throws chargpt::Error saying what is wrong.
Checkpoint decodeKeptWeights(const std::string& bytes);

}  // namespace chargpt
