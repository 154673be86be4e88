// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/train/FusedAdamW.h"
#include "model/nn/kernels/KernelTiers.h"

#include <ATen/Parallel.h>
#include <ATen/record_function.h>

#include <cmath>

namespace chargpt {

namespace {

struct AdamWConstants {
    float b1, b2, stepSize, invSqrtCorrection2, eps, decay;
};

// One pass in registers over [begin, end): p, g, m and v are read once and
// written once. Built for AVX-512 and AVX2 as well (KernelTiers.h): with the
// baseline's four lanes the square roots and divisions took most of a fast
// preset's optimizer step.
CHARGPT_KERNEL void adamwUpdate(float* __restrict__ p, const float* __restrict__ g, float* __restrict__ m,
                                float* __restrict__ v, int64_t begin, int64_t end, const AdamWConstants& c) {
    const float b1 = c.b1, b2 = c.b2, stepSize = c.stepSize, invSqrtC2 = c.invSqrtCorrection2, eps = c.eps,
                decay = c.decay;
    for (int64_t i = begin; i < end; ++i) {
        const float grad = g[i];
        const float mi = m[i] = b1 * m[i] + (1.0f - b1) * grad;
        const float vi = v[i] = b2 * v[i] + (1.0f - b2) * grad * grad;
        p[i] = p[i] * decay - stepSize * mi / (std::sqrt(vi) * invSqrtC2 + eps);
    }
}

}  // namespace

FusedAdamW::FusedAdamW(const std::vector<torch::Tensor>& decay, const std::vector<torch::Tensor>& noDecay,
                       Options options)
    : options_(options) {
    params_ = decay;
    params_.insert(params_.end(), noDecay.begin(), noDecay.end());
    int64_t total = 0;
    for (const auto& p : params_) total += p.numel();
    for (const auto& p : decay) decayNumel_ += p.numel();

    const auto tensorOptions = params_.empty() ? torch::TensorOptions(torch::kFloat32)
                                               : params_.front().options().requires_grad(false);
    weights_ = torch::empty({total}, tensorOptions);
    grads_ = torch::zeros({total}, tensorOptions);
    expAvg_ = torch::zeros({total}, tensorOptions);
    expAvgSq_ = torch::zeros({total}, tensorOptions);
    backup_ = torch::empty({total}, tensorOptions);

    torch::NoGradGuard noGrad;
    int64_t offset = 0;
    for (auto& p : params_) {
        const int64_t n = p.numel();
        torch::Tensor storage = weights_.narrow(0, offset, n).view(p.sizes());
        storage.copy_(p);
        p.set_data(storage);  // the model's tensor now lives in the flat buffer
        p.mutable_grad() = grads_.narrow(0, offset, n).view(p.sizes());  // autograd adds into it
        places_[p.unsafeGetTensorImpl()] = {offset, n, p.sizes().vec()};
        offset += n;
    }
}

torch::Tensor FusedAdamW::slice(const torch::Tensor& buffer, const torch::Tensor& param) const {
    auto it = places_.find(param.unsafeGetTensorImpl());
    if (it == places_.end()) return {};
    return buffer.narrow(0, it->second.offset, it->second.numel).view(it->second.sizes);
}

double FusedAdamW::clipGradNorm(double maxNorm) {
    torch::NoGradGuard noGrad;
    const double norm = grads_.norm().item<double>();
    if (std::isfinite(norm) && norm > maxNorm) grads_.mul_(maxNorm / (norm + 1e-6));
    return norm;
}

void FusedAdamW::restoreWeights() {
    torch::NoGradGuard noGrad;
    weights_.copy_(backup_);
}

void FusedAdamW::resetState() {
    expAvg_.zero_();
    expAvgSq_.zero_();
    step_ = 0;
}

void FusedAdamW::step(double lr) {
    RECORD_FUNCTION("chargpt::adamw_step", std::vector<c10::IValue>());
    torch::NoGradGuard noGrad;
    ++step_;
    const double b1 = options_.beta1, b2 = options_.beta2;
    const double correction1 = 1.0 - std::pow(b1, double(step_));
    const double correction2 = 1.0 - std::pow(b2, double(step_));
    const double stepSize = lr / correction1;
    const double sqrtCorrection2 = std::sqrt(correction2);
    const double decayFactor = 1.0 - lr * options_.weightDecay;

    if (weights_.device().is_cpu() && weights_.scalar_type() == torch::kFloat32) {
        float* p = weights_.data_ptr<float>();
        const float* g = grads_.data_ptr<float>();
        float* m = expAvg_.data_ptr<float>();
        float* v = expAvgSq_.data_ptr<float>();
        const AdamWConstants constants{float(b1), float(b2), float(stepSize), float(1.0 / sqrtCorrection2),
                                       float(options_.eps), float(decayFactor)};
        auto update = [&](int64_t from, int64_t to, float decay) {
            AdamWConstants c = constants;
            c.decay = decay;
            at::parallel_for(from, to, 1 << 15,
                             [&](int64_t begin, int64_t end) { kernels::tiered<adamwUpdate>(p, g, m, v, begin, end, c); });
        };
        update(0, decayNumel_, constants.decay);
        update(decayNumel_, weights_.numel(), 1.0f);
        return;
    }
    // Other devices: the same arithmetic as tensor operations.
    weights_.narrow(0, 0, decayNumel_).mul_(decayFactor);
    expAvg_.mul_(b1).add_(grads_, 1.0 - b1);
    expAvgSq_.mul_(b2).addcmul_(grads_, grads_, 1.0 - b2);
    auto denom = (expAvgSq_.sqrt() / sqrtCorrection2).add_(options_.eps);
    weights_.addcdiv_(expAvg_, denom, -stepSize);
}

}  // namespace chargpt
