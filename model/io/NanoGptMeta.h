// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Where nanoGPT keeps a model's vocabulary, without LibTorch (the window asks
// before it imports). Reading it: readNanoGptMeta in model/io/PyTorchInterop.h.

#include <string>

namespace chargpt {

// The meta.pkl nanoGPT's sample.py reads for the checkpoint `checkpointPath`
// of dataset `dataset` (its config['dataset']): beside the checkpoint, in
// data/<dataset>/ of the folder above it (nanoGPT's out-*/ckpt.pt) or of the
// working folder; "" when there is none. Without a dataset (the checkpoint not
// read yet), data/*/meta.pkl of the folder above is taken when there is only
// one. A dataset that is not a plain folder name is not followed.
std::string findNanoGptMeta(const std::string& checkpointPath, const std::string& dataset = {});

}  // namespace chargpt
