// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The command line of `chargpt`: its commands, their options and the usage text.
// CLI11 splits the words; Args checks each value and names the option it refuses.

#include <cstdint>
#include <map>
#include <string>

#include "model/runtime/Error.h"

extern const char* const kUsage;

// A mistake in the command line itself (an unknown option, a missing value, a
// stray argument): exit status 2, as for an unknown command.
struct UsageError : chargpt::Error {
    using chargpt::Error::Error;
};

// Parsed "--name value" options after the command's positional argument. CLI11
// splits the command line; the values are checked here, so that every refusal
// of a value names its option and its range in the same words.
struct Args {
    std::string command, target;
    std::map<std::string, std::string> options;

    bool has(const std::string& name) const { return options.count(name) > 0; }
    std::string text(const std::string& name, const std::string& fallback) const;
    int64_t integer(const std::string& name, int64_t fallback, int64_t min, int64_t max) const;
    double number(const std::string& name, double fallback, double min, double max) const;
};

struct CommandSpec;
// The command named `name`, or null.
const CommandSpec* findCommand(const std::string& name);
// Splits `chargpt COMMAND ...` by the command's spec. Returns false when help
// was printed instead (then the command exits 0); throws UsageError.
bool parseArgs(const CommandSpec& spec, int argc, char** argv, Args& args);
