// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <torch/torch.h>

namespace chargpt {

// x + branch, for the residual stream x in float32 and what a block's half
// writes into it in bf16 (its output under autocast): one pass that widens the
// branch as it adds, and a backward pass that hands x its gradient as it is and
// the branch that gradient rounded to bf16 in one more pass. LibTorch's type
// promotion did the same in three operators and two temporaries a step.
// The same bits as x + branch; any other pair of types is x + branch.
torch::Tensor residualAdd(const torch::Tensor& x, const torch::Tensor& branch);

}  // namespace chargpt
