// SPDX-License-Identifier: GPL-3.0-or-later
// A run record's values worked out without the database: the fields of its settings and the corpus fingerprint.
#include "model/record/RunLibrary.h"

#include <cstdio>

#include <nlohmann/json.hpp>

namespace chargpt {

std::vector<std::pair<std::string, std::string>> settingsFields(const std::string& settingsJson) {
    constexpr int kMaxDepth = 4;  // {"config": {"emb_size": 128}} is 2
    // An ordered object finds a key by looking through those before it, so
    // 55,000 keys took minutes: settings of more keys than any run has (about
    // 30) are not read.
    constexpr int kMaxKeys = 1000;
    // A run's settings are about 600 bytes: text past this is not parsed at
    // all, so that a listing of runs of 1 MiB settings builds no documents.
    constexpr std::size_t kMaxBytes = 64 * 1024;
    if (settingsJson.size() > kMaxBytes) return {};
    int keys = 0;
    auto shallow = [&keys](int depth, nlohmann::ordered_json::parse_event_t event, nlohmann::ordered_json&) {
        if (depth > kMaxDepth) throw Error("nested too deeply");
        if (event == nlohmann::ordered_json::parse_event_t::key && ++keys > kMaxKeys) throw Error("too many keys");
        return true;
    };
    std::vector<std::pair<std::string, std::string>> fields;
    try {
        const auto document = nlohmann::ordered_json::parse(settingsJson, shallow, /*allow_exceptions=*/false);
        if (!document.is_object() || !document.contains("config") || !document["config"].is_object()) return fields;
        for (const auto& [key, value] : document["config"].items())
            if (value.is_primitive()) fields.emplace_back(key, value.dump());
    } catch (const Error&) {
        fields.clear();
    }
    return fields;
}

std::string corpusFingerprint(const std::vector<std::u32string>& documents) {
    uint64_t hash = 14695981039346656037ull;
    auto mix = [&hash](uint32_t c) {
        for (int shift = 0; shift < 32; shift += 8) {
            hash ^= (c >> shift) & 0xffu;
            hash *= 1099511628211ull;
        }
    };
    for (const std::u32string& document : documents) {
        for (char32_t c : document) mix(static_cast<uint32_t>(c));
        mix(0xffffffffu);  // between documents: "ab" + "c" is not "a" + "bc"
    }
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash));
    return text;
}

}  // namespace chargpt
