// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string>

#include "model/io/Checkpoint.h"
#include "model/record/RunLibrary.h"

// The run id of a RUN argument (a number); throws chargpt::Error otherwise.
int64_t runIdOf(const std::string& target);

// The run `id` of the library; throws chargpt::Error when it has none.
chargpt::RunRecord findRun(chargpt::RunLibrary& library, int64_t id);

// The model a command reads from its CHECKPOINT argument: a checkpoint file,
// or, where no file has that name, RUN@STEP: the weights the run library keeps
// of run RUN at STEP (chargpt snapshots RUN), without optimizer state or
// history. Throws chargpt::Error saying what is wrong.
chargpt::Checkpoint loadCheckpointOrSnapshot(const std::string& target);
