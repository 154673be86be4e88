// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/nn/kernels/NormLinear.h"
#include "model/nn/kernels/LayerNorm.h"

#include <ATen/autocast_mode.h>
#include <ATen/record_function.h>
#include <torch/csrc/autograd/custom_function.h>

namespace chargpt {

namespace {

struct NormLinearFunction : public torch::autograd::Function<NormLinearFunction> {
    static torch::Tensor forward(torch::autograd::AutogradContext* ctx, const torch::Tensor& x,
                                 const torch::Tensor& normWeight, const torch::Tensor& normBias,
                                 const torch::Tensor& weight, const torch::Tensor& bias, double eps) {
        RECORD_FUNCTION("chargpt::norm_linear", std::vector<c10::IValue>());
        const int64_t C = x.size(-1);
        // An empty bias stands for none (autograd functions take no undefined inputs).
        const torch::Tensor linearBias = bias.numel() ? bias : torch::Tensor();
        const bool kernel = layerNormKernelTakes(x, normWeight, normBias);
        ctx->saved_data["eps"] = eps;
        ctx->saved_data["kernel"] = kernel;
        // The kernel writes y straight in the type the linear layer multiplies in (bf16 under autocast).
        const auto type = at::autocast::is_cpu_enabled() ? at::autocast::get_autocast_cpu_dtype() : x.scalar_type();
        auto [y, mean, rstd] = kernel ? layerNormForward(x, normWeight, normBias, eps, type)
                                      : at::native_layer_norm(x, {C}, normWeight, normBias, eps);
        ctx->save_for_backward({x, mean, rstd, normWeight, normBias, weight, bias});
        return torch::linear(y, weight, linearBias);  // autocast as for nn::Linear
    }

    static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx,
                                                    torch::autograd::variable_list gradOutputs) {
        RECORD_FUNCTION("chargpt::norm_linear_backward", std::vector<c10::IValue>());
        const auto saved = ctx->get_saved_variables();
        const torch::Tensor &x = saved[0], &mean = saved[1], &rstd = saved[2], &normWeight = saved[3],
                            &normBias = saved[4], &weight = saved[5], &bias = saved[6];
        const int64_t C = x.size(-1), out = weight.size(0);
        const bool kernel = ctx->saved_data["kernel"].toBool();
        // The linear part in the forward pass's precision (bf16 under autocast).
        const auto type = gradOutputs[0].scalar_type();
        // y again, exactly as the forward pass made it (one pass over x).
        const torch::Tensor y =
            (kernel ? layerNormAgain(x, mean, rstd, normWeight, normBias, type)
                    : std::get<0>(at::native_layer_norm(x, {C}, normWeight, normBias,
                                                        ctx->saved_data["eps"].toDouble())))
                .reshape({-1, C});
        const torch::Tensor grad = gradOutputs[0].reshape({-1, out});
        const torch::Tensor gradWeight = grad.t().mm(y.to(type)).to(weight.scalar_type());
        const torch::Tensor gradBias = bias.numel() ? grad.sum(0).to(bias.scalar_type()) : torch::Tensor();
        const torch::Tensor gradY = grad.mm(weight.to(type));  // (N, C)
        auto [gradX, gradNormWeight, gradNormBias] =
            kernel ? layerNormBackward(gradY, x, mean, rstd, normWeight)
                   : at::native_layer_norm_backward(gradY.to(x.scalar_type()).view(x.sizes()), x, {C}, mean, rstd,
                                                    normWeight, normBias, {true, true, true});
        return {gradX, gradNormWeight, gradNormBias, gradWeight, gradBias, torch::Tensor()};
    }
};

}  // namespace

torch::Tensor evalLinear(const torch::Tensor& x, const torch::Tensor& weight, const torch::Tensor& bias) {
    const int64_t in = x.size(-1);
    const bool oneRow = x.numel() == in && x.device().is_cpu() && x.scalar_type() == torch::kFloat32 &&
                        weight.scalar_type() == torch::kFloat32 && !at::autocast::is_cpu_enabled();
    if (!oneRow) return torch::linear(x, weight, bias);
    auto sizes = x.sizes().vec();
    sizes.back() = weight.size(0);
    const auto row = x.reshape({in});                                              // (in)
    const auto y = bias.defined() ? torch::addmv(bias, weight, row) : torch::mv(weight, row);  // (out)
    return y.view(sizes);
}

torch::Tensor normLinear(const torch::Tensor& x, const torch::Tensor& normWeight, const torch::Tensor& normBias,
                         const torch::Tensor& weight, const torch::Tensor& bias, double eps) {
    // Without gradients nothing is kept for a backward pass: the plain operators,
    // without the autograd function's bookkeeping (what cached decoding runs).
    if (!torch::GradMode::is_enabled())
        return evalLinear(torch::layer_norm(x, {x.size(-1)}, normWeight, normBias, eps), weight, bias);
    return NormLinearFunction::apply(x, normWeight, normBias, weight,
                                     bias.defined() ? bias : torch::empty({0}, weight.options().requires_grad(false)),
                                     eps);
}

}  // namespace chargpt
