// SPDX-License-Identifier: GPL-3.0-or-later
// model/ first, then Qt (docs/ARCHITECTURE.md, "Layers"). RunConfig.h is standard C++ only.
#include "model/io/ConfigJson.h"
#include "model/nn/ConfigProblem.h"
#include "model/runtime/Error.h"
#include "model/runtime/Runtime.h"
#include "model/train/Learning.h"
#include "model/train/RunConfig.h"

#include "ModelBridge.h"

#include <QCoreApplication>
#include <QFile>

#include <algorithm>

// The context of the window's words for settings problems
// (translations/chargpt_*.ts).
class ModelBridge {
    Q_DECLARE_TR_FUNCTIONS(ModelBridge)
};

StudioSettings presetSettings(const QString& name, qint64 trainingTokens) {
    auto preset = chargpt::RunConfig::preset(name.toStdString(), std::max<qint64>(trainingTokens, 0));
    StudioSettings settings = toSettings(preset ? *preset : chargpt::RunConfig());
    settings.preset = preset ? name : QStringLiteral("fast");
    return settings;
}

QStringList presetNames() {
    QStringList names;
    for (const std::string& name : chargpt::RunConfig::presetNames())
        names << QString::fromStdString(name);
    return names;
}

QString writeConfigFile(const StudioSettings& settings, const QString& path) {
    chargpt::RunConfig config = toConfig(settings);
    config.vocab_size = 0;  // the Python trainer takes the vocabulary from its corpus
    if (const chargpt::ConfigProblem problem = config.validate())
        return describeProblem(problem);
    try {
        chargpt::writeConfigJson(QFile::encodeName(path).toStdString(), config);
    } catch (const chargpt::Error& error) {
        return QString::fromUtf8(error.what());
    }
    return QString();
}

chargpt::RunConfig toConfig(const StudioSettings& s) {
    chargpt::RunConfig config;
    if (auto preset = chargpt::RunConfig::preset(s.preset.toStdString()))
        config = *preset;  // keeps the preset's evaluation cadence and decay floor
    config.emb_size = s.embSize;
    config.head_size = s.headSize;
    config.n_layer = s.layers;
    config.sequence_len = s.sequenceLen;
    config.dropout = s.dropout;
    config.weight_decay = s.weightDecay;
    config.batch_size = s.batchSize;
    config.setLearningRate(s.learningRate);
    config.warmup_steps = s.warmupSteps;
    config.max_steps = s.maxSteps;
    config.time_limit_s = s.timeLimitSeconds;
    config.seed = static_cast<uint64_t>(std::max<qint64>(s.seed, 0));
    config.bf16 = s.bf16;
    config.fitEvaluations();  // about as many evaluations whatever the steps
    return config;
}

StudioSettings toSettings(const chargpt::RunConfig& c) {
    StudioSettings s;
    s.embSize = static_cast<int>(c.emb_size);
    s.headSize = static_cast<int>(c.head_size);
    s.layers = static_cast<int>(c.n_layer);
    s.sequenceLen = static_cast<int>(c.sequence_len);
    s.dropout = c.dropout;
    s.weightDecay = c.weight_decay;
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

// The settings panel's field of a setting, or "" when it has none.
QString fieldOf(chargpt::Setting setting) {
    using chargpt::Setting;
    switch (setting) {
        case Setting::EmbSize: return QStringLiteral("emb_size");
        case Setting::HeadSize: return QStringLiteral("head_size");
        case Setting::Layers: return QStringLiteral("n_layer");
        case Setting::SequenceLen: return QStringLiteral("sequence_len");
        case Setting::BatchSize: return QStringLiteral("batch_size");
        case Setting::Dropout: return QStringLiteral("dropout");
        case Setting::WeightDecay: return QStringLiteral("weight_decay");
        case Setting::LearningRate:
        case Setting::MinLearningRate: return QStringLiteral("learning_rate");
        case Setting::WarmupSteps: return QStringLiteral("warmup_steps");
        case Setting::MaxSteps: return QStringLiteral("max_steps");
        case Setting::TimeLimit: return QStringLiteral("time_limit");
        default: return QString();
    }
}

QString whole(double value) { return QString::number(static_cast<qint64>(value)); }

}  // namespace

QString describeProblem(const chargpt::ConfigProblem& p) {
    using chargpt::Problem;
    using chargpt::Setting;
    switch (p.problem) {
        case Problem::None:
            return QString();
        case Problem::NotPositive:
            switch (p.setting) {
                case Setting::EmbSize:
                    return ModelBridge::tr("emb_size must be positive (it is %1).").arg(whole(p.value));
                case Setting::HeadSize:
                    return ModelBridge::tr("head_size must be positive (it is %1).").arg(whole(p.value));
                case Setting::Layers:
                    return ModelBridge::tr("n_layer must be positive (it is %1).").arg(whole(p.value));
                case Setting::SequenceLen:
                    return ModelBridge::tr("sequence_len must be positive (it is %1).").arg(whole(p.value));
                case Setting::BatchSize:
                    return ModelBridge::tr("batch_size must be positive (it is %1).").arg(whole(p.value));
                case Setting::EvalIters:
                    return ModelBridge::tr("eval_iters must be positive (it is %1).").arg(whole(p.value));
                case Setting::EvalInterval:
                    return ModelBridge::tr("eval_interval must be positive (it is %1).").arg(whole(p.value));
                case Setting::LearningRate:
                    return ModelBridge::tr("learning rate must be a positive number.");
                default:
                    break;
            }
            break;
        case Problem::NotDivisible:
            return ModelBridge::tr("emb_size (%1) must be divisible by head_size (%2).")
                .arg(whole(p.value), whole(p.limit));
        case Problem::TooSmall:
            if (p.setting == Setting::VocabSize)
                return ModelBridge::tr("vocab_size must be at least 2 (end-of-text and one character).");
            if (p.setting == Setting::SequenceLen)
                return ModelBridge::tr("sequence_len must be at least %1 (it is %2).")
                    .arg(whole(p.limit), whole(p.value));
            break;
        case Problem::TooLarge:
            if (p.setting == Setting::VocabSize)
                return ModelBridge::tr("the vocabulary has %1 entries; at most %2 are supported.")
                    .arg(whole(p.value), whole(p.limit));
            break;
        case Problem::OutOfRange:
            switch (p.setting) {
                case Setting::Dropout:
                    return ModelBridge::tr("dropout must be in [0, 1) (it is %1).")
                        .arg(QString::number(p.value, 'f', 6));
                case Setting::MinLearningRate:
                    return ModelBridge::tr(
                        "the minimum learning rate must be between 0 and the learning rate.");
                case Setting::Betas:
                    return ModelBridge::tr("AdamW betas must be in [0, 1).");
                case Setting::ValFraction:
                    return ModelBridge::tr("the validation fraction must be between 0 and 1.");
                default:
                    break;
            }
            break;
        case Problem::Negative:
            switch (p.setting) {
                case Setting::WeightDecay:
                    return ModelBridge::tr("weight decay must be zero or positive.");
                case Setting::GradClip:
                    return ModelBridge::tr("gradient clipping must be zero (off) or positive.");
                case Setting::WarmupSteps:
                    return ModelBridge::tr("warm-up steps must be zero or positive.");
                case Setting::MaxSteps:
                    return ModelBridge::tr("the number of steps must be zero or positive.");
                case Setting::TimeLimit:
                    return ModelBridge::tr(
                        "the time limit must be zero (none) or a positive number of seconds.");
                default:
                    break;
            }
            break;
        case Problem::NeverEnds:
            return ModelBridge::tr("set a number of steps or a time limit, or training would never end.");
        case Problem::TooMuchMemory:
            return ModelBridge::
                tr("training with these settings needs about %1 of memory and this machine has %2: lower the "
                   "batch size, context length, width or number of layers.")
                    .arg(QString::fromStdString(chargpt::formatBytes(p.value)),
                         QString::fromStdString(chargpt::formatBytes(p.limit)));
    }
    // A combination the window has no words of its own for.
    return QString::fromStdString(p.message());
}

SettingsAssessment assessSettings(const StudioSettings& settings, int vocabularySize, qint64 corpusTokens,
                                  qint64 machineMemoryBytes, qint64 trainingTokens) {
    SettingsAssessment result;
    chargpt::RunConfig config = toConfig(settings);
    result.manyPasses = chargpt::kManyPasses;
    if (trainingTokens > 0 && config.max_steps > 0 && config.batch_size > 0 && config.sequence_len > 0)
        result.passes = chargpt::passesOverText(config.max_steps, config.batch_size, config.sequence_len, trainingTokens);
    config.vocab_size = vocabularySize;
    const chargpt::ConfigProblem invalid = config.validate();
    result.problem = describeProblem(invalid);
    if (settings.threads < 0 && !invalid) {
        result.problem = ModelBridge::tr("threads must be zero (one per core) or positive.");
        result.badFields << QStringLiteral("threads");
    }
    for (const chargpt::Setting setting : invalid.settings())
        if (const QString field = fieldOf(setting); !field.isEmpty())
            result.badFields << field;
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
            if (const chargpt::ConfigProblem tooBig = config.memoryProblem(machine)) {
                result.problem = describeProblem(tooBig);
                for (const chargpt::Setting setting : tooBig.settings())
                    result.badFields << fieldOf(setting);
            }
        }
    }
    if (result.problem.isEmpty() && corpusTokens >= 0 && corpusTokens < qint64(config.sequence_len) + 1) {
        result.problem = ModelBridge::tr("the corpus has %1 characters; a context of %2 needs at least %3: "
                            "lower the context length or choose a longer text.")
                             .arg(corpusTokens)
                             .arg(config.sequence_len)
                             .arg(config.sequence_len + 1);
        result.badFields << QStringLiteral("sequence_len");
    }
    return result;
}
