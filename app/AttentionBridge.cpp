// SPDX-License-Identifier: GPL-3.0-or-later
// LibTorch and the model first: Qt's `slots` and friends must not reach them.
#include <torch/torch.h>

#include <algorithm>
#include <string>
#include <vector>

#include "CharGPT.h"
#include "CharTokenizer.h"
#include "Checkpoint.h"
#include "Error.h"
#include "Utf8.h"

#include "AttentionBridge.h"

AttentionProbe computeAttention(const chargpt::Checkpoint& checkpoint, const QString& text,
                                std::optional<int> layer) {
    const chargpt::GPTConfig& config = checkpoint.config;
    const int layers = static_cast<int>(config.n_layer);
    if (layer && (*layer < 0 || *layer >= layers))
        throw chargpt::Error("layer " + std::to_string(*layer) + " does not exist: the model has " +
                             std::to_string(layers) + " layer(s), numbered 0 to " +
                             std::to_string(layers - 1) + ".");
    if (text.isEmpty())
        throw chargpt::Error("the probe text is empty.");
    if (!checkpoint.model)
        throw chargpt::Error("the checkpoint holds no model.");

    AttentionProbe probe;
    probe.modelLayers = layers;
    probe.firstLayer = layer.value_or(0);

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

    QStringList characters;
    characters.reserve(static_cast<qsizetype>(tokens.size()));
    for (int64_t id : tokens)
        characters.append(QString::fromStdString(checkpoint.tokenizer.tokenText(id)));
    probe.text = characters.join(QString());

    // A model in training mode is copied rather than switched to eval, so that
    // the caller's model keeps its mode (and its dropout).
    chargpt::CharGPT model = checkpoint.model;
    if (model->is_training()) {
        model = chargpt::cloneModel(model);
        model->eval();
    }
    torch::NoGradGuard noGrad;
    const auto device = model->token_emb->weight.device();
    const int64_t t = static_cast<int64_t>(tokens.size());
    const torch::Tensor idx =
        torch::tensor(tokens, torch::dtype(torch::kInt64)).view({1, t}).to(device);
    // (L, B=1, heads, T, T) -> (L, heads, T, T) as contiguous float on the CPU
    const torch::Tensor weights = model->forwardWithAttention(idx)
                                      .second.select(/*dim=*/1, /*index=*/0)
                                      .to(torch::kCPU, torch::kFloat32)
                                      .contiguous();
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
