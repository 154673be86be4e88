// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/io/ConfigJson.h"

#include <nlohmann/json.hpp>

#include "model/io/AtomicFile.h"
#include "model/runtime/Error.h"
#include "model/train/RunFields.h"

namespace chargpt {

std::string configToJson(const RunConfig& c) {
    // ordered_json keeps the keys in the order a reader expects them; doubles are
    // written in their shortest exact form and keep a ".0" (a float in Python).
    nlohmann::ordered_json config;
    for (const RunField& field : runFields()) {
        if (!field.inFiles || field.leftOutOfFiles(c)) continue;
        switch (field.kind) {
            case FieldKind::Integer:
                if (field.unsignedInteger)
                    config[field.key] = c.*field.unsignedInteger;
                else
                    config[field.key] = field.integerIn(c);
                break;
            case FieldKind::Real: config[field.key] = field.realIn(c); break;
            case FieldKind::Flag: config[field.key] = field.flagIn(c); break;
        }
    }
    nlohmann::ordered_json document;
    document["format"] = "chargpt-config";
    document["version"] = 1;
    document["config"] = std::move(config);
    return document.dump(2) + "\n";
}

void writeConfigJson(const std::string& path, const RunConfig& config) {
    if (!config.isFull())
        throw Error("python/train_ddp.py trains the whole CharGPT, and this model has " + config.missingParts() +
                    " (a rung of the architecture ladder): its settings cannot be exported for it.");
    if (!config.isBookArithmetic())
        throw Error("python/train_ddp.py trains the book's CharGPT, and this model has " +
                    config.arithmeticDifferences() + ": its settings cannot be exported for it.");
    writeFileAtomically(path, configToJson(config));
}

RunConfig configFromJson(const std::string& json) {
    // A config is about 600 bytes and two levels deep.
    constexpr int kMaxDepth = 4;
    auto shallow = [](int depth, nlohmann::json::parse_event_t, nlohmann::json&) {
        if (depth > kMaxDepth) throw Error("the settings are nested too deeply.");
        return true;
    };
    const nlohmann::json document = nlohmann::json::parse(json, shallow, /*allow_exceptions=*/false);
    // Every member is looked at for its type before its value: a "format" that is an
    // object is as much "not CharGPT settings" as a missing one.
    const auto isText = [&](const char* key, const char* text) {
        const auto it = document.find(key);
        return it != document.end() && it->is_string() && it->get_ref<const std::string&>() == text;
    };
    if (!document.is_object() || !isText("format", "chargpt-config") || !document.contains("config") ||
        !document["config"].is_object())
        throw Error("these are not CharGPT settings (a \"chargpt-config\" object with a \"config\").");
    const nlohmann::json& config = document["config"];
    RunConfig c;
    for (const RunField& field : runFields()) {
        if (!field.inFiles) continue;
        const auto it = config.find(field.key);
        if (it == config.end()) {
            if (field.optionalInFiles) continue;
            throw Error(std::string("the settings have no ") + field.key + ".");
        }
        switch (field.kind) {
            case FieldKind::Integer:
                if (field.unsignedInteger && it->is_number_unsigned())
                    c.*field.unsignedInteger = it->get<uint64_t>();
                else if (it->is_number_integer())
                    field.setInteger(c, it->get<int64_t>());
                else
                    throw Error(std::string("the settings' ") + field.key + " is not a whole number.");
                break;
            case FieldKind::Real:
                if (!it->is_number()) throw Error(std::string("the settings' ") + field.key + " is not a number.");
                field.setReal(c, it->get<double>());
                break;
            case FieldKind::Flag:
                if (!it->is_boolean()) throw Error(std::string("the settings' ") + field.key + " is not true or false.");
                field.setFlag(c, it->get<bool>());
                break;
        }
    }
    return c;
}

void checkReadSettings(const RunConfig& c, const std::string& source) {
    if (const ConfigProblem problem = c.validate())
        throw Error(source + "'s settings are invalid: " + problem.message());
    if (c.vocab_size < 2) throw Error(source + "'s settings have no vocabulary size.");
    if (c.emb_size > ModelConfig::kMaxWidth || c.n_layer > ModelConfig::kMaxLayers ||
        c.sequence_len > ModelConfig::kMaxContext || c.parameterCount() > (int64_t(1) << 31))
        throw Error(source + " describes a model far larger than CharGPT Studio supports.");
}

}  // namespace chargpt
