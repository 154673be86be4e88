// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/io/PyTorchInterop.h"

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "model/text/BuiltinCorpora.h"
#include "model/text/Corpus.h"
#include "model/runtime/Device.h"
#include "model/runtime/Error.h"
#include "model/io/Pickle.h"
#include "model/io/TorchArchive.h"
#include "model/text/Utf8.h"

namespace chargpt {

namespace {

std::string shapeText(at::IntArrayRef sizes) {
    std::string s = "(";
    for (std::size_t i = 0; i < sizes.size(); ++i) s += (i ? ", " : "") + std::to_string(sizes[i]);
    return s + ")";
}

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

std::string bookToSeed(const std::string& name) { return renameKey(name, /*toSeed=*/true); }

// Seed name -> the name the file itself uses, for messages.
std::string seedToFile(const std::string& name, StateDictNaming naming) {
    return naming == StateDictNaming::SeedNotes ? name : renameKey(name, /*toSeed=*/false);
}

void listProblems(std::ostringstream& out, const char* title, const std::vector<std::string>& items) {
    if (items.empty()) return;
    out << "\n- " << title << ": ";
    const std::size_t shown = std::min<std::size_t>(items.size(), 12);
    for (std::size_t i = 0; i < shown; ++i) out << (i ? ", " : "") << items[i];
    if (items.size() > shown) out << " and " << items.size() - shown << " more";
}

// A dict whose every value is a tensor, keyed by text.
bool tensorDict(const pickle::Value& v, std::vector<std::pair<std::string, torch::Tensor>>& out) {
    if (v.kind != pickle::Value::Kind::Dict || v.entries.empty()) return false;
    out.clear();
    for (const auto& [key, value] : v.entries) {
        if (key->kind != pickle::Value::Kind::String || value->kind != pickle::Value::Kind::Tensor) return false;
        out.emplace_back(key->text, value->tensor);
    }
    return true;
}

// ---- the vocabulary file -------------------------------------------------------

// The parse of a vocabulary file, as nlohmann-json's SAX events: its parser keeps
// its own stack (no recursion on the nesting), and this handler refuses nesting
// deeper than kMaxDepth, so a hostile file gives a message, never a crash. Only
// the top level is kept: a list's entries, or an object's keys and their values.
class VocabularyParse : public nlohmann::json_sax<nlohmann::json> {
public:
    static constexpr std::size_t kMaxDepth = 64;
    enum class Root { Nothing, List, Object, Other };
    enum class Kind { String, Index, Other };
    struct Entry {
        std::string key;   // objects: the token
        std::string text;  // lists: the token, when kind is String
        Kind kind = Kind::Other;
        uint64_t index = 0;  // objects: the index, when kind is Index
    };

    explicit VocabularyParse(std::string name) : name_(std::move(name)) {}

    Root root = Root::Nothing;
    std::vector<Entry> entries;
    std::string error;  // the whole message, when the parse failed

    bool null() override { return value(Kind::Other); }
    bool boolean(bool) override { return value(Kind::Other); }
    bool number_integer(number_integer_t v) override {
        if (v < 0) return value(Kind::Other);
        return value(Kind::Index, {}, static_cast<uint64_t>(v));
    }
    bool number_unsigned(number_unsigned_t v) override { return value(Kind::Index, {}, v); }
    bool number_float(number_float_t, const string_t&) override { return value(Kind::Other); }
    bool string(string_t& v) override { return value(Kind::String, &v); }
    bool binary(binary_t&) override { return value(Kind::Other); }
    bool start_object(std::size_t) override { return open(Root::Object); }
    bool start_array(std::size_t) override { return open(Root::List); }
    bool end_object() override { return close(); }
    bool end_array() override { return close(); }
    bool key(string_t& v) override {
        if (depth_ == 1) {
            entries.emplace_back();
            entries.back().key = v;
        }
        return true;
    }
    bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& e) override {
        // "[json.exception.parse_error.101] parse error at line 1, column 9: syntax error ..."
        std::string what = e.what();
        if (const std::size_t colon = what.find(": "); colon != std::string::npos) what = what.substr(colon + 2);
        const std::size_t byte = position > 0 ? position - 1 : 0;
        if (what.find("end of input") != std::string::npos)
            what = "the text ends before its closing bracket, brace or quote (" + what + ")";
        error = name_ + " is not a valid vocabulary file: " + what + " at byte " + std::to_string(byte) + ".";
        return false;
    }

private:
    bool value(Kind kind, const std::string* text = nullptr, uint64_t index = 0) {
        if (depth_ == 0) {
            root = Root::Other;
        } else if (depth_ == 1) {
            if (root == Root::List) entries.emplace_back();
            if (entries.empty()) return true;  // cannot happen: a value in an object follows its key
            Entry& entry = entries.back();
            entry.kind = kind;
            entry.index = index;
            if (text && root == Root::List) entry.text = *text;
        }
        return true;
    }
    bool open(Root kind) {
        if (depth_ == 0)
            root = kind;
        else
            value(Kind::Other);
        if (++depth_ > kMaxDepth) {
            error = name_ + " is not a valid vocabulary file: its values are nested more than " +
                    std::to_string(kMaxDepth) + " levels deep.";
            return false;
        }
        return true;
    }
    bool close() {
        --depth_;
        return true;
    }

    std::string name_;
    std::size_t depth_ = 0;
};

// A token as JSON writes it, for messages.
std::string quoted(const std::string& text) {
    return nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

const char* toString(StateDictNaming naming) {
    return naming == StateDictNaming::Book ? "the book's code" : "the seed notes";
}

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
    if (layers > 1024 || heads > 4096 || c.emb_size > 16384 || c.sequence_len > 65536 ||
        c.vocab_size > RunConfig::kMaxVocabulary)
        throw Error("the state_dict describes a model far larger than CharGPT Studio supports.");
    if (heads * headSize != c.emb_size)
        throw Error("the state_dict's " + std::to_string(heads) + " heads of size " + std::to_string(headSize) +
                    " do not add up to its width " + std::to_string(c.emb_size) +
                    " (the seed concatenates the heads back to the width).");
    c.n_layer = layers;
    c.head_size = headSize;
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

PickledStateDict readTorchStateDict(const std::string& path) {
    // The first bytes, then the zip's directory, then the pickle: see model/io/TorchArchive.h.
    TorchArchive archive(path);
    switch (archive.header()) {
        case TorchArchive::Header::Zip: break;
        case TorchArchive::Header::Missing: throw Error("no such file: " + path + ".");
        case TorchArchive::Header::NotRegular: throw Error(path + " is not a regular file.");
        case TorchArchive::Header::Unreadable:
        case TorchArchive::Header::Empty: throw Error(path + " is empty or cannot be read.");
        case TorchArchive::Header::LegacyPickle:
            throw Error(path + " was saved in PyTorch's legacy format, which CharGPT Studio does not read; "
                               "save it again with a current torch.save (the default zip format).");
        case TorchArchive::Header::Other: throw Error(path + " is not a file written by torch.save (not a zip archive).");
    }
    std::string_view data;
    try {
        archive.open();
        data = archive.pickle();
    } catch (const TorchArchive::Problem& e) {
        switch (e.kind) {
            case TorchArchive::Problem::Kind::NotTorchSave:
                if (std::string(e.what()).find("data.pkl") != std::string::npos)
                    throw Error(path + " is a zip archive without the data.pkl of torch.save.");
                break;
            case TorchArchive::Problem::Kind::TooLarge: throw Error(path + " cannot be imported: " + e.what() + ".");
            case TorchArchive::Problem::Kind::Damaged: break;
        }
        throw Error(path + " is damaged or not a torch.save archive (" + e.what() + ").");
    }
    // As PyTorch's weights_only unpickler: a pickle that names anything but
    // the containers and tensor rebuilding of a state_dict is not run at all.
    const std::string foreign = pickle::foreignCode(reinterpret_cast<const unsigned char*>(data.data()), data.size());
    if (!foreign.empty())
        throw Error(path + " cannot be imported: " + foreign +
                    " (a state_dict holds tensors only: in Python, save it with "
                    "torch.save(model.state_dict(), path)). Nothing in it was run.");
    pickle::Unpickled file;
    try {
        file = pickle::unpickle(data.data(), data.size(), archive);
    } catch (const pickle::Refused& e) {
        throw Error(path + " cannot be imported: " + e.what() + ".");
    } catch (const pickle::Malformed& e) {
        throw Error(path + " cannot be read as a state_dict saved by torch.save (" + std::string(e.what()) + ").");
    } catch (const c10::Error& e) {
        const std::string what = e.what_without_backtrace();
        throw Error(path + " is damaged and cannot be read (" + what.substr(0, what.find('\n')) + ").");
    }
    const auto unused = archive.unusedStorages();
    if (!unused.empty())
        throw Error(path + " cannot be imported: its entry " + unused[0].first + " (" +
                    std::to_string(unused[0].second) +
                    " bytes) is no tensor's data, and torch.save writes only the data of its tensors.");
    const pickle::Value* root = &file.root();
    using Kind = pickle::Value::Kind;

    PickledStateDict result;
    if (tensorDict(*root, result.tensors)) return result;
    if (root->kind == Kind::Dict) {
        for (const auto& [key, value] : root->entries)
            if (key->kind == Kind::String && key->text == "format" && value->kind == Kind::String &&
                value->text == "chargpt-checkpoint")
                throw Error(path + " is a CharGPT Studio checkpoint already: open it as a checkpoint, no import needed.");
        // A training checkpoint of the common shape {"model": state_dict, "optimizer": ..., "epoch": ...}.
        static const char* const preferred[] = {"model", "state_dict", "model_state_dict", "model_state", "net"};
        for (const char* wanted : preferred)
            for (const auto& [key, value] : root->entries)
                if (key->kind == Kind::String && key->text == wanted && tensorDict(*value, result.tensors)) {
                    result.foundUnder = wanted;
                    return result;
                }
        std::vector<std::string> holders;
        for (const auto& [key, value] : root->entries) {
            std::vector<std::pair<std::string, torch::Tensor>> tensors;
            if (key->kind == Kind::String && tensorDict(*value, tensors)) {
                holders.push_back(key->text);
                result.tensors = std::move(tensors);
                result.foundUnder = key->text;
            }
        }
        if (holders.size() == 1) return result;
        if (holders.size() > 1)
            throw Error(path + " holds several dictionaries of tensors (" + holders[0] + ", " + holders[1] +
                        ", ...); save the model's state_dict on its own.");
        throw Error(path + " holds a dictionary but no model weights: its values are not tensors.");
    }
    if (root->kind == Kind::Object)
        throw Error(path + " holds a whole pickled " + root->text +
                    " object, not a state_dict: in Python, save it with torch.save(model.state_dict(), path).");
    throw Error(path + " holds " + pickle::kindName(root->kind) + ", not a state_dict of model weights.");
}

CharTokenizer vocabularyFromCorpus(const std::string& path) { return loadCorpusSource(path).buildTokenizer(); }

CharTokenizer readVocabularyFile(const std::string& path) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) throw Error("no such vocabulary file: " + path + ".");
    // The size is checked before anything is read, and no more than that is read
    // even if the file grows meanwhile.
    const auto size = std::filesystem::file_size(path, ec);
    const std::string tooLarge = path + " is too large for a vocabulary file: a vocabulary of at most " +
                                 std::to_string(RunConfig::kMaxVocabulary) + " tokens takes at most " +
                                 std::to_string(kMaxVocabularyFileBytes) + " bytes as JSON.";
    if (!ec && size > kMaxVocabularyFileBytes) throw Error(tooLarge);
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error("cannot read " + path + ".");
    std::string bytes(kMaxVocabularyFileBytes + 1, '\0');
    in.read(bytes.data(), std::streamsize(bytes.size()));
    if (in.bad()) throw Error("cannot read " + path + ".");
    bytes.resize(std::size_t(in.gcount()));
    if (bytes.size() > kMaxVocabularyFileBytes) throw Error(tooLarge);
    utf8::decodeOrThrow(bytes, path);
    if (bytes.rfind("\xEF\xBB\xBF", 0) == 0) bytes.erase(0, 3);
    VocabularyParse parse(path);
    const bool parsed = nlohmann::json::sax_parse(bytes, &parse);
    if (!parsed || !parse.error.empty())
        throw Error(parse.error.empty() ? path + " is not a valid vocabulary file." : parse.error);

    using Kind = VocabularyParse::Kind;
    const auto& entries = parse.entries;
    std::vector<std::string> tokens;
    if (parse.root == VocabularyParse::Root::List) {
        for (std::size_t i = 0; i < entries.size(); ++i) {
            if (entries[i].kind != Kind::String)
                throw Error(path + ": entry " + std::to_string(i) + " of the list is not a string.");
            tokens.push_back(entries[i].text);
        }
    } else if (parse.root == VocabularyParse::Root::Object) {
        tokens.assign(entries.size(), std::string());
        std::vector<bool> seen(entries.size(), false);
        for (const auto& entry : entries) {
            if (entry.kind != Kind::Index || entry.index >= entries.size())
                throw Error(path + ": the index of " + quoted(entry.key) + " is not a whole number from 0 to " +
                            std::to_string(entries.size() - 1) + ".");
            const auto i = static_cast<std::size_t>(entry.index);
            if (seen[i]) throw Error(path + ": two tokens have the index " + std::to_string(i) + ".");
            seen[i] = true;
            tokens[i] = entry.key;
        }
    } else {
        throw Error(path + " is not a vocabulary file: it holds neither a JSON list of tokens nor an object "
                           "mapping tokens to indices.");
    }
    if (tokens.empty()) throw Error(path + " holds an empty vocabulary.");
    try {
        return CharTokenizer::fromVocabulary(tokens);
    } catch (const Error& e) {
        throw Error(path + ": " + e.what());
    }
}

}  // namespace chargpt
