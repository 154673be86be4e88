// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Where model/analysis/Patching becomes the widgets' PatchingResult. Qt-only
// header (the checkpoint is only named), for the inspector and the tests.

#include <functional>

#include "widgets/PatchingData.h"

namespace chargpt {
struct Checkpoint;
}  // namespace chargpt

// The patching lab's three sweeps on `prompts` (the residual stream at each
// layer x position, each head at every position, then each feed-forward's
// output at each layer x position when the model has them), reporting
// `progress(done, total)` after each pass over all; progress returning false
// stops them, and the result is then thrown away: throws chargpt::Error
// ("stopped") instead. Throws chargpt::Error with a readable message for a
// character the vocabulary lacks, prompts of different lengths or past the
// context, or runs with nothing to restore. Call it on the thread that owns
// the model.
PatchingResult patchingOf(const chargpt::Checkpoint& checkpoint, const PatchingPrompts& prompts,
                          const std::function<bool(int done, int total)>& progress = {});
