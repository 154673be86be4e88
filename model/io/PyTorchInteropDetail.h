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

}  // namespace chargpt::statedict
