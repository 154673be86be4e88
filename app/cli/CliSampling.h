// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

#include "app/cli/CliArgs.h"
#include "model/generate/Sampling.h"

// The words of the commands that sample (`sample`, `filmstrip`), read one way,
// so that the same words give the same text in both.

// The sampling a command's words ask for, over that command's own defaults
// (`sample` writes 500 characters from seed 12046, `filmstrip` 120 from seed
// 1): --chars, --temperature, --top-k, --top-p, --seed and --exact-window,
// where the command takes them and they were given. No candidates are
// reported. Throws chargpt::Error for a value out of its range.
chargpt::SamplingOptions samplingOptions(const Args& args, const chargpt::SamplingOptions& defaults);

// The prompt a command's words give: --prompt, or --prompt-file where the
// command takes it (not both), a NUL byte refused, decoded from UTF-8.
// Throws chargpt::Error saying what is wrong.
std::u32string promptOf(const Args& args);
