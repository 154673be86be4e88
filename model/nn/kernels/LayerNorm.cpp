// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/nn/kernels/LayerNorm.h"
#include "model/nn/kernels/KernelTiers.h"
#include "model/nn/kernels/Vec16.h"

#include <ATen/Parallel.h>

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <vector>

namespace chargpt {

namespace {

using vec::kLanes;
using vec::Vf;

constexpr int64_t kRowBlock = 64;  // rows per partial sum of the weight's and bias's gradients

[[gnu::always_inline]] inline float sumLanes(Vf v) {
    float s = 0.0f;
    for (int64_t l = 0; l < kLanes; ++l) s += v[l];
    return s;
}

// Rows [begin, end) of x (N, C): y, and mean and rstd when `stats` (otherwise
// they are read).
template <typename Out>
CHARGPT_KERNEL void normRows(const float* __restrict__ x, const float* __restrict__ gamma,
                             const float* __restrict__ beta, Out* __restrict__ y, float* __restrict__ mean,
                             float* __restrict__ rstd, int64_t begin, int64_t end, int64_t C, float eps, bool stats) {
    for (int64_t r = begin; r < end; ++r) {
        const float* row = x + r * C;
        if (stats) {
            Vf s = {};
            for (int64_t c = 0; c < C; c += kLanes) s += vec::load(row + c);
            const float mu = sumLanes(s) / float(C);
            Vf q = {};
            for (int64_t c = 0; c < C; c += kLanes) {
                const Vf d = vec::load(row + c) - mu;
                q += d * d;
            }
            mean[r] = mu;
            rstd[r] = 1.0f / std::sqrt(sumLanes(q) / float(C) + eps);
        }
        const float mu = mean[r], inv = rstd[r];
        for (int64_t c = 0; c < C; c += kLanes)
            vec::storeAs(y + r * C + c, (vec::load(row + c) - mu) * inv * vec::load(gamma + c) + vec::load(beta + c));
    }
}

// dx for rows [begin, end), and the block's sums of dy xhat and dy into
// dGamma and dBeta (C each).
template <typename Grad>
CHARGPT_KERNEL void normRowsBackward(const Grad* __restrict__ dy, const float* __restrict__ x,
                                     const float* __restrict__ mean, const float* __restrict__ rstd,
                                     const float* __restrict__ gamma, float* __restrict__ dx,
                                     float* __restrict__ dGamma, float* __restrict__ dBeta, int64_t begin,
                                     int64_t end, int64_t C) {
    for (int64_t c = 0; c < C; c += kLanes) {
        vec::store(dGamma + c, Vf{});
        vec::store(dBeta + c, Vf{});
    }
    for (int64_t r = begin; r < end; ++r) {
        const float* row = x + r * C;
        const Grad* g = dy + r * C;
        const float mu = mean[r], inv = rstd[r];
        Vf a = {}, b = {};
        for (int64_t c = 0; c < C; c += kLanes) {
            const Vf xhat = (vec::load(row + c) - mu) * inv;
            const Vf gy = vec::loadAs(g + c);
            const Vf gx = gy * vec::load(gamma + c);
            a += gx;
            b += gx * xhat;
            vec::store(dGamma + c, vec::load(dGamma + c) + gy * xhat);
            vec::store(dBeta + c, vec::load(dBeta + c) + gy);
        }
        const float meanG = sumLanes(a) / float(C), meanGX = sumLanes(b) / float(C);
        for (int64_t c = 0; c < C; c += kLanes) {
            const Vf xhat = (vec::load(row + c) - mu) * inv;
            const Vf gx = vec::loadAs(g + c) * vec::load(gamma + c);
            vec::store(dx + r * C + c, inv * (gx - meanG - xhat * meanGX));
        }
    }
}

template <typename Run>
void forType(torch::ScalarType type, Run&& run) {
    if (type == torch::kBFloat16)
        run(static_cast<c10::BFloat16*>(nullptr));
    else
        run(static_cast<float*>(nullptr));
}

torch::Tensor normalised(const torch::Tensor& x, const torch::Tensor& weight, const torch::Tensor& bias,
                         torch::Tensor& mean, torch::Tensor& rstd, double eps, torch::ScalarType type, bool stats) {
    const int64_t C = x.size(-1), N = x.numel() / C;
    torch::Tensor y = torch::empty(x.sizes(), x.options().dtype(type));
    const float* in = x.data_ptr<float>();
    const float *g = weight.data_ptr<float>(), *b = bias.data_ptr<float>();
    float *m = mean.data_ptr<float>(), *s = rstd.data_ptr<float>();
    forType(type, [&](auto* typed) {
        using Out = std::remove_pointer_t<decltype(typed)>;
        Out* out = y.data_ptr<Out>();
        at::parallel_for(0, N, kRowBlock, [&](int64_t begin, int64_t end) {
            kernels::tiered<normRows<Out>>(in, g, b, out, m, s, begin, end, C, float(eps), stats);
        });
    });
    return y;
}

}  // namespace

bool layerNormKernelTakes(const torch::Tensor& x, const torch::Tensor& weight, const torch::Tensor& bias) {
    auto floatCpu = [](const torch::Tensor& t) {
        return t.defined() && t.device().is_cpu() && t.scalar_type() == torch::kFloat32 && t.is_contiguous();
    };
    if (!floatCpu(x) || !floatCpu(weight) || !floatCpu(bias) || x.dim() < 1) return false;
    const int64_t C = x.size(-1);
    return C > 0 && C % kLanes == 0 && weight.numel() == C && bias.numel() == C;
}

std::tuple<torch::Tensor, torch::Tensor, torch::Tensor> layerNormForward(const torch::Tensor& x,
                                                                         const torch::Tensor& weight,
                                                                         const torch::Tensor& bias, double eps,
                                                                         torch::ScalarType type) {
    const int64_t C = x.size(-1), N = x.numel() / C;
    torch::Tensor mean = torch::empty({N}, x.options()), rstd = torch::empty({N}, x.options());
    torch::Tensor y = normalised(x, weight, bias, mean, rstd, eps, type, true);
    return {y, mean, rstd};
}

torch::Tensor layerNormAgain(const torch::Tensor& x, const torch::Tensor& mean, const torch::Tensor& rstd,
                             const torch::Tensor& weight, const torch::Tensor& bias, torch::ScalarType type) {
    torch::Tensor m = mean, s = rstd;
    return normalised(x, weight, bias, m, s, 0.0, type, false);
}

std::tuple<torch::Tensor, torch::Tensor, torch::Tensor> layerNormBackward(const torch::Tensor& gradY,
                                                                          const torch::Tensor& x,
                                                                          const torch::Tensor& mean,
                                                                          const torch::Tensor& rstd,
                                                                          const torch::Tensor& weight) {
    const int64_t C = x.size(-1), N = x.numel() / C;
    const torch::Tensor dy = gradY.scalar_type() == torch::kBFloat16 ? gradY.contiguous()
                                                                     : gradY.to(torch::kFloat32).contiguous();
    torch::Tensor dx = torch::empty_like(x);
    const int64_t blocks = (N + kRowBlock - 1) / kRowBlock;
    std::vector<float> partial(std::size_t(2 * blocks * C));  // per block: dGamma, then dBeta
    const float *in = x.data_ptr<float>(), *m = mean.data_ptr<float>(), *s = rstd.data_ptr<float>(),
                *g = weight.data_ptr<float>();
    float* out = dx.data_ptr<float>();
    forType(dy.scalar_type(), [&](auto* typed) {
        using Grad = std::remove_pointer_t<decltype(typed)>;
        const Grad* d = dy.data_ptr<Grad>();
        at::parallel_for(0, blocks, 1, [&](int64_t begin, int64_t end) {
            for (int64_t block = begin; block < end; ++block) {
                float* sums = partial.data() + 2 * block * C;
                kernels::tiered<normRowsBackward<Grad>>(d, in, m, s, g, out, sums, sums + C, block * kRowBlock,
                                                        std::min(N, (block + 1) * kRowBlock), C);
            }
        });
    });
    torch::Tensor dGamma = torch::zeros({C}, weight.options()), dBeta = torch::zeros({C}, weight.options());
    float *dg = dGamma.data_ptr<float>(), *db = dBeta.data_ptr<float>();
    for (int64_t block = 0; block < blocks; ++block)
        for (int64_t c = 0; c < C; ++c) {
            dg[c] += partial[std::size_t(2 * block * C + c)];
            db[c] += partial[std::size_t((2 * block + 1) * C + c)];
        }
    return {dx, dGamma.view(weight.sizes()), dBeta.view(weight.sizes())};
}

}  // namespace chargpt
