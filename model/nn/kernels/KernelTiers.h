// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/runtime/CpuTier.h"

// A kernel is written once, as an always-inlined function (CHARGPT_KERNEL),
// and run through tiered<kernel>: a function of the kernel's own signature
// that runs the kernel's build for the tier in force (model/runtime/CpuTier.h),
// picked on each call from the tier chosen at start. The builds are the same
// source inlined into a function compiled for AVX-512 (F, BW, VL, DQ), for
// AVX2 + FMA and for the compiler's baseline, so forcing CHARGPT_CPU=avx2 runs
// the AVX2 code on any CPU that has it; avx512-bf16 and amx run the AVX-512
// build (the decoder's bf16 product has a build of its own, DecoderMath.cpp).
// Where sixteen-float vectors do not fit AVX2's 16 ymm registers, or compare,
// a kernel's AVX2 build is written for eight (Vec8.h; tieredByWidth below,
// DecoderMathAvx2.cpp, DecoderAttention.cpp, AttentionWideHeads.h): the same
// lanes, the same operations, the same bits.
//
// Built for one tier only (CHARGPT_KERNEL_TIERS undefined: no x86 attributes
// or intrinsics anywhere) on a CPU that is not x86, with -DCHARGPT_PORTABLE=ON,
// with clang (the fuzz build) and under ThreadSanitizer (its build has never
// had more than one).
//
// A lambda inside a kernel is a function of its own, compiled for the
// baseline whatever the tier: a kernel's inner loops are written inline.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_THREAD__) && \
    !defined(CHARGPT_PORTABLE)
#define CHARGPT_KERNEL_TIERS 1
#define CHARGPT_TARGET_AVX2 __attribute__((target("avx2,fma")))
#define CHARGPT_TARGET_AVX512 __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,avx2,fma")))
#define CHARGPT_TARGET_AVX512_BF16 \
    __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,avx512bf16,avx2,fma")))
#endif

#define CHARGPT_KERNEL [[gnu::always_inline]] inline

namespace chargpt::kernels {

// The tier the kernels run at: cpuTier(), read once.
inline CpuTier kernelTier() {
    static const CpuTier tier = cpuTier();
    return tier;
}

template <auto Kernel>
struct Tiers;
template <typename R, typename... P, R (*Kernel)(P...)>
struct Tiers<Kernel> {
#ifdef CHARGPT_KERNEL_TIERS
    CHARGPT_TARGET_AVX512 static R avx512(P... p) { return Kernel(p...); }
    CHARGPT_TARGET_AVX2 static R avx2(P... p) { return Kernel(p...); }
    static R generic(P... p) { return Kernel(p...); }
    static R call(P... p) {
        const CpuTier tier = kernelTier();
        if (tier >= CpuTier::Avx512) return avx512(p...);
        if (tier == CpuTier::Avx2) return avx2(p...);
        return generic(p...);
    }
#else
    static R call(P... p) { return Kernel(p...); }
#endif
};

// tiered<f>(args...): the kernel f (a CHARGPT_KERNEL function, template
// arguments given) built for the tier in force; also a plain function pointer.
template <auto Kernel>
constexpr auto tiered = &Tiers<Kernel>::call;

// The same for a kernel written for a vector type (Vec16.h's Vf, Vec8.h's V8):
// Wide, its sixteen-float form, on the AVX-512 tiers and the baseline; Narrow,
// its eight-float form, on AVX2. GCC lowers a comparison or a select of
// sixteen floats in an AVX2 build lane by lane, as scalars through the stack
// (GELU's clamp of erf's argument took 8% of a fast-preset step that way), and
// sixteen-float accumulators take two of AVX2's 16 registers each. A kernel
// with the same operations in each lane gives the same bits at either width.
template <auto Wide, auto Narrow>
struct TiersByWidth;
template <typename R, typename... P, R (*Wide)(P...), R (*Narrow)(P...)>
struct TiersByWidth<Wide, Narrow> {
    static R call(P... p) {
#ifdef CHARGPT_KERNEL_TIERS
        if (kernelTier() == CpuTier::Avx2) return Tiers<Narrow>::avx2(p...);
        return Tiers<Wide>::call(p...);
#else
        return Wide(p...);
#endif
    }
};
template <auto Wide, auto Narrow>
constexpr auto tieredByWidth = &TiersByWidth<Wide, Narrow>::call;

}  // namespace chargpt::kernels
