// SPDX-License-Identifier: GPL-3.0-or-later
// PackedAttention's head kernels for heads of 32 or 64 (the fast preset's):
// the narrow heads' arithmetic, blocked so that no head is ever held whole in
// registers. Sixteen queries are still one vector; the scores are made eight
// keys at a time, one head dimension after another, and the weighted sums
// sixteen head dimensions at a time from the probabilities kept in the block's
// scratch. (Holding the head whole took 64 to 128 vectors of 32 registers, and
// the spills made these heads slower than LibTorch's batched products.) The
// backward pass is one pass over the queries that also gathers each key's
// gradients, where the narrow heads make one over the queries and one over the
// keys: two products of the head's size fewer, and keys and values read as rows only.
//
// Only for PackedAttention.cpp, which includes it after Vec16.h, Vec8.h,
// KernelTiers.h and AttentionNarrowHeads.h inside its anonymous namespace;
// the layouts are its HeadScratch's: row-major (Tp, FH) and transposed (FH, Tp).
#pragma once

// Scores of the sixteen lanes of `xT` (FH, Tp), from column `i0`, against the
// rows r0 .. r0 + n - 1 (n <= 8) of `rows` (Tp, FH), each scaled: s[r] per row.
template <int64_t FH>
[[gnu::always_inline]] inline void wideScores(const float* __restrict__ xT, int64_t Tp, int64_t i0,
                                              const float* __restrict__ rows, int64_t r0, int64_t n, Vf* s) {
    Vf acc[8] = {};
    const float* row = rows + r0 * FH;
    if (n == 8) {
        for (int64_t h = 0; h < FH; ++h) {
            const Vf x = vec::load(xT + h * Tp + i0);
            for (int64_t r = 0; r < 8; ++r) acc[r] += x * row[r * FH + h];
        }
    } else {
        for (int64_t h = 0; h < FH; ++h) {
            const Vf x = vec::load(xT + h * Tp + i0);
            for (int64_t r = 0; r < n; ++r) acc[r] += x * row[r * FH + h];
        }
    }
    for (int64_t r = 0; r < 8; ++r) s[r] = acc[r];
}

// out (FH, Tp) at column c0 = sum over r < n of w[r] (Tp, 16 lanes) times
// rows[r] (Tp, FH), sixteen head dimensions at a time, each result times `factor`.
template <int64_t FH>
[[gnu::always_inline]] inline void wideWeightedSum(const float* __restrict__ w, const float* __restrict__ rows,
                                                   int64_t r0, int64_t n, float* __restrict__ outT, int64_t Tp,
                                                   int64_t c0, Vf factor) {
    for (int64_t h0 = 0; h0 < FH; h0 += kLanes) {
        Vf o[kLanes] = {};
        for (int64_t r = r0; r < r0 + n; ++r) {
            const Vf p = vec::load(w + r * kLanes);
            const float* row = rows + r * FH + h0;
            for (int64_t c = 0; c < kLanes; ++c) o[c] += p * row[c];
        }
        for (int64_t c = 0; c < kLanes; ++c) vec::store(outT + (h0 + c) * Tp + c0, o[c] * factor);
    }
}

#ifdef CHARGPT_KERNEL_TIERS
// The AVX2 build's (Ymm) of the three above: the same lanes, eight at a time,
// in passes that fit 16 ymm registers (the sixteen-float forms hold 16 to 32
// vectors of two ymm each, and spilled them at every step). Each lane takes
// the same operations in the same order: the same bits.
using Half8 = vec::V8;  // Vec8.h
using vec::load8;
using vec::store8;

template <int64_t FH>
[[gnu::always_inline]] inline void wideScores8(const float* __restrict__ xT, int64_t Tp, int64_t i0,
                                               const float* __restrict__ rows, int64_t r0, int64_t n, Vf* s) {
    const float* row = rows + r0 * FH;
    for (int64_t half = 0; half < kLanes; half += 8) {
        Half8 acc[8] = {};
        if (n == 8) {
            for (int64_t h = 0; h < FH; ++h) {
                const Half8 x = load8(xT + h * Tp + i0 + half);
                for (int64_t r = 0; r < 8; ++r) acc[r] += x * row[r * FH + h];
            }
        } else {
            for (int64_t h = 0; h < FH; ++h) {
                const Half8 x = load8(xT + h * Tp + i0 + half);
                for (int64_t r = 0; r < n; ++r) acc[r] += x * row[r * FH + h];
            }
        }
        for (int64_t r = 0; r < 8; ++r) std::memcpy(reinterpret_cast<float*>(&s[r]) + half, &acc[r], sizeof acc[r]);
    }
}

template <int64_t FH>
[[gnu::always_inline]] inline void wideWeightedSum8(const float* __restrict__ w, const float* __restrict__ rows,
                                                    int64_t r0, int64_t n, float* __restrict__ outT, int64_t Tp,
                                                    int64_t c0, Vf factor) {
    for (int64_t h0 = 0; h0 < FH; h0 += kLanes)
        for (int64_t half = 0; half < kLanes; half += 8) {
            const Half8 f = load8(reinterpret_cast<const float*>(&factor) + half);
            for (int64_t group = 0; group < kLanes; group += 8) {
                Half8 o[8] = {};
                for (int64_t r = r0; r < r0 + n; ++r) {
                    const Half8 p = load8(w + r * kLanes + half);
                    const float* row = rows + r * FH + h0 + group;
                    for (int64_t c = 0; c < 8; ++c) o[c] += p * row[c];
                }
                for (int64_t c = 0; c < 8; ++c) store8(outT + (h0 + group + c) * Tp + c0 + half, o[c] * f);
            }
        }
}

template <int64_t FH, int R>
[[gnu::always_inline]] inline void accumulateRows8(const float* __restrict__ w, const float* __restrict__ rows,
                                                   int64_t n, float* __restrict__ out, float factor) {
    for (int64_t c = 0; c < FH; c += 8) {
        Half8 acc[R] = {};
        for (int64_t l = 0; l < n; ++l) {
            const Half8 row = load8(rows + l * FH + c);
            for (int r = 0; r < R; ++r) acc[r] += w[r * kLanes + l] * row;
        }
        for (int r = 0; r < R; ++r) {
            float* o = out + r * FH + c;
            store8(o, load8(o) + acc[r] * factor);
        }
    }
}
#endif

// The sixteen-float helpers, or with Ymm the AVX2 build's.
template <int64_t FH, bool Ymm>
[[gnu::always_inline]] inline void scoresOf(const float* xT, int64_t Tp, int64_t i0, const float* rows, int64_t r0,
                                            int64_t n, Vf* s) {
#ifdef CHARGPT_KERNEL_TIERS
    if constexpr (Ymm) return wideScores8<FH>(xT, Tp, i0, rows, r0, n, s);
#endif
    wideScores<FH>(xT, Tp, i0, rows, r0, n, s);
}
template <int64_t FH, bool Ymm>
[[gnu::always_inline]] inline void weightedSumOf(const float* w, const float* rows, int64_t r0, int64_t n,
                                                 float* outT, int64_t Tp, int64_t c0, Vf factor) {
#ifdef CHARGPT_KERNEL_TIERS
    if constexpr (Ymm) return wideWeightedSum8<FH>(w, rows, r0, n, outT, Tp, c0, factor);
#endif
    wideWeightedSum<FH>(w, rows, r0, n, outT, Tp, c0, factor);
}

// The per-key softmax steps below take a block's sixteen queries as one Vf,
// or with Ymm as two halves of eight (V8): compared or selected as sixteen
// floats, an AVX2 build does them lane by lane through the stack.
template <bool Ymm>
using SoftmaxLanes = std::conditional_t<Ymm, vec::V8, Vf>;

// Lanes [h, h + lanes of V) of a Vf.
template <typename V>
[[gnu::always_inline]] inline V lanesOf(const Vf& x, int64_t h) {
    return vec::loadLanes<V>(reinterpret_cast<const float*>(&x) + h);
}

template <int64_t FH, bool Ymm = false>
CHARGPT_KERNEL void forwardHeadWide(const float* __restrict__ qT, const float* __restrict__ kR,
                                    const float* __restrict__ vR, float* __restrict__ outT, float* __restrict__ lse,
                                    float* __restrict__ P, float* __restrict__ S, int64_t T, int64_t Tp, float scale) {
    using V = SoftmaxLanes<Ymm>;
    constexpr int64_t L = vec::kLanesOf<V>, parts = kLanes / L;
    const V minusInf = V{} - std::numeric_limits<float>::infinity();
    for (int64_t i0 = 0; i0 < T; i0 += kLanes) {
        const int64_t keys = std::min(T, i0 + kLanes);
        V m[parts];
        for (int64_t h = 0; h < parts; ++h) m[h] = minusInf;
        for (int64_t j0 = 0; j0 < keys; j0 += 8) {
            const int64_t n = std::min<int64_t>(8, keys - j0);
            Vf s[8];
            scoresOf<FH, Ymm>(qT, Tp, i0, kR, j0, n, s);
            for (int64_t r = 0; r < n; ++r) {
                const int64_t j = j0 + r;
                for (int64_t h = 0; h < parts; ++h) {
                    const int64_t q0 = i0 + h * L;  // the part's first query
                    V x = lanesOf<V>(s[r], h * L) * scale;
                    if (j >= q0) x = visibleFromQueries<V>(q0, j) ? x : minusInf;
                    vec::storeLanes(S + j * kLanes + h * L, x);
                    m[h] = x < m[h] ? m[h] : x;  // vec::maxOf(x, m)
                }
            }
        }
        Vf mAll, sum;
        for (int64_t h = 0; h < parts; ++h) {
            const V partSum = expScores(S + h * L, kLanes, i0 + h * L, keys, m[h]);
            std::memcpy(reinterpret_cast<float*>(&mAll) + h * L, &m[h], sizeof m[h]);
            std::memcpy(reinterpret_cast<float*>(&sum) + h * L, &partSum, sizeof partSum);
        }
        const Vf inv = 1.0f / sum;
        weightedSumOf<FH, Ymm>(S, vR, 0, keys, outT, Tp, i0, inv);
        keepSoftmax(S, i0, keys, T, mAll, sum, lse, P);
    }
}

// Adds factor x sum over l < n of w[r][l] rows[l] to out[r], for R keys r at
// once: w (R, 16 lanes) a block's weights of its queries, rows (n, FH) those
// queries' vectors, out (R, FH) the keys' rows. The queries' vectors are read
// once for the R keys.
template <int64_t FH, int R>
[[gnu::always_inline]] inline void accumulateRows(const float* __restrict__ w, const float* __restrict__ rows,
                                                  int64_t n, float* __restrict__ out, float factor) {
    constexpr int64_t NV = FH / kLanes;
    Vf acc[R][NV] = {};
    for (int64_t l = 0; l < n; ++l) {
        Vf row[NV];
        for (int64_t c = 0; c < NV; ++c) row[c] = vec::load(rows + l * FH + c * kLanes);
        for (int r = 0; r < R; ++r) {
            const float x = w[r * kLanes + l];
            for (int64_t c = 0; c < NV; ++c) acc[r][c] += x * row[c];
        }
    }
    for (int r = 0; r < R; ++r)
        for (int64_t c = 0; c < NV; ++c) {
            float* o = out + r * FH + c * kLanes;
            vec::store(o, vec::load(o) + acc[r][c] * factor);
        }
}

// The backward pass of one head in one pass over its queries, sixteen at a
// time: P and dL/dP of the block's visible keys (eight keys at a time), each
// query's D = sum_j P dL/dP, dL/dscore = P (dL/dP - D); the block's dq from
// those, and every visible key's dv and dk accumulated from the block's
// queries. Five products of a head's size where a pass over the queries and
// another over the keys made seven. dq goes to dqT (FH, Tp), dk and dv to dkR
// and dvR (Tp, FH).
template <int64_t FH, int R, bool Ymm>
[[gnu::always_inline]] inline void accumulateRowsOf(const float* w, const float* rows, int64_t n, float* out,
                                                    float factor) {
#ifdef CHARGPT_KERNEL_TIERS
    if constexpr (Ymm) return accumulateRows8<FH, R>(w, rows, n, out, factor);
#endif
    accumulateRows<FH, R>(w, rows, n, out, factor);
}

template <int64_t FH, bool Ymm = false>
CHARGPT_KERNEL void backwardHeadWide(const float* __restrict__ qT, const float* __restrict__ gT,
                                     const float* __restrict__ qR, const float* __restrict__ gR,
                                     const float* __restrict__ kR, const float* __restrict__ vR,
                                     const float* __restrict__ lse, float* __restrict__ dqT,
                                     float* __restrict__ dkR, float* __restrict__ dvR, float* __restrict__ S,
                                     float* __restrict__ DP, int64_t T, int64_t Tp, float scale) {
    std::fill_n(dkR, T * FH, 0.0f);
    std::fill_n(dvR, T * FH, 0.0f);
    for (int64_t i0 = 0; i0 < T; i0 += kLanes) {
        const int64_t keys = std::min(T, i0 + kLanes);
        using V = SoftmaxLanes<Ymm>;
        constexpr int64_t L = vec::kLanesOf<V>, parts = kLanes / L;
        V logSum[parts], d[parts];
        for (int64_t h = 0; h < parts; ++h) {
            logSum[h] = vec::loadLanes<V>(lse + i0 + h * L);
            d[h] = V{};
        }
        for (int64_t j0 = 0; j0 < keys; j0 += 8) {
            const int64_t n = std::min<int64_t>(8, keys - j0);
            Vf s[8], dp[8];
            scoresOf<FH, Ymm>(qT, Tp, i0, kR, j0, n, s);
            scoresOf<FH, Ymm>(gT, Tp, i0, vR, j0, n, dp);
            for (int64_t r = 0; r < n; ++r) {
                const int64_t j = j0 + r;
                for (int64_t h = 0; h < parts; ++h) {
                    const int64_t q0 = i0 + h * L;  // the part's first query
                    V p = vec::expNonPositive(lanesOf<V>(s[r], h * L) * scale - logSum[h]);
                    if (j >= q0) p = visibleFromQueries<V>(q0, j) ? p : V{};
                    const V dpPart = lanesOf<V>(dp[r], h * L);
                    vec::storeLanes(S + j * kLanes + h * L, p);
                    vec::storeLanes(DP + j * kLanes + h * L, dpPart);
                    d[h] += p * dpPart;
                }
            }
        }
        for (int64_t j = 0; j < keys; ++j)  // dL/dscore, before the scale
            for (int64_t h = 0; h < parts; ++h) {
                float* ds = DP + j * kLanes + h * L;
                vec::storeLanes(ds, vec::loadLanes<V>(S + j * kLanes + h * L) * (vec::loadLanes<V>(ds) - d[h]));
            }
        weightedSumOf<FH, Ymm>(DP, kR, 0, keys, dqT, Tp, i0, vec::splat(scale));
        // Lanes past the last query are padding: they add nothing to any key.
        const int64_t queries = std::min(kLanes, T - i0);
        int64_t j = 0;
        for (; j + 4 <= keys; j += 4) {
            accumulateRowsOf<FH, 4, Ymm>(S + j * kLanes, gR + i0 * FH, queries, dvR + j * FH, 1.0f);
            accumulateRowsOf<FH, 4, Ymm>(DP + j * kLanes, qR + i0 * FH, queries, dkR + j * FH, scale);
        }
        for (; j < keys; ++j) {
            accumulateRowsOf<FH, 1, Ymm>(S + j * kLanes, gR + i0 * FH, queries, dvR + j * FH, 1.0f);
            accumulateRowsOf<FH, 1, Ymm>(DP + j * kLanes, qR + i0 * FH, queries, dkR + j * FH, scale);
        }
    }
}
