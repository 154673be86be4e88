// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/io/Checkpoint.h"

#include <algorithm>
#include <memory>
#include <set>

#include "model/runtime/Device.h"
#include "model/runtime/Error.h"
#include "model/io/AtomicFile.h"
#include "model/io/ConfigJson.h"
#include "model/io/Pickle.h"
#include "model/io/TorchArchive.h"
#include "model/train/RunFields.h"

namespace chargpt {

namespace {

using Dict = c10::impl::GenericDict;  // str -> any, as Python sees it

Dict makeDict() { return Dict(c10::StringType::get(), c10::AnyType::get()); }

// "blocks.<i>.<rest>" -> i and rest; false for other names.
bool splitBlockName(const std::string& name, int64_t& layer, std::string& rest) {
    static const std::string prefix = "blocks.";
    if (name.rfind(prefix, 0) != 0) return false;
    const std::size_t dot = name.find('.', prefix.size());
    if (dot == std::string::npos || dot == prefix.size()) return false;
    const std::string digits = name.substr(prefix.size(), dot - prefix.size());
    if (digits.find_first_not_of("0123456789") != std::string::npos || digits.size() > 6) return false;
    layer = std::stoll(digits);
    rest = name.substr(dot + 1);
    return true;
}

const char* const kProjections[3] = {"query", "key", "value"};  // order of the fused rows

std::string headName(int64_t layer, int64_t head, const char* projection) {
    return "blocks." + std::to_string(layer) + ".mha.heads." + std::to_string(head) + "." + projection +
           ".weight";
}

std::string describeShape(const torch::Tensor& t) {
    std::string s = "(";
    for (int64_t i = 0; i < t.dim(); ++i) s += (i ? ", " : "") + std::to_string(t.size(i));
    return s + ")";
}

// --- reading values out of the unpickled dict, each with a message on failure ---

using pickle::Value;

const Value& field(const Value& dict, const std::string& key, const std::string& where) {
    const Value* v = dict.find(key);
    if (!v) throw Error("the checkpoint has no " + where + key + ".");
    return *v;
}

int64_t intField(const Value& dict, const std::string& key, const std::string& where = "") {
    const Value& v = field(dict, key, where);
    if (!v.is(Value::Kind::Int)) throw Error("the checkpoint's " + where + key + " is not an integer.");
    return v.integer;
}

double numberField(const Value& dict, const std::string& key, const std::string& where = "") {
    const Value& v = field(dict, key, where);
    if (v.is(Value::Kind::Float)) return v.number;
    if (v.is(Value::Kind::Int)) return static_cast<double>(v.integer);
    throw Error("the checkpoint's " + where + key + " is not a number.");
}

const Value& dictField(const Value& dict, const std::string& key, const std::string& where = "") {
    const Value& v = field(dict, key, where);
    if (!v.is(Value::Kind::Dict)) throw Error("the checkpoint's " + where + key + " is not a dictionary.");
    for (const auto& entry : v.entries)
        if (!entry.first->is(Value::Kind::String))
            throw Error("the checkpoint's " + where + key + " has a key that is not text.");
    return v;
}

std::map<std::string, torch::Tensor> tensorMap(const Value& dict, const std::string& what) {
    std::map<std::string, torch::Tensor> out;
    for (const auto& [key, value] : dict.entries) {
        const std::string& name = key->text;
        if (!value->is(Value::Kind::Tensor))
            throw Error("the checkpoint's " + what + " entry " + name + " is not a tensor.");
        out[name] = value->tensor;
    }
    return out;
}


template <typename T>
torch::Tensor vectorTensor(const std::vector<T>& v, torch::ScalarType type) {
    return torch::from_blob(const_cast<T*>(v.data()), {static_cast<int64_t>(v.size())}, type).clone();
}

template <typename T>
std::vector<T> tensorVector(const Value& dict, const std::string& key, torch::ScalarType type) {
    const Value& v = field(dict, key, "history.");
    if (!v.is(Value::Kind::Tensor)) throw Error("the checkpoint's history." + key + " is not a tensor.");
    torch::Tensor t = v.tensor;
    if (t.dim() != 1) throw Error("the checkpoint's history." + key + " is not a list of numbers.");
    t = t.to(torch::kCPU, type).contiguous();
    return std::vector<T>(t.data_ptr<T>(), t.data_ptr<T>() + t.numel());
}

// The seed is an int64 in the file, its bits as they are (Python's ints have
// no unsigned kind).
Dict configToDict(const RunConfig& c) {
    Dict d = makeDict();
    for (const RunField& f : runFields()) {
        if (!f.inFiles || f.leftOutOfFiles(c)) continue;
        switch (f.kind) {
            case FieldKind::Integer:
                d.insert(f.key, f.unsignedInteger ? static_cast<int64_t>(c.*f.unsignedInteger) : f.integerIn(c));
                break;
            case FieldKind::Real: d.insert(f.key, f.realIn(c)); break;
            case FieldKind::Flag: d.insert(f.key, f.flagIn(c)); break;
        }
    }
    return d;
}

RunConfig configFromDict(const Value& d) {
    const std::string w = "config.";
    RunConfig c;
    for (const RunField& f : runFields()) {
        if (!f.inFiles || (f.optionalInFiles && !d.find(f.key))) continue;
        switch (f.kind) {
            case FieldKind::Integer:
                if (f.unsignedInteger)
                    c.*f.unsignedInteger = static_cast<uint64_t>(intField(d, f.key, w));
                else
                    f.setInteger(c, intField(d, f.key, w));
                break;
            case FieldKind::Real: f.setReal(c, numberField(d, f.key, w)); break;
            case FieldKind::Flag: {
                const Value& flag = field(d, f.key, w);
                if (!flag.is(Value::Kind::Bool))
                    throw Error("the checkpoint's config." + std::string(f.key) + " is not true or false.");
                f.setFlag(c, flag.boolean);
                break;
            }
        }
    }
    checkReadSettings(c, "the checkpoint");
    return c;
}

std::map<std::string, torch::Tensor> namedParameters(CharGPT& model) {
    std::map<std::string, torch::Tensor> out;
    for (const auto& item : model->named_parameters()) out[item.key()] = item.value();
    return out;
}

// Checks names, shapes, dtype and finiteness of `given` against the model's own
// parameters; returns them as float32 tensors.
std::map<std::string, torch::Tensor> checkAgainst(const std::map<std::string, torch::Tensor>& expected,
                                                  std::map<std::string, torch::Tensor> given,
                                                  const std::string& what) {
    for (const auto& [name, tensor] : given)
        if (!expected.count(name)) throw Error("the checkpoint's " + what + " has an unexpected entry " + name + ".");
    for (const auto& [name, ref] : expected) {
        auto it = given.find(name);
        if (it == given.end()) throw Error("the checkpoint's " + what + " lacks " + name + ".");
        torch::Tensor& t = it->second;
        if (!t.is_floating_point()) throw Error("the checkpoint's " + what + " " + name + " is not floating point.");
        if (t.sizes() != ref.sizes())
            throw Error("the checkpoint's " + what + " " + name + " has shape " + describeShape(t) +
                        " but the settings need " + describeShape(ref) + ".");
        t = t.to(torch::kCPU, torch::kFloat32);
        if (!torch::isfinite(t).all().item<bool>())
            throw Error("the checkpoint's " + what + " " + name + " holds non-finite values (NaN or infinity).");
    }
    return given;
}

// What a checkpoint file holds once read: its values, and how many bytes of
// tensor data the file really holds (what the model's size is checked against).
struct ReadArchive {
    pickle::Unpickled values;
    uint64_t storageBytes = 0;
};

// Opens the zip as torch.save lays it out (<name>/data.pkl, <name>/version,
// <name>/data/<n>) through model/io/TorchArchive.h: the first bytes are checked
// before anything else is read, and the zip's directory (sizes, compression
// ratios, all of them against the file's size) before anything is inflated.
// Then its pickle is walked, so that a pickle naming Python code is refused
// before anything is unpickled, and unpickled (model/io/Pickle.h) within its
// budget: every length, memo index and stack access is checked against the
// data, every tensor against its storage, and the nesting and sharing of the
// values against the budget.
ReadArchive readArchive(const std::string& path) {
    TorchArchive archive(path);
    switch (archive.header()) {
        case TorchArchive::Header::Zip: break;
        case TorchArchive::Header::Missing: throw Error("no such checkpoint: " + path + ".");
        case TorchArchive::Header::NotRegular: throw Error(path + " is not a regular file.");
        case TorchArchive::Header::Unreadable: throw Error("cannot open " + path + ": " + archive.openError() + ".");
        case TorchArchive::Header::Empty: throw Error(path + " is empty, not a checkpoint.");
        case TorchArchive::Header::LegacyPickle:
        case TorchArchive::Header::Other:
            throw Error(path + " is not a CharGPT checkpoint (not a torch.save archive).");
    }
    std::string_view data;
    try {
        archive.open();
        data = archive.pickle();
    } catch (const TorchArchive::Problem& e) {
        switch (e.kind) {
            case TorchArchive::Problem::Kind::NotTorchSave:
                throw Error(path + " is a zip archive but not a CharGPT checkpoint (" + e.what() + ").");
            case TorchArchive::Problem::Kind::TooLarge: throw Error(path + " is refused: " + e.what() + ".");
            case TorchArchive::Problem::Kind::Damaged: break;
        }
        throw Error(path + " is damaged or truncated and cannot be read (" + e.what() + ").");
    }
    const std::string foreign = pickle::foreignCode(reinterpret_cast<const unsigned char*>(data.data()), data.size());
    if (!foreign.empty()) throw Error(path + " is refused: " + foreign + ". Nothing in it was run.");
    ReadArchive result;
    try {
        result.values = pickle::unpickle(data.data(), data.size(), archive);
    } catch (const pickle::Refused& e) {
        throw Error(path + " is refused: " + e.what() + ".");
    } catch (const std::exception& e) {
        throw Error(path + " is damaged or truncated and cannot be read (" + firstLine(e) + ").");
    }
    const auto unused = archive.unusedStorages();
    if (!unused.empty())
        throw Error(path + " is refused: its entry " + unused[0].first + " (" + std::to_string(unused[0].second) +
                    " bytes) is no tensor's data, and torch.save writes only the data of its tensors.");
    result.storageBytes = archive.storageBytes();
    return result;
}

// A model is built only when the file holds at least half the bytes of its
// weights (a valid checkpoint holds all of them, in float32), or when it is
// small, and when running it over its whole context stays within the budget of
// a model read from a file (ModelConfig::contextMemoryProblem): settings that
// describe a huge model, or a long context, in a small file are refused before
// anything the size of that model or context is allocated.
void checkModelFitsFile(const std::string& path, const RunConfig& config, uint64_t storageBytes) {
    if (const std::string why = config.contextMemoryProblem(); !why.empty())
        throw Error(path + " is refused: " + why);
    constexpr int64_t kAlwaysAllowed = int64_t(64) << 20;  // bytes of float32 weights
    const int64_t parameters = config.parameterCount();
    if (parameters * 4 > kAlwaysAllowed && uint64_t(parameters) * 2 > storageBytes)
        throw Error(path + " is refused: its settings describe a model of " + std::to_string(parameters) +
                    " parameters, but the file holds only " + std::to_string(storageBytes) +
                    " bytes of tensor data.");
}

}  // namespace

std::map<std::string, torch::Tensor> toSeedNames(const std::map<std::string, torch::Tensor>& fused,
                                                 const RunConfig& config) {
    const int64_t C = config.emb_size, H = config.head_size, nh = config.n_head();
    std::map<std::string, torch::Tensor> out;
    for (const auto& [name, tensor] : fused) {
        int64_t layer = 0;
        std::string rest;
        if (splitBlockName(name, layer, rest) && rest == "mha.qkv.weight") {
            auto thirds = tensor.split(C, 0);  // q, k, v: (C, C) each
            for (int p = 0; p < 3; ++p)
                for (int64_t h = 0; h < nh; ++h)
                    out[headName(layer, h, kProjections[p])] = thirds[p].narrow(0, h * H, H).clone();
        } else {
            out[name] = tensor.detach().clone();
        }
    }
    return out;
}

std::map<std::string, torch::Tensor> fromSeedNames(const std::map<std::string, torch::Tensor>& seed,
                                                   const RunConfig& config) {
    const int64_t nh = config.n_head();
    std::map<std::string, torch::Tensor> out;
    for (const auto& [name, tensor] : seed) {
        int64_t layer = 0;
        std::string rest;
        if (splitBlockName(name, layer, rest) && rest.rfind("mha.heads.", 0) == 0) continue;  // fused below
        out[name] = tensor;
    }
    std::set<std::string> fusedHeads;
    for (int64_t layer = 0; layer < config.n_layer; ++layer) {
        std::vector<torch::Tensor> rows;
        for (const char* projection : kProjections)
            for (int64_t h = 0; h < nh; ++h) {
                auto it = seed.find(headName(layer, h, projection));
                if (it == seed.end()) throw Error("the checkpoint lacks " + headName(layer, h, projection) + ".");
                if (it->second.dim() != 2 || it->second.size(0) != config.head_size ||
                    it->second.size(1) != config.emb_size)
                    throw Error("the checkpoint's " + headName(layer, h, projection) + " has shape " +
                                describeShape(it->second) + " but the settings need (" +
                                std::to_string(config.head_size) + ", " + std::to_string(config.emb_size) + ").");
                rows.push_back(it->second);
                fusedHeads.insert(it->first);
            }
        out["blocks." + std::to_string(layer) + ".mha.qkv.weight"] = torch::cat(rows, 0);
    }
    // Any other head entry (a layer or head the config does not have) would vanish silently.
    for (const auto& [name, tensor] : seed) {
        int64_t layer = 0;
        std::string rest;
        if (splitBlockName(name, layer, rest) && rest.rfind("mha.heads.", 0) == 0 && !fusedHeads.count(name))
            throw Error("the checkpoint has an unexpected entry " + name + ".");
    }
    return out;
}

void saveCheckpoint(const std::string& path, const Checkpoint& c) {
    if (!c.model) throw Error("there is no model to save.");
    torch::NoGradGuard noGrad;
    std::map<std::string, torch::Tensor> fused;
    for (const auto& item : c.model->named_parameters()) fused[item.key()] = item.value().to(torch::kCPU);

    auto toDict = [&](const std::map<std::string, torch::Tensor>& tensors) {
        c10::Dict<std::string, torch::Tensor> d;
        for (const auto& [name, t] : toSeedNames(tensors, c.config)) d.insert(name, t.to(torch::kCPU).contiguous());
        return d;
    };

    Dict root = makeDict();
    root.insert("format", std::string(kCheckpointFormat));
    root.insert("version", kCheckpointVersion);
    root.insert("config", configToDict(c.config));
    c10::List<std::string> vocab;
    for (const auto& entry : c.tokenizer.vocabulary()) vocab.push_back(entry);
    root.insert("vocab", vocab);
    root.insert("model", toDict(fused));
    if (!c.expAvg.empty()) {
        Dict optimizer = makeDict();
        optimizer.insert("step", c.optimizerStep);
        optimizer.insert("exp_avg", toDict(c.expAvg));
        optimizer.insert("exp_avg_sq", toDict(c.expAvgSq));
        root.insert("optimizer", optimizer);
    }
    root.insert("step", c.step);
    root.insert("tokens_seen", c.tokensSeen);
    if (c.weightsStep > c.step) throw Error("cannot save weights from a step after the checkpoint's own.");
    root.insert("weights_step", c.weightsStep < 0 ? c.step : c.weightsStep);
    Dict history = makeDict();
    history.insert("steps", vectorTensor(c.history.steps, torch::kInt64));
    history.insert("train_loss", vectorTensor(c.history.trainLoss, torch::kFloat32));
    history.insert("learning_rate", vectorTensor(c.history.learningRate, torch::kFloat32));
    history.insert("eval_steps", vectorTensor(c.history.evalSteps, torch::kInt64));
    history.insert("eval_train_loss", vectorTensor(c.history.evalTrainLoss, torch::kFloat32));
    history.insert("eval_val_loss", vectorTensor(c.history.evalValLoss, torch::kFloat32));
    root.insert("history", history);

    std::vector<char> bytes;
    try {
        bytes = torch::pickle_save(root);
    } catch (const std::exception& e) {
        throw Error(std::string("cannot encode the checkpoint: ") + e.what());
    }
    writeFileAtomically(path, std::string_view(bytes.data(), bytes.size()));
}

Checkpoint loadCheckpoint(const std::string& path) {
    const ReadArchive file = readArchive(path);
    const Value& root = file.values.root();
    if (!root.is(Value::Kind::Dict)) throw Error(path + " is not a CharGPT checkpoint (it holds no dictionary).");
    for (const auto& entry : root.entries)
        if (!entry.first->is(Value::Kind::String)) throw Error(path + " is not a CharGPT checkpoint.");
    const Value* format = root.find("format");
    if (!format || !format->is(Value::Kind::String) || format->text != kCheckpointFormat)
        throw Error(path + " is not a CharGPT checkpoint (its format tag is missing or different).");
    const int64_t version = intField(root, "version");
    if (version > kCheckpointVersion)
        throw Error(path + " was written by a newer CharGPT Studio (format version " + std::to_string(version) +
                    "; this one reads up to " + std::to_string(kCheckpointVersion) + ").");
    if (version < 1) throw Error(path + " has an invalid format version.");

    Checkpoint c;
    c.config = configFromDict(dictField(root, "config"));

    const Value& vocabValue = field(root, "vocab", "");
    if (!vocabValue.is(Value::Kind::List)) throw Error("the checkpoint's vocab is not a list.");
    std::vector<std::string> vocab;
    for (const Value* entry : vocabValue.items) {
        if (!entry->is(Value::Kind::String)) throw Error("the checkpoint's vocab holds something that is not text.");
        vocab.push_back(entry->text);
    }
    c.tokenizer = CharTokenizer::fromVocabulary(vocab);
    if (c.tokenizer.vocabSize() != c.config.vocab_size)
        throw Error("the checkpoint's vocabulary has " + std::to_string(c.tokenizer.vocabSize()) +
                    " entries but its settings say " + std::to_string(c.config.vocab_size) + ".");

    checkModelFitsFile(path, c.config, file.storageBytes);
    c.model = CharGPT(c.config);
    const auto expected = namedParameters(c.model);
    auto weights = checkAgainst(expected, fromSeedNames(tensorMap(dictField(root, "model"), "model"), c.config), "weight");
    {
        torch::NoGradGuard noGrad;
        for (auto& [name, param] : expected) const_cast<torch::Tensor&>(param).copy_(weights.at(name));
    }
    c.model->to(computeDevice());

    if (root.find("optimizer")) {
        const Value& optimizer = dictField(root, "optimizer");
        c.optimizerStep = intField(optimizer, "step", "optimizer.");
        c.expAvg = checkAgainst(expected,
                                fromSeedNames(tensorMap(dictField(optimizer, "exp_avg", "optimizer."), "optimizer"), c.config),
                                "optimizer state");
        c.expAvgSq = checkAgainst(expected,
                                  fromSeedNames(tensorMap(dictField(optimizer, "exp_avg_sq", "optimizer."), "optimizer"), c.config),
                                  "optimizer state");
    }
    c.step = intField(root, "step");
    c.tokensSeen = intField(root, "tokens_seen");
    if (c.step < 0 || c.tokensSeen < 0) throw Error("the checkpoint's step count is negative.");
    c.weightsStep = root.find("weights_step") ? intField(root, "weights_step") : c.step;
    if (c.weightsStep < 0 || c.weightsStep > c.step)
        throw Error("the checkpoint's weights_step (" + std::to_string(c.weightsStep) +
                    ") is not between 0 and its step (" + std::to_string(c.step) + ").");

    const Value& history = dictField(root, "history");
    c.history.steps = tensorVector<int64_t>(history, "steps", torch::kInt64);
    c.history.trainLoss = tensorVector<float>(history, "train_loss", torch::kFloat32);
    c.history.learningRate = tensorVector<float>(history, "learning_rate", torch::kFloat32);
    c.history.evalSteps = tensorVector<int64_t>(history, "eval_steps", torch::kInt64);
    c.history.evalTrainLoss = tensorVector<float>(history, "eval_train_loss", torch::kFloat32);
    c.history.evalValLoss = tensorVector<float>(history, "eval_val_loss", torch::kFloat32);
    if (c.history.trainLoss.size() != c.history.steps.size() ||
        c.history.learningRate.size() != c.history.steps.size() ||
        c.history.evalTrainLoss.size() != c.history.evalSteps.size() ||
        c.history.evalValLoss.size() != c.history.evalSteps.size())
        throw Error("the checkpoint's loss history has lists of different lengths.");
    return c;
}

}  // namespace chargpt
