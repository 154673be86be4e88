// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

namespace chargpt {

// How OpenMP threads wait between parallel regions. Busy-waiting without end
// starves every other thread of the process (the GUI, a sampler) and of the
// machine: on 2 cores a step ran 25x slower next to a compiler. Sleeping at
// once pays a wake-up at every region, hundreds per training step: on a quiet
// 2-core machine the book preset trained 13,600 tokens/s in bf16 that way
// against 15,700 with a short spin first, the fast preset 63,000 against
// 98,000; with two other busy programs the short spin cost 11% (8,400 against
// 9,400). So each thread spins kOpenMPSpins times (a fraction of a
// millisecond), then sleeps.
//
// libgomp reads OMP_WAIT_POLICY and GOMP_SPINCOUNT once, in its constructor,
// from the environment the process started with: the C library takes the
// process's environment from the start's after the program's .preinit_array
// and before any library's constructor, so nothing the process sets reaches
// it. So a program names itself with CHARGPT_SHORT_OPENMP_SPIN("program",
// needed) in the file of its main(): from its .preinit_array, before
// LibTorch's constructors have run, it executes itself again, by its own file
// name (so that `ps` and `pgrep` still see `program`) and with the same
// arguments, with OMP_WAIT_POLICY=PASSIVE and GOMP_SPINCOUNT added. `needed`
// (argc, argv), when given, says whether this start runs parallel work at all:
// one that does not (`chargpt --version`, `chargpt runs`) starts once, about
// 0.6 s sooner. A user's own valid OMP_WAIT_POLICY or GOMP_SPINCOUNT wins; a
// value OpenMP does not take (it ignores it, with a long spin) is dropped and
// replaced, with a note. Started through the dynamic loader (`ld.so
// ./program`, the loader or any copy or link of it: the kernel started no
// interpreter, AT_BASE is 0), where the loader's own options would be lost,
// or when executing fails, it carries on with a note saying how to set the
// spin. Notes go to stderr as "program: ...". It runs before the C library
// is set up: system calls and the C library's plain functions only.
constexpr int kOpenMPSpins = 2000;
// The environment to start a program that runs parallel work with: null when
// the user's own valid OMP_WAIT_POLICY or GOMP_SPINCOUNT stands (or memory ran
// out), otherwise a new array (malloc) of envp's entries and ours; a value
// OpenMP does not take is taken out of envp itself, with a note on stderr as
// "program: ...". Plain C, like the restart below: `chargpt`'s launcher
// (app/cli/CliLauncher.cpp) starts its command runner with it, before any
// OpenMP is loaded, and needs no restart.
char** environmentWithShortSpin(char** envp, const char* program);
using ParallelWork = bool (*)(int argc, char** argv);
void shortOpenMPSpinBeforeLibraries(int argc, char** argv, char** envp, const char* program, ParallelWork needed);

}  // namespace chargpt

#define CHARGPT_SHORT_OPENMP_SPIN(program, needed)                                               \
    namespace {                                                                                   \
    void chargptShortOpenMPSpin(int argc, char** argv, char** envp) {                             \
        ::chargpt::shortOpenMPSpinBeforeLibraries(argc, argv, envp, program, needed);             \
    }                                                                                             \
    using ChargptPreinit = void (*)(int, char**, char**);                                         \
    __attribute__((section(".preinit_array"), used)) ChargptPreinit chargptShortOpenMPSpinEntry = \
        chargptShortOpenMPSpin;                                                                   \
    }
