// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/analysis/Attribution.h"

#include <cmath>
#include <limits>
#include <string>

#include "model/analysis/Inputs.h"
#include "model/runtime/Error.h"

namespace chargpt {

double Attribution::logitSum() const {
    double sum = 0.0;
    for (const AttributionRow& row : rows) sum += row.logit;
    return sum;
}

double Attribution::marginSum() const {
    double sum = 0.0;
    for (const AttributionRow& row : rows) sum += row.margin;
    return sum;
}

namespace {

// The tokens the model reads, tokens[0 .. position], checked; and `chosen`
// (-1: the model's top) checked against the vocabulary.
std::vector<int64_t> readTokens(const CharGPT& model, const std::vector<int64_t>& tokens, int64_t position,
                                int64_t chosen) {
    if (tokens.empty()) throw Error("the text is empty: there is no position to explain.");
    const int64_t n = static_cast<int64_t>(tokens.size());
    if (position < 0 || position >= n)
        throw Error("position " + std::to_string(position) + " is outside the text, whose positions are 0 to " +
                    std::to_string(n - 1) + ".");
    const int64_t context = model->config().sequence_len;
    if (position >= context)
        throw Error("position " + std::to_string(position) + " is past the model's context: it reads at most " +
                    std::to_string(context) + " characters, positions 0 to " + std::to_string(context - 1) + ".");
    std::vector<int64_t> prefix(tokens.begin(), tokens.begin() + position + 1);
    analysis::checkInput(model, prefix, "the text");
    const int64_t vocabulary = model->config().vocab_size;
    if (chosen < -1 || chosen >= vocabulary)
        throw Error("the character to explain has id " + std::to_string(chosen) +
                    "; the model's vocabulary has ids 0 to " + std::to_string(vocabulary - 1) + ".");
    return prefix;
}

torch::Tensor exact(const torch::Tensor& t) { return t.detach().to(torch::kCPU, torch::kFloat64); }

}  // namespace

namespace {

// One pass over `prefix` with gradients taken with respect to a copy of the
// first block's input only (autograd::grad: nothing accumulates in the
// weights' gradients): the logits at `position` (double), gradient x input of
// `chosen` (-1: the likeliest, set here) and, with `parts`, the streams, the
// feed-forwards' writes and the heads' outputs the attribution reads.
struct Pass {
    torch::Tensor logits;  // (V)
    std::vector<double> gradientTimesInput;
    std::vector<torch::Tensor> residuals, feedForward, heads;  // (1, T, C) each
};

Pass runPass(CharGPT& model, const std::vector<int64_t>& prefix, int64_t position, int64_t& chosen, bool parts) {
    Pass pass;
    pass.heads.resize(static_cast<std::size_t>(model->config().n_layer));
    torch::AutoGradMode gradients(true);
    torch::Tensor input;  // (1, T, C), the leaf the rest of the pass reads
    const PassHook hook = [&input, &pass, parts](PassPart part, int64_t layer, torch::Tensor& value) {
        if (part == PassPart::Residual && layer == 0) {
            input = value.detach().requires_grad_(true);
            value = input;
        } else if (part == PassPart::Heads && parts) {
            pass.heads[static_cast<std::size_t>(layer)] = value.detach();
        }
    };
    ForwardOptions options;
    options.dropout = false;
    options.hook = &hook;
    if (parts) {
        options.residuals = &pass.residuals;
        options.feedForwardWrites = &pass.feedForward;
    }
    const torch::Tensor logits = model->forward(analysis::inputTensor(model, prefix), options)[0][position];  // (V)
    pass.logits = exact(logits);
    if (chosen < 0) chosen = pass.logits.argmax().item<int64_t>();
    const torch::Tensor gradient = torch::autograd::grad({logits[chosen]}, {input})[0];  // (1, T, C)
    const torch::Tensor product = exact((gradient * input).sum(-1)[0]).contiguous();    // (T)
    const double* p = product.data_ptr<double>();
    pass.gradientTimesInput.assign(p, p + product.numel());
    return pass;
}

}  // namespace

std::vector<double> gradientTimesInput(const CharGPT& modelHolder, const std::vector<int64_t>& tokens,
                                       int64_t position, int64_t chosen) {
    const std::vector<int64_t> prefix = readTokens(modelHolder, tokens, position, chosen);
    if (chosen < 0) throw Error("gradient x input needs the character to explain.");
    CharGPT model = modelHolder;  // a handle to the same module
    return runPass(model, prefix, position, chosen, false).gradientTimesInput;
}

Attribution attribute(const CharGPT& modelHolder, const std::vector<int64_t>& tokens, int64_t position,
                      int64_t chosen) {
    const ModelConfig& config = modelHolder->config();
    if (!config.residual)
        throw Error("the direct logit attribution needs residual connections, and this model has none (" +
                    config.missingParts() +
                    "): each block replaces the stream instead of adding to it, so its parts do not sum to the logit.");
    const std::vector<int64_t> prefix = readTokens(modelHolder, tokens, position, chosen);
    CharGPT model = modelHolder;
    const int64_t layers = config.n_layer, heads = config.n_head(), H = config.head_size;

    Pass pass = runPass(model, prefix, position, chosen, true);  // chosen: the top when -1 was asked
    const torch::Tensor& logits = pass.logits;                    // (V)
    Attribution a;
    a.position = position;
    a.inputs = prefix;
    const int64_t top = logits.argmax().item<int64_t>();
    a.chosen = chosen;
    a.chosenIsTop = logits[a.chosen].item<double>() >= logits[top].item<double>();
    torch::Tensor others = logits.clone();
    others[a.chosen] = -std::numeric_limits<double>::infinity();
    a.runnerUp = others.argmax().item<int64_t>();
    a.logit = logits[a.chosen].item<double>();
    a.runnerUpLogit = logits[a.runnerUp].item<double>();
    a.probability = torch::softmax(logits, 0)[a.chosen].item<double>();

    // The two directions read out of the stream (2, C): the chosen character's
    // row of the head, and its difference from the runner-up's.
    torch::NoGradGuard noGrad;
    const torch::Tensor w = exact(model->lm->weight);
    const torch::Tensor directions = torch::stack({w[a.chosen], w[a.chosen] - w[a.runnerUp]});
    torch::Tensor u = directions;  // (2, C): what a part's vector is dotted with
    if (model->l) {
        const torch::Tensor stream = exact(pass.residuals.back()[0][position]);  // (C)
        const double variance = (stream - stream.mean()).pow(2).mean().item<double>();
        a.scale = std::sqrt(variance + model->l->options.eps());
        u = directions * exact(model->l->weight);
        u = (u - u.mean(1, /*keepdim=*/true)) / a.scale;
    }
    auto add = [&a](AttributionPart part, std::optional<int64_t> layer, std::optional<int64_t> head,
                    const torch::Tensor& twoValues) {
        AttributionRow row;
        row.part = part;
        row.layer = layer;
        row.head = head;
        row.logit = twoValues[0].item<double>();
        row.margin = twoValues[1].item<double>();
        a.rows.push_back(row);
    };
    add(AttributionPart::TokenEmbedding, std::nullopt, std::nullopt,
        u.matmul(exact(model->token_emb->weight[prefix.back()])));
    if (model->pos_emb)
        add(AttributionPart::PositionEmbedding, std::nullopt, std::nullopt,
            u.matmul(exact(model->pos_emb->weight[position])));
    for (int64_t layer = 0; layer < layers; ++layer) {
        const auto* block = model->blocks[static_cast<std::size_t>(layer)]->as<BlockImpl>();
        const auto& proj = block->mha->proj;
        // Head h writes W_O[:, hH:(h+1)H] y_h; u . that is (u W_O)[hH:(h+1)H] . y_h.
        const torch::Tensor r = proj ? u.matmul(exact(proj->weight)) : u;  // (2, C)
        const torch::Tensor y = exact(pass.heads[static_cast<std::size_t>(layer)][0][position]);  // (C)
        for (int64_t h = 0; h < heads; ++h)
            add(AttributionPart::Head, layer, h, r.narrow(1, h * H, H).matmul(y.narrow(0, h * H, H)));
        if (proj && proj->bias.defined())
            add(AttributionPart::ProjectionBias, layer, std::nullopt, u.matmul(exact(proj->bias)));
        if (!block->ff) continue;
        const torch::Tensor write = exact(pass.feedForward[static_cast<std::size_t>(layer)][0][position]);  // (C)
        const torch::Tensor& bias = block->ff->ln2->bias;
        if (!bias.defined()) {
            add(AttributionPart::FeedForward, layer, std::nullopt, u.matmul(write));
            continue;
        }
        add(AttributionPart::FeedForward, layer, std::nullopt, u.matmul(write - exact(bias)));
        add(AttributionPart::FeedForwardBias, layer, std::nullopt, u.matmul(exact(bias)));
    }
    if (model->l && model->l->bias.defined())
        add(AttributionPart::FinalNormBias, std::nullopt, std::nullopt,
            directions.matmul(exact(model->l->bias)));
    if (model->lm->bias.defined()) {
        const torch::Tensor b = exact(model->lm->bias);
        add(AttributionPart::HeadBias, std::nullopt, std::nullopt,
            torch::stack({b[a.chosen], b[a.chosen] - b[a.runnerUp]}));
    }
    a.gradientTimesInput = std::move(pass.gradientTimesInput);
    return a;
}

}  // namespace chargpt
