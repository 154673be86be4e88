// SPDX-License-Identifier: GPL-3.0-or-later
// The AVX2 tier's linear() (DecoderLinear.h). The Vf blocking of the other
// builds (DecoderMath.cpp) holds 4 rows x 4 vectors of sixteen floats: 16 zmm
// accumulators on AVX-512, but 32 ymm on AVX2, which has 16, and its build
// spilled them to the stack at every step (a book model decoded 370
// characters a second). Here one row takes a whole block, 8 accumulators with
// its weights read straight into the multiply-adds; four rows take 16 outputs
// at a time, 8 accumulators and 2 vectors of weights. Every output still
// starts from the bias and adds its products for k = 0 .. K-1 in order, each
// step the same expression as the AVX-512 build's, fused the same way: the
// same bits, and greedy text the same under either tier.
#include "model/nn/kernels/DecoderLinear.h"
#include "model/nn/kernels/DecoderMath.h"

#include <algorithm>
#include <cstring>

#ifdef CHARGPT_KERNEL_TIERS

namespace chargpt::decoding::avx2 {

namespace {

typedef float V8 __attribute__((vector_size(32)));
typedef uint32_t U8 __attribute__((vector_size(32)));
constexpr int64_t kYmm = 8;
constexpr int64_t kBlock = kBlockOutputs;
constexpr int64_t kGroup = 2 * kYmm;  // the outputs four rows take at a time

template <typename V, typename T>
[[gnu::always_inline]] inline V load8(const T* p) {
    V v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

// R rows of NV vectors of outputs, from a block W floats wide.
template <int NV, int R>
[[gnu::always_inline]] inline void f32Rows(const float* __restrict__ w, int64_t W, const float* __restrict__ X,
                                           int64_t ldx, const float* __restrict__ b, float* __restrict__ Y,
                                           int64_t ldy, int64_t K) {
    V8 acc[R][NV];
    for (int r = 0; r < R; ++r)
        for (int v = 0; v < NV; ++v) acc[r][v] = b ? load8<V8>(b + v * kYmm) : V8{};
    for (int64_t k = 0; k < K; ++k, w += W) {
        prefetchAhead<R, NV * kYmm / 16>(w);
        V8 wv[NV];
        for (int v = 0; v < NV; ++v) wv[v] = load8<V8>(w + v * kYmm);
        for (int r = 0; r < R; ++r) {
            const float xv = X[r * ldx + k];
            for (int v = 0; v < NV; ++v) acc[r][v] += xv * wv[v];
        }
    }
    for (int r = 0; r < R; ++r)
        for (int v = 0; v < NV; ++v) std::memcpy(Y + r * ldy + v * kYmm, &acc[r][v], sizeof(V8));
}

// The same for bf16 pairs: each pair's two weights widened by a shift or a
// mask, as DecoderMath.cpp's pairRows widens them.
template <int NV, int R>
[[gnu::always_inline]] inline void pairRows(const uint32_t* __restrict__ w, int64_t W,
                                            const uint32_t* __restrict__ X2, int64_t ldx2,
                                            const float* __restrict__ b, float* __restrict__ Y, int64_t ldy,
                                            int64_t K2) {
    V8 acc[R][NV];
    for (int r = 0; r < R; ++r)
        for (int v = 0; v < NV; ++v) acc[r][v] = b ? load8<V8>(b + v * kYmm) : V8{};
    for (int64_t k = 0; k < K2; ++k, w += W) {
        prefetchAhead<R, NV * kYmm / 16>(w);
        V8 even[NV], odd[NV];
        for (int v = 0; v < NV; ++v) {
            const U8 raw = load8<U8>(w + v * kYmm);
            even[v] = (V8)(raw << 16);
            odd[v] = (V8)(raw & 0xFFFF0000u);
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
        for (int v = 0; v < NV; ++v) std::memcpy(Y + r * ldy + v * kYmm, &acc[r][v], sizeof(V8));
}

// Every block of [begin, end) for M rows: `Rows<NV, R>` is f32Rows or pairRows.
template <template <int, int> class Rows, typename W>
[[gnu::always_inline]] inline void allBlocks(const W* weights, const float* bias, int64_t K, int64_t Np, const W* X,
                                             int64_t ldx, float* Y, int64_t ldy, int64_t M, int64_t begin,
                                             int64_t end) {
    for (int64_t n0 = begin; n0 < end; n0 += kBlock) {
        const int64_t width = std::min(kBlock, Np - n0);  // 16, 32, 48 or 64
        const W* w = weights + n0 * K;
        const float* b = bias ? bias + n0 : nullptr;
        int64_t m = 0;
        for (; m + 4 <= M; m += 4)
            for (int64_t c = 0; c < width; c += kGroup)
                Rows<2, 4>::run(w + c, width, X + m * ldx, ldx, b ? b + c : nullptr, Y + m * ldy + n0 + c, ldy, K);
        for (; m < M; ++m) {
            const W* x = X + m * ldx;
            float* y = Y + m * ldy + n0;
            switch (width / kYmm) {
                case 8: Rows<8, 1>::run(w, width, x, ldx, b, y, ldy, K); break;
                case 6: Rows<6, 1>::run(w, width, x, ldx, b, y, ldy, K); break;
                case 4: Rows<4, 1>::run(w, width, x, ldx, b, y, ldy, K); break;
                default: Rows<2, 1>::run(w, width, x, ldx, b, y, ldy, K); break;
            }
        }
    }
}

template <int NV, int R>
struct F32Rows {
    [[gnu::always_inline]] static void run(const float* w, int64_t W, const float* X, int64_t ldx, const float* b,
                                           float* Y, int64_t ldy, int64_t K) {
        f32Rows<NV, R>(w, W, X, ldx, b, Y, ldy, K);
    }
};
template <int NV, int R>
struct PairRows {
    [[gnu::always_inline]] static void run(const uint32_t* w, int64_t W, const uint32_t* X2, int64_t ldx2,
                                           const float* b, float* Y, int64_t ldy, int64_t K2) {
        pairRows<NV, R>(w, W, X2, ldx2, b, Y, ldy, K2);
    }
};

}  // namespace

CHARGPT_TARGET_AVX2 void linearF32(const float* weights, const float* bias, int64_t K, int64_t Np, const float* X,
                                   int64_t ldx, float* Y, int64_t ldy, int64_t M, int64_t begin, int64_t end) {
    allBlocks<F32Rows>(weights, bias, K, Np, X, ldx, Y, ldy, M, begin, end);
}

CHARGPT_TARGET_AVX2 void linearPairs(const uint32_t* weights, const float* bias, int64_t K2, int64_t Np,
                                     const uint32_t* X2, int64_t ldx2, float* Y, int64_t ldy, int64_t M,
                                     int64_t begin, int64_t end) {
    allBlocks<PairRows>(weights, bias, K2, Np, X2, ldx2, Y, ldy, M, begin, end);
}

}  // namespace chargpt::decoding::avx2

#endif
