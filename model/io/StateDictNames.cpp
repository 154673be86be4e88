// SPDX-License-Identifier: GPL-3.0-or-later
// The names of a state_dict: the book's and the seed notes' keys, and the block and head numbers in them.
#include "model/io/PyTorchInteropDetail.h"

#include <cstring>
#include <utility>

namespace chargpt {

namespace statedict {

bool startsWith(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

// "blocks.<i>.<rest>" -> i, rest.
bool blockKey(const std::string& name, int64_t& layer, std::string& rest) {
    if (!startsWith(name, "blocks.")) return false;
    const std::size_t dot = name.find('.', 7);
    if (dot == std::string::npos || dot == 7 || dot - 7 > 6) return false;
    const std::string digits = name.substr(7, dot - 7);
    if (digits.find_first_not_of("0123456789") != std::string::npos) return false;
    layer = std::stoll(digits);
    rest = name.substr(dot + 1);
    return true;
}

// "mha.heads.<h>.<rest>" -> h, rest.
bool headKey(const std::string& rest, int64_t& head, std::string& tail) {
    if (!startsWith(rest, "mha.heads.")) return false;
    const std::size_t dot = rest.find('.', 10);
    if (dot == std::string::npos || dot == 10 || dot - 10 > 6) return false;
    const std::string digits = rest.substr(10, dot - 10);
    if (digits.find_first_not_of("0123456789") != std::string::npos) return false;
    head = std::stoll(digits);
    tail = rest.substr(dot + 1);
    return true;
}

namespace {

// The book's published names beside the seed notes' names (those of our
// checkpoints): prefixes of the whole name, then of the rest within a block.
constexpr std::pair<const char*, const char*> kTopNames[] = {
    {"token_embedding.", "token_emb."}, {"position_embedding.", "pos_emb."}, {"ln.", "l."}, {"lm_head.", "lm."}};
constexpr std::pair<const char*, const char*> kBlockNames[] = {
    {"ln1.", "l1."}, {"ln2.", "l2."}, {"ff.l1.", "ff.ln1."}, {"ff.l2.", "ff.ln2."}};

// Renames a key book -> seed (toSeed) or seed -> book by the tables above.
std::string renameKey(const std::string& name, bool toSeed) {
    for (const auto& [book, seed] : kTopNames) {
        const char* from = toSeed ? book : seed;
        if (startsWith(name, from)) return (toSeed ? seed : book) + name.substr(std::strlen(from));
    }
    int64_t layer = 0;
    std::string rest;
    if (blockKey(name, layer, rest))
        for (const auto& [book, seed] : kBlockNames) {
            const char* from = toSeed ? book : seed;
            if (startsWith(rest, from))
                return "blocks." + std::to_string(layer) + "." + (toSeed ? seed : book) +
                       rest.substr(std::strlen(from));
        }
    return name;
}

}  // namespace

std::string bookToSeed(const std::string& name) { return renameKey(name, /*toSeed=*/true); }

// Seed name -> the name the file itself uses, for messages.
std::string seedToFile(const std::string& name, StateDictNaming naming) {
    if (isForeign(naming)) return seedToForeign(name, naming);
    return naming == StateDictNaming::SeedNotes ? name : renameKey(name, /*toSeed=*/false);
}

}  // namespace statedict

const char* toString(StateDictNaming naming) {
    switch (naming) {
        case StateDictNaming::SeedNotes: return "the seed notes";
        case StateDictNaming::Book: return "the book's code";
        case StateDictNaming::NanoGPT: return "nanoGPT";
        case StateDictNaming::MinGPT: return "minGPT";
        case StateDictNaming::Lecture: return "the lecture's gpt.py";
    }
    return "";
}

}  // namespace chargpt
