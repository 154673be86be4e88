// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Every command of `chargpt`, by its words (app/cli/CliCommands.cpp). A new
// command is its spec there, its run function in its room's file, its entry in
// the runner's table (app/cli/CliMain.cpp) and its lines in kUsage.

#include <string>
#include <vector>

#include "app/cli/CliArgs.h"

// The command named `name`, or null.
const CommandSpec* findCommand(const std::string& name);
// Every command, in the order of the usage.
std::vector<const CommandSpec*> allCommands();

// `chargpt ...` as read before anything runs: the usage (no command, help),
// the version, an unknown command, a command's --help, a mistake in its words
// or a number out of its range each end here, printed, with their exit status
// (0 for help and the version, 2 for a mistake in the words, 1 for a value
// refused); otherwise `spec` is the command to run with its `args`.
struct CommandLine {
    const CommandSpec* spec = nullptr;
    Args args;
    int status = 0;
};
CommandLine readCommandLine(int argc, char** argv);
