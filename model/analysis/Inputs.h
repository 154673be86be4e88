// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The checks every analysis makes of what it is given, with the messages a user
// sees (chargpt::Error), and the tensor of a token sequence on the model's
// device.

#include <torch/torch.h>

#include <cstdint>
#include <string>
#include <vector>

#include "model/nn/CharGPT.h"
#include "model/runtime/Error.h"

namespace chargpt::analysis {

// Throws unless every id is a token of the model's vocabulary; `what` names the
// sequence in the message ("the input").
inline void checkTokenIds(const CharGPT& model, const std::vector<int64_t>& tokens, const std::string& what) {
    const int64_t vocabulary = model->config().vocab_size;
    for (std::size_t i = 0; i < tokens.size(); ++i)
        if (tokens[i] < 0 || tokens[i] >= vocabulary)
            throw Error(what + " has token id " + std::to_string(tokens[i]) + " at index " + std::to_string(i) +
                        "; the model's vocabulary has ids 0 to " + std::to_string(vocabulary - 1) + ".");
}

// Throws unless 1 <= tokens.size() <= the model's context, and checks the ids.
inline void checkInput(const CharGPT& model, const std::vector<int64_t>& tokens, const std::string& what) {
    const int64_t context = model->config().sequence_len;
    if (tokens.empty()) throw Error(what + " is empty.");
    if (static_cast<int64_t>(tokens.size()) > context)
        throw Error(what + " has " + std::to_string(tokens.size()) + " tokens; the model reads at most " +
                    std::to_string(context) + " at once.");
    checkTokenIds(model, tokens, what);
}

// (1, T) int64 on the model's device.
inline torch::Tensor inputTensor(const CharGPT& model, const std::vector<int64_t>& tokens) {
    return torch::tensor(tokens, torch::dtype(torch::kInt64))
        .view({1, static_cast<int64_t>(tokens.size())})
        .to(model->token_emb->weight.device());
}

}  // namespace chargpt::analysis
