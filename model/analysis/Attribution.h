// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// "Why this character?": the direct logit attribution of one position's
// logit, and gradient x input on the embeddings of the characters before it.
//
// Direct logit attribution (as TransformerLens computes it): the stream the
// final LayerNorm reads at position t is a sum of parts, the token and
// position embeddings and everything each layer's attention (head by head,
// through its slice of the projection, plus the projection's bias) and
// feed-forward (its product, plus its output bias) wrote there. With the
// LayerNorm's scale sigma = sqrt(var + eps) of that position frozen, the
// LayerNorm and the head are linear in the stream, so the logit of character
// c is the sum over the parts v of
//     v . u,   u = centred(W_lm[c] * gamma) / sigma
// plus W_lm[c] . beta (the final norm's bias) and the head's bias b[c]. The
// margin over the runner-up r is the same with W_lm[c] - W_lm[r]. The parts
// sum to the model's logit up to float rounding (the gap is reported).
//
// Gradient x input: for each earlier position s <= t, the gradient of the
// chosen logit with respect to the vector the first block reads at s (token
// plus position embedding), dotted with that vector. Not integrated gradients:
// it is exact for a part of the model that is linear, a first-order estimate
// elsewhere.
//
// Both run in evaluation mode (no dropout) and leave the model's mode and its
// weights' gradients as they are. A model without residual connections (the
// ladder's first rungs) is refused: its stream is not a sum of parts.

#include <cstdint>
#include <optional>
#include <vector>

#include "model/nn/CharGPT.h"

namespace chargpt {

enum class AttributionPart {
    TokenEmbedding,
    PositionEmbedding,
    Head,             // one head of one layer, through its slice of the projection
    ProjectionBias,   // a layer's attention projection's bias
    FeedForward,      // a layer's feed-forward, without its output bias
    FeedForwardBias,  // a layer's feed-forward output bias
    FinalNormBias,    // the final LayerNorm's bias through the head
    HeadBias,         // the head's own bias
};

struct AttributionRow {
    AttributionPart part = AttributionPart::TokenEmbedding;
    std::optional<int64_t> layer;  // counted from 0 for the parts of a layer, else none
    std::optional<int64_t> head;   // counted from 0 for AttributionPart::Head, else none
    double logit = 0.0;   // what it adds to the chosen character's logit
    double margin = 0.0;  // what it adds to the chosen character's margin over the runner-up
};

struct Attribution {
    int64_t position = 0;         // the position explained: the model read tokens[0 .. position]
    std::vector<int64_t> inputs;  // tokens[0 .. position]
    int64_t chosen = 0;           // the character explained
    int64_t runnerUp = 0;         // the likeliest other character
    bool chosenIsTop = false;     // whether `chosen` is the model's likeliest
    double logit = 0.0;           // the model's logit of `chosen`
    double runnerUpLogit = 0.0;   // and of the runner-up
    double probability = 0.0;     // the model's probability of `chosen`
    double scale = 1.0;           // the final LayerNorm's sigma there, frozen; 1 without one
    std::vector<AttributionRow> rows;  // the parts in the model's order
    // Gradient x input of each position 0 .. position.
    std::vector<double> gradientTimesInput;

    double margin() const { return logit - runnerUpLogit; }
    double logitSum() const;
    double marginSum() const;
    // The model's value minus the sum of the parts: float rounding only.
    double logitGap() const { return logit - logitSum(); }
    double marginGap() const { return margin() - marginSum(); }
};

// The attribution at `position` of `tokens` (counted from 0; the tokens after
// it are not read) of character `chosen`, or of the model's likeliest when
// chosen is -1. Throws chargpt::Error for a position outside the tokens or
// past the context, an id outside the vocabulary, or a model without residual
// connections. Call it on the thread that owns the model.
Attribution attribute(const CharGPT& model, const std::vector<int64_t>& tokens, int64_t position,
                      int64_t chosen = -1);

// Gradient x input alone (the attribution's last field), for the same
// arguments and with the same refusals but the residual connections.
std::vector<double> gradientTimesInput(const CharGPT& model, const std::vector<int64_t>& tokens, int64_t position,
                                       int64_t chosen);

}  // namespace chargpt
