// SPDX-License-Identifier: GPL-3.0-or-later
// The command runner of `chargpt` (libexec/chargpt/chargpt), which the launcher
// (app/cli/CliLauncher.cpp) executes once the command line is read: it reads
// it again with the same words (app/cli/CliCommands.cpp), runs the command and
// reports a refusal (one line "chargpt: ..." on stderr; exit status 2 for a
// mistake in the command line, 1 for a refusal). Each command's run function
// lives in its room's file beside this one (see docs/ARCHITECTURE.md).
#include <torch/torch.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <iostream>
#include <string>

#include "app/cli/CliArgs.h"
#include "app/cli/CliCommands.h"
#include "app/cli/CliCommon.h"
#include "app/StudioIdentity.h"
#include "model/runtime/CpuTier.h"
#include "model/runtime/Error.h"

using namespace chargpt;

// Every command's run function, each in its room's file; its words are in
// app/cli/CliCommands.cpp.
int runTrain(const Args& args);         // CliTrain.cpp
int runLadder(const Args& args);        // CliLadder.cpp
int runBench(const Args& args);         // CliBench.cpp
int runSample(const Args& args);        // CliSample.cpp
int runSurprise(const Args& args);      // CliSurprise.cpp
int runAblate(const Args& args);        // CliInside.cpp
int runHeads(const Args& args);         // CliInside.cpp
int runAttribute(const Args& args);     // CliWhy.cpp
int runPatch(const Args& args);         // CliWhy.cpp
int runAttention(const Args& args);     // CliAttention.cpp
int runInfo(const Args& args);          // CliFiles.cpp
int runImport(const Args& args);        // CliFiles.cpp
int runExport(const Args& args);        // CliFiles.cpp
int runExportConfig(const Args& args);  // CliFiles.cpp
int runCorpora(const Args& args);       // CliFiles.cpp
int runRuns(const Args& args);          // CliRuns.cpp
int runSnapshots(const Args& args);     // CliSnapshots.cpp
int runFloors(const Args& args);        // CliFloors.cpp
int runLearningRateFinder(const Args& args);  // CliLearningRate.cpp
int runFilmstrip(const Args& args);     // CliFilmstrip.cpp

namespace {

struct Runner {
    const char* command;
    int (*run)(const Args& args);
};
constexpr Runner kRunners[] = {
    {"train", runTrain},     {"ladder", runLadder},  {"bench", runBench},   {"sample", runSample},
    {"surprise", runSurprise}, {"ablate", runAblate}, {"heads", runHeads},
    {"attribute", runAttribute}, {"patch", runPatch},
    {"attention", runAttention}, {"info", runInfo}, {"import", runImport},
    {"export", runExport}, {"export-config", runExportConfig}, {"corpora", runCorpora}, {"runs", runRuns},
    {"snapshots", runSnapshots}, {"filmstrip", runFilmstrip}, {"floors", runFloors},
    {"lr-find", runLearningRateFinder},
};

int runCommandLine(int argc, char** argv) {
    setStudioIdentity();  // where the run library is
    const CommandLine line = readCommandLine(argc, argv);
    if (!line.spec) return line.status;
    startCpuTier();  // before any LibTorch call (the launcher has set the same already)
    int (*run)(const Args&) = nullptr;
    for (const Runner& r : kRunners)
        if (line.args.command == r.command) run = r.run;
    if (!run) {
        std::cerr << "chargpt: internal error: no runner for '" << line.args.command << "'.\n";
        return 1;
    }
    try {
        return run(line.args);
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

}  // namespace

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#endif

// The command's work is done (its files closed, its objects gone) when
// runCommandLine returns; what is left at exit is LibTorch's registry of
// operators, whose teardown is a tenth of every start (0.08 s). The output is
// flushed and the process ends without it. Under AddressSanitizer the leak
// check that exit would run runs first.
int main(int argc, char** argv) {
    int status = runCommandLine(argc, argv);
    // A command stopped by a signal has saved what it promised by now; its
    // status says it was stopped, as a shell's is for a process the signal
    // ends (130 for Ctrl-C, 143 for SIGTERM).
    if (gStopSignal != 0) status = 128 + gStopSignal;
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
#if defined(__SANITIZE_ADDRESS__)
    __lsan_do_leak_check();
#endif
    std::_Exit(status);
}
