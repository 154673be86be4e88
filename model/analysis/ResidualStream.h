// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The residual stream of a text: how large it is after the embeddings and
// after each block, at each position, and what each layer's attention and
// feed-forward write into it (ForwardOptions::residuals, attentionWrites,
// feedForwardWrites). Sizes are Euclidean norms of the C-wide vectors. With
// `knockOut`, the same pass with those parts knocked out (KnockOut in
// model/nn/CharGPT.h; a knocked-out half writes 0). In evaluation mode (no
// dropout) and without gradients; the model's mode is left as it is. Throws
// chargpt::Error for an empty or too long text, an id outside the vocabulary
// or a part that does not exist.

#include <cstdint>
#include <vector>

#include "model/nn/CharGPT.h"

namespace chargpt {

struct ResidualStream {
    int64_t layers = 0, positions = 0;
    // (L + 1) x T row-major: [0] the token plus position embeddings, [i] the
    // stream after block i - 1.
    std::vector<double> norms;
    // L x T row-major: the size of what each layer's attention and
    // feed-forward add at each position.
    std::vector<double> attentionWrites;
    std::vector<double> feedForwardWrites;

    double norm(int64_t row, int64_t position) const {
        return norms[static_cast<std::size_t>(row * positions + position)];
    }
    // The attention's share of what layer `layer` writes, summed over the
    // positions: sum |attention| / (sum |attention| + sum |feed-forward|);
    // NaN when both write nothing.
    double attentionShare(int64_t layer) const;
};

ResidualStream residualStream(const CharGPT& model, const std::vector<int64_t>& tokens,
                              const KnockOut* knockOut = nullptr);

}  // namespace chargpt
