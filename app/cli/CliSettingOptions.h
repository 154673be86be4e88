// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The options of the `chargpt` commands that set a training setting, built
// from its field in the settings table (model/train/RunFields.h): the
// option's name (RunField::option), its range, its help and the value a run
// starts from, as the settings panel's row and tooltip show them. Nothing
// here includes LibTorch (the launcher reads the command line with it).

#include <string>
#include <string_view>

#include "app/cli/CliArgs.h"

// The values of field `key` (the seed's: every int64_t).
ValueRange fieldRange(std::string_view key);
// The option of field `key` with its help, range and `start`, the value a
// run of the command starts from, then `note`; `what` words an option whose
// meaning is the command's own instead of the field's help.
OptionSpec fieldOption(std::string_view key, const char* valueName, const ValueRange& range,
                       const std::string& start, const char* note = "", const char* what = nullptr);
// Of `chargpt train` and the commands that start from a preset as it does.
OptionSpec trainOption(std::string_view key, const char* valueName, const char* note = "",
                       const char* what = nullptr);
// Of `chargpt ladder`, whose rungs all train with the ladder's settings.
OptionSpec ladderOption(std::string_view key, const char* valueName, const char* note = "",
                        const char* what = nullptr);
// Of `chargpt export-config`, which writes a checkpoint's settings, else a preset's.
OptionSpec exportOption(std::string_view key, const char* valueName, const char* what = nullptr);
// --threads, of every command that computes.
const OptionSpec& threadsOption();
