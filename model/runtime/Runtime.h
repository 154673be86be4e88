// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

namespace chargpt {

// The most compute threads any program of the project takes, whatever the
// machine (the settings' threads field, --threads, OMP_NUM_THREADS).
constexpr int kMaxThreads = 1024;

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

// True when the CPU tier in force (model/runtime/CpuTier.h) multiplies bfloat16
// natively (AMX-BF16 tiles or AVX512-BF16 dot products), so that bf16 autocast
// is several times faster than float32. Without either, bf16 is emulated and
// slower than float32.
bool cpuHasFastBf16();

// OMP_NUM_THREADS when it is a positive whole number (at most kMaxThreads), else 0.
int environmentThreads();

// Physical memory of the machine in bytes (sysconf), 0 when it cannot be told.
double physicalMemoryBytes();

}  // namespace chargpt
