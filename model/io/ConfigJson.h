// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

#include "model/train/RunConfig.h"

namespace chargpt {

// The settings as JSON for python/train_ddp.py and the run library (the
// switches of the network's parts only when off, RunFields.h):
//   {"format": "chargpt-config", "version": 1, "config": {"emb_size": 128, ...}}
// with the keys of a checkpoint's "config" (the fields of model/train/RunFields.h
// that files keep, in its order). A vocab_size of 0 lets the Python trainer
// take the vocabulary from its corpus.
std::string configToJson(const RunConfig& config);
// Writes it atomically (a temporary file renamed over `path`), for
// python/train_ddp.py, which builds the whole model: the settings of a rung of
// the architecture ladder (ModelConfig::isFull() false) are refused. Throws
// chargpt::Error with a readable message.
void writeConfigJson(const std::string& path, const RunConfig& config);
// Reads what configToJson writes (and wrote: a field files gained later may be
// missing, and keeps its default); throws chargpt::Error saying what is wrong:
// not that format, a field missing or of the wrong type. The values are not
// judged (RunConfig::validate does).
RunConfig configFromJson(const std::string& json);
// Throws chargpt::Error unless settings read from a file (`source`, as in "the
// checkpoint") are ones a model can be built and trained with: valid
// (RunConfig::validate), with a vocabulary, and within ModelConfig's limits of
// size, judged before anything of that size is made.
void checkReadSettings(const RunConfig& config, const std::string& source);

}  // namespace chargpt
