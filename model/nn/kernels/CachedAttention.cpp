// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/nn/kernels/CachedAttention.h"
#include "model/nn/kernels/KernelTiers.h"
#include "model/nn/kernels/Vec16.h"

#include <ATen/Parallel.h>
#include <torch/csrc/autograd/custom_function.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

namespace chargpt {

namespace {

// One head: P (T, Tk) and out (T, H) from q (T, H), k and v (Tk, H), where the
// queries are positions past .. past + T - 1 and the keys 0 .. Tk - 1 (training:
// past 0 and Tk = T). kT is scratch (H, Tk). FixedH > 0 makes the head size a
// constant, so the loops over it unroll into a few vector instructions (a
// runtime H = 8 would leave AVX-512 lanes empty and fall back to scalar code).
template <int64_t FixedH>
CHARGPT_KERNEL void forwardHead(const float* __restrict__ q, const float* __restrict__ k,
                                const float* __restrict__ v, float* __restrict__ out, float* __restrict__ P,
                                float* __restrict__ kT,
                                int64_t T, int64_t runtimeH, float scale, int64_t Tk, int64_t past) {
    const int64_t H = FixedH > 0 ? FixedH : runtimeH;
    for (int64_t j = 0; j < Tk; ++j)
        for (int64_t h = 0; h < H; ++h) kT[h * Tk + j] = k[j * H + h];
    for (int64_t i = 0; i < T; ++i) {
        float* p = P + i * Tk;
        const int64_t n = past + i + 1;  // keys 0..past+i; the rest are masked
        std::fill(p, p + Tk, 0.0f);
        for (int64_t h = 0; h < H; ++h) {
            const float qh = q[i * H + h] * scale;
            const float* kr = kT + h * Tk;
            for (int64_t j = 0; j < n; ++j) p[j] += qh * kr[j];
        }
        float maxScore = p[0];
        for (int64_t j = 1; j < n; ++j) maxScore = std::max(maxScore, p[j]);
        for (int64_t j = 0; j < n; ++j) p[j] = vec::expNonPositive(p[j] - maxScore);
        float sum = 0.0f;
        for (int64_t j = 0; j < n; ++j) sum += p[j];
        const float inv = 1.0f / sum;
        for (int64_t j = 0; j < n; ++j) p[j] *= inv;

        float* o = out + i * H;
        std::fill(o, o + H, 0.0f);
        for (int64_t j = 0; j < n; ++j) {
            const float w = p[j];
            const float* vr = v + j * H;
            for (int64_t h = 0; h < H; ++h) o[h] += w * vr[h];
        }
    }
}

using ForwardHead = void (*)(const float*, const float*, const float*, float*, float*, float*, int64_t, int64_t,
                            float, int64_t, int64_t);
ForwardHead forwardFor(int64_t H) {
    switch (H) {
        case 8: return kernels::tiered<forwardHead<8>>;
        case 16: return kernels::tiered<forwardHead<16>>;
        case 32: return kernels::tiered<forwardHead<32>>;
        case 64: return kernels::tiered<forwardHead<64>>;
        default: return kernels::tiered<forwardHead<0>>;
    }
}

}  // namespace

bool cachedAttentionSupported(const torch::Tensor& q) {
    return q.device().is_cpu() && q.scalar_type() == torch::kFloat32 && q.dim() == 3;
}

torch::Tensor cachedCausalAttention(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v,
                                    double scale, int64_t past, torch::Tensor* weights) {
    const auto qc = q.contiguous();
    const int64_t N = qc.size(0), T = qc.size(1), H = qc.size(2), Tk = k.size(1);
    TORCH_CHECK(Tk == past + T, "cachedCausalAttention: keys for positions 0 .. past + T - 1 expected");
    // Each head's (Tk, H) rows must be contiguous; the heads may lie apart (a
    // narrowed cache), so only the head stride is taken from the tensors.
    auto rowsContiguous = [H](const torch::Tensor& x) { return x.stride(2) == 1 && x.stride(1) == H; };
    const auto kc = rowsContiguous(k) ? k : k.contiguous();
    const auto vc = rowsContiguous(v) ? v : v.contiguous();
    auto out = torch::empty_like(qc);
    auto P = torch::empty({N, T, Tk}, qc.options());
    const float* qp = qc.data_ptr<float>();
    const float* kp = kc.data_ptr<float>();
    const float* vp = vc.data_ptr<float>();
    float* op = out.data_ptr<float>();
    float* pp = P.data_ptr<float>();
    const int64_t kStride = kc.stride(0), vStride = vc.stride(0);
    const ForwardHead head = forwardFor(H);
    const float s = static_cast<float>(scale);
    at::parallel_for(0, N, 1, [&](int64_t begin, int64_t end) {
        std::vector<float> kT(static_cast<std::size_t>(H * Tk));
        for (int64_t n = begin; n < end; ++n)
            head(qp + n * T * H, kp + n * kStride, vp + n * vStride, op + n * T * H, pp + n * T * Tk, kT.data(), T,
                 H, s, Tk, past);
    });
    if (weights) *weights = P;
    return out;
}

}  // namespace chargpt
