// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <type_traits>

#include "model/nn/kernels/Vec16.h"

// Eight floats as one value: one ymm register, for the AVX2 builds of the
// kernels whose sixteen-float blocking (Vec16.h: two ymm registers a vector)
// does not fit AVX2's 16 registers. Each lane takes the same operations as a
// lane of Vec16.h's vectors, so a kernel written for either gives the same bits.
// Plain vector extensions, like Vec16.h: no x86 attribute or intrinsic.

namespace chargpt::vec {

constexpr int64_t kHalfLanes = 8;
typedef float V8 __attribute__((vector_size(32)));
typedef int32_t I8 __attribute__((vector_size(32)));
typedef uint32_t U8 __attribute__((vector_size(32)));
typedef uint16_t U16x8 __attribute__((vector_size(16)));

[[gnu::always_inline]] inline V8 load8(const float* p) {
    V8 v;
    std::memcpy(&v, p, sizeof v);
    return v;
}
// Eight bfloat16 values widened to floats, exactly.
[[gnu::always_inline]] inline V8 load8(const c10::BFloat16* p) {
    U16x8 raw;
    std::memcpy(&raw, p, sizeof raw);
    return (V8)(__builtin_convertvector(raw, U8) << 16);
}
[[gnu::always_inline]] inline void store8(float* p, V8 v) { std::memcpy(p, &v, sizeof v); }
[[gnu::always_inline]] inline V8 splat8(float x) { return V8{} + x; }
[[gnu::always_inline]] inline I8 lanes8() { return I8{0, 1, 2, 3, 4, 5, 6, 7}; }
[[gnu::always_inline]] inline V8 maxOf8(V8 a, V8 b) { return a < b ? b : a; }
[[gnu::always_inline]] inline V8 expNonPositive(V8 x) { return expNonPositiveLanes<V8, I8>(x); }
[[gnu::always_inline]] inline V8 erf(V8 a) { return erfLanes(a); }
// Eight floats rounded to bfloat16 as storeBf16 rounds sixteen.
[[gnu::always_inline]] inline void store8(c10::BFloat16* p, V8 v) {
    storeBf16Lanes<V8, U8, U16x8>(reinterpret_cast<uint16_t*>(p), v);
}

// What a kernel written for either width needs of its vector type V (Vf or
// V8): its lanes, a vector of as many int32 lanes, loads and stores.
template <typename V>
constexpr int64_t kLanesOf = int64_t(sizeof(V) / sizeof(float));
template <typename V>
struct IntLanes;
template <>
struct IntLanes<Vf> {
    using type = Vi;
};
template <>
struct IntLanes<V8> {
    using type = I8;
};
template <typename V>
using IntsOf = typename IntLanes<V>::type;

template <typename V>
[[gnu::always_inline]] inline V loadLanes(const float* p) {
    V v;
    std::memcpy(&v, p, sizeof v);
    return v;
}
template <typename V>
[[gnu::always_inline]] inline void storeLanes(float* p, V v) {
    std::memcpy(p, &v, sizeof v);
}
// A vector of a tensor's values (float or bf16) as floats, and back (bf16
// rounded as storeBf16 rounds).
template <typename V, typename T>
[[gnu::always_inline]] inline V loadAsLanes(const T* p) {
    if constexpr (std::is_same_v<V, Vf>)
        return loadAs(p);
    else
        return load8(p);
}
template <typename T>
[[gnu::always_inline]] inline void storeAsLanes(T* p, Vf v) {
    storeAs(p, v);
}
template <typename T>
[[gnu::always_inline]] inline void storeAsLanes(T* p, V8 v) {
    store8(p, v);
}
// 0, 1, ... for each lane.
template <typename V>
[[gnu::always_inline]] inline IntsOf<V> laneIndices() {
    IntsOf<V> r{};
    for (int32_t l = 0; l < int32_t(kLanesOf<V>); ++l) r[l] = l;
    return r;
}

}  // namespace chargpt::vec
