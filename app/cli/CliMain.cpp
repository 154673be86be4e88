// SPDX-License-Identifier: GPL-3.0-or-later
// `chargpt`: train, sample and inspect CharGPT models from a terminal. This file
// is the entry point: the list of commands, and how a refusal is reported (one
// line "chargpt: ..." on stderr; exit status 2 for a mistake in the command
// line, 1 for a refusal). Each command lives in its room's file beside this one
// (see docs/ARCHITECTURE.md); the parser and the usage text are CliArgs's.
#include <torch/torch.h>

#include <cstring>
#include <exception>
#include <iostream>
#include <string>

#include "app/cli/CliArgs.h"
#include "app/cli/CliCommon.h"
#include "app/StudioIdentity.h"
#include "model/runtime/Error.h"
#include "model/runtime/OpenMPSpin.h"

using namespace chargpt;

namespace {

// Whether this start may run LibTorch's parallel work, where OpenMP's short
// spin matters (model/runtime/OpenMPSpin.h). The usage, the version and the
// commands that only read and write files start once, 0.6 s sooner; any
// other command, a new one included, gets the spin. Runs before the C++
// runtime is set up: plain C.
bool runsParallelWork(int argc, char** argv) {
    if (argc < 2) return false;
    static const char* const kFilesOnly[] = {"--help", "-h", "help", "--version", "-V",
                                             "info", "export-config", "corpora", "runs", "snapshots"};
    for (const char* name : kFilesOnly)
        if (std::strcmp(argv[1], name) == 0) return false;
    return true;
}

}  // namespace

CHARGPT_SHORT_OPENMP_SPIN("chargpt", runsParallelWork)

// Every command, each defined in its room's file. A new command is a new file
// that defines its CommandSpec (with its run function), its declaration below
// and its entry in kCommands (and its lines in kUsage and app/CMakeLists.txt).
const CommandSpec& trainCommand();         // CliTrain.cpp
const CommandSpec& benchCommand();         // CliBench.cpp
const CommandSpec& sampleCommand();        // CliSample.cpp
const CommandSpec& surpriseCommand();      // CliSurprise.cpp
const CommandSpec& ablateCommand();        // CliInside.cpp
const CommandSpec& headsCommand();         // CliInside.cpp
const CommandSpec& attentionCommand();     // CliAttention.cpp
const CommandSpec& infoCommand();          // CliFiles.cpp
const CommandSpec& importCommand();        // CliFiles.cpp
const CommandSpec& exportConfigCommand();  // CliFiles.cpp
const CommandSpec& corporaCommand();       // CliFiles.cpp
const CommandSpec& runsCommand();          // CliRuns.cpp
const CommandSpec& snapshotsCommand();     // CliSnapshots.cpp

namespace {

using CommandEntry = const CommandSpec& (*)();
constexpr CommandEntry kCommands[] = {
    trainCommand, benchCommand, sampleCommand, surpriseCommand, ablateCommand, headsCommand, attentionCommand,
    infoCommand, importCommand, exportConfigCommand, corporaCommand, runsCommand, snapshotsCommand,
};

// The command named `name`, or null.
const CommandSpec* findCommand(const std::string& name) {
    for (const CommandEntry entry : kCommands)
        if (name == entry().name) return &entry();
    return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
    setStudioIdentity();  // where the run library is
    if (argc < 2 || std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h" ||
        std::string(argv[1]) == "help") {
        (argc < 2 ? std::cerr : std::cout) << kUsage;
        return argc < 2 ? 2 : 0;
    }
    const std::string command = argv[1];
    if (command == "--version" || command == "-V") {
        std::cout << "chargpt " << CHARGPT_VERSION << '\n';
        return 0;
    }
    const CommandSpec* spec = findCommand(command);
    if (!spec) {
        std::cerr << "chargpt: unknown command '" << terminalSafe(command, LineBreaks::Escape) << "'.\n\n" << kUsage;
        return 2;
    }
    try {
        Args args;
        if (!parseArgs(*spec, argc, argv, args)) return 0;  // --help
        return spec->run(args);
    } catch (const UsageError& e) {
        std::cerr << "chargpt: " << terminalSafe(e.what()) << '\n';
        return 2;
    } catch (const Error& e) {
        // Messages name files, weights and keys from the input: made safe here, once.
        std::cerr << "chargpt: " << terminalSafe(e.what()) << '\n';
    } catch (const c10::Error& e) {
        const std::string what = e.what();
        std::cerr << "chargpt: internal error: " << terminalSafe(what.substr(0, what.find('\n'))) << '\n';
    } catch (const std::exception& e) {
        std::cerr << "chargpt: " << terminalSafe(e.what()) << '\n';
    }
    return 1;
}
