// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Activation patching (causal tracing): two prompts of the same length, a
// clean one and a corrupted one (one name changed, say), and two characters
// the model might write next, a target and a wrong one. The measure is the
// logit difference at the last position, logit[target] - logit[wrong]. A
// part of the clean run copied into the corrupted run (a patch) restores
//     (patched - corrupted) / (clean - corrupted)
// of it: 1, the part carries everything that tells the prompts apart; 0,
// nothing (TransformerLens's convention). The parts: the residual stream at
// one layer and position (row 0 the embeddings, row i the output of block
// i - 1), one head's output at every position (before the projection), one
// feed-forward's output at one position (PassHook in model/nn/CharGPT.h). In
// evaluation mode (no dropout) and without gradients; the model's mode is
// left as it is.

#include <cstdint>
#include <functional>
#include <vector>

#include "model/nn/CharGPT.h"

namespace chargpt {

// One part of the corrupted run replaced by the clean run's.
struct Patch {
    enum Part { Residual, Head, FeedForward };
    Part part = Residual;
    int64_t layer = 0;  // Residual: 0 .. L (0 the embeddings); Head, FeedForward: 0 .. L - 1
    // Residual, FeedForward: the position, -1 for every position; Head: the head (every position).
    int64_t index = -1;
};

// The two runs and what a patch is measured against.
struct PatchingRuns {
    std::vector<int64_t> clean, corrupted;
    int64_t target = 0, wrong = 0;
    double cleanDifference = 0.0;      // logit[target] - logit[wrong] at the last position, clean run
    double corruptedDifference = 0.0;  // the same, corrupted run
    // The share of the clean difference that `difference` restores.
    double restored(double difference) const {
        return (difference - corruptedDifference) / (cleanDifference - corruptedDifference);
    }
};

// Checks the prompts (the same length, 1 .. the context, ids in the
// vocabulary) and the characters, runs both prompts and measures them.
// `wrong` -1: the corrupted run's likeliest character other than the target.
// Throws chargpt::Error for a bad input, wrong == target, or runs whose
// differences are the same (nothing to restore).
PatchingRuns preparePatching(const CharGPT& model, const std::vector<int64_t>& clean,
                             const std::vector<int64_t>& corrupted, int64_t target, int64_t wrong = -1);

// The logit difference of the corrupted run with all of `patches` applied
// together (none: the corrupted run's own). Throws chargpt::Error for a patch
// of a part the model does not have.
double patchedDifference(const CharGPT& model, const PatchingRuns& runs, const std::vector<Patch>& patches);

// Every patch of one kind alone, restored fractions row-major: Residual
// (L + 1) x T, Head L x heads, FeedForward L x T (none without a
// feed-forward). Several patches share each pass, one per row of its batch.
// `progress`, when set, is called after each pass with (patches done, total)
// and may return false to stop: the patches not measured are NaN.
std::vector<double> patchingSweep(const CharGPT& model, const PatchingRuns& runs, Patch::Part part,
                                  const std::function<bool(int64_t done, int64_t total)>& progress = {});

// The patches a pass of a sweep holds at most.
constexpr int64_t kPatchesPerPass = 64;

}  // namespace chargpt
