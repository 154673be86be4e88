// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Inside a layer's feed-forward: which of its 4C hidden neurons fire where.
// - feedForwardHidden: the hidden activations gelu(ln1(l2(h))) of every layer
//   for a text, as the plain forward pass computes them (ForwardOptions::
//   feedForwardHidden);
// - neuronsByPeak: a layer's neurons ordered by their largest activation over
//   the text (the neurons that fire hardest somewhere first);
// - topActivations: for chosen neurons, where a (longer) text fires each most;
// - positionCheck: the feed-forward is applied to each position alone, so the
//   same input vector gives the same output wherever it stands. It is shown on
//   the text itself: the input of a repeated character's second occurrence is
//   replaced by the first occurrence's, and the outputs at both positions are
//   compared (they agree up to rounding), next to how far apart the two
//   occurrences' real inputs and outputs are (attention made them differ).
// In evaluation mode (no dropout) and without gradients; the model's mode is
// left as it is. Throws chargpt::Error for an empty or too long text, an id
// outside the vocabulary or a layer that does not exist.

#include <torch/torch.h>

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "model/nn/CharGPT.h"

namespace chargpt {

// (L, T, 4C) float32 on the CPU: the hidden activations of every layer's
// feed-forward for `tokens` (1 to sequence_len ids).
torch::Tensor feedForwardHidden(const CharGPT& model, const std::vector<int64_t>& tokens);

// The neurons (columns of `hidden`, (T, N)) ordered by their largest value
// over the T rows, largest first (ties: lower index first).
std::vector<int64_t> neuronsByPeak(const torch::Tensor& hidden);

struct NeuronExample {
    int64_t position = 0;     // in the text
    float activation = 0.0f;  // the neuron's activation there
};

// For each of `neurons` of `layer`'s feed-forward (same order): the `count`
// positions of `tokens` where it is largest, largest first (ties: earlier
// first). The text is read in consecutive windows of the model's context, each
// on its own (a window's first characters see little before them), at most
// `maxTokens` tokens from its start.
std::vector<std::vector<NeuronExample>> topActivations(const CharGPT& model, const std::vector<int64_t>& tokens,
                                                       int64_t layer, const std::vector<int64_t>& neurons,
                                                       int64_t count, int64_t maxTokens);

// The same for every layer at once, in one pass over the text: `neurons[l]`
// of layer l (empty: none of that layer), one list of examples per neuron.
// `neurons` has one entry per layer of the model.
std::vector<std::vector<std::vector<NeuronExample>>> topActivationsByLayer(
    const CharGPT& model, const std::vector<int64_t>& tokens, const std::vector<std::vector<int64_t>>& neurons,
    int64_t count, int64_t maxTokens);

struct PositionCheck {
    int64_t layer = 0;
    // Two positions of the same token, the first repeated token of the text,
    // both or neither: none when no token is repeated (then the distances are 0).
    std::optional<int64_t> first, second;
    double inputDistance = 0.0;   // |h[first] - h[second]|: the feed-forward's two real inputs
    double outputDistance = 0.0;  // |ff(h)[first] - ff(h)[second]|
    // max |ff(h')[second] - ff(h')[first]| where h' is h with h[second]
    // replaced by h[first]: 0 up to rounding, whatever the positions.
    double sameInputDifference = 0.0;
};

PositionCheck positionCheck(const CharGPT& model, const std::vector<int64_t>& tokens, int64_t layer);
// positionCheck of every layer, from one pass over the text.
std::vector<PositionCheck> positionChecks(const CharGPT& model, const std::vector<int64_t>& tokens);

}  // namespace chargpt
