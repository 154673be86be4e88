// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/analysis/Ablation.h"

#include <algorithm>
#include <limits>
#include <string>

#include "model/runtime/Error.h"
#include "model/train/Trainer.h"  // evaluationBatches

namespace chargpt {

namespace {

void checkBatches(const CharGPT& model, const std::vector<Batch>& batches) {
    if (batches.empty()) throw Error("there are no evaluation batches to measure the loss on.");
    const int64_t context = model->config().sequence_len;
    const int64_t vocabulary = model->config().vocab_size;
    for (std::size_t i = 0; i < batches.size(); ++i) {
        const Batch& b = batches[i];
        const std::string which = "evaluation batch " + std::to_string(i);
        if (!b.inputs.defined() || !b.targets.defined() || b.inputs.dim() != 2 ||
            b.inputs.sizes() != b.targets.sizes() || b.inputs.numel() == 0)
            throw Error(which + " is not a pair of equal (batch, length) token tensors.");
        if (b.inputs.scalar_type() != torch::kInt64 || b.targets.scalar_type() != torch::kInt64)
            throw Error(which + " does not hold 64-bit token ids.");
        if (b.inputs.size(1) > context)
            throw Error(which + " has sequences of " + std::to_string(b.inputs.size(1)) +
                        " tokens; the model reads at most " + std::to_string(context) + ".");
        for (const torch::Tensor* t : {&b.inputs, &b.targets}) {
            const int64_t low = t->min().item<int64_t>(), high = t->max().item<int64_t>();
            if (low < 0 || high >= vocabulary)
                throw Error(which + " has token id " + std::to_string(low < 0 ? low : high) +
                            "; the model's vocabulary has ids 0 to " + std::to_string(vocabulary - 1) + ".");
        }
    }
}

// The mean loss, batches already checked.
double lossOf(CharGPT& model, const std::vector<Batch>& batches, const KnockOut& knockOut) {
    torch::NoGradGuard noGrad;
    ForwardOptions options;
    options.dropout = false;
    options.knockOut = &knockOut;
    const auto device = model->token_emb->weight.device();
    double sum = 0.0;
    for (const Batch& batch : batches) {
        const torch::Tensor logits = model->forward(batch.inputs.to(device), options).to(torch::kFloat32);
        sum += torch::cross_entropy_loss(logits.view({-1, logits.size(-1)}), batch.targets.view({-1}).to(device))
                   .item<double>();
    }
    return sum / double(batches.size());
}

}  // namespace

KnockOut knockOutOf(AblationPart part, int64_t layer, std::optional<int64_t> head) {
    KnockOut knockOut;
    switch (part) {
        case AblationPart::Head:
            if (!head)
                throw Error("knocking out a head of layer " + std::to_string(layer) + " needs its head.");
            knockOut.heads.push_back({layer, *head});
            break;
        case AblationPart::Attention:
            knockOut.attention.push_back(layer);
            break;
        case AblationPart::FeedForward:
            knockOut.feedForward.push_back(layer);
            break;
    }
    return knockOut;
}

double ablatedLoss(const CharGPT& modelHolder, const std::vector<Batch>& batches, const KnockOut& knockOut) {
    checkBatches(modelHolder, batches);
    CharGPT model = modelHolder;  // a handle to the same module
    return lossOf(model, batches, knockOut);
}

std::vector<double> AblationTable::headIncreases() const {
    std::vector<double> out(static_cast<std::size_t>(layers * heads), std::numeric_limits<double>::quiet_NaN());
    for (const AblationRow& row : rows)
        if (row.part == AblationPart::Head && row.head)
            out[static_cast<std::size_t>(row.layer * heads + *row.head)] = row.increase;
    return out;
}

AblationTable ablationTable(const CharGPT& modelHolder, const std::vector<Batch>& batches,
                            const std::function<bool(int64_t, int64_t)>& progress) {
    checkBatches(modelHolder, batches);
    CharGPT model = modelHolder;
    AblationTable table;
    table.layers = model->config().n_layer;
    table.heads = model->config().n_head();
    // A rung of the ladder without a feed-forward has none to knock out.
    const bool feedForward = model->config().feed_forward;
    const int64_t total = 1 + table.layers * table.heads + (feedForward ? 2 : 1) * table.layers;
    int64_t done = 0;
    auto step = [&]() { return !progress || progress(++done, total); };

    table.baseline = lossOf(model, batches, {});
    if (!step()) {
        table.complete = false;
        return table;
    }
    auto measure = [&](AblationPart part, int64_t layer, std::optional<int64_t> head) {
        const KnockOut knockOut = knockOutOf(part, layer, head);
        AblationRow row;
        row.part = part;
        row.layer = layer;
        row.head = head;
        row.loss = lossOf(model, batches, knockOut);
        row.increase = row.loss - table.baseline;
        table.rows.push_back(row);
        return step();
    };
    for (int64_t layer = 0; layer < table.layers; ++layer)
        for (int64_t head = 0; head < table.heads; ++head)
            if (!measure(AblationPart::Head, layer, head)) {
                table.complete = false;
                return table;
            }
    for (const AblationPart part : {AblationPart::Attention, AblationPart::FeedForward})
        for (int64_t layer = 0; layer < table.layers && (feedForward || part != AblationPart::FeedForward); ++layer)
            if (!measure(part, layer, std::nullopt)) {
                table.complete = false;
                return table;
            }
    return table;
}

std::vector<Batch> ablationBatches(const Dataset& data, const RunConfig& config, int64_t maxTokens) {
    std::vector<Batch> batches;
    int64_t left = std::max<int64_t>(maxTokens, config.sequence_len);
    for (Batch& batch : evaluationBatches(data, config, Split::Validation)) {
        const int64_t rows = std::min<int64_t>(batch.inputs.size(0), left / config.sequence_len);
        if (rows <= 0) break;
        batches.push_back({batch.inputs.narrow(0, 0, rows).contiguous(), batch.targets.narrow(0, 0, rows).contiguous()});
        left -= rows * config.sequence_len;
    }
    return batches;
}

}  // namespace chargpt
