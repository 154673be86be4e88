// SPDX-License-Identifier: GPL-3.0-or-later
#include "Dropout.h"

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

// 0 or 1 / (1 - p) for every element, as float32.
torch::Tensor dropoutMask(at::IntArrayRef sizes, double p) {
    uint64_t seed;
    {
        auto generator = at::detail::getDefaultCPUGenerator();
        std::lock_guard<std::mutex> lock(generator.mutex());
        seed = generator.get<at::CPUGeneratorImpl>()->random64();
    }
    torch::Tensor mask = torch::empty(sizes, torch::kFloat32);
    float* out = mask.data_ptr<float>();
    const int64_t n = mask.numel();
    // An element is dropped when its 32 random bits fall below p * 2^32.
    const uint64_t threshold = static_cast<uint64_t>(std::ldexp(p, 32));
    const float scale = static_cast<float>(1.0 / (1.0 - p));
    at::parallel_for(0, (n + 1) / 2, 1 << 14, [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i) {
            const uint64_t bits = splitmix64(seed + static_cast<uint64_t>(i));
            out[2 * i] = (bits & 0xFFFFFFFFull) >= threshold ? scale : 0.0f;
            if (2 * i + 1 < n) out[2 * i + 1] = (bits >> 32) >= threshold ? scale : 0.0f;
        }
    });
    return mask;
}

struct DropoutFunction : public torch::autograd::Function<DropoutFunction> {
    static torch::Tensor forward(torch::autograd::AutogradContext* ctx, const torch::Tensor& x, double p) {
        torch::Tensor mask = dropoutMask(x.sizes(), p);
        if (x.scalar_type() != torch::kFloat32) mask = mask.to(x.scalar_type());  // exact: 0 or 1/(1-p) rounded
        ctx->save_for_backward({mask});
        return x * mask;
    }
    static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx,
                                                    torch::autograd::variable_list gradOutputs) {
        const torch::Tensor mask = ctx->get_saved_variables()[0];
        return {gradOutputs[0] * mask, torch::Tensor()};
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
