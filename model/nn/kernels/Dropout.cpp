// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/nn/kernels/Dropout.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/Parallel.h>
#include <torch/csrc/autograd/custom_function.h>

#include <cmath>
#include <mutex>

namespace chargpt {

namespace {

inline uint64_t splitmix64(uint64_t z) {
    z += 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// out = in * mask, the mask (0 or 1 / (1 - p)) drawn from `seed` element by
// element: nothing is stored, so the backward pass draws the same mask again
// instead of keeping one as large as the activation.
template <typename T>
void applyMask(const T* in, T* out, int64_t n, uint64_t seed, double p) {
    // An element is dropped when its 32 random bits fall below p * 2^32.
    const uint64_t threshold = static_cast<uint64_t>(std::ldexp(p, 32));
    const float scale = static_cast<float>(1.0 / (1.0 - p));
    at::parallel_for(0, (n + 1) / 2, 1 << 14, [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i) {
            const uint64_t bits = splitmix64(seed + static_cast<uint64_t>(i));
            const int64_t e = 2 * i;
            out[e] = (bits & 0xFFFFFFFFull) >= threshold ? T(float(in[e]) * scale) : T(0.0f);
            if (e + 1 < n) out[e + 1] = (bits >> 32) >= threshold ? T(float(in[e + 1]) * scale) : T(0.0f);
        }
    });
}

torch::Tensor masked(const torch::Tensor& x, uint64_t seed, double p) {
    const torch::Tensor in = x.contiguous();
    torch::Tensor out = torch::empty_like(in);
    if (in.scalar_type() == torch::kFloat32)
        applyMask(in.data_ptr<float>(), out.data_ptr<float>(), in.numel(), seed, p);
    else
        applyMask(in.data_ptr<at::BFloat16>(), out.data_ptr<at::BFloat16>(), in.numel(), seed, p);
    return out;
}

struct DropoutFunction : public torch::autograd::Function<DropoutFunction> {
    static torch::Tensor forward(torch::autograd::AutogradContext* ctx, const torch::Tensor& x, double p) {
        uint64_t seed;
        {
            auto generator = at::detail::getDefaultCPUGenerator();
            std::lock_guard<std::mutex> lock(generator.mutex());
            seed = generator.get<at::CPUGeneratorImpl>()->random64();
        }
        ctx->saved_data["seed"] = static_cast<int64_t>(seed);
        ctx->saved_data["p"] = p;
        return masked(x, seed, p);
    }
    static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx,
                                                    torch::autograd::variable_list gradOutputs) {
        const auto seed = static_cast<uint64_t>(ctx->saved_data["seed"].toInt());
        return {masked(gradOutputs[0], seed, ctx->saved_data["p"].toDouble()), torch::Tensor()};
    }
};

}  // namespace

torch::Tensor dropout(const torch::Tensor& x, double p, bool training) {
    if (!training || p <= 0.0) return x;
    const bool supported = x.scalar_type() == torch::kFloat32 || x.scalar_type() == torch::kBFloat16;
    if (!x.device().is_cpu() || !supported) return torch::dropout(x, p, training);
    return DropoutFunction::apply(x, p);
}

}  // namespace chargpt
