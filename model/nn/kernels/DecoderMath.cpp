// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/nn/kernels/DecoderMath.h"
#include "model/nn/kernels/DecoderLinear.h"
#include "model/nn/kernels/KernelTiers.h"
#include "model/nn/kernels/Vec16.h"
#include "model/nn/kernels/Vec8.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#ifdef CHARGPT_KERNEL_TIERS
#include <immintrin.h>
#endif

namespace chargpt::decoding {

namespace {

using vec::Vf;
constexpr int64_t kLanes = vec::kLanes;
constexpr int64_t kBlock = kBlockOutputs;  // outputs per block of a PackedLinear
static_assert(kBlock == 4 * kLanes, "a block is four vectors");

// R rows of one block NV vectors wide: every row starts from the bias and adds
// x[k] * w[k] for k = 0 .. K-1 in that order, so the grouping of rows (R = 4
// or 1) never changes a row's result. The weights of the block are read once
// for the R rows.
template <int NV, int R, typename W>
[[gnu::always_inline]] inline void blockRows(const W* __restrict__ w, const float* __restrict__ X, int64_t ldx,
                                             const float* __restrict__ b, float* __restrict__ Y, int64_t ldy,
                                             int64_t K) {
    Vf acc[R][NV];
    for (int r = 0; r < R; ++r)
        for (int v = 0; v < NV; ++v) acc[r][v] = b ? vec::load(b + v * kLanes) : Vf{};
    for (int64_t k = 0; k < K; ++k, w += NV * kLanes) {
        prefetchAhead<R, NV>(w);
        Vf wv[NV];
        for (int v = 0; v < NV; ++v) wv[v] = vec::loadAs(w + v * kLanes);
        for (int r = 0; r < R; ++r) {
            const float xv = X[r * ldx + k];
            for (int v = 0; v < NV; ++v) acc[r][v] += xv * wv[v];
        }
    }
    for (int r = 0; r < R; ++r)
        for (int v = 0; v < NV; ++v) vec::store(Y + r * ldy + v * kLanes, acc[r][v]);
}

template <int NV, typename W>
[[gnu::always_inline]] inline void blockAllRows(const W* w, const float* X, int64_t ldx, const float* b, float* Y,
                                                int64_t ldy, int64_t M, int64_t K) {
    int64_t m = 0;
    for (; m + 4 <= M; m += 4) blockRows<NV, 4>(w, X + m * ldx, ldx, b, Y + m * ldy, ldy, K);
    for (; m < M; ++m) blockRows<NV, 1>(w, X + m * ldx, ldx, b, Y + m * ldy, ldy, K);
}

template <typename W>
[[gnu::always_inline]] inline void linearBody(const W* weights, const float* bias, int64_t K, int64_t Np,
                                              const float* X, int64_t ldx, float* Y, int64_t ldy, int64_t M,
                                              int64_t begin, int64_t end) {
    for (int64_t n0 = begin; n0 < end; n0 += kBlock) {
        const W* w = weights + n0 * K;
        const float* b = bias ? bias + n0 : nullptr;
        switch (std::min<int64_t>(4, (Np - n0) / kLanes)) {
            case 4: blockAllRows<4>(w, X, ldx, b, Y + n0, ldy, M, K); break;
            case 3: blockAllRows<3>(w, X, ldx, b, Y + n0, ldy, M, K); break;
            case 2: blockAllRows<2>(w, X, ldx, b, Y + n0, ldy, M, K); break;
            default: blockAllRows<1>(w, X, ldx, b, Y + n0, ldy, M, K); break;
        }
    }
}

CHARGPT_KERNEL void linearF32(const float* weights, const float* bias, int64_t K, int64_t Np, const float* X,
                              int64_t ldx, float* Y, int64_t ldy, int64_t M, int64_t begin, int64_t end) {
    linearBody(weights, bias, K, Np, X, ldx, Y, ldy, M, begin, end);
}

// bf16: X2 holds each row's inputs as bf16 pairs (K2 = (K + 1) / 2 of them,
// rows ldx2 apart), the weights as PackedLinear::bf16.

// Widened to fp32: the pair's two weights are the high and low halves of 32
// bits, so each is one shift or mask away from a float; likewise the inputs.
template <int NV, int R>
[[gnu::always_inline]] inline void pairRows(const uint32_t* __restrict__ w, const uint32_t* __restrict__ X2,
                                            int64_t ldx2, const float* __restrict__ b, float* __restrict__ Y,
                                            int64_t ldy, int64_t K2) {
    using vec::Vu32;
    Vf acc[R][NV];
    for (int r = 0; r < R; ++r)
        for (int v = 0; v < NV; ++v) acc[r][v] = b ? vec::load(b + v * kLanes) : Vf{};
    for (int64_t k = 0; k < K2; ++k, w += NV * kLanes) {
        prefetchAhead<R, NV>(w);
        Vf even[NV], odd[NV];
        for (int v = 0; v < NV; ++v) {
            Vu32 raw;
            std::memcpy(&raw, w + v * kLanes, sizeof raw);
            even[v] = (Vf)(raw << 16);
            odd[v] = (Vf)(raw & 0xFFFF0000u);
        }
        for (int r = 0; r < R; ++r) {
            const uint32_t pair = X2[r * ldx2 + k], high = pair & 0xFFFF0000u, low = pair << 16;
            float xe, xo;
            std::memcpy(&xe, &low, sizeof xe);
            std::memcpy(&xo, &high, sizeof xo);
            for (int v = 0; v < NV; ++v) acc[r][v] += xe * even[v] + xo * odd[v];
        }
    }
    for (int r = 0; r < R; ++r)
        for (int v = 0; v < NV; ++v) vec::store(Y + r * ldy + v * kLanes, acc[r][v]);
}

template <int NV>
[[gnu::always_inline]] inline void pairAllRows(const uint32_t* w, const uint32_t* X2, int64_t ldx2, const float* b,
                                               float* Y, int64_t ldy, int64_t M, int64_t K2) {
    int64_t m = 0;
    for (; m + 4 <= M; m += 4) pairRows<NV, 4>(w, X2 + m * ldx2, ldx2, b, Y + m * ldy, ldy, K2);
    for (; m < M; ++m) pairRows<NV, 1>(w, X2 + m * ldx2, ldx2, b, Y + m * ldy, ldy, K2);
}

CHARGPT_KERNEL void linearPairsWidened(const uint32_t* weights, const float* bias, int64_t K2, int64_t Np,
                                       const uint32_t* X2, int64_t ldx2, float* Y, int64_t ldy, int64_t M,
                                       int64_t begin, int64_t end) {
    for (int64_t n0 = begin; n0 < end; n0 += kBlock) {
        const uint32_t* w = weights + n0 * K2;
        const float* b = bias ? bias + n0 : nullptr;
        switch (std::min<int64_t>(4, (Np - n0) / kLanes)) {
            case 4: pairAllRows<4>(w, X2, ldx2, b, Y + n0, ldy, M, K2); break;
            case 3: pairAllRows<3>(w, X2, ldx2, b, Y + n0, ldy, M, K2); break;
            case 2: pairAllRows<2>(w, X2, ldx2, b, Y + n0, ldy, M, K2); break;
            default: pairAllRows<1>(w, X2, ldx2, b, Y + n0, ldy, M, K2); break;
        }
    }
}

#ifdef CHARGPT_KERNEL_TIERS
#define CHARGPT_DOT_BF16 1
#define CHARGPT_TARGET_BF16_INLINE CHARGPT_TARGET_AVX512_BF16 [[gnu::always_inline]] inline

// With the CPU's bf16 dot product: one instruction multiplies a pair of
// inputs into a pair of weights for sixteen outputs and adds both products.
template <int NV, int R>
CHARGPT_TARGET_BF16_INLINE void dotRows(const uint32_t* __restrict__ w,
                                                               const uint32_t* __restrict__ X2, int64_t ldx2,
                                                               const float* __restrict__ b, float* __restrict__ Y,
                                                               int64_t ldy, int64_t K2) {
    __m512 acc[R][NV];
    for (int r = 0; r < R; ++r)
        for (int v = 0; v < NV; ++v) acc[r][v] = b ? _mm512_loadu_ps(b + v * kLanes) : _mm512_setzero_ps();
    for (int64_t k = 0; k < K2; ++k, w += NV * kLanes) {
        prefetchAhead<R, NV>(w);
        __m512i wv[NV];
        for (int v = 0; v < NV; ++v) wv[v] = _mm512_loadu_si512(w + v * kLanes);
        for (int r = 0; r < R; ++r) {
            const __m512i x = _mm512_set1_epi32(int32_t(X2[r * ldx2 + k]));
            for (int v = 0; v < NV; ++v) acc[r][v] = _mm512_dpbf16_ps(acc[r][v], (__m512bh)x, (__m512bh)wv[v]);
        }
    }
    for (int r = 0; r < R; ++r)
        for (int v = 0; v < NV; ++v) _mm512_storeu_ps(Y + r * ldy + v * kLanes, acc[r][v]);
}

template <int NV>
CHARGPT_TARGET_BF16_INLINE void dotAllRows(const uint32_t* w, const uint32_t* X2,
                                                                  int64_t ldx2, const float* b, float* Y,
                                                                  int64_t ldy, int64_t M, int64_t K2) {
    int64_t m = 0;
    for (; m + 4 <= M; m += 4) dotRows<NV, 4>(w, X2 + m * ldx2, ldx2, b, Y + m * ldy, ldy, K2);
    for (; m < M; ++m) dotRows<NV, 1>(w, X2 + m * ldx2, ldx2, b, Y + m * ldy, ldy, K2);
}

CHARGPT_TARGET_AVX512_BF16 void linearDotBf16(const uint32_t* weights, const float* bias, int64_t K2,
                                              int64_t Np, const uint32_t* X2, int64_t ldx2, float* Y,
                                              int64_t ldy, int64_t M, int64_t begin, int64_t end) {
    for (int64_t n0 = begin; n0 < end; n0 += kBlock) {
        const uint32_t* w = weights + n0 * K2;
        const float* b = bias ? bias + n0 : nullptr;
        switch (std::min<int64_t>(4, (Np - n0) / kLanes)) {
            case 4: dotAllRows<4>(w, X2, ldx2, b, Y + n0, ldy, M, K2); break;
            case 3: dotAllRows<3>(w, X2, ldx2, b, Y + n0, ldy, M, K2); break;
            case 2: dotAllRows<2>(w, X2, ldx2, b, Y + n0, ldy, M, K2); break;
            default: dotAllRows<1>(w, X2, ldx2, b, Y + n0, ldy, M, K2); break;
        }
    }
}
#endif

// K floats rounded to bf16 into 2 * ((K + 1) / 2) values, the last 0 for an odd K
// (pad) or exactly K values.
CHARGPT_KERNEL void toBf16Row(const float* __restrict__ x, int64_t K, uint16_t* __restrict__ out, bool pad) {
    int64_t i = 0;
    for (; i + kLanes <= K; i += kLanes) vec::storeBf16(out + i, vec::load(x + i));
    for (; i < K; ++i) out[i] = toBf16(x[i]);
    if (pad && K % 2) out[K] = 0;
}

CHARGPT_KERNEL void widenKernel(const uint16_t* __restrict__ in, int64_t n, float* __restrict__ out) {
    int64_t i = 0;
    for (; i + kLanes <= n; i += kLanes) vec::store(out + i, vec::loadBf16(in + i));
    for (; i < n; ++i) {
        const uint32_t bits = uint32_t(in[i]) << 16;
        std::memcpy(out + i, &bits, sizeof bits);
    }
}

// A vector V at a time: Vf, or V8 in the AVX2 build (KernelTiers.h's tieredByWidth).
template <typename V>
CHARGPT_KERNEL void geluKernel(float* u, int64_t n) {
    constexpr float kInvSqrt2 = 0.70710678118654752f;
    constexpr int64_t L = vec::kLanesOf<V>;
    int64_t i = 0;
    for (; i + L <= n; i += L) {
        const V x = vec::loadLanes<V>(u + i);
        vec::storeLanes(u + i, 0.5f * x * (1.0f + vec::erf(x * kInvSqrt2)));
    }
    if (i < n) {  // a short tail through one padded vector: every value computed the same way
        float tail[L] = {};
        std::copy(u + i, u + n, tail);
        const V x = vec::loadLanes<V>(tail);
        vec::storeLanes(tail, 0.5f * x * (1.0f + vec::erf(x * kInvSqrt2)));
        std::copy_n(tail, n - i, u + i);
    }
}

CHARGPT_KERNEL void layerNormKernel(const float* __restrict__ x, const float* __restrict__ w,
                                    const float* __restrict__ b, float* __restrict__ out, int64_t C) {
    // Sums in sixteen lanes, added up in a fixed order.
    const int64_t full = C / kLanes * kLanes;
    Vf sums{};
    for (int64_t i = 0; i < full; i += kLanes) sums += vec::load(x + i);
    float sum = vec::laneSum(sums);
    for (int64_t i = full; i < C; ++i) sum += x[i];
    const float mean = sum / float(C);
    Vf squares{};
    for (int64_t i = 0; i < full; i += kLanes) {
        const Vf d = vec::load(x + i) - mean;
        squares += d * d;
    }
    float var = vec::laneSum(squares);
    for (int64_t i = full; i < C; ++i) var += (x[i] - mean) * (x[i] - mean);
    var /= float(C);
    const float inv = 1.0f / std::sqrt(var + 1e-5f);
    for (int64_t i = 0; i < C; ++i) out[i] = (x[i] - mean) * inv * w[i] + b[i];
}

}  // namespace

PackedLinear PackedLinear::pack(const float* W, const float* b, int64_t N, int64_t K, bool bf16) {
    PackedLinear p;
    p.K = K;
    p.N = N;
    p.Np = padded(N);
    if (bf16) {
        // Each block's rows in pairs: the pair (2i, 2i + 1) of output j as
        // one 32-bit value, row 2i in its low half, straight from W (the pair
        // is two neighbours of W's row j); columns past N stay zero.
        const int64_t K2 = (K + 1) / 2;
        p.bf16.assign(std::size_t(p.Np * K2), 0u);
        for (int64_t n0 = 0; n0 < p.Np; n0 += kBlock) {
            const int64_t width = std::min(kBlock, p.Np - n0);
            uint32_t* out = p.bf16.data() + n0 * K2;
            for (int64_t j = 0; j < width && n0 + j < N; ++j) {
                const float* row = W + (n0 + j) * K;
                for (int64_t i = 0; i < K2; ++i) {
                    const uint32_t low = toBf16(row[2 * i]);
                    const uint32_t high = 2 * i + 1 < K ? toBf16(row[2 * i + 1]) : 0u;
                    out[i * width + j] = low | (high << 16);
                }
            }
        }
    } else {
        p.f32.assign(std::size_t(p.Np * K), 0.0f);
        for (int64_t n0 = 0; n0 < p.Np; n0 += kBlock) {
            const int64_t width = std::min(kBlock, p.Np - n0);
            float* block = p.f32.data() + n0 * K;
            for (int64_t k = 0; k < K; ++k)
                for (int64_t j = 0; j < width && n0 + j < N; ++j) block[k * width + j] = W[(n0 + j) * K + k];
        }
    }
    if (b) {
        p.bias.assign(std::size_t(p.Np), 0.0f);
        std::copy_n(b, N, p.bias.begin());
    }
    return p;
}

bool bf16DotProducts() {
#ifdef CHARGPT_DOT_BF16
    return kernels::kernelTier() >= CpuTier::Avx512Bf16;
#else
    return false;
#endif
}

void linear(const PackedLinear& layer, const float* X, int64_t ldx, float* Y, int64_t ldy, int64_t M, int64_t begin,
            int64_t end) {
    if (end < 0) end = layer.Np;
    const float* bias = layer.bias.empty() ? nullptr : layer.bias.data();
    if (!layer.isBf16()) {
#ifdef CHARGPT_KERNEL_TIERS
        if (kernels::kernelTier() == CpuTier::Avx2) {
            avx2::linearF32(layer.f32.data(), bias, layer.K, layer.Np, X, ldx, Y, ldy, M, begin, end);
            return;
        }
#endif
        kernels::tiered<linearF32>(layer.f32.data(), bias, layer.K, layer.Np, X, ldx, Y, ldy, M, begin, end);
        return;
    }
    // The inputs rounded to bf16: a row of K bf16 values (and a zero after
    // an odd K) read as 32-bit words is the row's pairs, the even one low.
    const int64_t K = layer.K, K2 = (K + 1) / 2;
    thread_local std::vector<uint32_t> pairs;
    if (pairs.size() < std::size_t(M * K2)) pairs.resize(std::size_t(M * K2));
    for (int64_t m = 0; m < M; ++m)
        kernels::tiered<toBf16Row>(X + m * ldx, K, reinterpret_cast<uint16_t*>(pairs.data() + m * K2), true);
#ifdef CHARGPT_KERNEL_TIERS
    if (kernels::kernelTier() == CpuTier::Avx2) {
        avx2::linearPairs(layer.bf16.data(), bias, K2, layer.Np, pairs.data(), K2, Y, ldy, M, begin, end);
        return;
    }
#endif
#ifdef CHARGPT_DOT_BF16
    if (bf16DotProducts()) {
        linearDotBf16(layer.bf16.data(), bias, K2, layer.Np, pairs.data(), K2, Y, ldy, M, begin, end);
        return;
    }
#endif
    kernels::tiered<linearPairsWidened>(layer.bf16.data(), bias, K2, layer.Np, pairs.data(), K2, Y, ldy, M,
                                        begin, end);
}

void gelu(float* u, int64_t n) { kernels::tieredByWidth<geluKernel<Vf>, geluKernel<vec::V8>>(u, n); }

void layerNorm(const float* x, const float* w, const float* b, float* out, int64_t C) {
    kernels::tiered<layerNormKernel>(x, w, b, out, C);
}

void widenBf16(const uint16_t* in, int64_t n, float* out) { kernels::tiered<widenKernel>(in, n, out); }

void roundToBf16(const float* in, int64_t n, uint16_t* out) { kernels::tiered<toBf16Row>(in, n, out, false); }


}  // namespace chargpt::decoding
