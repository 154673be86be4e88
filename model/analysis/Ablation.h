// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Knock-out: what each part of the model is worth, measured as the loss when
// its output is replaced by zero (zero ablation; KnockOut in
// model/nn/CharGPT.h says exactly what is zeroed for a head, a layer's
// attention and a layer's feed-forward). The loss is the mean over the given
// batches of each batch's mean cross-entropy in nats, as Trainer::evaluate
// computes it, in the model's own precision (no autocast), without gradients
// or dropout; the model's mode is left as it is. What the knock-out table and
// heatmap and `chargpt ablate` show.

#include <torch/torch.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "model/nn/CharGPT.h"
#include "model/train/Dataset.h"
#include "model/train/RunConfig.h"

namespace chargpt {

// The loss on `batches` with `knockOut` applied (empty: the plain model, the
// same arithmetic as a plain forward pass). Throws chargpt::Error when there
// is no batch, a batch is longer than the model's context or its shapes do not
// match, a token id is outside the vocabulary, or a part does not exist. Call
// it on the thread that owns the model.
double ablatedLoss(const CharGPT& model, const std::vector<Batch>& batches, const KnockOut& knockOut = {});

enum class AblationPart { Head, Attention, FeedForward };

// What knocks out one part: head `head` of `layer`, or `layer`'s attention or
// feed-forward (`head` ignored). Throws chargpt::Error for a head without its head.
KnockOut knockOutOf(AblationPart part, int64_t layer, std::optional<int64_t> head = std::nullopt);

struct AblationRow {
    AblationPart part = AblationPart::Head;
    int64_t layer = 0;
    std::optional<int64_t> head;  // the head for AblationPart::Head, else none
    double loss = 0.0;      // with this part knocked out
    double increase = 0.0;  // loss - baseline (negative: the model does better without it)
};

struct AblationTable {
    int64_t layers = 0, heads = 0;  // the model's shape
    double baseline = 0.0;          // nothing knocked out
    // Every head alone (layer by layer, head by head), then every layer's
    // attention, then every layer's feed-forward: L * heads + 2 * L rows.
    std::vector<AblationRow> rows;
    bool complete = true;  // false when `progress` stopped it: `rows` holds those done
    // The loss increase of each head, (layers, heads) row-major; NaN for a head
    // not measured (table stopped early).
    std::vector<double> headIncreases() const;
};

// How many tokens the knock-out table reads at most: every row of the table is
// one pass over them, so the book preset's 1 + 16 * 6 + 12 passes stay within
// seconds.
constexpr int64_t kAblationTokens = 16384;

// The batches a knock-out table is measured on: the fixed validation batches
// of Trainer::evaluate (evaluationBatches), in order, cut to at most
// `maxTokens` tokens (whole windows; at least one window). The app and
// `chargpt ablate` measure on these, so their figures agree.
std::vector<Batch> ablationBatches(const Dataset& data, const RunConfig& config, int64_t maxTokens = kAblationTokens);

// The baseline and every row, one ablatedLoss() each (1 + L * heads + 2L
// passes over the batches; no feed-forward rows for a model without one). `progress`, when set, is called after each of
// them with (done, total) and may return false to stop early. Same errors as
// ablatedLoss().
AblationTable ablationTable(const CharGPT& model, const std::vector<Batch>& batches,
                            const std::function<bool(int64_t done, int64_t total)>& progress = {});

}  // namespace chargpt
