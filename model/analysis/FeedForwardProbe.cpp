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

// A rung of the architecture ladder may have no feed-forward to probe.
void checkFeedForward(const CharGPT& model) {
    const ModelConfig& c = model->config();
    if (c.n_layer == 0 || !c.feed_forward)
        throw Error("this model has no feed-forward to show (a rung of the architecture ladder without it).");
}

// The hidden activations of every layer for a batch of windows (B, T): L x
// (B, T, 4C) floats kept at once, refused past what a pass may take.
std::vector<torch::Tensor> hiddenOf(const CharGPT& modelHolder, const torch::Tensor& idx) {
    checkFeedForward(modelHolder);
    const ModelConfig& c = modelHolder->config();
    const double bytes = 4.0 * double(c.n_layer) * double(idx.numel()) * 4.0 * double(c.emb_size);
    if (bytes > ModelConfig::kMaxContextMemoryBytes)
        throw Error("the feed-forward activations of every layer over " + std::to_string(idx.numel()) +
                    " characters need " + std::to_string(int64_t(bytes / 1e9 + 0.5)) +
                    " GB; use a shorter text (a pass may take at most 4.3 GB).");
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

std::vector<std::vector<std::vector<NeuronExample>>> topActivationsByLayer(
    const CharGPT& model, const std::vector<int64_t>& tokens, const std::vector<std::vector<int64_t>>& neurons,
    int64_t count, int64_t maxTokens) {
    const int64_t L = model->config().n_layer;
    if (static_cast<int64_t>(neurons.size()) != L)
        throw Error("neurons were chosen for " + std::to_string(neurons.size()) + " layer(s); the model has " +
                    std::to_string(L) + ".");
    const int64_t width = 4 * model->config().emb_size;
    for (const std::vector<int64_t>& layer : neurons)
        for (const int64_t n : layer)
            if (n < 0 || n >= width)
                throw Error("the feed-forward has no neuron " + std::to_string(n) + "; its " +
                            std::to_string(width) + " are numbered 0 to " + std::to_string(width - 1) + ".");
    if (count < 0) throw Error("the number of examples cannot be negative.");
    const int64_t total = std::min<int64_t>(static_cast<int64_t>(tokens.size()), std::max<int64_t>(maxTokens, 0));
    if (total < 1) throw Error("the text is empty.");
    const std::vector<int64_t> text(tokens.begin(), tokens.begin() + total);
    analysis::checkTokenIds(model, text, "the text");
    torch::NoGradGuard noGrad;
    const int64_t context = model->config().sequence_len;
    std::vector<torch::Tensor> columns(static_cast<std::size_t>(L));
    for (std::size_t l = 0; l < columns.size(); ++l) columns[l] = torch::tensor(neurons[l], torch::kInt64);
    // Per layer, each window's activations of its chosen neurons, (window length, K), in text order.
    std::vector<std::vector<torch::Tensor>> parts(static_cast<std::size_t>(L));
    auto keep = [&](const torch::Tensor& idx, int64_t rows) {
        const std::vector<torch::Tensor> hidden = hiddenOf(model, idx);  // L x (B, T, 4C)
        for (std::size_t l = 0; l < parts.size(); ++l)
            if (!neurons[l].empty())
                parts[l].push_back(
                    hidden[l].to(torch::kCPU, torch::kFloat32).reshape({rows, width}).index_select(1, columns[l]));
    };
    constexpr int64_t kWindowsPerPass = 4;  // bounds the L x (B, T, 4C) a pass keeps
    const int64_t full = total / context;
    for (int64_t w = 0; w < full; w += kWindowsPerPass) {
        const int64_t windows = std::min(kWindowsPerPass, full - w);
        const std::vector<int64_t> batch(text.begin() + w * context, text.begin() + (w + windows) * context);
        keep(torch::tensor(batch, torch::kInt64).view({windows, context}).to(model->token_emb->weight.device()),
             windows * context);
    }
    if (full * context < total) {
        const std::vector<int64_t> rest(text.begin() + full * context, text.end());
        keep(analysis::inputTensor(model, rest), static_cast<int64_t>(rest.size()));
    }
    std::vector<std::vector<std::vector<NeuronExample>>> result(static_cast<std::size_t>(L));
    const int64_t kept = std::min(count, total);
    std::vector<int64_t> order(static_cast<std::size_t>(total));
    for (std::size_t l = 0; l < result.size(); ++l) {
        result[l].resize(neurons[l].size());
        if (neurons[l].empty()) continue;
        const torch::Tensor all = torch::cat(parts[l], 0).contiguous();  // (total, K)
        const auto a = all.accessor<float, 2>();
        for (std::size_t k = 0; k < neurons[l].size(); ++k) {
            for (int64_t i = 0; i < total; ++i) order[static_cast<std::size_t>(i)] = i;
            const auto column = static_cast<int64_t>(k);
            std::partial_sort(order.begin(), order.begin() + kept, order.end(), [&a, column](int64_t x, int64_t y) {
                const float ax = a[x][column], ay = a[y][column];
                return ax > ay || (ax == ay && x < y);
            });
            for (int64_t i = 0; i < kept; ++i) {
                const int64_t position = order[static_cast<std::size_t>(i)];
                result[l][k].push_back({position, a[position][column]});
            }
        }
    }
    return result;
}

std::vector<std::vector<NeuronExample>> topActivations(const CharGPT& model, const std::vector<int64_t>& tokens,
                                                       int64_t layer, const std::vector<int64_t>& neurons,
                                                       int64_t count, int64_t maxTokens) {
    checkLayer(model, layer);
    std::vector<std::vector<int64_t>> byLayer(static_cast<std::size_t>(model->config().n_layer));
    byLayer[static_cast<std::size_t>(layer)] = neurons;
    return topActivationsByLayer(model, tokens, byLayer, count, maxTokens)[static_cast<std::size_t>(layer)];
}

std::vector<PositionCheck> positionChecks(const CharGPT& modelHolder, const std::vector<int64_t>& tokens) {
    analysis::checkInput(modelHolder, tokens, "the text");
    checkFeedForward(modelHolder);
    const int64_t L = modelHolder->config().n_layer;
    std::vector<PositionCheck> checks(static_cast<std::size_t>(L));
    std::optional<std::pair<int64_t, int64_t>> repeated;  // the first repeated token's two positions
    for (std::size_t j = 1; j < tokens.size() && !repeated; ++j)
        for (std::size_t i = 0; i < j; ++i)
            if (tokens[i] == tokens[j]) {
                repeated = std::make_pair(static_cast<int64_t>(i), static_cast<int64_t>(j));
                break;
            }
    for (int64_t l = 0; l < L; ++l) {
        checks[static_cast<std::size_t>(l)].layer = l;
        if (!repeated) continue;
        checks[static_cast<std::size_t>(l)].first = repeated->first;
        checks[static_cast<std::size_t>(l)].second = repeated->second;
    }
    if (!repeated) return checks;
    const auto [first, second] = *repeated;
    CharGPT model = modelHolder;
    torch::NoGradGuard noGrad;
    std::vector<torch::Tensor> residuals, attentionWrites;
    ForwardOptions options;
    options.dropout = false;
    options.residuals = &residuals;
    options.attentionWrites = &attentionWrites;
    model->forward(analysis::inputTensor(model, tokens), options);
    auto distance = [](const torch::Tensor& a, const torch::Tensor& b) {
        return (a.to(torch::kFloat64) - b.to(torch::kFloat64)).norm().item<double>();
    };
    for (int64_t l = 0; l < L; ++l) {
        const auto i = static_cast<std::size_t>(l);
        // The feed-forward's input: the stream after the layer's attention (a
        // rung without residual connections: the attention's output alone).
        const torch::Tensor h =
            model->config().residual ? residuals[i] + attentionWrites[i] : attentionWrites[i];  // (1, T, C)
        BlockImpl* block = model->blocks[i]->as<BlockImpl>();
        // A rung without residual connections has no norm before its feed-forward.
        const torch::nn::LayerNormImpl* norm = block->l2.is_empty() ? nullptr : block->l2.get();
        const torch::Tensor out = block->ff->forward(h, norm, /*dropout=*/false);  // (1, T, C)
        torch::Tensor same = h.clone();
        same[0][second] = h[0][first];
        const torch::Tensor sameOut = block->ff->forward(same, norm, /*dropout=*/false);
        PositionCheck& check = checks[i];
        check.inputDistance = distance(h[0][first], h[0][second]);
        check.outputDistance = distance(out[0][first], out[0][second]);
        check.sameInputDifference =
            (sameOut[0][second].to(torch::kFloat64) - sameOut[0][first].to(torch::kFloat64)).abs().max().item<double>();
    }
    return checks;
}

PositionCheck positionCheck(const CharGPT& model, const std::vector<int64_t>& tokens, int64_t layer) {
    analysis::checkInput(model, tokens, "the text");
    checkLayer(model, layer);
    return positionChecks(model, tokens)[static_cast<std::size_t>(layer)];
}

}  // namespace chargpt
