// SPDX-License-Identifier: GPL-3.0-or-later
// model/ first, then Qt (docs/ARCHITECTURE.md, "Layers"). These headers of model/ are standard C++ only.
#include "model/io/ConfigJson.h"
#include "model/nn/ConfigProblem.h"
#include "model/record/RunLibrary.h"
#include "model/runtime/Error.h"
#include "model/runtime/Runtime.h"
#include "model/train/Learning.h"
#include "model/train/RunConfig.h"
#include "model/train/RunFields.h"

#include "app/ModelBridge.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QSettings>

#include <algorithm>

// The context of the window's words for settings problems
// (translations/chargpt_*.ts).
class ModelBridge {
    Q_DECLARE_TR_FUNCTIONS(ModelBridge)
};

chargpt::RunConfig presetSettings(const QString& name, qint64 trainingTokens) {
    const qint64 tokens = std::max<qint64>(trainingTokens, 0);
    auto preset = chargpt::RunConfig::preset(name.toStdString(), tokens);
    return preset ? *preset : *chargpt::RunConfig::preset("fast", tokens);
}

QStringList presetNames() {
    QStringList names;
    for (const std::string& name : chargpt::RunConfig::presetNames())
        names << QString::fromStdString(name);
    return names;
}

namespace {

QString storeKey(const char* name) { return QStringLiteral("settings/") + QLatin1String(name); }

}  // namespace

chargpt::RunConfig loadSettings(const QSettings& store) {
    chargpt::RunConfig settings = presetSettings(store.value(storeKey("preset"), QStringLiteral("fast")).toString());
    if (!store.contains(storeKey("emb_size")))
        return settings;
    for (const chargpt::RunField& field : chargpt::runFields()) {
        QString key = storeKey(field.key);
        if (!store.contains(key) && field.oldKey)
            key = storeKey(field.oldKey);
        if (!field.remembered || !store.contains(key))
            continue;
        const QVariant value = store.value(key);
        switch (field.kind) {
            case chargpt::FieldKind::Integer: field.setInteger(settings, value.toLongLong()); break;
            case chargpt::FieldKind::Real: field.editReal(settings, value.toDouble()); break;
            case chargpt::FieldKind::Flag: field.setFlag(settings, value.toBool()); break;
        }
    }
    return settings;
}

void storeSettings(QSettings& store, const chargpt::RunConfig& settings) {
    store.setValue(storeKey("preset"), QString::fromStdString(settings.preset_name));
    for (const chargpt::RunField& field : chargpt::runFields()) {
        if (!field.remembered)
            continue;
        const QString key = storeKey(field.key);
        switch (field.kind) {
            case chargpt::FieldKind::Integer: store.setValue(key, qint64(field.integerIn(settings))); break;
            case chargpt::FieldKind::Real: store.setValue(key, field.realIn(settings)); break;
            case chargpt::FieldKind::Flag: store.setValue(key, field.flagIn(settings)); break;
        }
        if (field.oldKey)
            store.remove(storeKey(field.oldKey));
    }
}

QString writeConfigFile(const chargpt::RunConfig& settings, const QString& path) {
    chargpt::RunConfig config = settings;
    config.vocab_size = 0;  // the Python trainer takes the vocabulary from its corpus
    if (const chargpt::ConfigProblem problem = config.validate())
        return describeProblem(problem);
    if (!config.isFull())
        return ModelBridge::tr("python/train_ddp.py trains the whole CharGPT, and this model is a rung of the "
                               "architecture ladder without some of its parts: its settings cannot be exported for "
                               "it.");
    try {
        chargpt::writeConfigJson(QFile::encodeName(path).toStdString(), config);
    } catch (const chargpt::Error& error) {
        return QString::fromUtf8(error.what());
    }
    return QString();
}

namespace {

// The settings panel's row of a setting (the field's own, or the one that
// sets it), or "" when it has none.
QString fieldOf(chargpt::Setting setting) {
    const chargpt::RunField* field = chargpt::runField(setting);
    return field ? QString::fromLatin1(field->row) : QString();
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
        case Problem::PartsWithoutLayers:
            return ModelBridge::tr("a model without layers (n_layer 0) has no attention or feed-forward to switch "
                                   "off: scaled_attention, attention_projection, feed_forward and residual must stay "
                                   "on.");
    }
    // A combination the window has no words of its own for.
    return QString::fromStdString(p.message());
}

SettingsAssessment assessSettings(const chargpt::RunConfig& settings, int vocabularySize, qint64 corpusTokens,
                                  qint64 machineMemoryBytes, qint64 trainingTokens) {
    SettingsAssessment result;
    chargpt::RunConfig config = settings;
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
    // A rung of the ladder may have no layers (a bigram model).
    const bool shapeOk = config.emb_size > 0 && (config.n_layer > 0 || (config.n_layer == 0 && !config.isFull())) &&
                         config.sequence_len > 0 && config.batch_size > 0;
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
                    if (const QString field = fieldOf(setting); !field.isEmpty())
                        result.badFields << field;
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

namespace {
// The step of the run's last checkpoint, for the messages about it ("?" when
// the library lists none, which these are not asked for).
QString savedStep(const RunRow& run) {
    return run.lastCheckpointStep ? QString::number(*run.lastCheckpointStep) : QStringLiteral("?");
}
}  // namespace

QString notTheRunsModel(const chargpt::RunConfig& settings, qint64 step, const RunRow& run) {
    QStringList differing;
    for (const auto& [key, value] : chargpt::settingsFields(chargpt::configToJson(settings))) {
        const QString name = QString::fromStdString(key);
        for (const auto& [runKey, runValue] : run.settings)
            if (runKey == name && runValue != QString::fromStdString(value))
                differing << name;
    }
    if (step == run.lastCheckpointStep && differing.isEmpty())
        return {};
    const QString saved = savedStep(run);
    if (differing.isEmpty())
        return QCoreApplication::translate(
                   "ModelBridge",
                   "it no longer holds the model of run %1: the run saved it at "
                   "step %2, and it now holds a model at step %3, written there since.")
            .arg(run.id)
            .arg(saved)
            .arg(step);
    return QCoreApplication::translate("ModelBridge",
                                       "it no longer holds the model of run %1: the run saved it at step %2, "
                                       "and it now holds a model at step %3 with other settings (%4), "
                                       "written there since.")
        .arg(run.id)
        .arg(saved)
        .arg(step)
        .arg(differing.join(QStringLiteral(", ")));
}

QString runsModelGone(const RunRow& run) {
    return QCoreApplication::translate("ModelBridge",
                                       "run %1 saved its model to “%2” at step %3, and that file is gone.")
        .arg(run.id)
        .arg(QDir::toNativeSeparators(run.lastCheckpoint))
        .arg(savedStep(run));
}
