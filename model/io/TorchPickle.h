// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <torch/torch.h>

#include <string>
#include <utility>
#include <vector>

namespace chargpt {

// The tensors of a file written by Python's `torch.save(obj, path)` (the zip
// format of PyTorch 1.6 and later), in the order the file lists them.
//
// torch::pickle_load cannot read `torch.save(model.state_dict())`: LibTorch's
// unpickler turns every collections.OrderedDict into None (it expects one only
// as a tensor's empty backward hooks), so the state_dict's items have nowhere
// to go. This reader understands the subset of pickle that torch.save writes
// (protocols 2 to 5): dicts and OrderedDicts, lists, tuples, numbers, strings
// and tensors rebuilt by torch._utils._rebuild_tensor_v2 from the archive's
// storages. Anything else (a whole pickled nn.Module, say) is refused with a
// message saying what was found.
struct PickledStateDict {
    std::vector<std::pair<std::string, torch::Tensor>> tensors;  // float tensors keep their dtype
    // Where the tensors were found: "" for the top level, else the key of the
    // nested dict that held them ("model", "state_dict", ...).
    std::string foundUnder;
};

// Throws chargpt::Error with a readable message when the file cannot be read or
// holds no dictionary of tensors.
PickledStateDict readTorchStateDict(const std::string& path);

}  // namespace chargpt
