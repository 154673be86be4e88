// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/nn/kernels/ResidualAdd.h"

#include "model/nn/kernels/DecoderMath.h"
#include "model/nn/kernels/KernelTiers.h"
#include "model/nn/kernels/Vec16.h"

#include <ATen/Parallel.h>
#include <ATen/record_function.h>
#include <torch/csrc/autograd/custom_function.h>

namespace chargpt {

namespace {

// Elements per task of the two passes (a step's residual stream is 262,144).
constexpr int64_t kGrain = 1 << 15;

CHARGPT_KERNEL void addWidened(const float* __restrict__ x, const uint16_t* __restrict__ branch,
                               float* __restrict__ out, int64_t begin, int64_t end) {
    int64_t i = begin;
    for (; i + vec::kLanes <= end; i += vec::kLanes)
        vec::store(out + i, vec::load(x + i) + vec::loadBf16(branch + i));
    for (; i < end; ++i) out[i] = x[i] + static_cast<float>(c10::BFloat16(branch[i], c10::BFloat16::from_bits()));
}

bool fuses(const torch::Tensor& x, const torch::Tensor& branch) {
    return x.device().is_cpu() && branch.device().is_cpu() && x.scalar_type() == torch::kFloat32 &&
           branch.scalar_type() == torch::kBFloat16 && x.sizes() == branch.sizes() && x.is_contiguous() &&
           branch.is_contiguous();
}

torch::Tensor added(const torch::Tensor& x, const torch::Tensor& branch) {
    torch::Tensor out = torch::empty_like(x);
    const float* in = x.data_ptr<float>();
    const auto* b = reinterpret_cast<const uint16_t*>(branch.data_ptr<at::BFloat16>());
    float* o = out.data_ptr<float>();
    at::parallel_for(0, x.numel(), kGrain, [&](int64_t begin, int64_t end) { kernels::tiered<addWidened>(in, b, o, begin, end); });
    return out;
}

torch::Tensor bf16Of(const torch::Tensor& grad) {
    if (!grad.device().is_cpu() || grad.scalar_type() != torch::kFloat32 || !grad.is_contiguous())
        return grad.to(torch::kBFloat16);
    torch::Tensor out = torch::empty(grad.sizes(), grad.options().dtype(torch::kBFloat16));
    const float* in = grad.data_ptr<float>();
    auto* o = reinterpret_cast<uint16_t*>(out.data_ptr<at::BFloat16>());
    at::parallel_for(0, grad.numel(), kGrain, [&](int64_t begin, int64_t end) {
        decoding::roundToBf16(in + begin, end - begin, o + begin);
    });
    return out;
}

struct ResidualAddFunction : public torch::autograd::Function<ResidualAddFunction> {
    static torch::Tensor forward(torch::autograd::AutogradContext*, const torch::Tensor& x,
                                 const torch::Tensor& branch) {
        RECORD_FUNCTION("chargpt::residual_add", std::vector<c10::IValue>());
        return added(x, branch);
    }
    static torch::autograd::variable_list backward(torch::autograd::AutogradContext*,
                                                    torch::autograd::variable_list grads) {
        RECORD_FUNCTION("chargpt::residual_add_backward", std::vector<c10::IValue>());
        return {grads[0], bf16Of(grads[0])};
    }
};

}  // namespace

torch::Tensor residualAdd(const torch::Tensor& x, const torch::Tensor& branch) {
    if (!fuses(x, branch)) return x + branch;
    if (!torch::GradMode::is_enabled() || (!x.requires_grad() && !branch.requires_grad())) return added(x, branch);
    return ResidualAddFunction::apply(x, branch);
}

}  // namespace chargpt
