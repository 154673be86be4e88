// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/nn/kernels/FusedAttention.h"
#include "model/nn/kernels/KernelClones.h"

#include <ATen/Parallel.h>
#include <torch/csrc/autograd/custom_function.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

namespace chargpt {

namespace {

// exp(x) for x <= 0 (softmax after subtracting the row maximum), written so that
// loops over it vectorise: x = n ln2 + r, e^r by a degree-6 polynomial, 2^n by
// building the float's exponent. Relative error below 2e-7.
inline float expNonPositive(float x) {
    x = std::max(x, -87.0f);
    // Round to nearest by the 1.5 * 2^23 trick: no libm call, so the loop vectorises.
    const float n = (x * 1.44269504088896341f + 12582912.0f) - 12582912.0f;
    const float r = x - n * 0.693145751953125f - n * 1.428606765330187045e-06f;
    float p = 1.0f / 720.0f;
    p = p * r + 1.0f / 120.0f;
    p = p * r + 1.0f / 24.0f;
    p = p * r + 1.0f / 6.0f;
    p = p * r + 0.5f;
    p = p * r + 1.0f;
    p = p * r + 1.0f;
    // A NaN input (a diverged model) gives a NaN result through p; n is clamped so
    // that building the exponent is never undefined (a NaN or huge n cast to int).
    const float exponent = n > -127.0f ? (n < 127.0f ? n : 127.0f) : -127.0f;
    const int32_t bits = (static_cast<int32_t>(exponent) + 127) << 23;
    float scaleBy;
    std::memcpy(&scaleBy, &bits, sizeof scaleBy);
    return p * scaleBy;
}

// One head: P (T, Tk) and out (T, H) from q (T, H), k and v (Tk, H), where the
// queries are positions past .. past + T - 1 and the keys 0 .. Tk - 1 (training:
// past 0 and Tk = T). kT is scratch (H, Tk). FixedH > 0 makes the head size a
// constant, so the loops over it unroll into a few vector instructions (a
// runtime H = 8 would leave AVX-512 lanes empty and fall back to scalar code).
template <int64_t FixedH, bool WithOutput = true>
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
        for (int64_t j = 0; j < n; ++j) p[j] = expNonPositive(p[j] - maxScore);
        float sum = 0.0f;
        for (int64_t j = 0; j < n; ++j) sum += p[j];
        const float inv = 1.0f / sum;
        for (int64_t j = 0; j < n; ++j) p[j] *= inv;

        if (!WithOutput) continue;  // the backward pass needs P only
        float* o = out + i * H;
        std::fill(o, o + H, 0.0f);
        for (int64_t j = 0; j < n; ++j) {
            const float w = p[j];
            const float* vr = v + j * H;
            for (int64_t h = 0; h < H; ++h) o[h] += w * vr[h];
        }
    }
}

// Gradients of one head. dq, dk, dv (T, H) are written; vT and scratch are (H, T)
// and (2, T).
template <int64_t FixedH>
CHARGPT_KERNEL void backwardHead(const float* __restrict__ q, const float* __restrict__ k,
                                 const float* __restrict__ v, const float* __restrict__ P,
                                 const float* __restrict__ dout, float* __restrict__ dq, float* __restrict__ dk,
                                 float* __restrict__ dv, float* __restrict__ vT, float* __restrict__ scratch, int64_t T,
                                 int64_t runtimeH, float scale) {
    const int64_t H = FixedH > 0 ? FixedH : runtimeH;
    for (int64_t j = 0; j < T; ++j)
        for (int64_t h = 0; h < H; ++h) vT[h * T + j] = v[j * H + h];
    std::fill(dq, dq + T * H, 0.0f);
    std::fill(dk, dk + T * H, 0.0f);
    std::fill(dv, dv + T * H, 0.0f);
    float* dp = scratch;  // dL/dP of row i
    for (int64_t i = 0; i < T; ++i) {
        const float* p = P + i * T;
        const float* g = dout + i * H;
        const int64_t n = i + 1;
        std::fill(dp, dp + n, 0.0f);
        for (int64_t h = 0; h < H; ++h) {
            const float gh = g[h];
            const float* vr = vT + h * T;
            for (int64_t j = 0; j < n; ++j) dp[j] += gh * vr[j];
        }
        float dot = 0.0f;
        for (int64_t j = 0; j < n; ++j) dot += p[j] * dp[j];
        // dp becomes dL/dscores (softmax backward), times the scale.
        for (int64_t j = 0; j < n; ++j) dp[j] = p[j] * (dp[j] - dot) * scale;
        float* dqi = dq + i * H;
        const float* qi = q + i * H;
        for (int64_t j = 0; j < n; ++j) {
            const float ds = dp[j], w = p[j];
            const float* kj = k + j * H;
            float* dkj = dk + j * H;
            float* dvj = dv + j * H;
            for (int64_t h = 0; h < H; ++h) {
                dqi[h] += ds * kj[h];
                dkj[h] += ds * qi[h];
                dvj[h] += w * g[h];
            }
        }
    }
}

using ForwardHead = void (*)(const float*, const float*, const float*, float*, float*, float*, int64_t, int64_t,
                            float, int64_t, int64_t);
using BackwardHead = void (*)(const float*, const float*, const float*, const float*, const float*, float*, float*,
                              float*, float*, float*, int64_t, int64_t, float);

ForwardHead forwardFor(int64_t H) {
    switch (H) {
        case 8: return forwardHead<8>;
        case 16: return forwardHead<16>;
        case 32: return forwardHead<32>;
        case 64: return forwardHead<64>;
        default: return forwardHead<0>;
    }
}

ForwardHead weightsOnlyFor(int64_t H) {
    switch (H) {
        case 8: return forwardHead<8, false>;
        case 16: return forwardHead<16, false>;
        case 32: return forwardHead<32, false>;
        case 64: return forwardHead<64, false>;
        default: return forwardHead<0, false>;
    }
}

BackwardHead backwardFor(int64_t H) {
    switch (H) {
        case 8: return backwardHead<8>;
        case 16: return backwardHead<16>;
        case 32: return backwardHead<32>;
        case 64: return backwardHead<64>;
        default: return backwardHead<0>;
    }
}

void forwardAll(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v, torch::Tensor& out,
                torch::Tensor& P, float scale) {
    const int64_t N = q.size(0), T = q.size(1), H = q.size(2);
    const float* qp = q.data_ptr<float>();
    const float* kp = k.data_ptr<float>();
    const float* vp = v.data_ptr<float>();
    float* op = out.data_ptr<float>();
    float* pp = P.data_ptr<float>();
    const ForwardHead head = forwardFor(H);
    at::parallel_for(0, N, 1, [&](int64_t begin, int64_t end) {
        std::vector<float> kT(static_cast<std::size_t>(H * T));
        for (int64_t n = begin; n < end; ++n)
            head(qp + n * T * H, kp + n * T * H, vp + n * T * H, op + n * T * H, pp + n * T * T, kT.data(),
                        T, H, scale, T, 0);
    });
}

struct CausalAttentionFunction : public torch::autograd::Function<CausalAttentionFunction> {
    static torch::autograd::variable_list forward(torch::autograd::AutogradContext* ctx, const torch::Tensor& q,
                                                  const torch::Tensor& k, const torch::Tensor& v, double scale) {
        auto qc = q.contiguous(), kc = k.contiguous(), vc = v.contiguous();
        auto out = torch::empty_like(qc);
        auto P = torch::empty({qc.size(0), qc.size(1), qc.size(1)}, qc.options());
        forwardAll(qc, kc, vc, out, P, static_cast<float>(scale));
        // P is not kept: the backward pass recomputes it per head, which saves
        // B x heads x T x T floats per layer (200 MB for the book preset at batch 64).
        ctx->save_for_backward({qc, kc, vc});
        ctx->saved_data["scale"] = scale;
        ctx->mark_non_differentiable({P});
        return {out, P};
    }

    static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx,
                                                   torch::autograd::variable_list grads) {
        const auto saved = ctx->get_saved_variables();
        const torch::Tensor &q = saved[0], &k = saved[1], &v = saved[2];
        const float scale = static_cast<float>(ctx->saved_data["scale"].toDouble());
        const torch::Tensor dout = grads[0].contiguous();
        auto dq = torch::empty_like(q), dk = torch::empty_like(k), dv = torch::empty_like(v);
        const int64_t N = q.size(0), T = q.size(1), H = q.size(2);
        const BackwardHead head = backwardFor(H);
        const ForwardHead recompute = weightsOnlyFor(H);
        at::parallel_for(0, N, 1, [&](int64_t begin, int64_t end) {
            std::vector<float> vT(static_cast<std::size_t>(H * T)), scratch(static_cast<std::size_t>(2 * T));
            std::vector<float> P(static_cast<std::size_t>(T * T)), out(static_cast<std::size_t>(T * H));
            for (int64_t n = begin; n < end; ++n) {
                const int64_t a = n * T * H;
                recompute(q.data_ptr<float>() + a, k.data_ptr<float>() + a, v.data_ptr<float>() + a, out.data(),
                          P.data(), vT.data(), T, H, scale, T, 0);
                head(q.data_ptr<float>() + a, k.data_ptr<float>() + a, v.data_ptr<float>() + a,
                             P.data(), dout.data_ptr<float>() + a, dq.data_ptr<float>() + a,
                             dk.data_ptr<float>() + a, dv.data_ptr<float>() + a, vT.data(), scratch.data(), T, H,
                             scale);
            }
        });
        return {dq, dk, dv, torch::Tensor()};
    }
};

}  // namespace

bool fusedAttentionSupported(const torch::Tensor& q) {
    return q.device().is_cpu() && q.scalar_type() == torch::kFloat32 && q.dim() == 3;
}

torch::Tensor fusedCausalAttention(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v,
                                   double scale, torch::Tensor* weights) {
    auto outputs = CausalAttentionFunction::apply(q, k, v, scale);
    if (weights) *weights = outputs[1];
    return outputs[0];
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
