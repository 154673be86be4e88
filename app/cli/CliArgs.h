// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The command line of `chargpt`: what a command declares (CommandSpec: its
// options and the range of each number), the usage text and the parser. CLI11
// splits the words; every number is checked against its option's range as the
// words are read, so that a refusal names its option and its range in the same
// words, before anything of LibTorch is loaded (app/cli/CliLauncher.cpp).
// app/cli/CliCommands.cpp declares every command. Nothing here includes
// LibTorch or Qt.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "model/runtime/Error.h"

extern const char* const kUsage;

// A mistake in the command line itself (an unknown option, a missing value, a
// stray argument): exit status 2, as for an unknown command.
struct UsageError : chargpt::Error {
    using chargpt::Error::Error;
};

// The values a number option takes: a whole number or any decimal number,
// from min to max.
struct ValueRange {
    enum class Kind { None, Whole, Real };
    Kind kind = Kind::None;
    int64_t wholeMin = 0, wholeMax = 0;
    double realMin = 0, realMax = 0;
};
constexpr ValueRange wholeRange(int64_t min, int64_t max) { return {ValueRange::Kind::Whole, min, max, 0, 0}; }
constexpr ValueRange realRange(double min, double max) { return {ValueRange::Kind::Real, 0, 0, min, max}; }
// A number as a refusal and the help write it: whole, or as few digits as it needs ("0.005").
std::string numberWords(const ValueRange& range, double value);
// "from 0 to 4096": the words of a range, in its refusal and in the help.
std::string rangeWords(const ValueRange& range);

// One option of a command. Numbers take an optional value, so that "--steps="
// and a trailing "--steps" are refused in the words of their range.
struct OptionSpec {
    const char* flags;  // "--steps" or "-o,--out"
    const char* valueName;  // "N"; nullptr for a flag without a value
    std::string help;
    ValueRange range = {};  // a number option's values
    bool numeric() const { return range.kind != ValueRange::Kind::None; }
};

struct CommandSpec;

// Parsed "--name value" options after the command's positional argument. Every
// number given was checked against its option's range by parseArgs.
struct Args {
    const CommandSpec* spec = nullptr;
    std::string command, target;
    char* program = nullptr;  // argv[0], for the QGuiApplication of the commands that paint
    std::map<std::string, std::string> options;

    bool has(const std::string& name) const { return options.count(name) > 0; }
    std::string text(const std::string& name, const std::string& fallback) const;
    // The value of a number option (its spec says its range), or `fallback`
    // when it was not given. Throws chargpt::Error, naming the option and its
    // range, for a value out of it.
    int64_t integer(const std::string& name, int64_t fallback) const;
    double number(const std::string& name, double fallback) const;
};

// A command's words for the parser and --help. What runs it is the command
// runner's (app/cli/CliMain.cpp).
struct CommandSpec {
    const char* name;
    const char* summary;
    const char* positional;  // "CORPUS"
    const char* positionalHelp;
    bool positionalRequired;
    const char* missingPositional;  // what the refusal calls it: "a corpus path"
    std::vector<OptionSpec> options;
};

// Splits `chargpt COMMAND ...` by the command's spec and checks every number
// given. Returns false when help was printed instead (then the command exits
// 0); throws UsageError for a mistake in the words, chargpt::Error for a value
// out of its range.
bool parseArgs(const CommandSpec& spec, int argc, char** argv, Args& args);
