// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// CHARGPT_KERNEL builds a function for AVX-512, AVX2 and plain x86-64, and the
// loader picks the one this CPU runs (gcc's target_clones). Not under
// ThreadSanitizer: the loader runs the clones' resolver before TSan is
// initialised, and the instrumented resolver crashes at start-up.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_THREAD__)
#define CHARGPT_KERNEL __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define CHARGPT_KERNEL
#endif
