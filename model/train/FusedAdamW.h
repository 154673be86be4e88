// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <torch/torch.h>

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace chargpt {

// AdamW (decoupled weight decay, as torch.optim.AdamW) over parameters that it
// moves into one contiguous buffer, with their gradients in another. A step,
// zeroing the gradients, clipping their norm and keeping a copy of the weights
// are then each one pass over one buffer instead of one small operation per
// parameter tensor. The parameters stay the model's own tensors: only their
// storage moves.
class FusedAdamW {
public:
    struct Options {
        double beta1 = 0.9;
        double beta2 = 0.999;
        double eps = 1e-8;
        double weightDecay = 0.01;  // applied to `decay` parameters only
    };

    FusedAdamW(const std::vector<torch::Tensor>& decay, const std::vector<torch::Tensor>& noDecay,
               Options options);

    void zeroGrad() { grads_.zero_(); }
    // Scales the gradients down to `maxNorm` when their norm is larger; returns
    // the norm before clipping (not finite when a gradient is not).
    double clipGradNorm(double maxNorm);
    void step(double learningRate);

    // A copy of the weights, and putting it back.
    void saveWeights() { backup_.copy_(weights_); }
    void restoreWeights();

    int64_t stepCount() const { return step_; }
    // The moments of one parameter (views into the optimizer's buffers), or
    // undefined tensors for a tensor that is not one of the parameters.
    torch::Tensor expAvg(const torch::Tensor& param) const { return slice(expAvg_, param); }
    torch::Tensor expAvgSq(const torch::Tensor& param) const { return slice(expAvgSq_, param); }
    // Forgets the moments (as a new optimizer would start).
    void resetState();
    void setStepCount(int64_t step) { step_ = step; }

private:
    struct Place {
        int64_t offset, numel;
        std::vector<int64_t> sizes;
    };
    torch::Tensor slice(const torch::Tensor& buffer, const torch::Tensor& param) const;

    Options options_;
    std::vector<torch::Tensor> params_;
    std::unordered_map<const void*, Place> places_;  // by TensorImpl
    torch::Tensor weights_, grads_, expAvg_, expAvgSq_, backup_;  // (N) each
    int64_t decayNumel_ = 0;  // the first decayNumel_ elements get weight decay
    int64_t step_ = 0;
};

}  // namespace chargpt
