// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <torch/torch.h>

#include <string>

namespace chargpt {

// The device every model of this process trains and runs on, chosen once, at
// the first call: the first CUDA GPU when this LibTorch build has CUDA and sees
// one, else the CPU. CHARGPT_DEVICE=cpu keeps a CUDA build on the CPU.
// Models are built on the CPU (seeded initialisation is the same everywhere)
// and moved here; batches and prompts follow the model's own device.
torch::Device computeDevice();

// "cpu" or "cuda:0", for messages.
std::string computeDeviceName();

}  // namespace chargpt
