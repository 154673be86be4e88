// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/runtime/Device.h"

#include <torch/cuda.h>

#include <cstdlib>
#include <cstring>

namespace chargpt {

torch::Device computeDevice() {
    static const torch::Device device = [] {
        const char* wanted = std::getenv("CHARGPT_DEVICE");
        if (wanted && std::strcmp(wanted, "cpu") == 0) return torch::Device(torch::kCPU);
        if (torch::cuda::is_available()) return torch::Device(torch::kCUDA, 0);
        return torch::Device(torch::kCPU);
    }();
    return device;
}

std::string computeDeviceName() { return computeDevice().str(); }

}  // namespace chargpt
