// SPDX-License-Identifier: GPL-3.0-or-later
// Reading the tensors of a torch.save file: the archive, the pickle, and where in it the state_dict is.
#include "model/io/PyTorchInterop.h"

#include <sstream>

#include "model/runtime/Error.h"
#include "model/io/Pickle.h"
#include "model/io/TorchArchive.h"

namespace chargpt {

namespace {

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

// A number the pickle holds as an int, a float, a bool or a one-element tensor.
bool numberOf(const pickle::Value& v, double& out) {
    using Kind = pickle::Value::Kind;
    switch (v.kind) {
        case Kind::Int: out = double(v.integer); return true;
        case Kind::Float: out = v.number; return true;
        case Kind::Bool: out = v.boolean ? 1.0 : 0.0; return true;
        case Kind::Tensor:
            if (v.tensor.numel() != 1 || !(v.tensor.is_floating_point() || v.tensor.scalar_type() == torch::kLong))
                return false;
            out = v.tensor.to(torch::kFloat64).item<double>();
            return true;
        default: return false;
    }
}

std::string numberText(double value) {
    std::ostringstream out;
    out << value;
    return out.str();
}

// What nanoGPT's train.py saves beside the weights: model_args, iter_num,
// best_val_loss and config['dataset'] (the optimizer and the rest of config are read past).
void readTrainingState(const pickle::Value& root, PickledStateDict& result) {
    using Kind = pickle::Value::Kind;
    if (const pickle::Value* args = root.find("model_args"); args && args->kind == Kind::Dict) {
        std::string text;
        for (const auto& [key, value] : args->entries) {
            double number = 0.0;
            if (key->kind != Kind::String || !numberOf(*value, number) || key->text.size() > 64) continue;
            result.modelArgs[key->text] = number;
            text += (text.empty() ? "" : ", ") + key->text + "=" + numberText(number);
        }
        if (!text.empty()) result.trainingState = "model_args " + text;
    }
    for (const char* name : {"iter_num", "best_val_loss"}) {
        double number = 0.0;
        if (const pickle::Value* v = root.find(name); v && numberOf(*v, number))
            result.trainingState += (result.trainingState.empty() ? "" : "; ") + std::string(name) + " " +
                                    numberText(number);
    }
    if (const pickle::Value* config = root.find("config"); config && config->kind == Kind::Dict)
        if (const pickle::Value* dataset = config->find("dataset"); dataset && dataset->kind == Kind::String)
            result.dataset = dataset->text.substr(0, 256);
}

}  // namespace

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
                    readTrainingState(*root, result);
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

std::optional<ForeignModelFile> recognizeForeignModel(const std::string& path) {
    ForeignModelFile foreign;
    try {
        foreign.file = readTorchStateDict(path);
        foreign.naming = detectNaming(foreign.file.tensors);
    } catch (const Error&) {
        return std::nullopt;
    }
    // Only a bare state_dict of the seed's or the book's names, or a foreign
    // layout, is a file to import.
    if (!isForeign(foreign.naming) && !foreign.file.foundUnder.empty()) return std::nullopt;
    return foreign;
}

}  // namespace chargpt
