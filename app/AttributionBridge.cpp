// SPDX-License-Identifier: GPL-3.0-or-later
#include <torch/torch.h>

#include <algorithm>

#include "model/analysis/Attribution.h"
#include "model/analysis/Inputs.h"
#include "model/io/Checkpoint.h"
#include "model/runtime/Error.h"

#include "app/AttributionBridge.h"

// The widgets' kinds are the model's parts, in the same order.
static_assert(int(AttributionBar::TokenEmbedding) == int(chargpt::AttributionPart::TokenEmbedding) &&
              int(AttributionBar::FeedForward) == int(chargpt::AttributionPart::FeedForward) &&
              int(AttributionBar::HeadBias) == int(chargpt::AttributionPart::HeadBias));

namespace {

// Where the heads that add most to the logit looked from the last position of
// `inputs`: the softmax weights of one more forward pass, without gradients.
QVector<AttentionPath> attentionPaths(const chargpt::Checkpoint& checkpoint,
                                      const std::vector<int64_t>& inputs,
                                      const QVector<AttributionBar>& bars) {
    QVector<AttributionBar> heads;
    for (const AttributionBar& bar : bars)
        if (bar.kind == AttributionBar::Head) heads.append(bar);
    std::stable_sort(heads.begin(), heads.end(),
                     [](const AttributionBar& a, const AttributionBar& b) { return a.logit > b.logit; });
    if (heads.size() > kAttentionPaths) heads.resize(kAttentionPaths);
    if (heads.isEmpty()) return {};
    std::vector<torch::Tensor> weights;  // per layer (1, nh, T, T)
    {
        torch::NoGradGuard noGradients;
        chargpt::ForwardOptions options;
        options.dropout = false;
        options.weights = &weights;
        chargpt::CharGPT model = checkpoint.model;  // a handle to the same module
        model->forward(chargpt::analysis::inputTensor(model, inputs), options);
    }
    QVector<AttentionPath> paths;
    for (const AttributionBar& bar : heads) {
        const torch::Tensor row = weights.at(static_cast<std::size_t>(*bar.layer))[0][*bar.head][-1]
                                      .to(torch::kCPU, torch::kDouble)
                                      .contiguous();
        AttentionPath path;
        path.layer = *bar.layer;  // a head's bar names its layer and head
        path.head = *bar.head;
        path.logit = bar.logit;
        const double* w = row.data_ptr<double>();
        path.weights = QVector<double>(w, w + row.numel());
        paths.append(path);
    }
    return paths;
}

}  // namespace

CharacterAttribution attributionOf(const chargpt::Checkpoint& checkpoint, const QStringList& characters, int index) {
    if (index < 0 || index >= characters.size())
        throw chargpt::Error("character " + std::to_string(index) + " is outside the text of " +
                             std::to_string(characters.size()) + " characters.");
    const chargpt::CharTokenizer& tokenizer = checkpoint.tokenizer;
    std::vector<int64_t> tokens;  // the known characters before it
    for (int i = 0; i < index; ++i) {
        const std::u32string code = characters[i].toStdU32String();
        const int64_t id = code.size() == 1 ? tokenizer.id(code[0]) : -1;
        if (id >= 0) tokens.push_back(id);
    }
    if (tokens.empty())
        throw chargpt::Error("the model read nothing before this character: click one after the first it knows.");
    const auto context = static_cast<std::size_t>(checkpoint.config.sequence_len);
    if (tokens.size() > context) tokens.erase(tokens.begin(), tokens.end() - static_cast<std::ptrdiff_t>(context));
    const std::u32string clicked = characters[index].toStdU32String();
    const int64_t chosen = clicked.size() == 1 ? tokenizer.id(clicked[0]) : -1;
    const int64_t position = static_cast<int64_t>(tokens.size()) - 1;
    const chargpt::Attribution a = chargpt::attribute(checkpoint.model, tokens, position, chosen);

    const auto text = [&tokenizer](int64_t id) { return QString::fromStdString(tokenizer.tokenText(id)); };
    CharacterAttribution out;
    for (const int64_t id : a.inputs) out.characters.append(text(id));
    out.chosen = text(a.chosen);
    out.runnerUp = text(a.runnerUp);
    out.chosenIsTop = a.chosenIsTop;
    out.logit = a.logit;
    out.margin = a.margin();
    out.probability = a.probability;
    out.gap = a.logitGap();
    out.step = checkpoint.step;
    for (const chargpt::AttributionRow& row : a.rows) {
        AttributionBar bar;
        bar.kind = static_cast<AttributionBar::Kind>(static_cast<int>(row.part));
        if (row.layer) bar.layer = static_cast<int>(*row.layer);
        if (row.head) bar.head = static_cast<int>(*row.head);
        bar.logit = row.logit;
        bar.margin = row.margin;
        out.bars.append(bar);
    }
    for (const double v : a.gradientTimesInput) out.gradientTimesInput.append(v);
    out.paths = attentionPaths(checkpoint, a.inputs, out.bars);
    return out;
}

AttributionHistory historyOf(const QVector<qint64>& steps,
                             const QVector<CharacterAttribution>& attributions) {
    AttributionHistory h;
    if (steps.size() != attributions.size() || attributions.size() < 2) {
        h.problem =
            QStringLiteral("the run keeps the weights of fewer than two of its steps that can be read.");
        return h;
    }
    const CharacterAttribution& last = attributions.last();
    h.chosen = last.chosen;
    h.steps = steps;
    h.parts = last.bars;
    h.values.resize(h.parts.size());
    for (const CharacterAttribution& a : attributions) {
        if (a.bars.size() != h.parts.size()) {
            h.problem = QStringLiteral("the kept steps are of models of different shapes.");
            return h;
        }
        h.logits.append(a.logit);
        for (int p = 0; p < a.bars.size(); ++p) {
            const AttributionBar& bar = a.bars[p];
            if (bar.kind != h.parts[p].kind || bar.layer != h.parts[p].layer || bar.head != h.parts[p].head) {
                h.problem = QStringLiteral("the kept steps are of models of different shapes.");
                return h;
            }
            h.values[p].append(bar.logit);
        }
    }
    return h;
}
