// SPDX-License-Identifier: GPL-3.0-or-later
// The character tokenizer (chargpt::CharTokenizer) from raw bytes. The input is
// split at its first 0xFF byte (never part of UTF-8): the part before is the
// training text that builds the vocabulary, the part after is a prompt to encode.
// Checked for every input:
//  - the vocabulary is the sorted distinct characters of the text, end-of-text first;
//  - the training text encodes with no unknown character and decodes back to itself;
//  - the prompt's ids plus the reported unknown characters account for every
//    character, in order; its ids decode to the prompt without the unknown ones;
//  - vocabulary() -> fromVocabulary() gives the same tokenizer back;
//  - fromVocabulary() on arbitrary entries either works or throws chargpt::Error;
//  - encodeUtf8() throws chargpt::Error exactly when the bytes are not UTF-8.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/FuzzCheck.h"
#include "model/text/CharTokenizer.h"
#include "model/runtime/Error.h"
#include "model/text/Utf8.h"

namespace {

// The longest valid UTF-8 prefix of `bytes`, decoded.
std::u32string decodePrefix(std::string_view bytes) {
    std::u32string out;
    std::size_t offset = 0;
    if (!chargpt::utf8::decode(bytes, out, offset)) {
        const bool ok = chargpt::utf8::decode(bytes.substr(0, offset), out, offset);
        FUZZ_CHECK(ok);
    }
    return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
    using chargpt::CharTokenizer;
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    const std::size_t cut = bytes.find('\xFF');
    const std::string_view textBytes = bytes.substr(0, cut);
    const std::string_view promptBytes = cut == std::string_view::npos ? std::string_view() : bytes.substr(cut + 1);

    // --- vocabulary of the training text ---
    const std::u32string text = decodePrefix(textBytes);
    const CharTokenizer tokenizer = CharTokenizer::fromText(text);
    const std::u32string& chars = tokenizer.characters();
    FUZZ_CHECK(std::adjacent_find(chars.begin(), chars.end(), std::greater_equal<char32_t>()) == chars.end());
    for (char32_t c : text) FUZZ_CHECK(std::binary_search(chars.begin(), chars.end(), c));
    FUZZ_CHECK(tokenizer.vocabSize() == static_cast<int64_t>(chars.size()) + 1);
    for (std::size_t i = 0; i < chars.size(); ++i) {
        FUZZ_CHECK(tokenizer.id(chars[i]) == static_cast<int64_t>(i) + 1);
        FUZZ_CHECK(tokenizer.tokenText(static_cast<int64_t>(i) + 1) == chargpt::utf8::encode(chars[i]));
    }
    FUZZ_CHECK(tokenizer.tokenText(CharTokenizer::kEndOfText) == CharTokenizer::kEndOfTextText);
    FUZZ_CHECK(tokenizer.tokenText(tokenizer.vocabSize()) == "\xEF\xBF\xBD");
    FUZZ_CHECK(tokenizer.tokenText(-1) == "\xEF\xBF\xBD");

    // --- the training text round-trips ---
    std::vector<chargpt::UnknownChar> unknown;
    const std::vector<int64_t> ids = tokenizer.encode(text, &unknown);
    FUZZ_CHECK(unknown.empty());
    FUZZ_CHECK(ids.size() == text.size());
    for (int64_t id : ids) FUZZ_CHECK(id >= 1 && id < tokenizer.vocabSize());
    FUZZ_CHECK(tokenizer.decode(ids) == chargpt::utf8::encode(text));

    // --- the vocabulary as a checkpoint stores it, and back ---
    const std::vector<std::string> vocabulary = tokenizer.vocabulary();
    FUZZ_CHECK(static_cast<int64_t>(vocabulary.size()) == tokenizer.vocabSize());
    FUZZ_CHECK(CharTokenizer::fromVocabulary(vocabulary) == tokenizer);

    // --- a prompt with characters the vocabulary may lack ---
    const std::u32string prompt = decodePrefix(promptBytes);
    unknown.clear();
    const std::vector<int64_t> promptIds = tokenizer.encode(prompt, &unknown);
    FUZZ_CHECK(promptIds.size() + unknown.size() == prompt.size());
    std::u32string known;
    std::size_t u = 0;
    for (std::size_t i = 0; i < prompt.size(); ++i) {
        if (u < unknown.size() && unknown[u].position == i) {
            FUZZ_CHECK(unknown[u].codePoint == prompt[i]);
            FUZZ_CHECK(tokenizer.id(prompt[i]) == -1);
            ++u;
        } else {
            FUZZ_CHECK(tokenizer.id(prompt[i]) >= 1);
            known += prompt[i];
        }
    }
    FUZZ_CHECK(u == unknown.size());
    FUZZ_CHECK(tokenizer.decode(promptIds) == chargpt::utf8::encode(known));

    // --- encodeUtf8 on the raw prompt bytes ---
    std::u32string scratch;
    std::size_t offset = 0;
    const bool valid = chargpt::utf8::decode(promptBytes, scratch, offset);
    try {
        const std::vector<int64_t> direct = tokenizer.encodeUtf8(promptBytes);
        FUZZ_CHECK(valid);
        FUZZ_CHECK(direct == promptIds);
    } catch (const chargpt::Error& e) {
        FUZZ_CHECK(!valid);
        FUZZ_CHECK(std::strlen(e.what()) > 0);
    }

    // --- fromVocabulary on arbitrary entries: the prompt bytes split at newlines ---
    std::vector<std::string> entries{CharTokenizer::kEndOfTextText};
    std::size_t start = 0;
    while (start < promptBytes.size()) {
        std::size_t end = promptBytes.find('\n', start);
        if (end == std::string_view::npos) end = promptBytes.size();
        entries.emplace_back(promptBytes.substr(start, end - start));
        start = end + 1;
    }
    try {
        const CharTokenizer parsed = CharTokenizer::fromVocabulary(entries);
        FUZZ_CHECK(parsed.vocabulary() == entries);  // accepted only when it is canonical
    } catch (const chargpt::Error& e) {
        FUZZ_CHECK(std::strlen(e.what()) > 0);
    }
    return 0;
}
