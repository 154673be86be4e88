// SPDX-License-Identifier: GPL-3.0-or-later
// LibTorch and the model first: Qt's `slots` and friends must not reach them.
#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "model/nn/CharGPT.h"
#include "model/text/CharTokenizer.h"
#include "model/io/Checkpoint.h"
#include "model/runtime/Error.h"
#include "model/text/Utf8.h"

#include "app/AttentionBridge.h"

namespace {

// The probe's known characters as tokens, cropped to the context; fills the
// probe's text, unknown characters and cropping.
std::vector<int64_t> probeTokens(const chargpt::Checkpoint& checkpoint, const QString& text,
                                 AttentionProbe& probe, QStringList& characters) {
    const chargpt::RunConfig& config = checkpoint.config;
    if (text.isEmpty())
        throw chargpt::Error("the probe text is empty.");
    if (!checkpoint.model)
        throw chargpt::Error("the checkpoint holds no model.");
    const std::u32string codePoints = chargpt::utf8::decodeOrThrow(text.toStdString(), "the probe text");
    std::vector<chargpt::UnknownChar> unknown;
    std::vector<int64_t> tokens = checkpoint.tokenizer.encode(codePoints, &unknown);
    for (const chargpt::UnknownChar& u : unknown) {
        probe.unknownPositions.append(static_cast<int>(u.position));
        probe.unknownCharacters.append(QString::fromStdString(chargpt::utf8::encode(u.codePoint)));
    }
    if (tokens.empty())
        throw chargpt::Error("no character of the probe text is in the model's vocabulary.");
    if (static_cast<int64_t>(tokens.size()) > config.sequence_len) {
        probe.croppedCharacters = static_cast<int>(tokens.size() - config.sequence_len);
        tokens.erase(tokens.begin(), tokens.begin() + probe.croppedCharacters);
    }
    characters.clear();
    characters.reserve(static_cast<qsizetype>(tokens.size()));
    for (int64_t id : tokens)
        characters.append(QString::fromStdString(checkpoint.tokenizer.tokenText(id)));
    probe.text = characters.join(QString());
    return tokens;
}

// A rung of the architecture ladder may have no layers (a bigram model): no
// attention to show, said in words.
void refuseWithoutLayers(const chargpt::RunConfig& config) {
    if (config.n_layer == 0)
        throw chargpt::Error("this model has no attention: it is a bigram model without layers (n_layer 0, a rung "
                             "of the architecture ladder).");
}

double standardDeviation(const torch::Tensor& values) {
    if (values.numel() < 2)
        return 0.0;
    return values.to(torch::kFloat64).std(/*unbiased=*/false).item<double>();
}

// Every layer's scores and weights for the probe's tokens (CharGPT::attentionMaps),
// as contiguous float32 on the CPU, batch dimension dropped: (L, heads, T, T).
chargpt::AttentionMaps attentionOf(const chargpt::Checkpoint& checkpoint, const std::vector<int64_t>& tokens) {
    chargpt::CharGPT model = checkpoint.model;
    const auto device = model->token_emb->weight.device();
    const int64_t t = static_cast<int64_t>(tokens.size());
    const torch::Tensor idx = torch::tensor(tokens, torch::dtype(torch::kInt64)).view({1, t}).to(device);
    chargpt::AttentionMaps maps = model->attentionMaps(idx);
    auto toCpu = [](const torch::Tensor& x) {
        return x.select(/*dim=*/1, /*index=*/0).to(torch::kCPU, torch::kFloat32).contiguous();
    };
    maps.scores = toCpu(maps.scores);
    maps.weights = toCpu(maps.weights);
    return maps;
}

}  // namespace

HeadScores computeHeadScores(const chargpt::Checkpoint& checkpoint, const QString& text, int layer, int head) {
    const chargpt::RunConfig& config = checkpoint.config;
    refuseWithoutLayers(config);
    const int layers = static_cast<int>(config.n_layer);
    const int heads = static_cast<int>(config.n_head());
    if (layer < 0 || layer >= layers)
        throw chargpt::Error("layer " + std::to_string(layer) + " does not exist: the model has " +
                             std::to_string(layers) + " layer(s).");
    if (head < 0 || head >= heads)
        throw chargpt::Error("head " + std::to_string(head) + " does not exist: each layer has " +
                             std::to_string(heads) + " head(s).");
    AttentionProbe probe;
    HeadScores result;
    const std::vector<int64_t> tokens = probeTokens(checkpoint, text, probe, result.characters);
    result.layer = layer;
    result.head = head;
    result.headSize = static_cast<int>(config.head_size);

    const int64_t t = static_cast<int64_t>(tokens.size());
    const torch::Tensor scaled = attentionOf(checkpoint, tokens).scores[layer][head].contiguous();  // (T, T) q.kT/sqrt(H)
    const torch::Tensor causal = torch::ones({t, t}, torch::kBool).tril();
    const torch::Tensor masked =
        scaled.masked_fill(causal.logical_not(), -std::numeric_limits<float>::infinity()).contiguous();

    result.scaledStd = standardDeviation(scaled);
    result.unscaledStd = standardDeviation(scaled) * std::sqrt(double(config.head_size));  // of q.kT
    result.maskedStd = standardDeviation(scaled.masked_select(causal));
    const float* s = scaled.data_ptr<float>();
    const float* m = masked.data_ptr<float>();
    result.scaled = QVector<float>(s, s + t * t);
    result.masked = QVector<float>(m, m + t * t);
    return result;
}

AttentionProbe computeAttention(const chargpt::Checkpoint& checkpoint, const QString& text,
                                std::optional<int> layer) {
    const chargpt::RunConfig& config = checkpoint.config;
    refuseWithoutLayers(config);
    const int layers = static_cast<int>(config.n_layer);
    if (layer && (*layer < 0 || *layer >= layers))
        throw chargpt::Error("layer " + std::to_string(*layer) + " does not exist: the model has " +
                             std::to_string(layers) + " layer(s), numbered 0 to " +
                             std::to_string(layers - 1) + ".");
    AttentionProbe probe;
    probe.modelLayers = layers;
    probe.firstLayer = layer.value_or(0);
    QStringList characters;
    std::vector<int64_t> tokens = probeTokens(checkpoint, text, probe, characters);

    const int64_t t = static_cast<int64_t>(tokens.size());
    const torch::Tensor weights = attentionOf(checkpoint, tokens).weights;  // (L, heads, T, T)
    const int heads = static_cast<int>(weights.size(1));
    const int64_t cells = t * t;
    const float* data = weights.data_ptr<float>();
    const int first = probe.firstLayer;
    const int last = layer ? *layer : layers - 1;
    for (int l = first; l <= last; ++l) {
        LayerAttention layerAttention;
        layerAttention.heads.reserve(heads);
        for (int h = 0; h < heads; ++h) {
            const float* begin = data + (static_cast<int64_t>(l) * heads + h) * cells;
            const QVector<float> values(begin, begin + cells);
            layerAttention.heads.append(AttentionMatrix::causal(characters, values));
        }
        probe.attention.layers.append(layerAttention);
    }
    return probe;
}
