// SPDX-License-Identifier: GPL-3.0-or-later
// Checking a state_dict against the model its shapes describe, and importing it as a checkpoint.
#include "model/io/PyTorchInterop.h"

#include <algorithm>
#include <cmath>
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

namespace {

// The prefix on every key of a wrapper (DistributedDataParallel's, torch.compile's), or "".
std::string wrapperPrefix(const std::vector<std::pair<std::string, torch::Tensor>>& given) {
    std::string strip;
    for (const char* prefix : {"module.", "_orig_mod."}) {
        bool all = true;
        for (const auto& entry : given) all = all && statedict::startsWith(entry.first, prefix);
        if (all) strip = prefix;
    }
    return strip;
}

bool sameValues(const torch::Tensor& a, const torch::Tensor& b) {
    if (a.storage().unsafeGetStorageImpl() == b.storage().unsafeGetStorageImpl() &&
        a.storage_offset() == b.storage_offset() && a.sizes() == b.sizes() && a.strides() == b.strides())
        return true;
    return a.sizes() == b.sizes() && a.scalar_type() == b.scalar_type() && torch::equal(a, b);
}

// "blocks.<layer>.mha.heads.<head>.<projection>.weight"
std::string seedHeadName(int64_t layer, int64_t head, const char* projection) {
    return "blocks." + std::to_string(layer) + ".mha.heads." + std::to_string(head) + "." + projection + ".weight";
}

}  // namespace

StateDictNaming detectNaming(const std::vector<std::pair<std::string, torch::Tensor>>& given) {
    using statedict::startsWith;
    const std::string strip = wrapperPrefix(given);
    bool book = false, seed = false, gpt = false, lecture = false;
    const torch::Tensor *wte = nullptr, *head = nullptr;
    for (const auto& [original, tensor] : given) {
        const std::string name = original.substr(strip.size());
        if (startsWith(name, "transformer.wte.") || startsWith(name, "transformer.h.")) gpt = true;
        if (startsWith(name, "token_embedding_table.") || startsWith(name, "position_embedding_table.")) lecture = true;
        if (startsWith(name, "token_embedding.") || startsWith(name, "lm_head.")) book = true;
        if (startsWith(name, "token_emb.") || startsWith(name, "lm.")) seed = true;
        if (name == "transformer.wte.weight") wte = &tensor;
        if (name == "lm_head.weight") head = &tensor;
    }
    // nanoGPT ties its head to the token embedding (torch.save keeps the one
    // storage); minGPT's head is its own.
    if (gpt) return !head || (wte && sameValues(*wte, *head)) ? StateDictNaming::NanoGPT : StateDictNaming::MinGPT;
    if (lecture) return StateDictNaming::Lecture;
    if (book) return StateDictNaming::Book;
    if (seed) return StateDictNaming::SeedNotes;
    std::string keys;
    for (std::size_t i = 0; i < given.size() && i < 4; ++i) keys += (i ? ", " : "") + given[i].first;
    throw Error("this state_dict is none of the models CharGPT Studio imports (the seed's or the book's CharGPT, "
                "nanoGPT, minGPT, the lecture's gpt.py): it has no token embedding (token_emb, token_embedding, "
                "transformer.wte or token_embedding_table); its first keys are " + keys + ".");
}

StateDictReport inspectStateDict(const std::vector<std::pair<std::string, torch::Tensor>>& given,
                                 const CharTokenizer& vocabulary, const std::string& vocabularySource,
                                 std::map<std::string, torch::Tensor>* seedWeights, const ImportOptions& options) {
    using namespace statedict;  // startsWith, blockKey, headKey, bookToSeed, seedToFile
    if (given.empty()) throw Error("the state_dict is empty.");
    const std::string strip = wrapperPrefix(given);

    StateDictReport report;
    report.naming = detectNaming(given);
    const bool foreign = isForeign(report.naming);
    const bool gpt = report.naming == StateDictNaming::NanoGPT || report.naming == StateDictNaming::MinGPT;
    std::map<std::string, torch::Tensor> tensors;  // under seed names
    std::map<std::string, std::string> fileName;   // seed name -> the file's own name
    std::map<int64_t, std::pair<std::string, torch::Tensor>> qkv;  // nanoGPT's and minGPT's c_attn.weight per layer
    for (const auto& [original, tensor] : given) {
        const std::string name = original.substr(strip.size());
        const std::string seedName = report.naming == StateDictNaming::Book ? bookToSeed(name)
                                     : foreign                              ? foreignToSeed(name, report.naming)
                                                                            : name;
        int64_t layer = 0;
        std::string rest;
        if (gpt && blockKey(seedName, layer, rest) && rest == "mha.qkv.weight") {
            qkv[layer] = {original, tensor};
            continue;
        }
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
    RunConfig& c = report.config;
    if (report.naming == StateDictNaming::NanoGPT) {
        // The tied head is the token embedding: not a weight of its own.
        tensors.erase("lm.weight");
        c.tied_head = true;
    }
    if (gpt && tensors.count("token_emb.weight") && tensors["token_emb.weight"].dim() == 2) {
        // q, k and v of every head in one (3C, C) matrix, as CharGPT's own qkv:
        // split into the seed's heads, H = C / heads.
        const int64_t C = tensors["token_emb.weight"].size(1);
        int64_t layers = qkv.empty() ? 0 : qkv.rbegin()->first + 1;
        for (const auto& entry : tensors) {
            int64_t layer = 0;
            std::string rest;
            if (blockKey(entry.first, layer, rest)) layers = std::max(layers, layer + 1);
        }
        const int64_t heads = options.heads > 0 ? options.heads : minGptHeads(layers, C);
        if (heads <= 0)
            throw Error(std::string("a state_dict of ") + toString(report.naming) +
                        " does not say how many heads its attention has (" + counted(layers, "layer") +
                        " of width " + std::to_string(C) +
                        " is none of minGPT's model types): give it with --heads N (n_head).");
        if (heads > ModelConfig::kMaxHeads || C % heads != 0)
            throw Error("the width " + std::to_string(C) + " of the state_dict does not split into " +
                        std::to_string(heads) + " heads.");
        for (const auto& [layer, entry] : qkv) {
            const torch::Tensor& w = entry.second;
            if (w.dim() != 2 || w.size(0) != 3 * C || w.size(1) != C)
                throw Error(entry.first + " has shape " + shapeText(w.sizes()) + " but (" + std::to_string(3 * C) +
                            ", " + std::to_string(C) + ") is needed (q, k and v of width " + std::to_string(C) + ").");
            const char* const projections[3] = {"query", "key", "value"};
            const int64_t H = C / heads;
            for (int p = 0; p < 3; ++p)
                for (int64_t h = 0; h < heads; ++h) {
                    const std::string seedName = seedHeadName(layer, h, projections[p]);
                    tensors[seedName] = w.narrow(0, p * C + h * H, H);
                    fileName[seedName] = entry.first;
                }
        }
    }
    if (foreign) {
        // How they compute unlike the book's CharGPT: the model's settings, from the keys.
        c.activation = report.naming == StateDictNaming::NanoGPT   ? ModelConfig::GeluErf
                       : report.naming == StateDictNaming::MinGPT ? ModelConfig::GeluTanh
                                                                   : ModelConfig::Relu;
        c.qkv_bias = tensors.count("blocks.0.mha.qkv.bias") > 0;
        c.biases = tensors.count("l.bias") > 0 || tensors.count("blocks.0.l1.bias") > 0;
        c.head_bias = tensors.count("lm.bias") > 0;
    }

    // The architecture, from the shapes.
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
            vocabularySource + " gives " + std::to_string(vocabulary.vocabSize()) + " tokens (" +
            (vocabulary.hasEndOfText() ? "<|e|> and " : "") + std::to_string(vocabulary.characters().size()) +
            " characters) but the model's token embedding has " + std::to_string(c.vocab_size) +
            " rows: it is not the text (or vocabulary) the model was trained with";

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
    const std::vector<int64_t> gptMask = {1, 1, c.sequence_len, c.sequence_len};
    for (const auto& [name, tensor] : tensors) {
        if (expected.count(name)) continue;
        int64_t layer = 0, head = 0;
        std::string rest, tail;
        // nanoGPT's and minGPT's mask buffer (1, 1, T, T): rebuilt, only checked.
        if (gpt && blockKey(name, layer, rest) && rest == "mha.mask" && layer < layers) {
            if (tensor.sizes().vec() != gptMask)
                report.mismatched.push_back(named(name) + " has shape " + shapeText(tensor.sizes()) + " but " +
                                            shapeText(gptMask) + " is needed");
            continue;
        }
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

namespace {

// The vocabulary as a model of nanoGPT, minGPT or the lecture numbers it: one
// built from the training text (or a vocabulary file) with <|e|> is taken
// without it, as they number the sorted characters from 0; one whose tokens,
// <|e|> included, number the token embedding's rows (exported from here) stays.
CharTokenizer asTheirs(const PickledStateDict& file, const CharTokenizer& vocabulary) {
    const StateDictNaming naming = detectNaming(file.tensors);
    if (!isForeign(naming) || !vocabulary.hasEndOfText()) return vocabulary;
    const std::string strip = wrapperPrefix(file.tensors);
    for (const auto& [name, tensor] : file.tensors)
        if (statedict::foreignToSeed(name.substr(strip.size()), naming) == "token_emb.weight" && tensor.dim() == 2 &&
            tensor.size(0) == vocabulary.vocabSize())
            return vocabulary;
    return vocabulary.withoutEndOfText();
}

Checkpoint importTensors(const PickledStateDict& file, const CharTokenizer& givenVocabulary,
                         const std::string& vocabularySource, const RunConfig& training, ImportOptions options) {
    const CharTokenizer vocabulary = asTheirs(file, givenVocabulary);
    if (options.heads <= 0 && file.modelArgs.count("n_head")) {  // a number the file claims: checked before use
        const double heads = file.modelArgs.at("n_head");
        if (!(heads >= 1 && heads <= double(ModelConfig::kMaxHeads)) || heads != std::floor(heads))
            throw Error("the checkpoint's model_args give n_head " + std::to_string(heads) +
                        ", which is no number of heads.");
        options.heads = int64_t(heads);
    }
    std::map<std::string, torch::Tensor> weights;
    const StateDictReport report = inspectStateDict(file.tensors, vocabulary, vocabularySource, &weights, options);
    if (!report.fits()) throw Error(report.describe());

    Checkpoint checkpoint;
    RunConfig config = training;
    config.vocab_size = report.config.vocab_size;
    config.emb_size = report.config.emb_size;
    config.head_size = report.config.head_size;
    config.n_layer = report.config.n_layer;
    config.sequence_len = report.config.sequence_len;
    config.setFull();  // the seed's CharGPT has every part, whatever `training` lacks
    config.activation = report.config.activation;  // and the arithmetic of the file's layout
    config.qkv_bias = report.config.qkv_bias;
    config.biases = report.config.biases;
    config.head_bias = report.config.head_bias;
    config.tied_head = report.config.tied_head;
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

}  // namespace

Checkpoint importStateDict(const std::string& path, const CharTokenizer& vocabulary,
                           const std::string& vocabularySource, const RunConfig& training,
                           const ImportOptions& options) {
    return importTensors(readTorchStateDict(path), vocabulary, vocabularySource, training, options);
}

ImportedModel importModel(const std::string& path, const VocabularyRequest& request, const RunConfig& training,
                          const ImportOptions& options) {
    const int given = int(!request.corpus.empty()) + int(!request.vocabFile.empty()) + int(!request.meta.empty());
    if (given > 1) throw Error("give the vocabulary one way: --corpus, --vocab or --meta.");
    // A vocabulary given is read first: its problems are the user's to fix
    // whatever the model file holds.
    ImportedModel imported;
    CharTokenizer vocabulary;
    if (!request.corpus.empty()) {
        vocabulary = vocabularyFromCorpus(request.corpus);
        imported.vocabularySource = "the corpus " + request.corpus;
    } else if (!request.vocabFile.empty()) {
        vocabulary = readVocabularyFile(request.vocabFile);
        imported.vocabularySource = "the vocabulary file " + request.vocabFile;
    } else if (!request.meta.empty()) {
        vocabulary = readNanoGptMeta(request.meta);
        imported.vocabularySource = "nanoGPT's meta.pkl " + request.meta;
    }
    const PickledStateDict file = readTorchStateDict(path);
    imported.naming = detectNaming(file.tensors);
    imported.trainingState = file.trainingState;
    if (imported.vocabularySource.empty()) {
        const std::string meta =
            imported.naming == StateDictNaming::NanoGPT ? findNanoGptMeta(path, file.dataset) : std::string();
        if (meta.empty())
            throw Error(std::string("import needs the vocabulary of this model (named as in ") +
                        toString(imported.naming) + "): " +
                        (imported.naming == StateDictNaming::NanoGPT
                             ? "no meta.pkl was found beside it or in data/" +
                                   (file.dataset.empty() ? std::string("<dataset>") : file.dataset) +
                                   "/; give --meta PATH (nanoGPT's meta.pkl) or --corpus PATH (the training text)."
                             : std::string("give --corpus PATH (the text it was trained on) or --vocab FILE.json.")));
        vocabulary = readNanoGptMeta(meta);
        imported.vocabularySource = "nanoGPT's meta.pkl " + meta;
    }
    imported.checkpoint = importTensors(file, vocabulary, imported.vocabularySource, training, options);
    return imported;
}


}  // namespace chargpt
