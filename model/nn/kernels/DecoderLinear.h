// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>

#include "model/nn/kernels/KernelTiers.h"

// Inside linear() (DecoderMath.h): what its builds share, and the AVX2 tier's
// own builds (DecoderMathAvx2.cpp). Only for DecoderMath.cpp and
// DecoderMathAvx2.cpp.

namespace chargpt::decoding {

// How far ahead of its reads a one-row product asks for its weights. One
// row's product reads each weight once, from the L3 cache (a model's bf16
// weights are several times the L2): fetched 2 KB ahead, a step of the book's
// model took 76-79 us instead of 83-84 on one core of an AMD EPYC; 4 KB and
// more, or into the L2 only, gained less or nothing. Four rows at a time read
// a block's weights again from the L1 cache: there the requests cost the exact
// window (64 rows a character) 5 to 10%, so they ask only for one row.
constexpr uintptr_t kPrefetchBytes = 2048;
// For a product of R rows: asks for the lines kPrefetchBytes past one step of
// a block's weights, NV lines of 64 bytes (sixteen weights or pairs) from w
// (an address only: past a layer's last block it reads nothing the program
// owns, and a prefetch never faults).
template <int R, int NV, typename T>
[[gnu::always_inline]] inline void prefetchAhead(const T* w) {
    static_assert(sizeof(T) == 4, "a float or a bf16 pair");
    if (R != 1) return;
    for (int v = 0; v < NV; ++v)
        __builtin_prefetch(reinterpret_cast<const void*>(reinterpret_cast<uintptr_t>(w + v * 16) + kPrefetchBytes));
}

#ifdef CHARGPT_KERNEL_TIERS
namespace avx2 {
// linear()'s fp32 and widened bf16 products blocked for AVX2's 16 ymm
// registers, for outputs [begin, end) of a layer Np wide (multiples of the
// block, DecoderMath.h): the same arguments and the same bits as the AVX-512
// build's linearF32 and linearPairsWidened (DecoderMath.cpp).
void linearF32(const float* weights, const float* bias, int64_t K, int64_t Np, const float* X, int64_t ldx,
               float* Y, int64_t ldy, int64_t M, int64_t begin, int64_t end);
void linearPairs(const uint32_t* weights, const float* bias, int64_t K2, int64_t Np, const uint32_t* X2,
                 int64_t ldx2, float* Y, int64_t ldy, int64_t M, int64_t begin, int64_t end);
}  // namespace avx2
#endif

}  // namespace chargpt::decoding
