// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <c10/util/BFloat16.h>

#include <algorithm>
#include <cstring>

// Sixteen floats as one value, with GCC's vector extensions (plain C++ to the
// compiler on any CPU, x86 or not: it lowers them to the vector unit there is):
// one AVX-512 register, two AVX2 registers or four SSE registers, whichever
// build of a CHARGPT_KERNEL function runs (KernelTiers.h). The attention
// kernels keep one lane per query (or per key) so that a head's work never
// needs a horizontal sum.

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
// For any vector of floats V with U32 and U16 of as many lanes.
template <typename V, typename U32, typename U16>
[[gnu::always_inline]] inline void storeBf16Lanes(uint16_t* p, V v) {
    const U32 bits = (U32)v;
    U32 rounded = (bits + 0x7FFFu + ((bits >> 16) & 1u)) >> 16;
    rounded = v != v ? U32{} + 0x7FC0u : rounded;
    const U16 narrow = __builtin_convertvector(rounded, U16);
    std::memcpy(p, &narrow, sizeof narrow);
}
[[gnu::always_inline]] inline void storeBf16(uint16_t* p, Vf v) { storeBf16Lanes<Vf, Vu32, Vu16>(p, v); }
[[gnu::always_inline]] inline Vf splat(float x) { return Vf{} + x; }
[[gnu::always_inline]] inline Vi splatInt(int32_t x) { return Vi{} + x; }
[[gnu::always_inline]] inline Vi lanes() { return Vi{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}; }
// NaN in `a` stays NaN (a diverged model must show as one).
[[gnu::always_inline]] inline Vf maxOf(Vf a, Vf b) { return a < b ? b : a; }

// The lanes of v in the order I... (each an index of a lane of v).
template <int... I>
[[gnu::always_inline]] inline Vf permute(Vf v) {
    static_assert(sizeof...(I) == kLanes, "one index per lane");
#if defined(__clang__)
    return __builtin_shufflevector(v, v, I...);
#else
    return __builtin_shuffle(v, Vi{I...});
#endif
}

// The sum of the sixteen lanes, and the largest of them, by halves (lane l
// with lane l + 8, then + 4, + 2, + 1): four steps, always the same order.
[[gnu::always_inline]] inline Vf swapHalves(Vf v, int half) {
    switch (half) {
        case 8: return permute<8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7>(v);
        case 4: return permute<4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11>(v);
        case 2: return permute<2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13>(v);
        default: return permute<1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14>(v);
    }
}
[[gnu::always_inline]] inline float laneSum(Vf v) {
    v += swapHalves(v, 8);
    v += swapHalves(v, 4);
    v += swapHalves(v, 2);
    v += swapHalves(v, 1);
    return v[0];
}
[[gnu::always_inline]] inline float laneMax(Vf v) {
    v = maxOf(v, swapHalves(v, 8));
    v = maxOf(v, swapHalves(v, 4));
    v = maxOf(v, swapHalves(v, 2));
    v = maxOf(v, swapHalves(v, 1));
    return v[0];
}

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

// The same, lane by lane, for a vector V of floats and I of as many int32
// lanes (Vf here, Vec8.h's eight-float vectors for the AVX2 builds).
template <typename V, typename I>
[[gnu::always_inline]] inline V expNonPositiveLanes(V x) {
    x = x < -87.0f ? V{} - 87.0f : x;
    // Round to nearest by the 1.5 * 2^23 trick.
    const V n = (x * 1.44269504088896341f + 12582912.0f) - 12582912.0f;
    const V p = expOfRemainder(x, n);
    // n is clamped so that building the exponent is never undefined.
    const V e = n > -127.0f ? (n < 127.0f ? n : V{} + 127.0f) : V{} - 127.0f;
    const I bits = (__builtin_convertvector(e, I) + 127) << 23;
    return p * (V)bits;  // the same bytes read as floats
}
[[gnu::always_inline]] inline Vf expNonPositive(Vf x) { return expNonPositiveLanes<Vf, Vi>(x); }

// erf(x), lane by lane: an odd polynomial of degree 13 over an even one of
// degree 8 on [-4, 4] (beyond it erf is +-1 in float32), the rational form of
// Eigen's and XLA's float erf. Absolute error below 5e-7 in float32 arithmetic,
// as Abramowitz and Stegun 7.1.26 had, without its exponential: GELU and its
// derivative took a tenth of a fast-preset training step. NaN stays NaN.
// For any vector of floats V (Vf here, Vec8.h's V8 for the AVX2 builds).
template <typename V>
[[gnu::always_inline]] inline V erfLanes(V a) {
    const V x = a > 4.0f ? V{} + 4.0f : (a < -4.0f ? V{} - 4.0f : a);
    const V x2 = x * x;
    V p = x2 * -2.72614225801306e-10f + 2.77068142495902e-08f;
    p = x2 * p - 2.10102402082508e-06f;
    p = x2 * p - 5.69250639462346e-05f;
    p = x2 * p - 7.34990630326855e-04f;
    p = x2 * p - 2.95459980854025e-03f;
    p = x2 * p - 1.60960333262415e-02f;
    V q = x2 * -1.45660718464996e-05f - 2.13374055278905e-04f;
    q = x2 * q - 1.68282697438203e-03f;
    q = x2 * q - 7.37332916720468e-03f;
    q = x2 * q - 1.42647390514189e-02f;
    return x * p / q;
}
[[gnu::always_inline]] inline Vf erf(Vf a) { return erfLanes(a); }

}  // namespace chargpt::vec
