// SPDX-License-Identifier: GPL-3.0-or-later
// The state_dict key names shared by the files of model/io/PyTorchInterop.h: blocks, heads, book vs seed names.
#pragma once

#include <cstdint>
#include <string>

#include "model/io/PyTorchInterop.h"

namespace chargpt::statedict {

bool startsWith(const std::string& s, const std::string& prefix);

// "blocks.<i>.<rest>" -> i, rest.
bool blockKey(const std::string& name, int64_t& layer, std::string& rest);

// "mha.heads.<h>.<rest>" -> h, rest.
bool headKey(const std::string& rest, int64_t& head, std::string& tail);

// A name of the book's code -> the seed notes' name (those of our checkpoints).
std::string bookToSeed(const std::string& name);

// Seed name -> the name the file itself uses, for messages.
std::string seedToFile(const std::string& name, StateDictNaming naming);

// A name of nanoGPT's, minGPT's or the lecture's layout -> the seed's
// (ForeignLayouts.cpp): c_attn.weight becomes blocks.<i>.mha.qkv.weight (split
// into heads by the caller), c_attn.bias blocks.<i>.mha.qkv.bias, nanoGPT's
// mask buffer attn.bias blocks.<i>.mha.mask. A name of no rule is returned as it is.
std::string foreignToSeed(const std::string& name, StateDictNaming naming);
// And back, for messages (a head's q, k or v weight names c_attn.weight).
std::string seedToForeign(const std::string& name, StateDictNaming naming);

// minGPT's model types (model_type in its GPT.get_default_config): the heads of
// a model of `layers` layers of width `width`, or 0 for none of them.
int64_t minGptHeads(int64_t layers, int64_t width);

}  // namespace chargpt::statedict
