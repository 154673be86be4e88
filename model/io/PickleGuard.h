// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <string>

namespace chargpt {

// A pickle can name any Python function (os.system, builtins.eval) and call it
// with REDUCE. LibTorch's unpickler runs no Python, but a checkpoint has no
// reason to name code at all, so a file that does is refused before it is
// unpickled. This walks the pickle's instructions without executing any and
// returns "" when every name it holds is one a torch.save file of tensors,
// numbers, strings, lists and dicts uses (torch storages, tensor rebuilding,
// collections.OrderedDict); otherwise a sentence saying what was found, e.g.
// "it names the Python function os.system".
std::string foreignCodeInPickle(const unsigned char* data, std::size_t size);

}  // namespace chargpt
