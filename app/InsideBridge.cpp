// SPDX-License-Identifier: GPL-3.0-or-later
// LibTorch and the model first: Qt's `slots` and friends must not reach them.
#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "model/analysis/Ablation.h"
#include "model/analysis/EmbeddingMap.h"
#include "model/analysis/HeadRoles.h"
#include "model/analysis/LogitLens.h"
#include "model/io/Checkpoint.h"
#include "model/runtime/Error.h"

#include "app/InsideBridge.h"
#include "app/InsideLayersBridge.h"

namespace {

constexpr int kNeighbours = 5;

// Each token's text once (the end-of-text token shows as "<|e|>").
class TokenNames {
public:
    explicit TokenNames(const chargpt::CharTokenizer& tokenizer)
        : tokenizer_(tokenizer), names_(static_cast<std::size_t>(tokenizer.vocabSize())) {}
    const QString& operator()(int64_t token) {
        QString& cached = names_[static_cast<std::size_t>(token)];
        if (cached.isNull()) cached = QString::fromStdString(tokenizer_.tokenText(token));
        return cached;
    }

private:
    const chargpt::CharTokenizer& tokenizer_;
    std::vector<QString> names_;
};

LogitLens lensOf(const chargpt::Checkpoint& checkpoint, const std::vector<int64_t>& tokens, TokenNames& name) {
    int64_t first = 0;
    const chargpt::LogitLens lens = chargpt::logitLensOfText(checkpoint.model, tokens, &first);
    LogitLens result;
    result.step = checkpoint.step;
    for (int64_t p = 0; p < lens.positions; ++p) result.characters << name(lens.inputs[static_cast<std::size_t>(p)]);
    if (!lens.targets.empty() && lens.targets.back() >= 0) result.following = name(lens.targets.back());
    result.layers = LogitLens::defaultLayerLabels(static_cast<int>(lens.layers - 1));
    result.cells.reserve(static_cast<qsizetype>(lens.cells.size()));
    for (const chargpt::LensCell& c : lens.cells) {
        LogitLensCell cell;
        if (c.guesses > 0) {
            cell.top = name(c.guessTokens[0]);
            cell.topProbability = c.guessProbabilities[0];
        }
        if (c.targetRank > 0) {
            cell.trueRank = static_cast<int>(c.targetRank);
            cell.trueProbability = c.targetProbability;
        }
        result.cells.append(cell);
    }
    return result;
}

CharacterMapFrame mapOf(const chargpt::Checkpoint& checkpoint, const chargpt::EmbeddingFrame& frame, TokenNames& name) {
    CharacterMapFrame map;
    map.step = checkpoint.step;
    const torch::Tensor points = frame.coordinates.contiguous();
    const auto xy = points.accessor<double, 2>();
    const torch::Tensor embeddings = checkpoint.model->token_emb->weight.detach().to(torch::kCPU, torch::kFloat64);
    const std::vector<std::vector<chargpt::Neighbour>> nearest = chargpt::nearestByCosineAll(embeddings, kNeighbours);
    for (int64_t token = 0; token < points.size(0); ++token) {
        map.characters << name(token);
        map.points.append(QPointF(xy[token][0], xy[token][1]));
        QVector<CharacterNeighbour> near;
        for (const chargpt::Neighbour& n : nearest[static_cast<std::size_t>(token)])
            near.append({name(n.token), static_cast<float>(n.cosine)});
        map.neighbours.append(near);
    }
    map.explainedX = frame.explained[0];
    map.explainedY = frame.explained[1];
    const torch::Tensor similarity = chargpt::positionSimilarity(checkpoint.model).to(torch::kFloat32).contiguous();
    map.positions = static_cast<int>(similarity.size(0));
    const float* s = similarity.data_ptr<float>();
    map.positionSimilarity = QVector<float>(s, s + similarity.numel());
    return map;
}

}  // namespace

CharacterMapAlignment::CharacterMapAlignment() = default;
CharacterMapAlignment::~CharacterMapAlignment() = default;
void CharacterMapAlignment::reset() { previous_.reset(); }

InsideFrame computeInsideFrame(const chargpt::Checkpoint& checkpoint, const QString& probe, const QString& text,
                               CharacterMapAlignment& alignment, const chargpt::Checkpoint* against) {
    if (!checkpoint.model) throw chargpt::Error("the checkpoint holds no model.");
    InsideFrame frame;
    frame.step = checkpoint.step;
    const chargpt::ModelConfig& config = checkpoint.model->config();
    frame.layers = static_cast<int>(config.n_layer);
    frame.heads = static_cast<int>(config.n_head());
    TokenNames name(checkpoint.tokenizer);
    QStringList problems;

    const std::vector<int64_t> probeTokens = checkpoint.tokenizer.encode(probe.toStdU32String());
    if (probeTokens.size() >= 2)
        frame.lens = lensOf(checkpoint, probeTokens, name);
    else
        frame.gaps << InsideGap::ProbeTooShort;

    const std::vector<int64_t> textTokens =
        text.isEmpty() ? probeTokens : checkpoint.tokenizer.encode(text.toStdU32String());
    if (!config.positions)
        frame.gaps << InsideGap::NoPositions;
    // The feed-forward's neurons and the residual stream of the probe; the
    // neurons' examples from the validation text.
    // A model too large for them, or a rung without their parts, loses these
    // two views with a reason, not the frame.
    if (!probeTokens.empty() && config.n_layer > 0) {
        try {
            frame.feedForward = feedForwardProbeOf(checkpoint, probeTokens, textTokens);
            frame.residual = residualStreamOf(checkpoint, probeTokens);
        } catch (const chargpt::Error& e) {
            problems << QString::fromStdString(e.what());
        }
    }
    if (config.n_layer == 0) {
        frame.gaps << InsideGap::NoLayers;
    } else if (textTokens.size() >= 2 && 4 <= config.sequence_len && 3 <= checkpoint.tokenizer.vocabSize()) {
        const chargpt::HeadRoles roles = chargpt::computeHeadRoles(checkpoint.model, textTokens);
        frame.roles.step = checkpoint.step;
        frame.roles.previousToken = QVector<float>(roles.previousToken.begin(), roles.previousToken.end());
        frame.roles.induction = QVector<float>(roles.induction.begin(), roles.induction.end());
        frame.previousTokenChance = roles.previousTokenChance;
        frame.inductionChance = roles.inductionChance;
    } else {
        frame.gaps << InsideGap::NoTextForHeads;
    }

    std::unique_ptr<chargpt::EmbeddingFrame>& previous = alignment.previous_;
    const bool aligned = previous && previous->coordinates.size(0) == config.vocab_size &&
                         previous->axes.size(1) == config.emb_size;
    auto map = std::make_unique<chargpt::EmbeddingFrame>(
        chargpt::tokenEmbeddingMap(checkpoint.model, aligned ? previous.get() : nullptr));
    frame.map = mapOf(checkpoint, *map, name);
    if (against && against->model && against->tokenizer.vocabSize() == checkpoint.tokenizer.vocabSize() &&
        against->model->config().emb_size == config.emb_size) {
        const torch::Tensor then = chargpt::projectOnFrame(against->model->token_emb->weight, *map);
        const auto xy = then.accessor<double, 2>();
        frame.map.comparedStep = against->step;
        for (int64_t token = 0; token < then.size(0); ++token)
            frame.map.comparedPoints.append(QPointF(xy[token][0], xy[token][1]));
    }
    previous = std::move(map);

    frame.problem = problems.join(QLatin1Char(' '));
    return frame;
}

LogitLens stepLens(const chargpt::Checkpoint& checkpoint, const std::vector<int64_t>& context, int positions) {
    if (!checkpoint.model) throw chargpt::Error("the checkpoint holds no model.");
    TokenNames name(checkpoint.tokenizer);
    const LogitLens whole = lensOf(checkpoint, context, name);
    const int from = std::max(0, whole.positionCount() - std::max(positions, 1));
    if (from == 0) return whole;
    LogitLens cut;
    cut.step = whole.step;
    cut.layers = whole.layers;
    cut.characters = whole.characters.mid(from);
    cut.following = whole.following;
    for (int layer = 0; layer < whole.layerCount(); ++layer)
        for (int position = from; position < whole.positionCount(); ++position)
            cut.cells.append(whole.cell(layer, position));
    return cut;
}

Knockout computeKnockout(const chargpt::Checkpoint& checkpoint, const std::vector<chargpt::Batch>& batches,
                         const std::function<bool(int done, int total)>& progress) {
    if (!checkpoint.model) throw chargpt::Error("the checkpoint holds no model.");
    const chargpt::AblationTable table = chargpt::ablationTable(
        checkpoint.model, batches, [&progress](int64_t done, int64_t total) {
            return !progress || progress(static_cast<int>(done), static_cast<int>(total));
        });
    Knockout result;
    result.step = checkpoint.step;
    result.layers = static_cast<int>(table.layers);
    result.heads = static_cast<int>(table.heads);
    result.baselineLoss = table.baseline;
    for (const chargpt::AblationRow& row : table.rows) {
        KnockoutRow r;
        r.kind = row.part == chargpt::AblationPart::Head        ? KnockoutKind::Head
                 : row.part == chargpt::AblationPart::Attention ? KnockoutKind::Attention
                                                                : KnockoutKind::FeedForward;
        r.layer = static_cast<int>(row.layer);
        if (row.head) r.head = static_cast<int>(*row.head);
        r.loss = row.loss;
        r.increase = row.increase;
        result.rows.append(r);
    }
    return result;
}
