// SPDX-License-Identifier: GPL-3.0-or-later
// model/ first, then Qt (see CONVENTIONS.md). GPTConfig.h is standard C++ only.
#include "model/io/ConfigJson.h"
#include "model/runtime/Error.h"
#include "model/nn/GPTConfig.h"
#include "model/runtime/Runtime.h"

#include "ModelBridge.h"

#include <QFile>

#include <algorithm>

StudioSettings presetSettings(const QString& name) {
    auto preset = chargpt::GPTConfig::preset(name.toStdString());
    StudioSettings settings = toSettings(preset ? *preset : chargpt::GPTConfig());
    settings.preset = preset ? name : QStringLiteral("fast");
    return settings;
}

QStringList presetNames() {
    QStringList names;
    for (const std::string& name : chargpt::GPTConfig::presetNames())
        names << QString::fromStdString(name);
    return names;
}

QString writeConfigFile(const StudioSettings& settings, const QString& path) {
    chargpt::GPTConfig config = toConfig(settings);
    config.vocab_size = 0;  // the Python trainer takes the vocabulary from its corpus
    if (const std::string why = config.validate(); !why.empty())
        return QString::fromStdString(why);
    try {
        chargpt::writeConfigJson(QFile::encodeName(path).toStdString(), config);
    } catch (const chargpt::Error& error) {
        return QString::fromUtf8(error.what());
    }
    return QString();
}

chargpt::GPTConfig toConfig(const StudioSettings& s) {
    chargpt::GPTConfig config;
    if (auto preset = chargpt::GPTConfig::preset(s.preset.toStdString()))
        config = *preset;  // keeps the preset's evaluation cadence and decay floor
    config.emb_size = s.embSize;
    config.head_size = s.headSize;
    config.n_layer = s.layers;
    config.sequence_len = s.sequenceLen;
    config.dropout = s.dropout;
    config.batch_size = s.batchSize;
    config.learning_rate = s.learningRate;
    config.min_learning_rate = std::min(config.min_learning_rate, s.learningRate / 10.0);
    config.warmup_steps = s.warmupSteps;
    config.max_steps = s.maxSteps;
    config.time_limit_s = s.timeLimitSeconds;
    config.seed = static_cast<uint64_t>(std::max<qint64>(s.seed, 0));
    config.bf16 = s.bf16;
    return config;
}

StudioSettings toSettings(const chargpt::GPTConfig& c) {
    StudioSettings s;
    s.embSize = static_cast<int>(c.emb_size);
    s.headSize = static_cast<int>(c.head_size);
    s.layers = static_cast<int>(c.n_layer);
    s.sequenceLen = static_cast<int>(c.sequence_len);
    s.dropout = c.dropout;
    s.batchSize = static_cast<int>(c.batch_size);
    s.learningRate = c.learning_rate;
    s.warmupSteps = static_cast<int>(c.warmup_steps);
    s.maxSteps = c.max_steps;
    s.timeLimitSeconds = c.time_limit_s;
    s.seed = static_cast<qint64>(c.seed);
    s.bf16 = c.bf16;
    return s;
}

namespace {

// The fields a validate() sentence is about, from the names it starts with.
QStringList fieldsOf(const QString& problem) {
    QStringList fields;
    const QString p = problem.toLower();
    if (p.contains(QLatin1String("emb_size"))) fields << QStringLiteral("emb_size");
    if (p.contains(QLatin1String("head_size"))) fields << QStringLiteral("head_size");
    if (p.startsWith(QLatin1String("n_layer"))) fields << QStringLiteral("n_layer");
    if (p.startsWith(QLatin1String("sequence_len"))) fields << QStringLiteral("sequence_len");
    if (p.startsWith(QLatin1String("batch_size"))) fields << QStringLiteral("batch_size");
    if (p.startsWith(QLatin1String("dropout"))) fields << QStringLiteral("dropout");
    if (p.contains(QLatin1String("learning rate"))) fields << QStringLiteral("learning_rate");
    if (p.startsWith(QLatin1String("warm-up"))) fields << QStringLiteral("warmup_steps");
    if (p.contains(QLatin1String("number of steps"))) fields << QStringLiteral("max_steps");
    if (p.contains(QLatin1String("time limit"))) fields << QStringLiteral("time_limit");
    return fields;
}

}  // namespace

SettingsAssessment assessSettings(const StudioSettings& settings, int vocabularySize, qint64 corpusTokens,
                                  qint64 machineMemoryBytes) {
    SettingsAssessment result;
    chargpt::GPTConfig config = toConfig(settings);
    config.vocab_size = vocabularySize;
    result.problem = QString::fromStdString(config.validate());
    if (settings.threads < 0 && result.problem.isEmpty()) {
        result.problem = QStringLiteral("threads must be zero (one per core) or positive.");
        result.badFields << QStringLiteral("threads");
    }
    result.badFields << fieldsOf(result.problem);
    if (config.head_size > 0 && config.emb_size > 0 && config.emb_size % config.head_size == 0)
        result.heads = static_cast<int>(config.n_head());
    const bool shapeOk = config.emb_size > 0 && config.n_layer > 0 && config.sequence_len > 0 &&
                         config.batch_size > 0;
    if (shapeOk) {
        if (vocabularySize <= 0) config.vocab_size = 0;
        result.parameters = config.parameterCount();
        result.memoryBytes = static_cast<qint64>(std::min(config.trainingMemoryBytes(), 9.0e18));
        // Refused before anything is allocated: a model that cannot fit would
        // only make the machine swap or the process be killed.
        const double machine = machineMemoryBytes >= 0 ? double(machineMemoryBytes) : chargpt::physicalMemoryBytes();
        if (result.problem.isEmpty()) {
            const std::string why = config.memoryProblem(machine);
            if (!why.empty()) {
                result.problem = QString::fromStdString(why);
                result.badFields << QStringLiteral("batch_size") << QStringLiteral("sequence_len")
                                 << QStringLiteral("emb_size") << QStringLiteral("n_layer");
            }
        }
    }
    if (result.problem.isEmpty() && corpusTokens >= 0 && corpusTokens < qint64(config.sequence_len) + 1) {
        result.problem = QStringLiteral("the corpus has %1 characters; a context of %2 needs at least %3: "
                                        "lower the context length or choose a longer text.")
                             .arg(corpusTokens)
                             .arg(config.sequence_len)
                             .arg(config.sequence_len + 1);
        result.badFields << QStringLiteral("sequence_len");
    }
    return result;
}
