// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The logit lens: what the model would predict if it stopped after each block.
// For an input of T tokens, the residual stream is read at L + 1 places, layer
// 0 the token plus position embeddings and layer i (1 .. L) the output of block
// i - 1, and each of those (T, C) rows goes through the model's own final
// LayerNorm (with its own statistics, row by row) and its language-model head:
//     p_i(. | position t) = softmax(lm(l(resid_i[t])))
// (the "accumulated residual" of TransformerLens with the final LayerNorm
// applied to each layer). Layer L is exactly the model's output. What the lens
// grid of the inspector and Generate's Step mode show.

#include <torch/torch.h>

#include <array>
#include <cstdint>
#include <vector>

#include "model/nn/CharGPT.h"

namespace chargpt {

constexpr int kLensGuesses = 5;

// One cell of the grid: one layer, one position.
struct LensCell {
    // The likeliest next tokens at this layer, likeliest first (fewer when the
    // vocabulary is smaller than kLensGuesses); guessTokens[0] is the top one.
    std::array<int64_t, kLensGuesses> guessTokens{};
    std::array<float, kLensGuesses> guessProbabilities{};
    int guesses = 0;
    // The given next token: its rank among all tokens at this layer (1: the
    // top one; ties count for it) and its probability. 0 and NaN when the
    // position has no next token.
    int64_t targetRank = 0;
    float targetProbability = 0.0f;
};

struct LogitLens {
    int64_t layers = 0;     // L + 1 rows: 0 the embeddings, i the output of block i - 1
    int64_t positions = 0;  // T columns
    std::vector<int64_t> inputs;   // T token ids the model read
    std::vector<int64_t> targets;  // T next tokens, -1 where there is none
    // Row-major, layer by layer: cells[layer * positions + position].
    std::vector<LensCell> cells;
    const LensCell& at(int64_t layer, int64_t position) const {
        return cells[static_cast<std::size_t>(layer * positions + position)];
    }
};

// The lens's probabilities of every token, (L + 1, T, vocab) float32 on the
// CPU, for inputs (T) with 1 <= T <= sequence_len. Runs without gradients or
// dropout; the model's mode is left as it is. Throws chargpt::Error for an
// empty or too long input or a token id outside the vocabulary. Call it on the
// thread that owns the model.
torch::Tensor logitLensProbabilities(const CharGPT& model, const std::vector<int64_t>& inputs);

// The grid for `inputs` with the next token of each position in `targets`
// (empty: none known; else one per input, -1 where there is none, as for the
// last position of a text being generated). Same rules and errors as above;
// a target outside the vocabulary is refused too.
LogitLens computeLogitLens(const CharGPT& model, const std::vector<int64_t>& inputs,
                           const std::vector<int64_t>& targets = {});

// The grid of a text's tokens: each position predicts the next token. A text
// of at most sequence_len + 1 tokens is read whole (inputs tokens[0 .. n-2],
// targets tokens[1 .. n-1]); a longer one by its last sequence_len + 1 tokens,
// whose first index is stored in *firstToken when given. Throws
// chargpt::Error for fewer than 2 tokens or an id outside the vocabulary.
LogitLens logitLensOfText(const CharGPT& model, const std::vector<int64_t>& tokens, int64_t* firstToken = nullptr);

}  // namespace chargpt
