// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/text/CharTokenizer.h"

#include <algorithm>

#include "model/runtime/Error.h"
#include "model/text/Utf8.h"

namespace chargpt {

const std::string CharTokenizer::kEndOfTextText = "<|e|>";

CharTokenizer::CharTokenizer(std::u32string sortedDistinct, bool endOfText)
    : chars_(std::move(sortedDistinct)), endOfText_(endOfText) {}

CharTokenizer CharTokenizer::withoutEndOfText() const { return CharTokenizer(chars_, false); }

CharTokenizer CharTokenizer::fromText(std::u32string_view text) {
    std::u32string chars(text);
    std::sort(chars.begin(), chars.end());
    chars.erase(std::unique(chars.begin(), chars.end()), chars.end());
    return CharTokenizer(std::move(chars));
}

CharTokenizer CharTokenizer::fromVocabulary(const std::vector<std::string>& vocabulary) {
    if (vocabulary.empty()) throw Error("the vocabulary is empty.");
    const bool endOfText = vocabulary.front() == kEndOfTextText;
    std::u32string chars;
    chars.reserve(vocabulary.size());
    for (std::size_t i = endOfText ? 1 : 0; i < vocabulary.size(); ++i) {
        std::u32string decoded;
        std::size_t offset = 0;
        if (!utf8::decode(vocabulary[i], decoded, offset) || decoded.size() != 1)
            throw Error("vocabulary entry " + std::to_string(i) + " is not a single character.");
        if (!chars.empty() && decoded[0] <= chars.back())
            throw Error("the vocabulary is not sorted or has a repeated character at entry " +
                        std::to_string(i) + ".");
        chars.push_back(decoded[0]);
    }
    return CharTokenizer(std::move(chars), endOfText);
}

std::vector<std::string> CharTokenizer::vocabulary() const {
    std::vector<std::string> out;
    out.reserve(chars_.size() + 1);
    if (endOfText_) out.push_back(kEndOfTextText);
    for (char32_t c : chars_) out.push_back(utf8::encode(c));
    return out;
}

int64_t CharTokenizer::id(char32_t c) const {
    auto it = std::lower_bound(chars_.begin(), chars_.end(), c);
    if (it == chars_.end() || *it != c) return -1;
    return static_cast<int64_t>(it - chars_.begin()) + firstCharacterId();
}

std::vector<int64_t> CharTokenizer::encode(std::u32string_view text,
                                           std::vector<UnknownChar>* unknown) const {
    std::vector<int64_t> ids;
    ids.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        const int64_t token = id(text[i]);
        if (token >= 0)
            ids.push_back(token);
        else if (unknown)
            unknown->push_back({i, text[i]});
    }
    return ids;
}

std::vector<int64_t> CharTokenizer::encodeUtf8(std::string_view text,
                                               std::vector<UnknownChar>* unknown) const {
    return encode(utf8::decodeOrThrow(text, "the text"), unknown);
}

std::string CharTokenizer::tokenText(int64_t token) const {
    if (endOfText_ && token == kEndOfText) return kEndOfTextText;
    const int64_t index = token - firstCharacterId();
    if (index < 0 || index >= static_cast<int64_t>(chars_.size())) return "\xEF\xBF\xBD";  // U+FFFD
    return utf8::encode(chars_[static_cast<std::size_t>(index)]);
}

std::string CharTokenizer::decode(const std::vector<int64_t>& ids) const {
    std::string out;
    out.reserve(ids.size());
    for (int64_t token : ids) out += tokenText(token);
    return out;
}

}  // namespace chargpt
