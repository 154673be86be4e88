// SPDX-License-Identifier: GPL-3.0-or-later
// The decoder's attention (DecoderMath.h): one query of one head against its
// cached keys and values, four such at a time.
#include "model/nn/kernels/DecoderMath.h"
#include "model/nn/kernels/KernelTiers.h"
#include "model/nn/kernels/Vec16.h"
#include "model/nn/kernels/Vec8.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <utility>
#include <vector>

namespace chargpt::decoding {

namespace {

using vec::Vf;
constexpr int kTogether = kAttendTogether;

// One item's pointers in the element type the vector loads take.
template <typename E>
struct Item {
    const float* q;
    const E* keys;
    const E* values;
    int64_t T;
    float* w;  // its scores, then its weights
    float* out;
};

// out = sum_j w[j] V[j], V (T, H) row-major, for heads that are not 8 wide:
// whole vectors for a multiple of 16 (up to 64), else element by element.
template <typename E>
[[gnu::always_inline]] inline void weightedRows(const float* __restrict__ w, const E* __restrict__ V, int64_t T,
                                                int64_t H, float* __restrict__ out) {
    if (H % vec::kLanes == 0 && H <= 4 * vec::kLanes) {
        Vf acc[4] = {};
        const int64_t vectors = H / vec::kLanes;
        for (int64_t j = 0; j < T; ++j)
            for (int64_t v = 0; v < vectors; ++v) acc[v] += w[j] * vec::loadAs(V + j * H + v * vec::kLanes);
        for (int64_t v = 0; v < vectors; ++v) vec::store(out + v * vec::kLanes, acc[v]);
        return;
    }
    for (int64_t d = 0; d < H; ++d) out[d] = 0.0f;
    for (int64_t j = 0; j < T; ++j)
        for (int64_t d = 0; d < H; ++d) out[d] += w[j] * float(V[j * H + d]);
}

// w[2P] in lanes 0-7 and w[2P + 1] in lanes 8-15.
template <int P>
[[gnu::always_inline]] inline Vf spreadPair(Vf w) {
    constexpr int a = 2 * P, b = 2 * P + 1;
    return vec::permute<a, a, a, a, a, a, a, a, b, b, b, b, b, b, b, b>(w);
}

// acc += the pairs of rows (2P, 2P + 1) of V times their weights, P = 0, 1, ... in order.
template <typename E, int... P>
[[gnu::always_inline]] inline void addPairs(Vf& acc, Vf w, const E* V, std::integer_sequence<int, P...>) {
    ((acc += spreadPair<P>(w) * vec::loadAs(V + 2 * P * 8)), ...);
}

// Heads of 8 (the book's): two rows of V per vector, lane l < 8 taking row j
// and lane l >= 8 row j + 1, the halves added at the end. The rows all the
// items have are read in one loop, each item's own rest after it.
template <typename E>
[[gnu::always_inline]] inline void weightedPairs(const Item<E>* it) {
    constexpr int G = kTogether;
    const vec::Vi firstHalf = vec::lanes() < vec::splatInt(8);
    int64_t common = it[0].T;
    for (int g = 1; g < G; ++g) common = std::min(common, it[g].T);
    common -= common % 2;
    Vf acc[G] = {};
    int64_t j = 0;
    // Sixteen weights at a time: the pair (j, j + 1) spread over the halves
    // of a vector by one permutation of them, the same products as below.
    for (; j + vec::kLanes <= common; j += vec::kLanes)
        for (int g = 0; g < G; ++g)
            addPairs(acc[g], vec::load(it[g].w + j), it[g].values + j * 8, std::make_integer_sequence<int, 8>());
    for (; j < common; j += 2)
        for (int g = 0; g < G; ++g)
            acc[g] += (firstHalf ? vec::splat(it[g].w[j]) : vec::splat(it[g].w[j + 1])) *
                      vec::loadAs(it[g].values + j * 8);
    for (int g = 0; g < G; ++g) {
        const float* w = it[g].w;
        const E* V = it[g].values;
        int64_t row = common;  // this item's own rows
        for (; row + 2 <= it[g].T; row += 2)
            acc[g] += (firstHalf ? vec::splat(w[row]) : vec::splat(w[row + 1])) * vec::loadAs(V + row * 8);
        float* out = it[g].out;
        for (int64_t d = 0; d < 8; ++d) out[d] = acc[g][d] + acc[g][d + 8];
        for (; row < it[g].T; ++row)
            for (int64_t d = 0; d < 8; ++d) out[d] += w[row] * float(V[row * 8 + d]);
    }
}

#ifdef CHARGPT_KERNEL_TIERS
// The same with eight-float vectors, for the AVX2 build (Ymm below): a head
// of 8 is one ymm register, so each item keeps its even rows' sum and its odd
// rows' sum in one each, the lanes weightedPairs keeps in its two halves,
// added in the same order: the same bits, without the permutations of sixteen
// lanes, which AVX2 does not have in one instruction.
using vec::I8;
using vec::V8;
using vec::lanes8;
using vec::maxOf8;
using vec::splat8;
using vec::store8;

template <typename E>
[[gnu::always_inline]] inline void weightedPairs8(const Item<E>* it) {
    constexpr int G = kTogether;
    int64_t common = it[0].T;
    for (int g = 1; g < G; ++g) common = std::min(common, it[g].T);
    common -= common % 2;
    V8 even[G] = {}, odd[G] = {};
    for (int64_t j = 0; j < common; j += 2)
        for (int g = 0; g < G; ++g) {
            even[g] += it[g].w[j] * vec::load8(it[g].values + j * 8);
            odd[g] += it[g].w[j + 1] * vec::load8(it[g].values + (j + 1) * 8);
        }
    for (int g = 0; g < G; ++g) {
        const float* w = it[g].w;
        const E* V = it[g].values;
        int64_t row = common;
        for (; row + 2 <= it[g].T; row += 2) {
            even[g] += w[row] * vec::load8(V + row * 8);
            odd[g] += w[row + 1] * vec::load8(V + (row + 1) * 8);
        }
        float* out = it[g].out;
        for (int64_t d = 0; d < 8; ++d) out[d] = even[g][d] + odd[g][d];
        for (; row < it[g].T; ++row)
            for (int64_t d = 0; d < 8; ++d) out[d] += w[row] * float(V[row * 8 + d]);
    }
}

// The lanes of a sixteen-float vector as its two halves of eight, for the
// AVX2 build: the same operations lane by lane as Vec16.h's, and its sum and
// maximum of all lanes in the same order (lane l with l + 8, then + 4, + 2, + 1).
template <int Half>
[[gnu::always_inline]] inline V8 swap8(V8 v) {
    constexpr int h = Half;
    return __builtin_shuffle(v, I8{0 ^ h, 1 ^ h, 2 ^ h, 3 ^ h, 4 ^ h, 5 ^ h, 6 ^ h, 7 ^ h});
}
[[gnu::always_inline]] inline float laneSum16(V8 lo, V8 hi) {
    V8 v = lo + hi;
    v += swap8<4>(v);
    v += swap8<2>(v);
    v += swap8<1>(v);
    return v[0];
}
[[gnu::always_inline]] inline float laneMax16(V8 lo, V8 hi) {
    V8 v = maxOf8(lo, hi);
    v = maxOf8(v, swap8<4>(v));
    v = maxOf8(v, swap8<2>(v));
    v = maxOf8(v, swap8<1>(v));
    return v[0];
}

// attendTogether (below) for the AVX2 build: every sixteen keys as two
// halves of eight, each lane the same operations in the same order.
template <typename E>
[[gnu::always_inline]] inline void attendTogether8(const Item<E>* it, int64_t H, int64_t stride) {
    constexpr int G = kTogether;
    int64_t vectors[G], most = 0;
    for (int g = 0; g < G; ++g) most = std::max(most, vectors[g] = (it[g].T + vec::kLanes - 1) / vec::kLanes);
    V8 maxLo[G], maxHi[G];
    for (int g = 0; g < G; ++g) maxLo[g] = maxHi[g] = splat8(-INFINITY);
    for (int64_t i = 0; i < most; ++i) {
        const int64_t j = i * vec::kLanes;
        V8 lo[G] = {}, hi[G] = {};
        for (int64_t d = 0; d < H; ++d)
            for (int g = 0; g < G; ++g) {
                const E* k = it[g].keys + d * stride + j;
                lo[g] += it[g].q[d] * vec::load8(k);
                hi[g] += it[g].q[d] * vec::load8(k + 8);
            }
        for (int g = 0; g < G; ++g) {
            if (i >= vectors[g]) continue;
            const I8 T = I8{} + int32_t(it[g].T);
            const V8 mLo = (lanes8() + int32_t(j)) < T ? lo[g] : splat8(-INFINITY);
            const V8 mHi = (lanes8() + int32_t(j + 8)) < T ? hi[g] : splat8(-INFINITY);
            store8(it[g].w + j, mLo);
            store8(it[g].w + j + 8, mHi);
            maxLo[g] = maxOf8(maxLo[g], mLo);
            maxHi[g] = maxOf8(maxHi[g], mHi);
        }
    }
    float maxScore[G];
    for (int g = 0; g < G; ++g) maxScore[g] = laneMax16(maxLo[g], maxHi[g]);
    V8 sumLo[G] = {}, sumHi[G] = {};
    for (int64_t i = 0; i < most; ++i) {
        const int64_t j = i * vec::kLanes;
        for (int g = 0; g < G; ++g) {
            if (i >= vectors[g]) continue;
            const I8 T = I8{} + int32_t(it[g].T);
            const V8 eLo = (lanes8() + int32_t(j)) < T ? vec::expNonPositive(vec::load8(it[g].w + j) - maxScore[g]) : V8{};
            const V8 eHi =
                (lanes8() + int32_t(j + 8)) < T ? vec::expNonPositive(vec::load8(it[g].w + j + 8) - maxScore[g]) : V8{};
            store8(it[g].w + j, eLo);
            store8(it[g].w + j + 8, eHi);
            sumLo[g] += eLo;
            sumHi[g] += eHi;
        }
    }
    for (int g = 0; g < G; ++g) {
        const V8 inv = splat8(1.0f / laneSum16(sumLo[g], sumHi[g]));
        for (int64_t i = 0; i < 2 * vectors[g]; ++i) store8(it[g].w + i * 8, vec::load8(it[g].w + i * 8) * inv);
    }
    if (H == 8) {
        weightedPairs8(it);
        return;
    }
    for (int g = 0; g < G; ++g) weightedRows(it[g].w, it[g].values, it[g].T, H, it[g].out);
}

#endif

// softmax(q K^T) V for kTogether items (q scaled already), step by step:
// each item's steps
// are those it would take alone, in the same order.
template <typename E, bool Ymm = false>
[[gnu::always_inline]] inline void attendTogether(const Item<E>* it, int64_t H, int64_t stride) {
#ifdef CHARGPT_KERNEL_TIERS
    if constexpr (Ymm) {
        attendTogether8(it, H, stride);
        return;
    }
#endif
    constexpr int G = kTogether;
    // Sixteen keys at a time (the keys are kept transposed), the last vector
    // partly past T: those lanes are left out of the maximum and set to 0. An
    // item with fewer vectors than another skips the extra ones.
    int64_t vectors[G], most = 0;
    for (int g = 0; g < G; ++g) most = std::max(most, vectors[g] = (it[g].T + vec::kLanes - 1) / vec::kLanes);
    Vf maxima[G];
    for (int g = 0; g < G; ++g) maxima[g] = vec::splat(-INFINITY);
    for (int64_t i = 0; i < most; ++i) {
        const int64_t j = i * vec::kLanes;
        Vf a[G] = {};
        for (int64_t d = 0; d < H; ++d)
            for (int g = 0; g < G; ++g) a[g] += it[g].q[d] * vec::loadAs(it[g].keys + d * stride + j);
        for (int g = 0; g < G; ++g) {
            if (i >= vectors[g]) continue;
            const Vf masked =
                (vec::lanes() + int32_t(j)) < vec::splatInt(int32_t(it[g].T)) ? a[g] : vec::splat(-INFINITY);
            vec::store(it[g].w + j, masked);
            maxima[g] = vec::maxOf(maxima[g], masked);
        }
    }
    float maxScore[G];
    for (int g = 0; g < G; ++g) maxScore[g] = vec::laneMax(maxima[g]);
    Vf sums[G] = {};
    for (int64_t i = 0; i < most; ++i) {
        const int64_t j = i * vec::kLanes;
        for (int g = 0; g < G; ++g) {
            if (i >= vectors[g]) continue;
            const Vf x = vec::load(it[g].w + j);
            const Vf e = (vec::lanes() + int32_t(j)) < vec::splatInt(int32_t(it[g].T))
                             ? vec::expNonPositive(x - maxScore[g])
                             : Vf{};
            vec::store(it[g].w + j, e);
            sums[g] += e;
        }
    }
    for (int g = 0; g < G; ++g) {
        const Vf inv = vec::splat(1.0f / vec::laneSum(sums[g]));
        for (int64_t i = 0; i < vectors[g]; ++i) vec::store(it[g].w + i * vec::kLanes, vec::load(it[g].w + i * vec::kLanes) * inv);
    }
    if (H == 8) {
        weightedPairs(it);
        return;
    }
    for (int g = 0; g < G; ++g) weightedRows(it[g].w, it[g].values, it[g].T, H, it[g].out);
}

// Groups of kTogether; the last group filled up with copies of the last item
// whose results go to scratch.
template <typename E, typename K>
void attendInGroups(const Attend<E>* items, int64_t n, int64_t H, int64_t stride, float* scores,
                    void (*kernel)(const Item<K>*, int64_t, int64_t)) {
    thread_local std::vector<float> spare;
    for (int64_t first = 0; first < n; first += kTogether) {
        Item<K> group[kTogether];
        for (int g = 0; g < kTogether; ++g) {
            const bool real = first + g < n;
            const Attend<E>& a = items[real ? first + g : n - 1];
            if (!real && spare.size() < std::size_t(H)) spare.resize(std::size_t(H));
            group[g] = {a.q, reinterpret_cast<const K*>(a.keys), reinterpret_cast<const K*>(a.values), a.T,
                        scores + g * stride, real ? a.out : spare.data()};
        }
        kernel(group, H, stride);
    }
}

// The build of attendTogether for the tier in force.
template <typename K>
auto attendKernel() {
#ifdef CHARGPT_KERNEL_TIERS
    if (kernels::kernelTier() == CpuTier::Avx2) return kernels::Tiers<attendTogether<K, true>>::avx2;
#endif
    return kernels::tiered<attendTogether<K>>;
}

}  // namespace

void attendMany(const Attend<float>* items, int64_t n, int64_t H, int64_t stride, float* scores) {
    attendInGroups<float, float>(items, n, H, stride, scores, attendKernel<float>());
}

void attendMany(const Attend<uint16_t>* items, int64_t n, int64_t H, int64_t stride, float* scores) {
    attendInGroups<uint16_t, c10::BFloat16>(items, n, H, stride, scores, attendKernel<c10::BFloat16>());
}

}  // namespace chargpt::decoding
