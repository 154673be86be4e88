// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

// The arithmetic of the decoder (Decoder.h), in plain loops over its own copy
// of the weights: linear layers for a few rows at a time, LayerNorm, GELU and
// one query's attention over cached keys and values.

namespace chargpt::decoding {

// Sixteen floats: the unit every row of the decoder's buffers is padded to.
constexpr int64_t kPad = 16;
inline int64_t padded(int64_t n) { return (n + kPad - 1) / kPad * kPad; }

// A linear layer y = x W^T + b laid out for linear(): W^T (K, N) cut into
// blocks of 64 outputs (the last one 16, 32, 48 or 64 wide, the columns past N
// zero), each block stored as one contiguous stream of weights. In fp32: the
// block's K rows one after another. In bf16 (rounded to nearest, ties to even,
// as c10::BFloat16 rounds; half the bytes to read): rows 2i and 2i + 1
// interleaved, each output's pair in 32 bits (K odd: a zero row added), the
// layout of the CPU's bf16 dot-product instruction.
struct PackedLinear {
    int64_t K = 0, N = 0, Np = 0;  // Np = padded(N)
    std::vector<float> f32;        // used when bf16 is empty
    std::vector<uint32_t> bf16;    // (K + 1) / 2 pairs of rows per block
    std::vector<float> bias;       // Np floats, or empty for none

    // W is (N, K) row-major, as torch::nn::Linear keeps it; b is N floats or null.
    static PackedLinear pack(const float* W, const float* b, int64_t N, int64_t K, bool bf16);
    bool isBf16() const { return !bf16.empty(); }
};

// Y = X W^T + b for M rows: X (M, K) with rows ldx floats apart, Y (M, Np)
// with rows ldy >= Np floats apart (its padding columns come out 0). In bf16
// the inputs are rounded to bf16 as well, as a bf16 matrix product (autocast)
// rounds them, and the exact products summed in fp32: by the CPU's bf16
// dot-product instruction where it has one (bf16DotProducts()), else by
// widening both to fp32. Each row is computed by the same operations in the
// same order whatever M is, so rows decoded together equal rows decoded one
// by one, bit for bit. Only outputs [begin, end) when given: begin and end
// multiples of kBlockOutputs, or end = Np (end -1: Np), so that two threads
// can each compute a part.
constexpr int64_t kBlockOutputs = 64;
void linear(const PackedLinear& layer, const float* X, int64_t ldx, float* Y, int64_t ldy, int64_t M,
            int64_t begin = 0, int64_t end = -1);
// Whether this CPU multiplies bf16 pairs in one instruction (AVX512-BF16).
bool bf16DotProducts();

// The exact (erf) GELU in place over n floats.
void gelu(float* u, int64_t n);

// LayerNorm over C values (biased variance, eps 1e-5, as torch::nn::LayerNorm).
void layerNorm(const float* x, const float* w, const float* b, float* out, int64_t C);

// One query of one head against its T cached keys and values: the keys kept
// transposed (key j's value d at keys[d * stride + j]), the values as rows
// ((T, H) row-major), in fp32 or in bf16 (E = uint16_t, their bits). out (H
// floats) = softmax(q K^T) V, q the query already multiplied by 1/sqrt(H).
template <typename E>
struct Attend {
    const float* q = nullptr;
    const E* keys = nullptr;
    const E* values = nullptr;
    int64_t T = 0;
    float* out = nullptr;
};
// Attentions attendMany computes at a time.
constexpr int kAttendTogether = 4;
// n such attentions, kAttendTogether at a time with their steps interleaved, so that
// the chains of additions of one overlap those of the others (one query's
// work alone is too short to keep the CPU busy). Each out is what its query
// alone gets, bit for bit: the same operations in the same order. `scores`
// is scratch for kAttendTogether * stride floats, stride >= padded(T) for every item.
void attendMany(const Attend<float>* items, int64_t n, int64_t H, int64_t stride, float* scores);
void attendMany(const Attend<uint16_t>* items, int64_t n, int64_t H, int64_t stride, float* scores);
// n bf16 values (their bits) as floats, exactly.
void widenBf16(const uint16_t* in, int64_t n, float* out);
// n floats rounded to bf16 as toBf16() rounds each, sixteen at a time.
void roundToBf16(const float* in, int64_t n, uint16_t* out);
// x rounded to bf16 (to nearest, ties to even; NaN a quiet NaN), its bits.
inline uint16_t toBf16(float x) {
    uint32_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    if (x != x) return 0x7FC0u;
    return static_cast<uint16_t>((bits + 0x7FFFu + ((bits >> 16) & 1u)) >> 16);
}

}  // namespace chargpt::decoding
