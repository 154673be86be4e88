// SPDX-License-Identifier: GPL-3.0-or-later
// LibTorch and the model first: Qt's `slots` and friends must not reach them.
#include <torch/torch.h>

#include <algorithm>

#include "model/analysis/FeedForwardProbe.h"
#include "model/analysis/ResidualStream.h"
#include "model/io/Checkpoint.h"
#include "model/runtime/Error.h"

#include "app/InsideLayersBridge.h"

namespace {

constexpr int kExampleContext = 8;  // characters shown before an example

// The last sequence_len tokens of `tokens`.
std::vector<int64_t> probeWindow(const chargpt::Checkpoint& checkpoint, const std::vector<int64_t>& tokens) {
    const auto context = static_cast<std::size_t>(checkpoint.model->config().sequence_len);
    const std::size_t from = tokens.size() > context ? tokens.size() - context : 0;
    return std::vector<int64_t>(tokens.begin() + static_cast<std::ptrdiff_t>(from), tokens.end());
}

QString tokenString(const chargpt::Checkpoint& checkpoint, int64_t token) {
    return QString::fromStdString(checkpoint.tokenizer.tokenText(token));
}

}  // namespace

FeedForwardProbeData feedForwardProbeOf(const chargpt::Checkpoint& checkpoint, const std::vector<int64_t>& probeText,
                                        const std::vector<int64_t>& sample) {
    if (!checkpoint.model) throw chargpt::Error("the checkpoint holds no model.");
    const std::vector<int64_t> probe = probeWindow(checkpoint, probeText);
    const torch::Tensor hidden = chargpt::feedForwardHidden(checkpoint.model, probe);  // (L, T, 4C)
    FeedForwardProbeData data;
    for (const int64_t token : probe) data.characters << tokenString(checkpoint, token);
    data.width = static_cast<int>(hidden.size(2));
    const int64_t sampleTokens = std::min<int64_t>(static_cast<int64_t>(sample.size()), kNeuronSampleTokens);
    data.sampleCharacters = static_cast<int>(sampleTokens);
    const int64_t T = hidden.size(1);
    const int64_t L = hidden.size(0);
    // Every layer's shown neurons, then their examples and the checks, one
    // pass over the sample and one over the probe for all layers.
    std::vector<std::vector<int64_t>> shown(static_cast<std::size_t>(L));
    for (int64_t layer = 0; layer < L; ++layer) {
        std::vector<int64_t>& order = shown[static_cast<std::size_t>(layer)];
        order = chargpt::neuronsByPeak(hidden[layer]);
        order.resize(std::min<std::size_t>(order.size(), kShownNeurons));
    }
    const auto examples = sampleTokens > 0 ? chargpt::topActivationsByLayer(checkpoint.model, sample, shown,
                                                                             kNeuronExamples, kNeuronSampleTokens)
                                           : std::vector<std::vector<std::vector<chargpt::NeuronExample>>>();
    const std::vector<chargpt::PositionCheck> checks = chargpt::positionChecks(checkpoint.model, probe);
    for (int64_t layer = 0; layer < L; ++layer) {
        const auto l = static_cast<std::size_t>(layer);
        const std::vector<int64_t>& order = shown[l];
        FeedForwardLayer out;
        const torch::Tensor values = hidden[layer].index_select(1, torch::tensor(order, torch::kInt64)).contiguous();
        const float* a = values.data_ptr<float>();
        out.activations = QVector<float>(a, a + T * static_cast<int64_t>(order.size()));
        for (const int64_t n : order) out.neurons << static_cast<int>(n);
        out.examples.resize(out.neurons.size());
        if (!examples.empty())
            for (std::size_t k = 0; k < examples[l].size(); ++k)
                for (const chargpt::NeuronExample& e : examples[l][k]) {
                    NeuronExample example;
                    for (int64_t p = std::max<int64_t>(0, e.position - kExampleContext); p < e.position; ++p)
                        example.before += tokenString(checkpoint, sample[static_cast<std::size_t>(p)]);
                    example.character = tokenString(checkpoint, sample[static_cast<std::size_t>(e.position)]);
                    example.activation = e.activation;
                    out.examples[static_cast<qsizetype>(k)].append(example);
                }
        const chargpt::PositionCheck& check = checks[l];
        if (check.first && check.second) {
            out.first = static_cast<int>(*check.first);
            out.second = static_cast<int>(*check.second);
            out.sameInputDifference = check.sameInputDifference;
        }
        out.inputDistance = check.inputDistance;
        out.outputDistance = check.outputDistance;
        data.layers.append(out);
    }
    return data;
}

ResidualStreamData residualStreamOf(const chargpt::Checkpoint& checkpoint, const std::vector<int64_t>& probeText) {
    if (!checkpoint.model) throw chargpt::Error("the checkpoint holds no model.");
    const std::vector<int64_t> probe = probeWindow(checkpoint, probeText);
    const chargpt::ResidualStream stream = chargpt::residualStream(checkpoint.model, probe);
    ResidualStreamData data;
    for (const int64_t token : probe) data.characters << tokenString(checkpoint, token);
    data.layers = static_cast<int>(stream.layers);
    data.norms = QVector<double>(stream.norms.begin(), stream.norms.end());
    data.attentionWrites = QVector<double>(stream.attentionWrites.begin(), stream.attentionWrites.end());
    data.feedForwardWrites = QVector<double>(stream.feedForwardWrites.begin(), stream.feedForwardWrites.end());
    return data;
}
