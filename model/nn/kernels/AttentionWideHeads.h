// SPDX-License-Identifier: GPL-3.0-or-later
// PackedAttention's head kernels for heads of 32 or 64 (the fast preset's):
// the same arithmetic as the narrow heads' kernels, blocked so that no head is
// ever held whole in registers. Sixteen queries (or keys) are still one vector;
// the scores are made eight keys (or queries) at a time, one head dimension
// after another, and the weighted sums sixteen head dimensions at a time from
// the probabilities kept in the block's scratch. (Holding the head whole took
// 64 to 128 vectors of 32 registers, and the spills made these heads slower
// than LibTorch's batched products.)
//
// Only for PackedAttention.cpp, which includes it after Vec16.h and
// KernelClones.h inside its anonymous namespace; the layouts are its
// HeadScratch's: row-major (Tp, FH) and transposed (FH, Tp).
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

template <int64_t FH>
CHARGPT_KERNEL void forwardHeadWide(const float* __restrict__ qT, const float* __restrict__ kR,
                                    const float* __restrict__ vR, float* __restrict__ outT, float* __restrict__ lse,
                                    float* __restrict__ P, float* __restrict__ S, int64_t T, int64_t Tp, float scale) {
    const Vf minusInf = vec::splat(-std::numeric_limits<float>::infinity());
    for (int64_t i0 = 0; i0 < T; i0 += kLanes) {
        const int64_t keys = std::min(T, i0 + kLanes);
        Vf m = minusInf;
        for (int64_t j0 = 0; j0 < keys; j0 += 8) {
            const int64_t n = std::min<int64_t>(8, keys - j0);
            Vf s[8];
            wideScores<FH>(qT, Tp, i0, kR, j0, n, s);
            for (int64_t r = 0; r < n; ++r) {
                const int64_t j = j0 + r;
                Vf x = s[r] * scale;
                if (j >= i0) x = visibleFromQueries(i0, j) ? x : minusInf;
                vec::store(S + j * kLanes, x);
                m = vec::maxOf(x, m);
            }
        }
        const Vf sum = expScores(S, i0, keys, m);
        const Vf inv = 1.0f / sum;
        wideWeightedSum<FH>(S, vR, 0, keys, outT, Tp, i0, inv);
        keepSoftmax(S, i0, keys, T, m, sum, lse, P);
    }
}

template <int64_t FH>
CHARGPT_KERNEL void backwardQueriesWide(const float* __restrict__ qT, const float* __restrict__ gT,
                                        const float* __restrict__ kR, const float* __restrict__ vR,
                                        const float* __restrict__ lse, float* __restrict__ D, float* __restrict__ dqT,
                                        float* __restrict__ S, float* __restrict__ DP, int64_t T, int64_t Tp,
                                        float scale) {
    for (int64_t i0 = 0; i0 < T; i0 += kLanes) {
        const int64_t keys = std::min(T, i0 + kLanes);
        const Vf logSum = vec::load(lse + i0);
        Vf d = {};
        for (int64_t j0 = 0; j0 < keys; j0 += 8) {
            const int64_t n = std::min<int64_t>(8, keys - j0);
            Vf s[8], dp[8];
            wideScores<FH>(qT, Tp, i0, kR, j0, n, s);
            wideScores<FH>(gT, Tp, i0, vR, j0, n, dp);
            for (int64_t r = 0; r < n; ++r) {
                const int64_t j = j0 + r;
                Vf p = vec::expNonPositive(s[r] * scale - logSum);
                if (j >= i0) p = visibleFromQueries(i0, j) ? p : Vf{};
                vec::store(S + j * kLanes, p);
                vec::store(DP + j * kLanes, dp[r]);
                d += p * dp[r];
            }
        }
        for (int64_t j = 0; j < keys; ++j)  // dL/dscore, before the scale
            vec::store(S + j * kLanes, vec::load(S + j * kLanes) * (vec::load(DP + j * kLanes) - d));
        wideWeightedSum<FH>(S, kR, 0, keys, dqT, Tp, i0, vec::splat(scale));
        vec::store(D + i0, d);
    }
}

template <int64_t FH>
CHARGPT_KERNEL void backwardKeysWide(const float* __restrict__ kT, const float* __restrict__ vT,
                                     const float* __restrict__ qR, const float* __restrict__ gR,
                                     const float* __restrict__ lse, const float* __restrict__ D,
                                     float* __restrict__ dkT, float* __restrict__ dvT, float* __restrict__ S,
                                     float* __restrict__ DP, int64_t T, int64_t Tp, float scale) {
    for (int64_t j0 = 0; j0 < T; j0 += kLanes) {
        // Every query i >= j0 against these sixteen keys: P in S, dL/dscore in DP.
        for (int64_t i1 = j0; i1 < T; i1 += 8) {
            const int64_t n = std::min<int64_t>(8, T - i1);
            Vf s[8], dp[8];
            wideScores<FH>(kT, Tp, j0, qR, i1, n, s);
            wideScores<FH>(vT, Tp, j0, gR, i1, n, dp);
            for (int64_t r = 0; r < n; ++r) {
                const int64_t i = i1 + r;
                Vf p = vec::expNonPositive(s[r] * scale - lse[i]);
                if (i < j0 + kLanes - 1) p = vec::lanes() <= vec::splatInt(int32_t(i - j0)) ? p : Vf{};  // keys after i
                vec::store(S + i * kLanes, p);
                vec::store(DP + i * kLanes, p * (dp[r] - D[i]));
            }
        }
        wideWeightedSum<FH>(S, gR, j0, T - j0, dvT, Tp, j0, vec::splat(1.0f));
        wideWeightedSum<FH>(DP, qR, j0, T - j0, dkT, Tp, j0, vec::splat(scale));
    }
}
