// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Two roles a head can take, scored for every layer and head from its softmax
// attention weights w[i][j] (query position i, key position j), as in
// TransformerLens and Olsson et al. 2022, "In-context learning and induction
// heads":
// - previous-token score: the mean of w[i][i-1] over every query position
//   i >= 1 of a text. 1: the head looks only at the character just before.
// - induction score: on sequences r_0 .. r_{n-1} r_0 .. r_{n-1} (n random
//   tokens repeated once), the mean of w[i][i-n+1] over the second copy's
//   positions i = n .. 2n-1: from each token's second occurrence to the token
//   that followed its first occurrence (for r_{n-1}, position n, where the
//   second copy starts). 1: the head does what an induction head does.
// Beside each, its chance value: what a head that spreads its attention
// evenly over the visible positions scores, the mean of 1 / (i + 1) over the
// same query positions (i + 1 keys are visible from position i). A head scores
// its chance value exactly when its queries or keys are zero.
// All without gradients or dropout, in the model's precision; the model's mode
// is left as it is. What the head-roles plot and heatmap and `chargpt heads`
// show.

#include <torch/torch.h>

#include <cstdint>
#include <vector>

#include "model/nn/CharGPT.h"

namespace chargpt {

// A text for the previous-token score is read in windows of the model's
// context, at most this many (its first kMaxHeadRoleWindows * sequence_len
// tokens).
constexpr int64_t kMaxHeadRoleWindows = 16;
constexpr int64_t kMaxInductionSequences = 256;

struct HeadRoleOptions {
    // n, the length of the random part: 0 picks min(sequence_len / 2, vocab - 1).
    // 2n must fit the context.
    int64_t inductionLength = 0;
    int64_t inductionSequences = 8;  // random sequences averaged over
    uint64_t seed = 1234;            // of the random tokens
};

struct HeadRoles {
    int64_t layers = 0, heads = 0;
    // (layers, heads) row-major: previousToken[layer * heads + head].
    std::vector<double> previousToken;
    std::vector<double> induction;
    double previousTokenChance = 0.0;
    double inductionChance = 0.0;
    int64_t textTokensRead = 0;   // of the text, for the previous-token score
    int64_t inductionLength = 0;  // n
    double previousTokenOf(int64_t layer, int64_t head) const {
        return previousToken[static_cast<std::size_t>(layer * heads + head)];
    }
    double inductionOf(int64_t layer, int64_t head) const {
        return induction[static_cast<std::size_t>(layer * heads + head)];
    }
};

// `count` sequences (rows) of n random token ids repeated twice, (count, 2n)
// int64: ids 1 .. vocab - 1 (not 0, the document separator), all n distinct
// when vocab - 1 >= n (so each token's first occurrence is unique), else drawn
// with replacement. The same for the same arguments.
torch::Tensor repeatedRandomTokens(int64_t vocab, int64_t n, int64_t count, uint64_t seed);

// Both scores of every head: the previous-token score on `text` (at least 2
// tokens, read in windows as above) and the induction score on
// repeatedRandomTokens(vocab, n, inductionSequences, seed). Throws
// chargpt::Error for a model without layers, a text shorter than 2 tokens, a token id outside the
// vocabulary, a 2n that does not fit the context or n < 2, or a number of sequences
// outside 1 .. kMaxInductionSequences. Call it on the thread that owns the model.
HeadRoles computeHeadRoles(const CharGPT& model, const std::vector<int64_t>& text, const HeadRoleOptions& options = {});

}  // namespace chargpt
