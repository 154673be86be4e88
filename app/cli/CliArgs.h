// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The command line of `chargpt`: what a command declares (CommandSpec), the
// usage text and the parser. CLI11 splits the words; Args checks each value and
// names the option it refuses. Each command declares its spec in its own file
// (app/cli/Cli*.cpp); app/cli/CliMain.cpp lists them.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "model/runtime/Error.h"

extern const char* const kUsage;
// The help of --threads, the same for every command that takes it.
extern const char* const kThreadsHelp;

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
    char* program = nullptr;  // argv[0], for the QGuiApplication of the commands that paint
    std::map<std::string, std::string> options;

    bool has(const std::string& name) const { return options.count(name) > 0; }
    std::string text(const std::string& name, const std::string& fallback) const;
    int64_t integer(const std::string& name, int64_t fallback, int64_t min, int64_t max) const;
    double number(const std::string& name, double fallback, double min, double max) const;
};

// One option of a command. Numbers take an optional value, so that "--steps="
// and a trailing "--steps" reach Args::integer, which says what is expected.
struct OptionSpec {
    const char* flags;  // "--steps" or "-o,--out"
    const char* valueName;  // "N"; nullptr for a flag without a value
    const char* help;
    bool numeric = false;
};

// A command: its words for the parser and --help, and what runs it (its exit
// status; a refusal throws chargpt::Error, a mistake in the words UsageError).
struct CommandSpec {
    const char* name;
    const char* summary;
    const char* positional;  // "CORPUS"
    const char* positionalHelp;
    bool positionalRequired;
    const char* missingPositional;  // what the refusal calls it: "a corpus path"
    std::vector<OptionSpec> options;
    int (*run)(const Args& args) = nullptr;
};

// Splits `chargpt COMMAND ...` by the command's spec. Returns false when help
// was printed instead (then the command exits 0); throws UsageError.
bool parseArgs(const CommandSpec& spec, int argc, char** argv, Args& args);
