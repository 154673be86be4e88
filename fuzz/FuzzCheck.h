// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// FUZZ_CHECK(cond): a property every input must keep. When it does not, the
// fuzzer says which check of which file failed and aborts, so that libFuzzer
// keeps the input as a crash. (Not CHECK: glog, which LibTorch includes,
// defines one.)

#include <cstdio>
#include <cstdlib>

#define FUZZ_CHECK(cond)                                                                        \
    do {                                                                                        \
        if (!(cond)) {                                                                          \
            std::fprintf(stderr, "%s: check failed: %s (line %d)\n", __FILE__, #cond, __LINE__); \
            std::abort();                                                                       \
        }                                                                                       \
    } while (false)
