// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// How surprised a model is by each character of a text: the loss at that
// character in bits, -log2 p(the character | the characters before it), the
// rank of the true character among the model's guesses and its five likeliest
// guesses. What the Surprise view and `chargpt surprise` show.

#include <torch/torch.h>

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "model/nn/CharGPT.h"
#include "model/text/CharTokenizer.h"

namespace chargpt {

// The longest text scored at once, in characters: each character keeps its
// five guesses, and a text past this is better cut by whoever asks.
constexpr std::size_t kMaxSurpriseCharacters = 1u << 20;

constexpr int kSurpriseGuesses = 5;

// One character of the text the vocabulary knows.
struct SurpriseCharacter {
    std::size_t position = 0;  // in code points of the text as given
    int64_t token = 0;
    // -log2 p(token | context); NaN for the first known character, which has
    // nothing before it to be predicted from.
    double bits = 0.0;
    int64_t rank = 0;  // 1: the model's likeliest guess; 0 when not scored
    // The likeliest guesses, likeliest first (fewer when the vocabulary is
    // smaller than kSurpriseGuesses); `guesses` says how many are filled.
    std::array<int64_t, kSurpriseGuesses> guessTokens{};
    std::array<float, kSurpriseGuesses> guessProbabilities{};
    int guesses = 0;
};

struct SurpriseResult {
    // The known characters in order; the model reads them without the unknown ones.
    std::vector<SurpriseCharacter> characters;
    // Characters the vocabulary lacks, left out of what the model reads.
    std::vector<UnknownChar> unknown;
    int64_t scored = 0;     // characters with bits: all known ones but the first
    double meanBits = 0.0;  // over the scored characters; NaN when none is
};

// Scores `text` with `model` (no gradients, no dropout; the model's mode is left
// as it is) in batches of windows of the model's context T:
// - a text of at most T + 1 known characters is one window, every character
//   predicted from all the characters before it;
// - a longer one is cut into windows of T characters that start every T/2
//   characters (the last one ends with the text): the first window scores all
//   its characters, each later one only those the earlier windows did not,
//   which are its last T/2 or fewer, so every character is scored exactly once
//   and, past the first window, from at least T - T/2 characters before it.
// With `knockOut`, the parts it names are knocked out (KnockOut in
// model/nn/CharGPT.h): how surprised the model is without them.
// Throws chargpt::Error for a text longer than kMaxSurpriseCharacters or with
// no character in the vocabulary, or a part the model does not have. Call it
// on the thread that owns the model.
SurpriseResult computeSurprise(const CharGPT& model, const CharTokenizer& tokenizer, std::u32string_view text,
                               const KnockOut* knockOut = nullptr);

}  // namespace chargpt
