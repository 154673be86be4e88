// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/io/PyTorchInterop.h"

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "model/text/Corpus.h"
#include "model/runtime/Device.h"
#include "model/runtime/Error.h"
#include "model/io/TorchPickle.h"
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

// ---- a small JSON reader: strings, integers, lists and objects ----------------

struct Json {
    enum class Kind { Null, Bool, Number, String, List, Object } kind = Kind::Null;
    double number = 0.0;
    bool isInteger = false;
    std::string text;
    std::vector<Json> items;
    std::vector<std::pair<std::string, Json>> members;
};

class JsonReader {
public:
    JsonReader(std::string_view text, std::string name) : s_(text), name_(std::move(name)) {}
    Json document() {
        Json v = value(0);
        space();
        if (pos_ != s_.size()) fail("text after the end of the JSON value");
        return v;
    }

private:
    [[noreturn]] void fail(const std::string& what) const {
        throw Error(name_ + " is not a valid vocabulary file: " + what + " at byte " + std::to_string(pos_) + ".");
    }
    void space() {
        while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\n' || s_[pos_] == '\r' || s_[pos_] == '\t')) ++pos_;
    }
    bool eat(char c) {
        space();
        if (pos_ < s_.size() && s_[pos_] == c) {
            ++pos_;
            return true;
        }
        return false;
    }
    Json value(int depth) {
        if (depth > 64) fail("nesting too deep");
        space();
        if (pos_ >= s_.size()) fail("an unexpected end");
        Json v;
        const char c = s_[pos_];
        if (c == '"') {
            v.kind = Json::Kind::String;
            v.text = string();
        } else if (c == '[') {
            ++pos_;
            v.kind = Json::Kind::List;
            if (!eat(']')) {
                do v.items.push_back(value(depth + 1));
                while (eat(','));
                if (!eat(']')) fail("a list without its closing ]");
            }
        } else if (c == '{') {
            ++pos_;
            v.kind = Json::Kind::Object;
            if (!eat('}')) {
                do {
                    space();
                    if (pos_ >= s_.size() || s_[pos_] != '"') fail("an object key that is not a string");
                    std::string key = string();
                    if (!eat(':')) fail("a missing ':'");
                    v.members.emplace_back(std::move(key), value(depth + 1));
                } while (eat(','));
                if (!eat('}')) fail("an object without its closing }");
            }
        } else if (s_.compare(pos_, 4, "null") == 0) {
            pos_ += 4;
        } else if (s_.compare(pos_, 4, "true") == 0 || s_.compare(pos_, 5, "false") == 0) {
            v.kind = Json::Kind::Bool;
            pos_ += s_[pos_] == 't' ? 4 : 5;
        } else if (c == '-' || (c >= '0' && c <= '9')) {
            const std::size_t start = pos_;
            while (pos_ < s_.size() && std::strchr("+-0123456789.eE", s_[pos_])) ++pos_;
            const std::string number(s_.substr(start, pos_ - start));
            char* end = nullptr;
            v.kind = Json::Kind::Number;
            v.number = std::strtod(number.c_str(), &end);
            if (*end != '\0') fail("a malformed number");
            v.isInteger = number.find_first_of(".eE") == std::string::npos;
        } else {
            fail(std::string("an unexpected character '") + c + "'");
        }
        return v;
    }
    uint32_t hex4() {
        if (s_.size() - pos_ < 4) fail("a short \\u escape");
        uint32_t v = 0;
        for (int i = 0; i < 4; ++i) {
            const char h = s_[pos_++];
            v <<= 4;
            if (h >= '0' && h <= '9') v |= uint32_t(h - '0');
            else if (h >= 'a' && h <= 'f') v |= uint32_t(h - 'a' + 10);
            else if (h >= 'A' && h <= 'F') v |= uint32_t(h - 'A' + 10);
            else fail("a bad \\u escape");
        }
        return v;
    }
    std::string string() {
        ++pos_;  // the opening quote
        std::string out;
        while (true) {
            if (pos_ >= s_.size()) fail("a string without its closing quote");
            const char c = s_[pos_++];
            if (c == '"') return out;
            if (static_cast<unsigned char>(c) < 0x20) fail("a control character inside a string");
            if (c != '\\') {
                out += c;
                continue;
            }
            if (pos_ >= s_.size()) fail("a string without its closing quote");
            const char e = s_[pos_++];
            switch (e) {
                case '"': out += '"'; break;
                case '\\': out += '\\'; break;
                case '/': out += '/'; break;
                case 'b': out += '\b'; break;
                case 'f': out += '\f'; break;
                case 'n': out += '\n'; break;
                case 'r': out += '\r'; break;
                case 't': out += '\t'; break;
                case 'u': {
                    uint32_t cp = hex4();
                    if (cp >= 0xD800 && cp <= 0xDBFF) {  // a surrogate pair, as json.dump writes astral characters
                        if (s_.size() - pos_ < 6 || s_[pos_] != '\\' || s_[pos_ + 1] != 'u') fail("a lone surrogate");
                        pos_ += 2;
                        const uint32_t low = hex4();
                        if (low < 0xDC00 || low > 0xDFFF) fail("a lone surrogate");
                        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                    } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                        fail("a lone surrogate");
                    }
                    out += utf8::encode(static_cast<char32_t>(cp));
                    break;
                }
                default: fail("an unknown escape");
            }
        }
    }

    std::string_view s_;
    std::string name_;
    std::size_t pos_ = 0;
};

std::string jsonQuote(const std::string& text) {
    std::string out = "\"";
    for (unsigned char c : text) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += char(c);
        } else if (c < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", c);
            out += buf;
        } else {
            out += char(c);
        }
    }
    return out + "\"";
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

CharTokenizer vocabularyFromCorpus(const std::string& path) { return Corpus::load(path).buildTokenizer(); }

CharTokenizer readVocabularyFile(const std::string& path) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) throw Error("no such vocabulary file: " + path + ".");
    std::ifstream in(path, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (!in.good() && !in.eof()) throw Error("cannot read " + path + ".");
    if (bytes.size() > (64u << 20)) throw Error(path + " is far too large for a vocabulary file.");
    utf8::decodeOrThrow(bytes, path);
    if (bytes.rfind("\xEF\xBB\xBF", 0) == 0) bytes.erase(0, 3);
    const Json root = JsonReader(bytes, path).document();

    std::vector<std::string> tokens;
    if (root.kind == Json::Kind::List) {
        for (std::size_t i = 0; i < root.items.size(); ++i) {
            if (root.items[i].kind != Json::Kind::String)
                throw Error(path + ": entry " + std::to_string(i) + " of the list is not a string.");
            tokens.push_back(root.items[i].text);
        }
    } else if (root.kind == Json::Kind::Object) {
        tokens.assign(root.members.size(), std::string());
        std::vector<bool> seen(root.members.size(), false);
        for (const auto& [token, index] : root.members) {
            if (index.kind != Json::Kind::Number || !index.isInteger || index.number < 0 ||
                index.number >= double(root.members.size()))
                throw Error(path + ": the index of " + jsonQuote(token) + " is not a whole number from 0 to " +
                            std::to_string(root.members.size() - 1) + ".");
            const auto i = static_cast<std::size_t>(index.number);
            if (seen[i]) throw Error(path + ": two tokens have the index " + std::to_string(i) + ".");
            seen[i] = true;
            tokens[i] = token;
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
