// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

#include "model/io/Checkpoint.h"

// The model a command reads from its CHECKPOINT argument: a checkpoint file,
// or, where no file has that name, RUN@STEP: the weights the run library keeps
// of run RUN at STEP (chargpt snapshots RUN), without optimizer state or
// history. Throws chargpt::Error saying what is wrong.
chargpt::Checkpoint loadCheckpointOrSnapshot(const std::string& target);
