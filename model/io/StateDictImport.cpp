// SPDX-License-Identifier: GPL-3.0-or-later
// Checking a state_dict against the model its shapes describe, and importing it as a checkpoint.
#include "model/io/PyTorchInterop.h"

#include <algorithm>
#include <set>
#include <sstream>

#include "model/runtime/Device.h"
#include "model/runtime/Error.h"
#include "model/io/PyTorchInteropDetail.h"

namespace chargpt {

namespace {

std::string shapeText(at::IntArrayRef sizes) {
    std::string s = "(";
    for (std::size_t i = 0; i < sizes.size(); ++i) s += (i ? ", " : "") + std::to_string(sizes[i]);
    return s + ")";
}

void listProblems(std::ostringstream& out, const char* title, const std::vector<std::string>& items) {
    if (items.empty()) return;
    out << "\n- " << title << ": ";
    const std::size_t shown = std::min<std::size_t>(items.size(), 12);
    for (std::size_t i = 0; i < shown; ++i) out << (i ? ", " : "") << items[i];
    if (items.size() > shown) out << " and " << items.size() - shown << " more";
}

}  // namespace

std::string StateDictReport::describe() const {
    std::ostringstream out;
    out << "the state_dict (named as in " << toString(naming) << ") does not fit the model its shapes describe ("
        << config.n_layer << " layers, " << config.n_head() << " heads of " << config.head_size << ", width "
        << config.emb_size << ", context " << config.sequence_len << ", " << config.vocab_size << " tokens):";
    if (!vocabularyProblem.empty()) out << "\n- " << vocabularyProblem;
    listProblems(out, "missing", missing);
    listProblems(out, "unexpected", unexpected);
    listProblems(out, "wrong", mismatched);
    return out.str();
}

StateDictReport inspectStateDict(const std::vector<std::pair<std::string, torch::Tensor>>& given,
                                 const CharTokenizer& vocabulary, const std::string& vocabularySource,
                                 std::map<std::string, torch::Tensor>* seedWeights) {
    using namespace statedict;  // startsWith, blockKey, headKey, bookToSeed, seedToFile
    if (given.empty()) throw Error("the state_dict is empty.");
    // A prefix on every key: DistributedDataParallel's or torch.compile's wrapper.
    std::string strip;
    for (const char* prefix : {"module.", "_orig_mod."}) {
        bool all = true;
        for (const auto& entry : given) all = all && startsWith(entry.first, prefix);
        if (all) strip = prefix;
    }

    StateDictReport report;
    std::map<std::string, torch::Tensor> tensors;  // under seed names
    std::map<std::string, std::string> fileName;   // seed name -> the file's own name
    bool book = false, seed = false;
    for (const auto& entry : given) {
        const std::string name = entry.first.substr(strip.size());
        if (startsWith(name, "token_embedding.") || startsWith(name, "lm_head.")) book = true;
        if (startsWith(name, "token_emb.") || startsWith(name, "lm.")) seed = true;
    }
    if (!book && !seed) {
        std::string keys;
        for (std::size_t i = 0; i < given.size() && i < 4; ++i) keys += (i ? ", " : "") + given[i].first;
        throw Error("this state_dict is not the seed's CharGPT: it has no token embedding (token_emb.weight or "
                    "token_embedding.weight) and no language-model head (lm or lm_head); its first keys are " +
                    keys + ".");
    }
    report.naming = book ? StateDictNaming::Book : StateDictNaming::SeedNotes;
    for (const auto& [original, tensor] : given) {
        const std::string name = original.substr(strip.size());
        const std::string seedName = report.naming == StateDictNaming::Book ? bookToSeed(name) : name;
        if (tensors.count(seedName)) {
            report.unexpected.push_back(original + " (a second entry for " + seedName + ")");
            continue;
        }
        tensors[seedName] = tensor;
        fileName[seedName] = original;
    }
    auto named = [&](const std::string& seedName) {
        auto it = fileName.find(seedName);
        return it != fileName.end() ? it->second : strip + seedToFile(seedName, report.naming);
    };

    // The architecture, from the shapes.
    RunConfig& c = report.config;
    const torch::Tensor* tok = tensors.count("token_emb.weight") ? &tensors["token_emb.weight"] : nullptr;
    const torch::Tensor* pos = tensors.count("pos_emb.weight") ? &tensors["pos_emb.weight"] : nullptr;
    if (!tok || tok->dim() != 2)
        throw Error("the state_dict has no two-dimensional token embedding (" + named("token_emb.weight") +
                    "), so its vocabulary and width are unknown.");
    if (!pos || pos->dim() != 2)
        throw Error("the state_dict has no two-dimensional position embedding (" + named("pos_emb.weight") +
                    "), so its context length is unknown.");
    c.vocab_size = tok->size(0);
    c.emb_size = tok->size(1);
    c.sequence_len = pos->size(0);
    int64_t layers = 0, heads = 0, headSize = 0;
    for (const auto& [name, tensor] : tensors) {
        int64_t layer = 0, head = 0;
        std::string rest, tail;
        if (!blockKey(name, layer, rest)) continue;
        layers = std::max(layers, layer + 1);
        if (headKey(rest, head, tail)) {
            heads = std::max(heads, head + 1);
            if (headSize == 0 && (tail == "key.weight" || tail == "query.weight" || tail == "value.weight") &&
                tensor.dim() == 2)
                headSize = tensor.size(0);
        }
    }
    if (layers == 0) throw Error("the state_dict has no blocks (blocks.0...): there is no layer to import.");
    if (heads == 0 || headSize == 0)
        throw Error("the state_dict has no attention heads (blocks.<i>.mha.heads.<h>.key.weight): it is not the "
                    "seed's multi-head attention.");
    if (layers > ModelConfig::kMaxLayers || heads > ModelConfig::kMaxHeads || c.emb_size > ModelConfig::kMaxWidth ||
        c.sequence_len > ModelConfig::kMaxContext || c.vocab_size > ModelConfig::kMaxVocabulary)
        throw Error("the state_dict describes a model far larger than CharGPT Studio supports.");
    if (heads * headSize != c.emb_size)
        throw Error("the state_dict's " + std::to_string(heads) + " heads of size " + std::to_string(headSize) +
                    " do not add up to its width " + std::to_string(c.emb_size) +
                    " (the seed concatenates the heads back to the width).");
    c.n_layer = layers;
    c.head_size = headSize;
    if (const std::string why = c.contextMemoryProblem(); !why.empty())
        throw Error("the state_dict is refused: " + why);
    c.dropout = 0.0;
    if (const ConfigProblem problem = c.validate())
        throw Error("the state_dict's shapes are not usable: " + problem.message());

    if (vocabulary.vocabSize() != c.vocab_size)
        report.vocabularyProblem =
            vocabularySource + " gives " + std::to_string(vocabulary.vocabSize()) + " tokens (<|e|> and " +
            std::to_string(vocabulary.vocabSize() - 1) + " characters) but the model's token embedding has " +
            std::to_string(c.vocab_size) + " rows: it is not the text (or vocabulary) the model was trained with";

    // The model is built (for its names and shapes) only when the state_dict
    // holds at least half the bytes of its weights, or when it is small: a few
    // keys and shapes that describe a huge model are refused before anything
    // the size of that model is allocated.
    {
        constexpr int64_t kAlwaysAllowed = int64_t(64) << 20;  // bytes of float32 weights
        std::set<const void*> storages;
        uint64_t held = 0;
        for (const auto& entry : given)
            if (entry.second.defined() && storages.insert(entry.second.storage().unsafeGetStorageImpl()).second)
                held += entry.second.storage().nbytes();
        const int64_t parameters = c.parameterCount();
        if (parameters * 4 > kAlwaysAllowed && uint64_t(parameters) * 2 > held)
            throw Error("the state_dict's shapes describe a model of " + std::to_string(parameters) +
                        " parameters, but it holds only " + std::to_string(held) + " bytes of tensor data.");
    }

    // Every name and shape the inferred model needs, in the seed's per-head names.
    std::map<std::string, std::vector<int64_t>> expected;
    {
        CharGPT model(c);
        std::map<std::string, torch::Tensor> fused;
        for (const auto& item : model->named_parameters()) fused[item.key()] = item.value();
        for (const auto& [name, tensor] : toSeedNames(fused, c)) expected[name] = tensor.sizes().vec();
    }
    for (const auto& [name, sizes] : expected) {
        auto it = tensors.find(name);
        if (it == tensors.end()) {
            report.missing.push_back(named(name));
            continue;
        }
        const torch::Tensor& t = it->second;
        if (t.sizes().vec() != sizes)
            report.mismatched.push_back(named(name) + " has shape " + shapeText(t.sizes()) + " but " +
                                        shapeText(sizes) + " is needed");
        else if (!t.is_floating_point())
            report.mismatched.push_back(named(name) + " is not floating point");
        else if (!torch::isfinite(t).all().item<bool>())
            report.mismatched.push_back(named(name) + " holds NaN or infinite values");
    }
    const std::vector<int64_t> mask = {c.sequence_len, c.sequence_len};
    for (const auto& [name, tensor] : tensors) {
        if (expected.count(name)) continue;
        int64_t layer = 0, head = 0;
        std::string rest, tail;
        // The causal mask buffer of each head: rebuilt by the model, only checked.
        if (blockKey(name, layer, rest) && headKey(rest, head, tail) && tail == "tril" && layer < layers &&
            head < heads) {
            if (tensor.sizes().vec() != mask)
                report.mismatched.push_back(named(name) + " has shape " + shapeText(tensor.sizes()) + " but " +
                                            shapeText(mask) + " is needed");
            continue;
        }
        report.unexpected.push_back(named(name));
    }

    if (seedWeights && report.fits()) {
        seedWeights->clear();
        for (const auto& [name, sizes] : expected) (*seedWeights)[name] = tensors[name].to(torch::kCPU, torch::kFloat32);
    }
    return report;
}

Checkpoint importStateDict(const std::string& path, const CharTokenizer& vocabulary,
                           const std::string& vocabularySource, const RunConfig& training) {
    const PickledStateDict file = readTorchStateDict(path);
    std::map<std::string, torch::Tensor> weights;
    const StateDictReport report = inspectStateDict(file.tensors, vocabulary, vocabularySource, &weights);
    if (!report.fits()) throw Error(report.describe());

    Checkpoint checkpoint;
    RunConfig config = training;
    config.vocab_size = report.config.vocab_size;
    config.emb_size = report.config.emb_size;
    config.head_size = report.config.head_size;
    config.n_layer = report.config.n_layer;
    config.sequence_len = report.config.sequence_len;
    config.setFull();  // the seed's CharGPT has every part, whatever `training` lacks
    if (const ConfigProblem problem = config.validate()) throw Error(problem.message());
    checkpoint.config = config;
    checkpoint.tokenizer = vocabulary;
    checkpoint.model = CharGPT(config);
    const auto fused = fromSeedNames(weights, config);
    {
        torch::NoGradGuard noGrad;
        for (auto& item : checkpoint.model->named_parameters()) item.value().copy_(fused.at(item.key()));
    }
    checkpoint.model->to(computeDevice());
    return checkpoint;
}

}  // namespace chargpt
