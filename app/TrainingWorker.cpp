// SPDX-License-Identifier: GPL-3.0-or-later
// LibTorch and model/ first, then Qt (see CONVENTIONS.md).
#include <torch/torch.h>

#include "model/nn/CharGPT.h"
#include "model/io/Checkpoint.h"
#include "model/text/Corpus.h"
#include "model/train/Dataset.h"
#include "model/runtime/Device.h"
#include "model/runtime/Error.h"
#include "model/nn/GPTConfig.h"
#include "model/io/PyTorchInterop.h"
#include "model/runtime/Runtime.h"
#include "model/train/Trainer.h"
#include "model/text/Utf8.h"

#include "TrainingWorker.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>

#include <atomic>
#include <chrono>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include "ModelBridge.h"

namespace {

constexpr qint64 kUpdateIntervalMs = 33;  // at most ~30 updates a second
constexpr int kPreviewChars = 2000;
constexpr qint64 kSnapshotIntervalMs = 3000;

QString messageOf(const std::exception& error) {
    if (const auto* torchError = dynamic_cast<const c10::Error*>(&error))
        return QString::fromUtf8(torchError->what_without_backtrace());
    return QString::fromUtf8(error.what());
}

template <typename Number>
QVector<double> toDoubles(const std::vector<Number>& values) {
    QVector<double> result;
    result.reserve(static_cast<qsizetype>(values.size()));
    for (const Number value : values)
        result.append(static_cast<double>(value));
    return result;
}

RunEnd runEndOf(chargpt::StopReason reason) {
    switch (reason) {
    case chargpt::StopReason::Finished: return RunEnd::Finished;
    case chargpt::StopReason::TimeLimit: return RunEnd::TimeLimit;
    case chargpt::StopReason::Stopped: return RunEnd::Stopped;
    case chargpt::StopReason::NonFiniteLoss: return RunEnd::NonFiniteLoss;
    }
    return RunEnd::Error;
}

QByteArray readAll(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        throw chargpt::Error(QStringLiteral("cannot read %1: %2").arg(path, file.errorString()).toStdString());
    return file.readAll();
}

}  // namespace

struct TrainingWorker::Private {
    // Touched only on the worker's thread.
    std::optional<chargpt::Corpus> corpus;
    QString corpusSource;
    chargpt::CharGPT model{nullptr};
    chargpt::CharTokenizer tokenizer;
    chargpt::GPTConfig config;
    // Step, tokens, history and optimizer moments of the model between runs.
    chargpt::Checkpoint state;
    QString checkpointPath;
    bool imported = false;  // the model came from a Python state_dict and has not trained here yet

    // Shared with other threads.
    std::mutex mutex;
    chargpt::Trainer* trainer = nullptr;  // while train() runs
    bool pauseRequested = false;
    bool stopRequested = false;
    bool pauseAfterSave = false;
    struct SaveRequest {
        QString path;
        bool autosave;
    };
    std::vector<SaveRequest> saves;
    std::atomic<bool> savesPending{false};
    std::atomic<bool> snapshotRequested{false};
    bool pauseAfterSnapshot = false;
    // The last snapshot and the last step done, so a paused run answers a
    // request without taking another step when it can.
    ModelSnapshot lastSnapshot;
    qint64 lastStepDone = -1;
    quint64 snapshotSerial = 0;  // worker thread only

    ModelSummary modelInfo(bool withHistory) const {
        ModelSummary info;
        info.exists = static_cast<bool>(model);
        if (!model)
            return info;
        info.settings = toSettings(config);
        info.vocabularySize = static_cast<int>(config.vocab_size);
        info.parameters = config.parameterCount();
        info.step = state.step;
        info.tokensSeen = state.tokensSeen;
        info.checkpointPath = checkpointPath;
        info.imported = imported && state.step == 0;
        if (withHistory) {
            const chargpt::LossHistory& h = state.history;
            info.steps = toDoubles(h.steps);
            info.losses = toDoubles(h.trainLoss);
            info.learningRates = toDoubles(h.learningRate);
            info.evalSteps = toDoubles(h.evalSteps);
            info.evalLosses = toDoubles(h.evalValLoss);
        }
        return info;
    }
};

TrainingWorker::TrainingWorker(QObject* parent) : QObject(parent), d(std::make_unique<Private>()) {}

TrainingWorker::~TrainingWorker() = default;

void TrainingWorker::pause() {
    std::lock_guard<std::mutex> lock(d->mutex);
    d->pauseRequested = true;
    if (d->trainer)
        d->trainer->pause();
}

void TrainingWorker::resume() {
    std::lock_guard<std::mutex> lock(d->mutex);
    d->pauseRequested = false;
    if (d->trainer)
        d->trainer->resume();
}

void TrainingWorker::stop() {
    std::lock_guard<std::mutex> lock(d->mutex);
    d->stopRequested = true;
    if (d->trainer)
        d->trainer->stop();
}

void TrainingWorker::requestSave(const QString& path, bool autosave) {
    {
        std::lock_guard<std::mutex> lock(d->mutex);
        d->saves.push_back({path, autosave});
        d->savesPending = true;
        // A paused trainer waits inside run(); let it take one step to reach
        // the point where saving is safe, then pause again.
        if (d->trainer && d->pauseRequested) {
            d->pauseAfterSave = true;
            d->trainer->resume();
        }
    }
    // Runs at once when the worker is idle; while it trains, the step callback
    // gets there first and this call finds nothing left to do.
    QMetaObject::invokeMethod(this, &TrainingWorker::processPendingSaves, Qt::QueuedConnection);
}

void TrainingWorker::requestSnapshot() {
    ModelSnapshot ready;
    {
        std::lock_guard<std::mutex> lock(d->mutex);
        if (d->trainer && d->pauseRequested && !d->lastSnapshot.isNull() &&
            d->lastSnapshot.step == d->lastStepDone) {
            // Paused: the snapshot of the step it paused after.
            ready = d->lastSnapshot;
        } else if (d->trainer && d->pauseRequested) {
            // Otherwise one more step to reach a point where copying is safe.
            d->pauseAfterSnapshot = true;
            d->trainer->resume();
        }
        if (ready.isNull())
            d->snapshotRequested = true;
    }
    if (!ready.isNull()) {
        emit snapshotReady(ready);
        return;
    }
    QMetaObject::invokeMethod(this, &TrainingWorker::processSnapshotRequest, Qt::QueuedConnection);
}

void TrainingWorker::processSnapshotRequest() {
    // A training run answers requests itself between steps.
    if (!d->snapshotRequested.exchange(false))
        return;
    try {
        emitSnapshot(d->state.step);
    } catch (const std::exception& error) {
        emit snapshotFailed(messageOf(error));
    }
}

void TrainingWorker::forgetSnapshot() {
    std::lock_guard<std::mutex> lock(d->mutex);
    d->lastSnapshot = ModelSnapshot();
    d->lastStepDone = -1;
}

void TrainingWorker::emitSnapshot(qint64 step) {
    ModelSnapshot snapshot;
    snapshot.step = step;
    if (d->model) {
        auto checkpoint = std::make_shared<chargpt::Checkpoint>();
        checkpoint->config = d->config;
        checkpoint->tokenizer = d->tokenizer;
        checkpoint->model = chargpt::cloneModel(d->model);
        checkpoint->model->eval();
        checkpoint->step = step;
        snapshot.checkpoint = std::move(checkpoint);
    }
    snapshot.serial = ++d->snapshotSerial;
    {
        std::lock_guard<std::mutex> lock(d->mutex);
        d->lastSnapshot = snapshot;
    }
    emit snapshotReady(snapshot);
}

QString TrainingWorker::pythonLibraryPath() {
    QDir lib(QStringLiteral("/usr/lib"));
    QStringList candidates = lib.entryList({QStringLiteral("python3.*")}, QDir::Dirs, QDir::Name | QDir::Reversed);
    for (const QString& name : candidates) {
        const QString path = lib.filePath(name);
        if (QFileInfo::exists(path + QStringLiteral("/os.py")))
            return path;
    }
    return {};
}

QString TrainingWorker::autosavePath() {
    const QString folder = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    return QDir(folder).filePath(QStringLiteral("autosave.pt"));
}

void TrainingWorker::loadCorpus(const QString& source) {
    try {
        std::optional<chargpt::Corpus> corpus;
        if (source == QLatin1String("builtin:tang300") || source == QLatin1String("builtin:song100")) {
            const QString name = source.mid(8);
            const QByteArray bytes = readAll(QStringLiteral(":/corpora/%1.txt").arg(name));
            corpus = chargpt::Corpus::fromUtf8(std::string_view(bytes.constData(), size_t(bytes.size())),
                                               name.toStdString());
        } else if (source == QLatin1String("builtin:python")) {
            // The library's own modules (not its tests or packages), one after another.
            const QString folder = pythonLibraryPath();
            if (folder.isEmpty())
                throw chargpt::Error("the Python standard library is not installed.");
            const QDir dir(folder);
            QByteArray text;
            for (const QString& file : dir.entryList({QStringLiteral("*.py")}, QDir::Files, QDir::Name)) {
                text += readAll(dir.filePath(file));
                if (!text.endsWith('\n'))
                    text += '\n';
                text += '\n';
            }
            corpus = chargpt::Corpus::fromUtf8(std::string_view(text.constData(), size_t(text.size())),
                                               folder.toStdString());
        } else {
            corpus = chargpt::Corpus::load(QFile::encodeName(source).toStdString());
        }

        CorpusSummary info;
        info.source = source;
        info.name = source.startsWith(QLatin1String("builtin:")) ? source : QFileInfo(source).fileName();
        info.bytes = static_cast<qint64>(corpus->byteCount());
        info.characters = static_cast<qint64>(corpus->charCount());
        info.tokens = static_cast<qint64>(corpus->tokenCount());
        info.vocabularySize = static_cast<int>(corpus->buildTokenizer().vocabSize());
        std::u32string preview;
        for (const std::u32string& document : corpus->documents()) {
            if (!preview.empty())
                preview += U"\n\n";
            const size_t room = size_t(kPreviewChars) - std::min(preview.size(), size_t(kPreviewChars));
            preview += document.substr(0, room);
            if (preview.size() >= size_t(kPreviewChars))
                break;
        }
        info.preview = QString::fromStdU32String(preview);
        for (const std::string& warning : corpus->warnings())
            info.warnings << QString::fromStdString(warning);

        d->corpus = std::move(corpus);
        d->corpusSource = source;
        emit corpusLoaded(info);
    } catch (const std::exception& error) {
        emit corpusFailed(source, messageOf(error));
    }
}

void TrainingWorker::train(const StudioSettings& settings, bool freshModel) {
    RunEnd reason = RunEnd::Error;
    QString message;
    try {
        if (!d->corpus)
            throw chargpt::Error("there is no corpus to train on.");
        chargpt::GPTConfig config = toConfig(settings);
        const bool newModel = freshModel || !d->model || !toSettings(d->config).sameArchitecture(settings);
        if (newModel) {
            d->tokenizer = d->corpus->buildTokenizer();
            config.vocab_size = d->tokenizer.vocabSize();
            if (const std::string why = config.validate(); !why.empty())
                throw chargpt::Error(why);
            if (const std::string why = config.memoryProblem(chargpt::physicalMemoryBytes()); !why.empty())
                throw chargpt::Error(why);
            torch::manual_seed(config.seed);
            d->model = chargpt::CharGPT(config);
            d->model->to(chargpt::computeDevice());
            d->state = chargpt::Checkpoint();
            d->checkpointPath.clear();
            d->imported = false;
            forgetSnapshot();
        } else {
            // The model's own vocabulary; characters it does not know are left out.
            config.vocab_size = d->tokenizer.vocabSize();
            // A model that already reached the step count trains that many more.
            if (config.max_steps > 0 && d->state.step >= config.max_steps)
                config.max_steps += d->state.step;
        }
        d->config = config;

        auto data = std::make_shared<chargpt::Dataset>(d->corpus->encode(d->tokenizer), config.sequence_len,
                                                       config.val_fraction);
        chargpt::Trainer trainer(d->model, data, config);
        trainer.setProgress(d->state.step, d->state.tokensSeen);
        trainer.history() = d->state.history;
        if (!newModel)
            chargpt::restoreOptimizer(d->state, trainer);

        TrainingProgress pending;
        QElapsedTimer sinceUpdate;
        sinceUpdate.start();
        auto fill = [&](const chargpt::TrainSnapshot& s) {
            pending.step = s.step;
            pending.totalSteps = s.totalSteps;
            pending.tokensSeen = s.tokensSeen;
            pending.tokensPerSecond = s.tokensPerSecond;
            pending.elapsedSeconds = s.elapsedSeconds;
            pending.etaSeconds = s.etaSeconds;
            pending.timeLimitSeconds = config.time_limit_s;
        };
        auto flush = [&] {
            emit progress(pending);
            // New lists, not clear(): the queued copy shares these buffers with the
            // GUI thread, and clear() reuses a buffer in place once the GUI thread has
            // let go of it, seen through a relaxed read of the reference count, which
            // does not order the GUI thread's reads before our next append (a data
            // race that ThreadSanitizer reported).
            pending.steps = {};
            pending.losses = {};
            pending.learningRates = {};
            pending.evalSteps = {};
            pending.evalLosses = {};
            sinceUpdate.restart();
        };
        auto saveBetweenSteps = [&] {
            if (!d->savesPending)
                return;
            processSavesFrom(&trainer);
            std::lock_guard<std::mutex> lock(d->mutex);
            if (d->pauseAfterSave && d->pauseRequested)
                trainer.pause();
            d->pauseAfterSave = false;
        };
        QElapsedTimer sinceSnapshot;
        sinceSnapshot.start();
        bool firstStep = true;
        auto snapshotBetweenSteps = [&](qint64 step, bool evaluated) {
            bool wanted = d->snapshotRequested.exchange(false);
            bool pauseAgain = false;
            {
                std::lock_guard<std::mutex> lock(d->mutex);
                d->lastStepDone = step;
                // About to pause: the views get the weights they will stay on.
                wanted = wanted || d->pauseRequested;
                pauseAgain = d->pauseAfterSnapshot;
                d->pauseAfterSnapshot = false;
            }
            // After evaluations, at most ~4 a second however short the interval;
            // between them every few seconds (one copy: under 1% of the time of
            // the book preset), and at the first step, so that the attention
            // timeline starts at the start of the run.
            if ((evaluated && sinceSnapshot.elapsed() >= 250) || sinceSnapshot.elapsed() >= kSnapshotIntervalMs ||
                std::exchange(firstStep, false))
                wanted = true;
            if (wanted && !(d->lastSnapshot.step == step && !d->lastSnapshot.isNull())) {
                emitSnapshot(step);
                sinceSnapshot.restart();
            }
            if (pauseAgain) {
                std::lock_guard<std::mutex> lock(d->mutex);
                if (d->pauseRequested)
                    trainer.pause();
            }
        };
        trainer.onStep = [&](const chargpt::TrainSnapshot& s) {
            fill(s);
            pending.loss = s.loss;
            pending.steps.append(double(s.step));
            pending.losses.append(s.loss);
            pending.learningRates.append(s.learningRate);
            if (sinceUpdate.elapsed() >= kUpdateIntervalMs)
                flush();
            saveBetweenSteps();
            // An evaluation follows this step: its snapshot is taken there.
            if (s.step % config.eval_interval != 0)
                snapshotBetweenSteps(s.step, /*evaluated=*/false);
        };
        trainer.onEval = [&](const chargpt::TrainSnapshot& s) {
            fill(s);
            pending.valLoss = s.valLoss;
            pending.evalSteps.append(double(s.step));
            pending.evalLosses.append(s.valLoss);
            flush();
            snapshotBetweenSteps(s.step, /*evaluated=*/true);
        };

        {
            std::lock_guard<std::mutex> lock(d->mutex);
            d->trainer = &trainer;
            if (d->pauseRequested)
                trainer.pause();
            if (d->stopRequested)
                trainer.stop();
        }
        emit trainingStarted(d->modelInfo(/*withHistory=*/newModel));
        chargpt::TrainResult result;
        try {
            result = trainer.run();
        } catch (...) {
            std::lock_guard<std::mutex> lock(d->mutex);
            d->trainer = nullptr;
            throw;
        }
        {
            std::lock_guard<std::mutex> lock(d->mutex);
            d->trainer = nullptr;
        }
        fill(result.last);
        flush();

        // Keep what the run learned (weights are shared; moments copied out).
        d->state = chargpt::checkpointFromTrainer(trainer, d->tokenizer);
        reason = runEndOf(result.reason);
        message = QString::fromStdString(result.message);
        emit modelChanged(d->modelInfo(/*withHistory=*/false));
        // Saves asked for meanwhile; the end-of-run autosave is TrainingController's.
        processSavesFrom(nullptr);
    } catch (const std::exception& error) {
        message = messageOf(error);
    }
    {
        std::lock_guard<std::mutex> lock(d->mutex);
        d->stopRequested = false;
        d->pauseRequested = false;
        d->pauseAfterSave = false;
    }
    emit trainingFinished(reason, message);
}

void TrainingWorker::resetModel() {
    forgetSnapshot();
    d->model = chargpt::CharGPT(nullptr);
    d->state = chargpt::Checkpoint();
    d->checkpointPath.clear();
    d->imported = false;
    emit modelChanged(d->modelInfo(false));
}

void TrainingWorker::openCheckpoint(const QString& path) {
    try {
        chargpt::Checkpoint checkpoint = chargpt::loadCheckpoint(QFile::encodeName(path).toStdString());
        // Only now that everything loaded does the current model go.
        forgetSnapshot();
        d->model = checkpoint.model;
        d->tokenizer = checkpoint.tokenizer;
        d->config = checkpoint.config;
        d->state = std::move(checkpoint);
        d->checkpointPath = QFileInfo(path).absoluteFilePath();
        d->imported = false;
        emit checkpointOpened(d->modelInfo(/*withHistory=*/true));
    } catch (const std::exception& error) {
        emit checkpointFailed(path, messageOf(error));
    }
}

void TrainingWorker::importStateDict(const QString& path, VocabularySource vocabularyFrom, const QString& vocabularySource,
                                     const StudioSettings& settings) {
    try {
        chargpt::CharTokenizer vocabulary;
        std::string described;
        if (vocabularyFrom == VocabularySource::LoadedCorpus) {
            if (!d->corpus)
                throw chargpt::Error("there is no corpus loaded to take the vocabulary from.");
            vocabulary = d->corpus->buildTokenizer();
            described = "the loaded corpus (" + d->corpus->name() + ")";
        } else if (vocabularyFrom == VocabularySource::CorpusText) {
            vocabulary = chargpt::vocabularyFromCorpus(QFile::encodeName(vocabularySource).toStdString());
            described = "the corpus " + vocabularySource.toStdString();
        } else {
            vocabulary = chargpt::readVocabularyFile(QFile::encodeName(vocabularySource).toStdString());
            described = "the vocabulary file " + vocabularySource.toStdString();
        }
        chargpt::GPTConfig training = toConfig(settings);
        training.vocab_size = 0;
        chargpt::Checkpoint checkpoint =
            chargpt::importStateDict(QFile::encodeName(path).toStdString(), vocabulary, described, training);
        forgetSnapshot();
        d->model = checkpoint.model;
        d->tokenizer = checkpoint.tokenizer;
        d->config = checkpoint.config;
        d->state = std::move(checkpoint);
        d->checkpointPath.clear();
        d->imported = true;
        emit modelImported(d->modelInfo(/*withHistory=*/true), path);
    } catch (const std::exception& error) {
        emit importFailed(path, messageOf(error));
    }
}

void TrainingWorker::processPendingSaves() { processSavesFrom(nullptr); }

void TrainingWorker::processSavesFrom(void* trainerPointer) {
    std::vector<Private::SaveRequest> saves;
    {
        std::lock_guard<std::mutex> lock(d->mutex);
        saves.swap(d->saves);
        d->savesPending = false;
    }
    for (const Private::SaveRequest& request : saves) {
        try {
            if (!d->model)
                throw chargpt::Error("there is no model to save yet: train one first.");
            auto* trainer = static_cast<chargpt::Trainer*>(trainerPointer);
            chargpt::Checkpoint checkpoint;
            if (trainer) {
                checkpoint = chargpt::checkpointFromTrainer(*trainer, d->tokenizer);
            } else {
                checkpoint = d->state;
                checkpoint.config = d->config;
                checkpoint.tokenizer = d->tokenizer;
                checkpoint.model = d->model;
            }
            const QString folder = QFileInfo(request.path).absolutePath();
            QDir().mkpath(folder);
            chargpt::saveCheckpoint(QFile::encodeName(request.path).toStdString(), checkpoint);
            if (!request.autosave)
                d->checkpointPath = QFileInfo(request.path).absoluteFilePath();
            emit saved(request.path, request.autosave);
        } catch (const std::exception& error) {
            emit saveFailed(request.path, messageOf(error));
        }
    }
}
