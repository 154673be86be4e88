// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/analysis/FeedForwardProbe.h"

#include <algorithm>
#include <string>

#include "model/analysis/Inputs.h"
#include "model/runtime/Error.h"

namespace chargpt {

namespace {

void checkLayer(const CharGPT& model, int64_t layer) {
    const int64_t L = model->config().n_layer;
    if (layer < 0 || layer >= L)
        throw Error("the model has no layer " + std::to_string(layer) + "; its " + std::to_string(L) +
                    " layer(s) are numbered 0 to " + std::to_string(L - 1) + ".");
}

// The hidden activations of every layer for a batch of windows (B, T).
std::vector<torch::Tensor> hiddenOf(const CharGPT& modelHolder, const torch::Tensor& idx) {
    CharGPT model = modelHolder;  // a handle to the same module
    std::vector<torch::Tensor> hidden;
    ForwardOptions options;
    options.dropout = false;
    options.feedForwardHidden = &hidden;
    model->forward(idx, options);
    return hidden;  // L x (B, T, 4C)
}

}  // namespace

torch::Tensor feedForwardHidden(const CharGPT& model, const std::vector<int64_t>& tokens) {
    analysis::checkInput(model, tokens, "the text");
    torch::NoGradGuard noGrad;
    const std::vector<torch::Tensor> hidden = hiddenOf(model, analysis::inputTensor(model, tokens));
    return torch::cat(hidden, 0).to(torch::kCPU, torch::kFloat32).contiguous();  // (L, T, 4C)
}

std::vector<int64_t> neuronsByPeak(const torch::Tensor& hidden) {
    if (hidden.dim() != 2 || hidden.size(0) < 1) throw Error("the activations must be a (positions, neurons) table.");
    const torch::Tensor peak = std::get<0>(hidden.to(torch::kCPU, torch::kFloat32).max(0)).contiguous();  // (N)
    const float* p = peak.data_ptr<float>();
    std::vector<int64_t> order(static_cast<std::size_t>(peak.size(0)));
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int64_t>(i);
    std::stable_sort(order.begin(), order.end(), [p](int64_t a, int64_t b) { return p[a] > p[b]; });
    return order;
}

std::vector<std::vector<NeuronExample>> topActivations(const CharGPT& model, const std::vector<int64_t>& tokens,
                                                       int64_t layer, const std::vector<int64_t>& neurons,
                                                       int64_t count, int64_t maxTokens) {
    checkLayer(model, layer);
    const int64_t width = 4 * model->config().emb_size;
    for (const int64_t n : neurons)
        if (n < 0 || n >= width)
            throw Error("the feed-forward has no neuron " + std::to_string(n) + "; its " + std::to_string(width) +
                        " are numbered 0 to " + std::to_string(width - 1) + ".");
    if (count < 0) throw Error("the number of examples cannot be negative.");
    const int64_t total = std::min<int64_t>(static_cast<int64_t>(tokens.size()), std::max<int64_t>(maxTokens, 0));
    if (total < 1) throw Error("the text is empty.");
    const std::vector<int64_t> text(tokens.begin(), tokens.begin() + total);
    analysis::checkTokenIds(model, text, "the text");
    torch::NoGradGuard noGrad;
    const int64_t context = model->config().sequence_len;
    const torch::Tensor columns = torch::tensor(neurons, torch::kInt64);
    // Each window's activations of the chosen neurons, (window length, K), in text order.
    std::vector<torch::Tensor> parts;
    constexpr int64_t kWindowsPerPass = 4;  // bounds the L x (B, T, 4C) a pass keeps
    const int64_t full = total / context;
    for (int64_t w = 0; w < full; w += kWindowsPerPass) {
        const int64_t windows = std::min(kWindowsPerPass, full - w);
        std::vector<int64_t> batch(text.begin() + w * context, text.begin() + (w + windows) * context);
        const torch::Tensor idx =
            torch::tensor(batch, torch::kInt64).view({windows, context}).to(model->token_emb->weight.device());
        const torch::Tensor h = hiddenOf(model, idx)[static_cast<std::size_t>(layer)].to(torch::kCPU, torch::kFloat32);
        parts.push_back(h.reshape({windows * context, width}).index_select(1, columns));
    }
    if (full * context < total) {
        const std::vector<int64_t> rest(text.begin() + full * context, text.end());
        const torch::Tensor h =
            hiddenOf(model, analysis::inputTensor(model, rest))[static_cast<std::size_t>(layer)].to(torch::kCPU,
                                                                                                   torch::kFloat32);
        parts.push_back(h.reshape({static_cast<int64_t>(rest.size()), width}).index_select(1, columns));
    }
    const torch::Tensor all = torch::cat(parts, 0).contiguous();  // (total, K)
    const auto a = all.accessor<float, 2>();
    std::vector<std::vector<NeuronExample>> result(neurons.size());
    const int64_t keep = std::min(count, total);
    std::vector<int64_t> order(static_cast<std::size_t>(total));
    for (std::size_t k = 0; k < neurons.size(); ++k) {
        for (int64_t i = 0; i < total; ++i) order[static_cast<std::size_t>(i)] = i;
        const auto column = static_cast<int64_t>(k);
        std::partial_sort(order.begin(), order.begin() + keep, order.end(), [&a, column](int64_t x, int64_t y) {
            const float ax = a[x][column], ay = a[y][column];
            return ax > ay || (ax == ay && x < y);
        });
        for (int64_t i = 0; i < keep; ++i) {
            const int64_t position = order[static_cast<std::size_t>(i)];
            result[k].push_back({position, a[position][column]});
        }
    }
    return result;
}

PositionCheck positionCheck(const CharGPT& modelHolder, const std::vector<int64_t>& tokens, int64_t layer) {
    analysis::checkInput(modelHolder, tokens, "the text");
    checkLayer(modelHolder, layer);
    PositionCheck check;
    check.layer = layer;
    for (std::size_t j = 1; j < tokens.size() && check.first < 0; ++j)
        for (std::size_t i = 0; i < j; ++i)
            if (tokens[i] == tokens[j]) {
                check.first = static_cast<int64_t>(i);
                check.second = static_cast<int64_t>(j);
                break;
            }
    if (check.first < 0) return check;
    CharGPT model = modelHolder;
    torch::NoGradGuard noGrad;
    std::vector<torch::Tensor> residuals, attentionWrites;
    ForwardOptions options;
    options.dropout = false;
    options.residuals = &residuals;
    options.attentionWrites = &attentionWrites;
    model->forward(analysis::inputTensor(model, tokens), options);
    const auto i = static_cast<std::size_t>(layer);
    // The feed-forward's input: the stream after the layer's attention.
    const torch::Tensor h = residuals[i] + attentionWrites[i];  // (1, T, C)
    BlockImpl* block = model->blocks[i]->as<BlockImpl>();
    const torch::Tensor out = block->ff->forward(h, block->l2.get(), /*dropout=*/false);  // (1, T, C)
    torch::Tensor same = h.clone();
    same[0][check.second] = h[0][check.first];
    const torch::Tensor sameOut = block->ff->forward(same, block->l2.get(), /*dropout=*/false);
    auto distance = [](const torch::Tensor& a, const torch::Tensor& b) {
        return (a.to(torch::kFloat64) - b.to(torch::kFloat64)).norm().item<double>();
    };
    check.inputDistance = distance(h[0][check.first], h[0][check.second]);
    check.outputDistance = distance(out[0][check.first], out[0][check.second]);
    check.sameInputDifference =
        (sameOut[0][check.second].to(torch::kFloat64) - sameOut[0][check.first].to(torch::kFloat64))
            .abs()
            .max()
            .item<double>();
    return check;
}

}  // namespace chargpt
