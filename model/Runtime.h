// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

namespace chargpt {

// OpenMP threads that busy-wait between parallel regions starve every other
// thread of the process (the GUI, a sampler) and of the machine: on 2 cores a
// step ran 25x slower next to a compiler. libgomp reads its wait policy once,
// when it loads, so the policy must be in the environment before the process
// starts: this sets OMP_WAIT_POLICY=PASSIVE (unless the user chose a policy)
// and executes the program again. Call it first thing in main().
void reexecWithPassiveOpenMP(char** argv);

// Sets LibTorch's intra-op thread count once per process. 0 means: the number in
// OMP_NUM_THREADS when that is a positive whole number, otherwise one per core.
// Later calls change nothing and return the count in force.
int initThreads(int threads = 0);

// OMP_NUM_THREADS when it is a positive whole number (at most 1024), else 0.
int environmentThreads();

// Physical memory of the machine in bytes (sysconf), 0 when it cannot be told.
double physicalMemoryBytes();

}  // namespace chargpt
