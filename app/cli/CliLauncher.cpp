// SPDX-License-Identifier: GPL-3.0-or-later
// `chargpt`, as started: reads the command line (the usage, the version, a
// command's --help, every mistake in the words and every number out of its
// range end here, in milliseconds) and then executes the command runner,
// libexec/chargpt/chargpt beside bin/, which loads LibTorch (about 0.8 s) and
// runs the command (app/cli/CliMain.cpp). The runner keeps the process: its
// id, its name ("chargpt"), its arguments, its standard streams.
//
// A command that runs parallel work gets OpenMP's short spin in the runner's
// environment (model/runtime/OpenMPSpin.h): libgomp reads it as it loads, in
// the runner, so nothing starts twice.
#include <limits.h>
#include <stdlib.h>
#include <sys/auxv.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <string>

#include "app/cli/CliCommands.h"
#include "app/cli/TerminalText.h"
#include "model/runtime/CpuTier.h"
#include "model/runtime/OpenMPSpin.h"

extern char** environ;

namespace {

// Whether the command runs LibTorch's parallel work, where OpenMP's short spin
// matters; the commands that only read and write files do not.
bool runsParallelWork(const std::string& command) {
    static const char* const kFilesOnly[] = {"info", "export-config", "corpora", "runs", "snapshots"};
    for (const char* name : kFilesOnly)
        if (command == name) return false;
    return true;
}

// This program's file: /proc/self/exe, unless the dynamic loader was started
// as the program (`ld.so bin/chargpt ...`: the kernel started no interpreter,
// AT_BASE is 0), which names the program in argv[0].
std::string ownFile(const char* argv0) {
    char path[PATH_MAX + 1];
    if (::getauxval(AT_BASE) != 0) {
        const ssize_t length = ::readlink("/proc/self/exe", path, PATH_MAX);
        if (length > 0) {
            path[length] = '\0';
            return path;
        }
    }
    return ::realpath(argv0, path) ? std::string(path) : std::string(argv0);
}

// The command runner: libexec/chargpt/chargpt beside this program's bin/.
std::string runnerFile(const char* argv0) {
    const std::string self = ownFile(argv0);
    const std::size_t slash = self.rfind('/');
    const std::string folder = slash == std::string::npos ? std::string(".") : self.substr(0, slash);
    return folder + "/../libexec/chargpt/chargpt";
}

}  // namespace

int main(int argc, char** argv) {
    const CommandLine line = readCommandLine(argc, argv);
    if (!line.spec) return line.status;
    // A forced tier caps LibTorch in the runner's environment, read as it loads.
    chargpt::startCpuTier();
    char** environment = environ;
    if (runsParallelWork(line.spec->name))
        if (char** withSpin = chargpt::environmentWithShortSpin(environ, "chargpt")) environment = withSpin;
    const std::string runner = runnerFile(argv[0]);
    ::execve(runner.c_str(), argv, environment);
    std::cerr << "chargpt: cannot start the command runner " << terminalSafe(runner, LineBreaks::Escape) << ": "
              << std::strerror(errno) << '\n';
    return 1;
}
