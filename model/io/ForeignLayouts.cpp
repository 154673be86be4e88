// SPDX-License-Identifier: GPL-3.0-or-later
// The state_dict names of nanoGPT, minGPT and the lecture's gpt.py beside the seed's (model/io/PyTorchInterop.h).
#include <cstring>
#include <utility>

#include "model/io/PyTorchInteropDetail.h"

namespace chargpt::statedict {

namespace {

// A rule whose file name ends in '.' renames every name it starts; any other
// renames that name only.
using Rule = std::pair<const char*, const char*>;

// nanoGPT and minGPT (model.py's GPT): the whole name, then the rest within
// transformer.h.<i>.
constexpr Rule kGptTop[] = {
    {"transformer.wte.", "token_emb."}, {"transformer.wpe.", "pos_emb."}, {"transformer.ln_f.", "l."}, {"lm_head.", "lm."}};
constexpr Rule kGptBlock[] = {{"ln_1.", "l1."},
                              {"ln_2.", "l2."},
                              {"attn.c_attn.weight", "mha.qkv.weight"},
                              {"attn.c_attn.bias", "mha.qkv.bias"},
                              {"attn.c_proj.", "mha.proj."},
                              {"attn.bias", "mha.mask"},
                              {"mlp.c_fc.", "ff.ln1."},
                              {"mlp.c_proj.", "ff.ln2."}};
// The lecture's gpt.py (BigramLanguageModel): the whole name, then the rest within blocks.<i>.
constexpr Rule kLectureTop[] = {{"token_embedding_table.", "token_emb."},
                                {"position_embedding_table.", "pos_emb."},
                                {"ln_f.", "l."},
                                {"lm_head.", "lm."}};
constexpr Rule kLectureBlock[] = {{"ln1.", "l1."},           {"ln2.", "l2."},
                                  {"sa.heads.", "mha.heads."}, {"sa.proj.", "mha.proj."},
                                  {"ffwd.net.0.", "ff.ln1."},  {"ffwd.net.2.", "ff.ln2."}};

bool isPrefixRule(const char* from) { return from[std::strlen(from) - 1] == '.'; }

// `name` by the first rule of `rules` whose `from` side it matches; false when none does.
template <std::size_t N>
bool renamed(const std::string& name, const Rule (&rules)[N], bool forward, std::string& out) {
    for (const auto& rule : rules) {
        const char* from = forward ? rule.first : rule.second;
        const char* to = forward ? rule.second : rule.first;
        const bool prefix = isPrefixRule(from);
        if (prefix ? startsWith(name, from) : name == from) {
            out = to + (prefix ? name.substr(std::strlen(from)) : std::string());
            return true;
        }
    }
    return false;
}

// "<prefix><i>.<rest>" -> i, rest.
bool numbered(const std::string& name, const std::string& prefix, int64_t& index, std::string& rest) {
    if (!startsWith(name, prefix)) return false;
    const std::size_t start = prefix.size();
    const std::size_t dot = name.find('.', start);
    if (dot == std::string::npos || dot == start || dot - start > 6) return false;
    const std::string digits = name.substr(start, dot - start);
    if (digits.find_first_not_of("0123456789") != std::string::npos) return false;
    index = std::stoll(digits);
    rest = name.substr(dot + 1);
    return true;
}

}  // namespace

std::string foreignToSeed(const std::string& name, StateDictNaming naming) {
    const bool gpt = naming == StateDictNaming::NanoGPT || naming == StateDictNaming::MinGPT;
    if (!gpt && naming != StateDictNaming::Lecture) return name;
    std::string out;
    if (gpt ? renamed(name, kGptTop, true, out) : renamed(name, kLectureTop, true, out)) return out;
    int64_t layer = 0;
    std::string rest;
    if (numbered(name, gpt ? "transformer.h." : "blocks.", layer, rest) &&
        (gpt ? renamed(rest, kGptBlock, true, out) : renamed(rest, kLectureBlock, true, out)))
        return "blocks." + std::to_string(layer) + "." + out;
    return name;
}

std::string seedToForeign(const std::string& name, StateDictNaming naming) {
    const bool gpt = naming == StateDictNaming::NanoGPT || naming == StateDictNaming::MinGPT;
    if (!gpt && naming != StateDictNaming::Lecture) return name;
    std::string out;
    if (gpt ? renamed(name, kGptTop, false, out) : renamed(name, kLectureTop, false, out)) return out;
    int64_t layer = 0, head = 0;
    std::string rest, tail;
    if (!blockKey(name, layer, rest)) return name;
    if (gpt && headKey(rest, head, tail)) rest = "mha.qkv.weight";  // every head's q, k and v are c_attn's rows
    if (gpt ? renamed(rest, kGptBlock, false, out) : renamed(rest, kLectureBlock, false, out))
        return (gpt ? "transformer.h." : "blocks.") + std::to_string(layer) + "." + out;
    return name;
}

int64_t minGptHeads(int64_t layers, int64_t width) {
    // model.py's GPT: model_type -> n_layer, n_head, n_embd.
    struct Type {
        int64_t layers, heads, width;
    };
    constexpr Type kTypes[] = {{12, 12, 768}, {24, 16, 1024}, {36, 20, 1280}, {48, 25, 1600}, {8, 16, 512},
                               {6, 6, 192},   {4, 4, 128},    {3, 3, 48}};
    for (const Type& t : kTypes)
        if (t.layers == layers && t.width == width) return t.heads;
    return 0;
}

}  // namespace chargpt::statedict
