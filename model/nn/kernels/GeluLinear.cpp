// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/nn/kernels/GeluLinear.h"

#include <ATen/Parallel.h>
#include <ATen/record_function.h>
#include <torch/csrc/autograd/custom_function.h>

#include <algorithm>
#include <array>
#include <type_traits>

#include "model/nn/kernels/KernelTiers.h"
#include "model/nn/kernels/NormLinear.h"
#include "model/nn/kernels/Vec16.h"
#include "model/nn/kernels/Vec8.h"

namespace chargpt {

namespace {

using vec::Vf;

constexpr float kInvSqrt2 = 0.70710678118654752f;
constexpr float kInvSqrt2Pi = 0.39894228040143268f;

// g = gelu(u) = u Phi(u), Phi(u) = (1 + erf(u / sqrt 2)) / 2, for elements
// [16 begin, 16 end), a vector V (Vf, or V8 in the AVX2 build) at a time.
template <typename T, typename V>
CHARGPT_KERNEL void geluBlocks(const T* __restrict__ u, T* __restrict__ g, int64_t begin, int64_t end) {
    for (int64_t e = begin * vec::kLanes; e < end * vec::kLanes; e += vec::kLanesOf<V>) {
        const V x = vec::loadAsLanes<V>(u + e);
        vec::storeAsLanes(g + e, 0.5f * x * (1.0f + vec::erf(x * kInvSqrt2)));
    }
}

// The backward pass's one pass over u: g = gelu(u) again (for the weight's
// gradient) and dL/du = dL/dg (Phi(u) + u phi(u)), phi the normal density.
template <typename T, typename V>
CHARGPT_KERNEL void geluBackwardBlocks(const T* __restrict__ u, const T* __restrict__ gradG,
                                       T* __restrict__ g, T* __restrict__ gradU, int64_t begin, int64_t end) {
    for (int64_t e = begin * vec::kLanes; e < end * vec::kLanes; e += vec::kLanesOf<V>) {
        const V x = vec::loadAsLanes<V>(u + e);
        const V phi = 0.5f * (1.0f + vec::erf(x * kInvSqrt2));
        const V density = kInvSqrt2Pi * vec::expNonPositive(-0.5f * x * x);
        vec::storeAsLanes(g + e, x * phi);
        vec::storeAsLanes(gradU + e, vec::loadAsLanes<V>(gradG + e) * (phi + x * density));
    }
}

// Runs `blocks` over whole vectors in parallel, then once more over the last
// n % 16 elements copied into vectors of their own (so every element takes the
// same arithmetic). `inputs` are read, `outputs` written, all of n elements.
template <typename T, std::size_t In, std::size_t Out, typename Blocks>
void overElements(int64_t n, const std::array<const T*, In>& inputs, const std::array<T*, Out>& outputs,
                  Blocks&& blocks) {
    const int64_t whole = n / vec::kLanes;
    at::parallel_for(0, whole, 1024,
                     [&](int64_t begin, int64_t end) { blocks(inputs, outputs, begin, end); });
    const int64_t done = whole * vec::kLanes, rest = n - done;
    if (rest == 0) return;
    std::array<std::array<T, vec::kLanes>, In> in{};
    std::array<std::array<T, vec::kLanes>, Out> out{};
    std::array<const T*, In> inPtr;
    std::array<T*, Out> outPtr;
    for (std::size_t i = 0; i < In; ++i) {
        std::copy_n(inputs[i] + done, rest, in[i].data());
        inPtr[i] = in[i].data();
    }
    for (std::size_t i = 0; i < Out; ++i) outPtr[i] = out[i].data();
    blocks(inPtr, outPtr, 0, 1);
    for (std::size_t i = 0; i < Out; ++i) std::copy_n(out[i].data(), rest, outputs[i] + done);
}

bool kernelsTake(const torch::Tensor& u) {
    return u.device().is_cpu() && (u.scalar_type() == torch::kFloat32 || u.scalar_type() == torch::kBFloat16);
}

// Calls run(T*) with a null pointer of u's element type, float or bf16.
template <typename Run>
void forElementType(const torch::Tensor& u, Run&& run) {
    if (u.scalar_type() == torch::kFloat32)
        run(static_cast<float*>(nullptr));
    else
        run(static_cast<c10::BFloat16*>(nullptr));
}

torch::Tensor exactGelu(const torch::Tensor& input) {
    if (!kernelsTake(input)) return torch::gelu(input);
    const torch::Tensor u = input.contiguous();
    torch::Tensor g = torch::empty_like(u);
    forElementType(u, [&](auto* typed) {
        using T = std::remove_pointer_t<decltype(typed)>;
        overElements<T, 1, 1>(u.numel(), {u.data_ptr<T>()}, {g.data_ptr<T>()},
                              [](const auto& in, const auto& out, int64_t begin, int64_t end) {
                                  kernels::tieredByWidth<geluBlocks<T, Vf>, geluBlocks<T, vec::V8>>(
                                      in[0], out[0], begin, end);
                              });
    });
    return g;
}

// {gelu(u), dL/du} from u and dL/dg, of one type.
std::pair<torch::Tensor, torch::Tensor> geluBackward(const torch::Tensor& input, const torch::Tensor& gradG) {
    if (!kernelsTake(input)) return {torch::gelu(input), at::gelu_backward(gradG, input)};
    const torch::Tensor u = input.contiguous(), dg = gradG.to(u.scalar_type()).contiguous();
    torch::Tensor g = torch::empty_like(u), du = torch::empty_like(u);
    forElementType(u, [&](auto* typed) {
        using T = std::remove_pointer_t<decltype(typed)>;
        overElements<T, 2, 2>(
            u.numel(), {u.data_ptr<T>(), dg.data_ptr<T>()}, {g.data_ptr<T>(), du.data_ptr<T>()},
            [](const auto& in, const auto& out, int64_t begin, int64_t end) {
                kernels::tieredByWidth<geluBackwardBlocks<T, Vf>, geluBackwardBlocks<T, vec::V8>>(
                    in[0], in[1], out[0], out[1], begin, end);
            });
    });
    return {g, du};
}

struct GeluLinearFunction : public torch::autograd::Function<GeluLinearFunction> {
    static torch::Tensor forward(torch::autograd::AutogradContext* ctx, const torch::Tensor& u,
                                 const torch::Tensor& weight, const torch::Tensor& bias) {
        RECORD_FUNCTION("chargpt::gelu_linear", std::vector<c10::IValue>());
        ctx->save_for_backward({u, weight, bias});
        return torch::linear(exactGelu(u), weight, bias);  // autocast applies as to nn::Linear
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
        const torch::Tensor grad = gradOutputs[0].reshape({-1, out});              // (N, out)
        const torch::Tensor u2 = u.reshape({-1, in}).to(type);                     // (N, in)
        const torch::Tensor gradG = grad.mm(weight.to(type));                      // (N, in)
        const auto [g, gradU] = geluBackward(u2, gradG);                           // one pass over u
        const torch::Tensor gradWeight = grad.t().mm(g).to(weight.scalar_type());  // (out, in)
        const torch::Tensor gradBias = grad.sum(0).to(bias.scalar_type());
        return {gradU.to(u.scalar_type()).view(u.sizes()), gradWeight, gradBias};
    }
};

}  // namespace

torch::Tensor geluLinear(const torch::Tensor& u, const torch::Tensor& weight, const torch::Tensor& bias) {
    if (!torch::GradMode::is_enabled()) return evalLinear(exactGelu(u), weight, bias);  // nothing to keep
    return GeluLinearFunction::apply(u, weight, bias);
}

}  // namespace chargpt
