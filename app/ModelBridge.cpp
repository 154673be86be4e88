// SPDX-License-Identifier: GPL-3.0-or-later
// LibTorch and model/ first, then Qt (see CONVENTIONS.md).
#include <torch/torch.h>

#include "Checkpoint.h"
#include "Trainer.h"  // LossHistory

#include "ModelBridge.h"

#include <QFile>

#include <stdexcept>

namespace {

template <typename Number>
QVector<double> toDoubles(const std::vector<Number>& values) {
    QVector<double> result;
    result.reserve(static_cast<qsizetype>(values.size()));
    for (const Number value : values)
        result.append(static_cast<double>(value));
    return result;
}

qint64 countParameters(const chargpt::CharGPT& model) {
    qint64 count = 0;
    for (const torch::Tensor& parameter : model->parameters())
        count += parameter.numel();
    return count;
}

}  // namespace

CheckpointForDisplay readCheckpointForDisplay(const QString& path) {
    chargpt::Checkpoint checkpoint;
    try {
        checkpoint = chargpt::loadCheckpoint(QFile::encodeName(path).toStdString());
    } catch (const c10::Error& error) {
        throw std::runtime_error(error.what_without_backtrace());
    }

    const chargpt::GPTConfig& config = checkpoint.config;
    const chargpt::LossHistory& history = checkpoint.history;

    CheckpointForDisplay result;
    CheckpointSummary& summary = result.summary;
    summary.filePath = path;
    summary.parameterCount = countParameters(checkpoint.model);
    summary.layerCount = static_cast<int>(config.n_layer);
    summary.headCount = static_cast<int>(config.n_head());
    summary.headSize = static_cast<int>(config.head_size);
    summary.embeddingWidth = static_cast<int>(config.emb_size);
    summary.contextLength = static_cast<int>(config.sequence_len);
    summary.vocabularySize = static_cast<int>(config.vocab_size);
    summary.step = checkpoint.step;
    summary.tokensSeen = checkpoint.tokensSeen;
    if (!history.evalValLoss.empty() && history.evalSteps.size() == history.evalValLoss.size()) {
        summary.lastValLoss = history.evalValLoss.back();
        summary.lastValStep = history.evalSteps.back();
    }

    result.curves.steps = toDoubles(history.steps);
    result.curves.trainLoss = toDoubles(history.trainLoss);
    result.curves.evalSteps = toDoubles(history.evalSteps);
    result.curves.valLoss = toDoubles(history.evalValLoss);
    return result;
}
