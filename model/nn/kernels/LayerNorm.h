// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <torch/torch.h>

#include <tuple>

namespace chargpt {

// LayerNorm over the last dimension of float32 rows, forward and backward, in
// sixteen lanes: what NormLinear runs on the CPU when the rows' width is a
// multiple of sixteen (layerNormKernelTakes). LibTorch's own kernel took a
// tenth of a step of the fast preset for these few thousand rows of 128.
bool layerNormKernelTakes(const torch::Tensor& x, const torch::Tensor& weight, const torch::Tensor& bias);

// {y, mean, rstd}: y = (x - mean) rstd weight + bias in `type` (float32 or
// bfloat16: the linear layer after it takes y as it is, under autocast too),
// mean and rstd = 1 / sqrt(var + eps) per row in float32, var the biased
// variance, as at::native_layer_norm keeps them.
std::tuple<torch::Tensor, torch::Tensor, torch::Tensor> layerNormForward(const torch::Tensor& x,
                                                                         const torch::Tensor& weight,
                                                                         const torch::Tensor& bias, double eps,
                                                                         torch::ScalarType type);

// y again from the kept mean and rstd, in `type`.
torch::Tensor layerNormAgain(const torch::Tensor& x, const torch::Tensor& mean, const torch::Tensor& rstd,
                             const torch::Tensor& weight, const torch::Tensor& bias, torch::ScalarType type);

// {dL/dx, dL/dweight, dL/dbias} from dL/dy (float32 or bfloat16), as
// at::native_layer_norm_backward. The weight's and bias's sums over the rows
// are taken in blocks of a fixed number of rows and added in order, so they are
// the same whatever the number of threads.
std::tuple<torch::Tensor, torch::Tensor, torch::Tensor> layerNormBackward(const torch::Tensor& gradY,
                                                                          const torch::Tensor& x,
                                                                          const torch::Tensor& mean,
                                                                          const torch::Tensor& rstd,
                                                                          const torch::Tensor& weight);

}  // namespace chargpt
