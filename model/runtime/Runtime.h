// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

namespace chargpt {

// How OpenMP threads wait between parallel regions. Busy-waiting without end
// starves every other thread of the process (the GUI, a sampler) and of the
// machine: on 2 cores a step ran 25x slower next to a compiler. Sleeping at
// once pays a wake-up at every region, hundreds per training step: on a quiet
// 2-core machine the book preset trained 13,600 tokens/s in bf16 that way
// against 15,700 with a short spin first, the fast preset 63,000 against
// 98,000; with two other busy programs the short spin cost 11% (8,400 against
// 9,400). So each thread spins kOpenMPSpins times (a fraction of a
// millisecond), then sleeps. libgomp reads this once, when it loads, so it
// must be in the environment before the process starts: this sets
// OMP_WAIT_POLICY=PASSIVE and GOMP_SPINCOUNT and executes the program again,
// by its own file name (so that `ps` and `pgrep` still see `program`) and with
// the same arguments. A user's own valid OMP_WAIT_POLICY or GOMP_SPINCOUNT
// wins; a value OpenMP does not take (it ignores it, with a long spin) is
// dropped and replaced, with a note. Started through the dynamic loader
// (`ld.so ./chargpt`), where executing /proc/self/exe would run the loader with
// the wrong arguments, or when executing fails, it carries on with a note
// saying how to set the spin. Notes go to stderr as "program: ...". Call it
// first thing in main().
constexpr int kOpenMPSpins = 2000;
void reexecWithShortOpenMPSpin(char** argv, const char* program);

// The cores this process may run on (its CPU affinity, else the machine's
// processors), at least 1.
int machineCores();

// The one rule for the compute thread count. A request of 0 means the number
// in OMP_NUM_THREADS when that is a positive whole number, otherwise one per
// core; whatever was asked is capped at the machine's cores: more threads
// than cores only wait for each other (on 2 cores, 1,024 threads took 22 s
// for 3 tiny training steps).
struct ThreadChoice {
    int requested = 0;             // as asked; 0: automatic
    int wanted = 0;                // after 0 was resolved (OMP_NUM_THREADS or the cores)
    int applied = 1;               // the count in force
    int cores = 1;
    bool fromEnvironment = false;  // `wanted` came from OMP_NUM_THREADS
    bool capped = false;           // wanted > cores: applied is the cores
    // Empty unless capped: "<asked> is more than this machine's 2 cores: using
    // 2 threads.", where <asked> is the given subject (e.g. "--threads 4000")
    // or "OMP_NUM_THREADS=64" when the number came from there.
    std::string message(const std::string& asked) const;
};
ThreadChoice chooseThreads(int requested, int cores);

// Sets LibTorch's intra-op thread count once per process by chooseThreads()
// with the machine's cores. Later calls change nothing and return the choice
// in force.
ThreadChoice applyThreads(int threads = 0);
// applyThreads(threads).applied.
int initThreads(int threads = 0);

// Lowers the scheduling priority (raises the nice value by `increment`, at
// most to 19) of the calling thread and of every intra-op thread LibTorch runs
// for it. Background compute threads call it so that the threads that answer a
// person (the GUI's event loop) win the cores whenever they need them: on 2
// cores a GUI thread at equal priority can wait a whole scheduling period
// behind two training threads. Linux applies nice values per thread; elsewhere
// it does nothing. Returns false when the priority could not be changed.
bool lowerComputePriority(int increment = 5);

// True when this CPU multiplies bfloat16 natively (AMX-BF16 tiles or AVX512-BF16
// dot products), so that bf16 autocast is several times faster than float32.
// Without either, oneDNN emulates bf16 and it is slower than float32.
bool cpuHasFastBf16();

// OMP_NUM_THREADS when it is a positive whole number (at most 1024), else 0.
int environmentThreads();

// Physical memory of the machine in bytes (sysconf), 0 when it cannot be told.
double physicalMemoryBytes();

}  // namespace chargpt
