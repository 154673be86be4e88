// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/analysis/LogitLens.h"

#include <algorithm>
#include <limits>
#include <string>

#include "model/analysis/Inputs.h"
#include "model/runtime/Error.h"

namespace chargpt {

torch::Tensor logitLensProbabilities(const CharGPT& modelHolder, const std::vector<int64_t>& inputs) {
    analysis::checkInput(modelHolder, inputs, "the input");
    CharGPT model = modelHolder;  // a handle to the same module
    torch::NoGradGuard noGrad;
    std::vector<torch::Tensor> residuals;
    ForwardOptions options;
    options.dropout = false;
    options.residuals = &residuals;
    model->forward(analysis::inputTensor(model, inputs), options);
    const torch::Tensor stream = torch::cat(residuals, 0);  // (L + 1, T, C): the batch of one, layer by layer
    const torch::Tensor logits = model->head(stream);  // (L + 1, T, vocab): the final norm (if any) and the head
    return torch::softmax(logits.to(torch::kFloat32), -1).to(torch::kCPU).contiguous();
}

LogitLens computeLogitLens(const CharGPT& model, const std::vector<int64_t>& inputs,
                           const std::vector<int64_t>& targets) {
    if (!targets.empty() && targets.size() != inputs.size())
        throw Error("the lens was given " + std::to_string(targets.size()) + " next tokens for " +
                    std::to_string(inputs.size()) + " inputs.");
    const int64_t vocabularySize = model->config().vocab_size;
    for (std::size_t i = 0; i < targets.size(); ++i)
        if (targets[i] != -1 && (targets[i] < 0 || targets[i] >= vocabularySize))
            throw Error("the next token at index " + std::to_string(i) + " has id " + std::to_string(targets[i]) +
                        "; the model's vocabulary has ids 0 to " + std::to_string(vocabularySize - 1) +
                        " (-1: none).");
    const torch::Tensor probabilities = logitLensProbabilities(model, inputs);  // (L + 1, T, V)
    LogitLens lens;
    lens.layers = probabilities.size(0);
    lens.positions = probabilities.size(1);
    lens.inputs = inputs;
    lens.targets = targets.empty() ? std::vector<int64_t>(inputs.size(), -1) : targets;
    const int64_t vocabulary = probabilities.size(2);
    const int64_t guesses = std::min<int64_t>(kLensGuesses, vocabulary);
    const auto top = probabilities.topk(guesses, -1);  // (L + 1, T, guesses), likeliest first
    const torch::Tensor topP = std::get<0>(top).contiguous();
    const torch::Tensor topIds = std::get<1>(top).contiguous();
    const float* p = probabilities.data_ptr<float>();
    const float* tp = topP.data_ptr<float>();
    const int64_t* ti = topIds.data_ptr<int64_t>();
    lens.cells.resize(static_cast<std::size_t>(lens.layers * lens.positions));
    for (int64_t layer = 0; layer < lens.layers; ++layer) {
        for (int64_t t = 0; t < lens.positions; ++t) {
            const int64_t cell = layer * lens.positions + t;
            LensCell& c = lens.cells[static_cast<std::size_t>(cell)];
            c.guesses = static_cast<int>(guesses);
            for (int64_t g = 0; g < guesses; ++g) {
                c.guessTokens[static_cast<std::size_t>(g)] = ti[cell * guesses + g];
                c.guessProbabilities[static_cast<std::size_t>(g)] = tp[cell * guesses + g];
            }
            const int64_t target = lens.targets[static_cast<std::size_t>(t)];
            if (target < 0) {
                c.targetProbability = std::numeric_limits<float>::quiet_NaN();
                continue;
            }
            const float* row = p + cell * vocabulary;
            const float pt = row[target];
            c.targetProbability = pt;
            c.targetRank = 1 + std::count_if(row, row + vocabulary, [pt](float q) { return q > pt; });
        }
    }
    return lens;
}

LogitLens logitLensOfText(const CharGPT& model, const std::vector<int64_t>& tokens, int64_t* firstToken) {
    if (tokens.size() < 2)
        throw Error("the lens needs a text of at least 2 known characters; it has " + std::to_string(tokens.size()) +
                    ".");
    const std::size_t window = static_cast<std::size_t>(model->config().sequence_len) + 1;
    const std::size_t first = tokens.size() > window ? tokens.size() - window : 0;
    if (firstToken) *firstToken = static_cast<int64_t>(first);
    const std::vector<int64_t> inputs(tokens.begin() + static_cast<std::ptrdiff_t>(first), tokens.end() - 1);
    const std::vector<int64_t> targets(tokens.begin() + static_cast<std::ptrdiff_t>(first) + 1, tokens.end());
    return computeLogitLens(model, inputs, targets);
}

}  // namespace chargpt
