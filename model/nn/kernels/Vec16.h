// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <c10/util/BFloat16.h>

#include <algorithm>
#include <cstring>

// Sixteen floats as one value, with GCC's vector extensions: one AVX-512
// register, two AVX2 registers or four SSE registers, whichever clone of a
// CHARGPT_KERNEL function runs (KernelClones.h). The attention kernels keep one
// lane per query (or per key) so that a head's work never needs a horizontal sum.

namespace chargpt::vec {

constexpr int64_t kLanes = 16;
typedef float Vf __attribute__((vector_size(64)));
typedef int32_t Vi __attribute__((vector_size(64)));
typedef uint32_t Vu32 __attribute__((vector_size(64)));
typedef uint64_t Vu64 __attribute__((vector_size(64)));  // eight lanes
typedef uint16_t Vu16 __attribute__((vector_size(32)));

[[gnu::always_inline]] inline Vf load(const float* p) {
    Vf v;
    std::memcpy(&v, p, sizeof v);
    return v;
}
[[gnu::always_inline]] inline void store(float* p, Vf v) { std::memcpy(p, &v, sizeof v); }
// Sixteen bfloat16 values (their bits) widened to floats, exactly.
[[gnu::always_inline]] inline Vf loadBf16(const uint16_t* p) {
    Vu16 raw;
    std::memcpy(&raw, p, sizeof raw);
    return (Vf)(__builtin_convertvector(raw, Vu32) << 16);
}
// Sixteen floats rounded to bfloat16 (to nearest, ties to even; NaN stays NaN),
// as c10::BFloat16 rounds one.
[[gnu::always_inline]] inline void storeBf16(uint16_t* p, Vf v) {
    const Vu32 bits = (Vu32)v;
    Vu32 rounded = (bits + 0x7FFFu + ((bits >> 16) & 1u)) >> 16;
    rounded = v != v ? Vu32{} + 0x7FC0u : rounded;
    const Vu16 narrow = __builtin_convertvector(rounded, Vu16);
    std::memcpy(p, &narrow, sizeof narrow);
}
[[gnu::always_inline]] inline Vf splat(float x) { return Vf{} + x; }
[[gnu::always_inline]] inline Vi splatInt(int32_t x) { return Vi{} + x; }
[[gnu::always_inline]] inline Vi lanes() { return Vi{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}; }
// NaN in `a` stays NaN (a diverged model must show as one).
[[gnu::always_inline]] inline Vf maxOf(Vf a, Vf b) { return a < b ? b : a; }

// Sixteen values of a tensor's type as floats, and back (bf16 rounded as above).
[[gnu::always_inline]] inline Vf loadAs(const float* p) { return load(p); }
[[gnu::always_inline]] inline Vf loadAs(const c10::BFloat16* p) {
    return loadBf16(reinterpret_cast<const uint16_t*>(p));
}
[[gnu::always_inline]] inline void storeAs(float* p, Vf v) { store(p, v); }
[[gnu::always_inline]] inline void storeAs(c10::BFloat16* p, Vf v) { storeBf16(reinterpret_cast<uint16_t*>(p), v); }

// e^r for r = x - n ln2 (ln2 in two parts, for precision), by a degree-6
// polynomial: float or Vf alike.
template <typename F>
[[gnu::always_inline]] inline F expOfRemainder(F x, F n) {
    const F r = x - n * 0.693145751953125f - n * 1.428606765330187045e-06f;
    F p = F{} + 1.0f / 720.0f;
    p = p * r + 1.0f / 120.0f;
    p = p * r + 1.0f / 24.0f;
    p = p * r + 1.0f / 6.0f;
    p = p * r + 0.5f;
    p = p * r + 1.0f;
    return p * r + 1.0f;
}

// exp(x) for x <= 0 (softmax after subtracting the row maximum), written so that
// loops over it vectorise: x = n ln2 + r, e^r by a degree-6 polynomial, 2^n by
// building the float's exponent. Relative error below 2e-7.
inline float expNonPositive(float x) {
    x = std::max(x, -87.0f);
    // Round to nearest by the 1.5 * 2^23 trick: no libm call, so the loop vectorises.
    const float n = (x * 1.44269504088896341f + 12582912.0f) - 12582912.0f;
    const float p = expOfRemainder(x, n);
    // A NaN input (a diverged model) gives a NaN result through p; n is clamped so
    // that building the exponent is never undefined (a NaN or huge n cast to int).
    const float exponent = n > -127.0f ? (n < 127.0f ? n : 127.0f) : -127.0f;
    const int32_t bits = (static_cast<int32_t>(exponent) + 127) << 23;
    float scaleBy;
    std::memcpy(&scaleBy, &bits, sizeof scaleBy);
    return p * scaleBy;
}

// The same, lane by lane.
[[gnu::always_inline]] inline Vf expNonPositive(Vf x) {
    x = maxOf(x, splat(-87.0f));
    // Round to nearest by the 1.5 * 2^23 trick.
    const Vf n = (x * 1.44269504088896341f + 12582912.0f) - 12582912.0f;
    const Vf p = expOfRemainder(x, n);
    // n is clamped so that building the exponent is never undefined.
    const Vf e = n > -127.0f ? (n < 127.0f ? n : splat(127.0f)) : splat(-127.0f);
    const Vi bits = (__builtin_convertvector(e, Vi) + 127) << 23;
    return p * (Vf)bits;  // the same 64 bytes read as floats
}

// erf(x), lane by lane: Abramowitz and Stegun 7.1.26, absolute error below
// 1.5e-7 (float32's own rounding near 1 is 6e-8). NaN stays NaN.
[[gnu::always_inline]] inline Vf erf(Vf x) {
    const Vf a = x < 0.0f ? -x : x;
    const Vf t = 1.0f / (1.0f + 0.3275911f * a);
    Vf p = t * 1.061405429f - 1.453152027f;
    p = p * t + 1.421413741f;
    p = p * t - 0.284496736f;
    p = p * t + 0.254829592f;
    const Vf y = 1.0f - p * t * expNonPositive(-(a * a));
    return x < 0.0f ? -y : y;
}

}  // namespace chargpt::vec
