// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/nn/kernels/GeluLinear.h"
#include "model/nn/kernels/NormLinear.h"

#include <ATen/record_function.h>
#include <torch/csrc/autograd/custom_function.h>

namespace chargpt {

namespace {

struct GeluLinearFunction : public torch::autograd::Function<GeluLinearFunction> {
    static torch::Tensor forward(torch::autograd::AutogradContext* ctx, const torch::Tensor& u,
                                 const torch::Tensor& weight, const torch::Tensor& bias) {
        RECORD_FUNCTION("chargpt::gelu_linear", std::vector<c10::IValue>());
        ctx->save_for_backward({u, weight, bias});
        return torch::linear(torch::gelu(u), weight, bias);  // autocast applies as to nn::Linear
    }

    static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx,
                                                    torch::autograd::variable_list gradOutputs) {
        RECORD_FUNCTION("chargpt::gelu_linear_backward", std::vector<c10::IValue>());
        const auto saved = ctx->get_saved_variables();
        const torch::Tensor& u = saved[0];
        const torch::Tensor& weight = saved[1];
        const torch::Tensor& bias = saved[2];
        const int64_t in = u.size(-1), out = weight.size(0);
        // In the forward pass's precision (bf16 under autocast, else fp32).
        const auto type = gradOutputs[0].scalar_type();
        const torch::Tensor grad = gradOutputs[0].reshape({-1, out});  // (N, out)
        const torch::Tensor u2 = u.reshape({-1, in}).to(type);         // (N, in)
        const torch::Tensor g = torch::gelu(u2);
        const torch::Tensor gradWeight = grad.t().mm(g).to(weight.scalar_type());  // (out, in)
        const torch::Tensor gradBias = grad.sum(0).to(bias.scalar_type());
        const torch::Tensor gradG = grad.mm(weight.to(type));                       // (N, in)
        const torch::Tensor gradU = at::gelu_backward(gradG, u2).to(u.scalar_type()).view(u.sizes());
        return {gradU, gradWeight, gradBias};
    }
};

}  // namespace

torch::Tensor geluLinear(const torch::Tensor& u, const torch::Tensor& weight, const torch::Tensor& bias) {
    if (!torch::GradMode::is_enabled()) return evalLinear(torch::gelu(u), weight, bias);  // nothing to keep
    return GeluLinearFunction::apply(u, weight, bias);
}

}  // namespace chargpt
