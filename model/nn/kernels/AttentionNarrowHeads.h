// SPDX-License-Identifier: GPL-3.0-or-later
// PackedAttention's head kernels for heads of 8 and 16 (the book preset's),
// each head held whole in registers, a block of queries (or keys) one lane
// each; and the softmax helpers the wide heads (AttentionWideHeads.h) share.
// Written once for a vector type V: Vec16.h's Vf (sixteen lanes: one zmm
// register, the AVX-512 and baseline builds) or Vec8.h's V8 (eight lanes, the
// AVX2 build: a head of 8 held as sixteen-float vectors took 16 to 32 vectors
// of two ymm registers each where AVX2 has 16, and spilled them at every
// key). Each query's (or key's) lane takes the same operations in the same
// order at either width; a block of eight only skips keys whose weights are
// exact zeros in a block of sixteen.
//
// Only for PackedAttention.cpp, which includes it after Vec16.h, Vec8.h and
// KernelTiers.h inside its anonymous namespace; the layouts are its
// HeadScratch's: row-major (Tp, FH), transposed (FH, Tp), and a block's
// scratch S and DP (Tp, lanes).
#pragma once

// Sum over h of a[h] b[h] for FH products, in four chains rather than one (the
// latency of FH dependent multiply-adds would otherwise bound the loop).
template <int64_t FH, typename V>
[[gnu::always_inline]] inline V dot(const V* a, const float* b) {
    static_assert(FH % 4 == 0);
    V s0 = a[0] * b[0], s1 = a[1] * b[1], s2 = a[2] * b[2], s3 = a[3] * b[3];
    for (int64_t h = 4; h < FH; h += 4) {
        s0 += a[h] * b[h];
        s1 += a[h + 1] * b[h + 1];
        s2 += a[h + 2] * b[h + 2];
        s3 += a[h + 3] * b[h + 3];
    }
    return (s0 + s1) + (s2 + s3);
}

// Lanes (queries i0 + l) that may see key j: i0 + l >= j.
template <typename V = Vf>
[[gnu::always_inline]] inline vec::IntsOf<V> visibleFromQueries(int64_t i0, int64_t j) {
    return vec::laneIndices<V>() >= (vec::IntsOf<V>{} + int32_t(j - i0));
}

// A block's scores S (keys x lanes, `stride` floats from one key's to the
// next) replaced by e^(s - m), exact zeros where masked (the lanes are queries
// i0, i0 + 1, ...); returns each lane's sum.
template <typename V>
[[gnu::always_inline]] inline V expScores(float* __restrict__ S, int64_t stride, int64_t i0, int64_t keys, V m) {
    V sum = {};
    for (int64_t j = 0; j < keys; ++j) {
        V e = vec::expNonPositive(vec::loadLanes<V>(S + j * stride) - m);
        if (j >= i0) e = visibleFromQueries<V>(i0, j) ? e : V{};  // exact zeros where masked
        vec::storeLanes(S + j * stride, e);
        sum += e;
    }
    return sum;
}

// What the forward pass keeps of a block: each query's log-sum-exp, and when P
// is not null its weights (T, T).
template <typename V>
[[gnu::always_inline]] inline void keepSoftmax(const float* __restrict__ S, int64_t i0, int64_t keys,
                                               int64_t T, V m, V sum, float* __restrict__ lse,
                                               float* __restrict__ P) {
    constexpr int64_t L = vec::kLanesOf<V>;
    const V inv = 1.0f / sum;
    for (int64_t l = 0; l < L; ++l) lse[i0 + l] = m[l] + std::log(sum[l]);
    if (P)
        for (int64_t l = 0; l < L && i0 + l < T; ++l)
            for (int64_t j = 0; j < keys; ++j) P[(i0 + l) * T + j] = S[j * L + l] * inv[l];
}

// The forward pass of one head, a vector of queries at a time: scores of the
// visible keys, their softmax and the weighted sum of the values, all in
// registers. Writes out (FH, Tp), each query's log-sum-exp and, when P is not
// null, the weights (T, T) (P must hold zeros above the diagonal already).
template <int64_t FH, typename V = Vf>
CHARGPT_KERNEL void forwardHeadNarrow(const float* __restrict__ qT, const float* __restrict__ kR,
                                      const float* __restrict__ vR, float* __restrict__ outT,
                                      float* __restrict__ lse, float* __restrict__ P, float* __restrict__ S,
                                      int64_t T, int64_t Tp, float scale) {
    constexpr int64_t L = vec::kLanesOf<V>;
    const V minusInf = V{} - std::numeric_limits<float>::infinity();
    for (int64_t i0 = 0; i0 < T; i0 += L) {
        const int64_t keys = std::min(T, i0 + L);  // the block's last query sees keys 0 .. i0 + L - 1
        V q[FH];
        for (int64_t h = 0; h < FH; ++h) q[h] = vec::loadLanes<V>(qT + h * Tp + i0) * scale;
        V m = minusInf;
        for (int64_t j = 0; j < keys; ++j) {
            const float* k = kR + j * FH;
            V s = dot<FH>(q, k);
            if (j >= i0) s = visibleFromQueries<V>(i0, j) ? s : minusInf;
            vec::storeLanes(S + j * L, s);
            m = s < m ? m : s;  // vec::maxOf(s, m)
        }
        const V sum = expScores(S, L, i0, keys, m);
        const V inv = 1.0f / sum;
        V o[FH] = {};
        for (int64_t j = 0; j < keys; ++j) {
            const V p = vec::loadLanes<V>(S + j * L);
            const float* v = vR + j * FH;
            for (int64_t h = 0; h < FH; ++h) o[h] += p * v[h];
        }
        for (int64_t h = 0; h < FH; ++h) vec::storeLanes(outT + h * Tp + i0, o[h] * inv);
        keepSoftmax(S, i0, keys, T, m, sum, lse, P);
    }
}

// Backward, a vector of queries at a time: dq (FH, Tp) and D = sum_j P dL/dP per query.
template <int64_t FH, typename V = Vf>
CHARGPT_KERNEL void backwardQueries(const float* __restrict__ qT, const float* __restrict__ gT,
                                    const float* __restrict__ kR, const float* __restrict__ vR,
                                    const float* __restrict__ lse, float* __restrict__ D,
                                    float* __restrict__ dqT, float* __restrict__ S, float* __restrict__ DP,
                                    int64_t T, int64_t Tp, float scale) {
    constexpr int64_t L = vec::kLanesOf<V>;
    for (int64_t i0 = 0; i0 < T; i0 += L) {
        const int64_t keys = std::min(T, i0 + L);
        V q[FH], g[FH];
        for (int64_t h = 0; h < FH; ++h) {
            q[h] = vec::loadLanes<V>(qT + h * Tp + i0) * scale;
            g[h] = vec::loadLanes<V>(gT + h * Tp + i0);
        }
        const V logSum = vec::loadLanes<V>(lse + i0);
        V d = {};
        for (int64_t j = 0; j < keys; ++j) {
            const float* k = kR + j * FH;
            const float* v = vR + j * FH;
            const V s = dot<FH>(q, k), dp = dot<FH>(g, v);
            V p = vec::expNonPositive(s - logSum);
            if (j >= i0) p = visibleFromQueries<V>(i0, j) ? p : V{};
            vec::storeLanes(S + j * L, p);
            vec::storeLanes(DP + j * L, dp);
            d += p * dp;
        }
        V dq[FH] = {};
        for (int64_t j = 0; j < keys; ++j) {
            const V ds =
                vec::loadLanes<V>(S + j * L) * (vec::loadLanes<V>(DP + j * L) - d);  // dL/dscore, unscaled
            const float* k = kR + j * FH;
            for (int64_t h = 0; h < FH; ++h) dq[h] += ds * k[h];
        }
        for (int64_t h = 0; h < FH; ++h) vec::storeLanes(dqT + h * Tp + i0, dq[h] * scale);
        vec::storeLanes(D + i0, d);
    }
}

// Backward, a vector of keys at a time: dk and dv (FH, Tp), from every query
// that sees them. With eight lanes (AVX2) the FH dk and FH dv sums do not fit
// in registers beside the keys and values: each query's weights P and
// dL/dscore go to the scratch S and DP (T, lanes) first, then dv and dk are
// summed in passes of their own, over the queries in the same order.
template <int64_t FH, typename V = Vf>
CHARGPT_KERNEL void backwardKeys(const float* __restrict__ kT, const float* __restrict__ vT,
                                 const float* __restrict__ qR, const float* __restrict__ gR,
                                 const float* __restrict__ lse, const float* __restrict__ D,
                                 float* __restrict__ dkT, float* __restrict__ dvT, float* __restrict__ S,
                                 float* __restrict__ DP, int64_t T, int64_t Tp, float scale) {
    constexpr int64_t L = vec::kLanesOf<V>;
    constexpr bool inPasses = L < vec::kLanes;
    for (int64_t j0 = 0; j0 < T; j0 += L) {
        V k[FH], v[FH];
        for (int64_t h = 0; h < FH; ++h) {
            k[h] = vec::loadLanes<V>(kT + h * Tp + j0) * scale;
            v[h] = vec::loadLanes<V>(vT + h * Tp + j0);
        }
        V dk[FH] = {}, dv[FH] = {};
        for (int64_t i = j0; i < T; ++i) {
            const float* q = qR + i * FH;
            const float* g = gR + i * FH;
            const V s = dot<FH>(k, q), dp = dot<FH>(v, g);
            V p = vec::expNonPositive(s - lse[i]);
            if (i < j0 + L - 1)  // keys after query i see nothing of it
                p = vec::laneIndices<V>() <= (vec::IntsOf<V>{} + int32_t(i - j0)) ? p : V{};
            const V ds = p * (dp - D[i]);
            if constexpr (inPasses) {
                vec::storeLanes(S + (i - j0) * L, p);
                vec::storeLanes(DP + (i - j0) * L, ds);
            } else {
                for (int64_t h = 0; h < FH; ++h) {
                    dv[h] += p * g[h];
                    dk[h] += ds * q[h];
                }
            }
        }
        if constexpr (inPasses) {
            for (int64_t i = j0; i < T; ++i) {
                const V p = vec::loadLanes<V>(S + (i - j0) * L);
                for (int64_t h = 0; h < FH; ++h) dv[h] += p * gR[i * FH + h];
            }
            for (int64_t i = j0; i < T; ++i) {
                const V ds = vec::loadLanes<V>(DP + (i - j0) * L);
                for (int64_t h = 0; h < FH; ++h) dk[h] += ds * qR[i * FH + h];
            }
        }
        for (int64_t h = 0; h < FH; ++h) {
            vec::storeLanes(dkT + h * Tp + j0, dk[h] * scale);
            vec::storeLanes(dvT + h * Tp + j0, dv[h]);
        }
    }
}
