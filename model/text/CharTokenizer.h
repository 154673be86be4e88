// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace chargpt {

// A character the vocabulary does not have, at `position` (code points) of the text.
struct UnknownChar {
    std::size_t position = 0;
    char32_t codePoint = 0;
};

// Character-level tokenizer over Unicode code points, as in the book: index 0 is
// the end-of-text token `<|e|>`, then the sorted distinct characters from 1.
// The vocabularies of nanoGPT, minGPT and the lecture's gpt.py have no
// end-of-text token: their sorted characters from 0 (withoutEndOfText()), so
// that an imported model keeps its token ids exactly.
class CharTokenizer {
public:
    static constexpr int64_t kEndOfText = 0;
    static const std::string kEndOfTextText;  // "<|e|>"

    CharTokenizer() = default;
    // The vocabulary of `text`: its distinct code points, sorted.
    static CharTokenizer fromText(std::u32string_view text);
    // From a checkpoint's list: "<|e|>" first, then one character per entry,
    // sorted and distinct; a list without "<|e|>" first is one without an
    // end-of-text token. Throws chargpt::Error saying what is wrong.
    static CharTokenizer fromVocabulary(const std::vector<std::string>& vocabulary);
    // The same characters with no end-of-text token: character i is token i.
    CharTokenizer withoutEndOfText() const;

    int64_t vocabSize() const { return static_cast<int64_t>(chars_.size()) + (endOfText_ ? 1 : 0); }
    // Whether token 0 is <|e|> (the book's) or the first character (nanoGPT's, ...).
    bool hasEndOfText() const { return endOfText_; }
    // kEndOfText, or -1 for a vocabulary without one.
    int64_t endOfTextId() const { return endOfText_ ? kEndOfText : -1; }
    // The token of each character in order is its index plus this (1, or 0 without <|e|>).
    int64_t firstCharacterId() const { return endOfText_ ? 1 : 0; }
    // "<|e|>" (when it has one) then each character as UTF-8.
    std::vector<std::string> vocabulary() const;
    const std::u32string& characters() const { return chars_; }

    // -1 when the character is not in the vocabulary.
    int64_t id(char32_t c) const;
    // Characters not in the vocabulary are left out and, when `unknown` is given,
    // reported there in order.
    std::vector<int64_t> encode(std::u32string_view text,
                                std::vector<UnknownChar>* unknown = nullptr) const;
    std::vector<int64_t> encodeUtf8(std::string_view text,
                                    std::vector<UnknownChar>* unknown = nullptr) const;
    // The token as text: "<|e|>" for end-of-text, the character otherwise.
    std::string tokenText(int64_t id) const;
    std::string decode(const std::vector<int64_t>& ids) const;

    bool operator==(const CharTokenizer& other) const {
        return chars_ == other.chars_ && endOfText_ == other.endOfText_;
    }

private:
    explicit CharTokenizer(std::u32string sortedDistinct, bool endOfText = true);
    std::u32string chars_;  // sorted; token i + firstCharacterId() is chars_[i]
    bool endOfText_ = true;
};

}  // namespace chargpt
