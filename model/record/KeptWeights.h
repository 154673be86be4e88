// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Reading the weights a run keeps (RunLibrary::keptWeightsBytes) back as a model: what
// `chargpt sample RUN@STEP` and the window's timeline load, in one place.

#include <cstdint>
#include <string>
#include <vector>

#include "model/io/Checkpoint.h"
#include "model/record/RunLibrary.h"

namespace chargpt {

// The weights run `run` keeps at `step`, decoded (model/io/KeptWeightsCodec.h)
// and checked against the run's own settings and the step asked for. Throws
// chargpt::Error saying why they cannot be used: no such run, no weights at
// that step (naming the steps it keeps), bytes that are no kept weights, or the
// weights of another step or architecture (a damaged or tampered library).
Checkpoint readKeptWeights(RunLibrary& library, int64_t run, int64_t step);

// The same for a run whose record (RunLibrary::run) the caller has read once
// for many steps, as the filmstrip does: each step then costs one read of its
// weights, however many the run keeps.
Checkpoint readKeptWeights(RunLibrary& library, const RunRecord& record, int64_t step);

// "0, 1, 2, 4": the steps of `kept`, the first twelve and the last; "none".
std::string keptStepsText(const std::vector<KeptWeights>& kept);

}  // namespace chargpt
