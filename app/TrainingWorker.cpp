// SPDX-License-Identifier: GPL-3.0-or-later
// LibTorch and model/ first, then Qt (docs/ARCHITECTURE.md, "Layers").
#include <torch/torch.h>

#include "model/analysis/Ablation.h"
#include "model/io/Checkpoint.h"
#include "model/io/PyTorchInterop.h"
#include "model/nn/CharGPT.h"
#include "model/record/RunRecorder.h"
#include "model/runtime/Error.h"
#include "model/text/BuiltinCorpora.h"
#include "model/text/CopyIndex.h"
#include "model/text/Corpus.h"
#include "model/train/Dataset.h"
#include "model/train/Learning.h"
#include "model/train/RunConfig.h"
#include "model/train/TrainConfig.h"
#include "model/train/Trainer.h"
#include "model/train/TrainingSession.h"

#include "ErrorMessage.h"
#include "TrainingWorker.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <utility>

#include "ModelBridge.h"
#include "ProgressFeed.h"
#include "StudioIdentity.h"

namespace {

constexpr int kPreviewChars = 2000;
constexpr qint64 kSnapshotIntervalMs = 3000;

template <typename Number>
QVector<double> toDoubles(const std::vector<Number>& values) {
    QVector<double> result;
    result.reserve(static_cast<qsizetype>(values.size()));
    for (const Number value : values)
        result.append(static_cast<double>(value));
    return result;
}

// The Surprise view's default texts: about 600 characters from the start of
// the validation part and as many from the start of the training part, as
// `data` splits the corpus (the end-of-text between two documents shown as a
// blank line); the validation sample begins at its first new line when one
// is near, since the split falls anywhere in a line.
void fillSplitSamples(const chargpt::Dataset& data, const chargpt::CharTokenizer& vocabulary, CorpusSummary& info) {
    constexpr int64_t kSampleChars = 600;
    constexpr int kLineSearch = 120;
    auto text = [&vocabulary](const std::vector<int64_t>& tokens) {
        std::u32string characters;
        for (const int64_t id : tokens)
            characters += id == chargpt::CharTokenizer::kEndOfText ? std::u32string(U"\n\n")
                                                                    : std::u32string(1, vocabulary.characters()[id - 1]);
        return characters;
    };
    std::u32string val = text(data.tokens(chargpt::Split::Validation, kSampleChars + kLineSearch));
    const std::size_t lineEnd = val.find(U'\n');
    if (lineEnd != std::u32string::npos && lineEnd < std::size_t(kLineSearch) && lineEnd + 1 < val.size())
        val.erase(0, lineEnd + 1);
    val.resize(std::min<std::size_t>(val.size(), kSampleChars));
    std::u32string train = text(data.tokens(chargpt::Split::Train, kSampleChars));
    train.resize(std::min(train.size(), val.size()));
    info.validationSample = QString::fromStdU32String(val);
    info.trainingSample = QString::fromStdU32String(train);
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

}  // namespace

struct TrainingWorker::Private {
    // Touched only on the worker's thread.
    std::optional<chargpt::Corpus> corpus;
    QString corpusSource;
    chargpt::CharGPT model{nullptr};
    chargpt::CharTokenizer tokenizer;
    chargpt::RunConfig config;
    // Step, tokens, history and optimizer moments of the model between runs.
    chargpt::Checkpoint state;
    QString checkpointPath;
    bool imported = false;  // the model came from a Python state_dict and has not trained here yet
    // The weights of the model's lowest validation loss so far, kept across
    // runs for Restore best (empty for a model opened, imported or new).
    chargpt::BestWeights best;
    chargpt::TrainingSession* session = nullptr;  // while train() runs
    // The run library (model/record/RunLibrary.h), opened at the first run;
    // null when it could not be (runs then train unrecorded). The run of the
    // current model it recorded last (-1: none), which its saves are added to.
    bool recordRuns = true;
    bool libraryOpened = false;
    std::shared_ptr<chargpt::RunLibrary> library;
    qint64 recordedRun = -1;
    // The last snapshot, so a request for the same step sends it again
    // instead of copying the weights once more.
    ModelSnapshot lastSnapshot;
    quint64 snapshotSerial = 0;
    // The copy index of the loaded corpus's training part, with the
    // vocabulary and the number of training tokens it was built for; and the
    // one the model's snapshots carry: that same index once the model trained
    // on the loaded corpus, null otherwise.
    std::shared_ptr<const chargpt::CopyIndex> corpusCopies;
    chargpt::CharTokenizer copiesTokenizer;
    qint64 copiesTokens = -1;
    std::shared_ptr<const chargpt::CopyIndex> modelCopies;
    // The knock-out table's batches of the run's validation part, for the
    // snapshots; null when modelCopies is (the model is not the loaded
    // corpus's).
    std::shared_ptr<const std::vector<chargpt::Batch>> modelEvaluation;

    // The index of the training part of `data` (the loaded corpus in
    // `vocabulary`), built unless the one of the loaded corpus is that already.
    void indexTrainingText(const chargpt::Dataset& data, const chargpt::CharTokenizer& vocabulary) {
        const qint64 tokens = data.size(chargpt::Split::Train);
        if (corpusCopies && copiesTokenizer == vocabulary && copiesTokens == tokens)
            return;
        corpusCopies.reset();  // its memory first
        auto index = std::make_shared<chargpt::CopyIndex>(data.trainingTokens(), vocabulary);
        index->calibrate(data.tokens(chargpt::Split::Validation), vocabulary);
        corpusCopies = std::move(index);
        copiesTokenizer = vocabulary;
        copiesTokens = tokens;
    }

    // Shared with other threads: the pause and stop of every run, and the work
    // (saves, snapshots) the worker's thread does between two steps, while
    // paused, or when no run is in progress.
    const std::shared_ptr<chargpt::TrainerControl> control = std::make_shared<chargpt::TrainerControl>();

    // The model as it is now: the running trainer's state, or the last one.
    chargpt::Checkpoint current() const {
        if (session)
            return session->checkpoint();
        chargpt::Checkpoint checkpoint = state;
        checkpoint.config = config;
        checkpoint.tokenizer = tokenizer;
        checkpoint.model = model;
        return checkpoint;
    }
    qint64 currentStep() const { return session ? session->trainer().step() : state.step; }

    ModelSummary modelInfo(bool withHistory) const {
        ModelSummary info;
        info.exists = static_cast<bool>(model);
        if (!model)
            return info;
        info.settings = toSettings(config);
        info.vocabularySize = static_cast<int>(config.vocab_size);
        info.parameters = config.parameterCount();
        info.step = state.step;
        info.weightsStep = state.weightsStep >= 0 ? state.weightsStep : state.step;
        info.bestStep = best.step;
        info.bestValLoss = best.valLoss;
        info.overfittingSince = chargpt::detectOverfitting(state.history).sinceStep;
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

void TrainingWorker::setRecordRuns(bool on) { d->recordRuns = on; }

std::shared_ptr<chargpt::RunLibrary> TrainingWorker::runLibrary() {
    if (!d->recordRuns)
        return nullptr;
    if (!d->libraryOpened) {
        d->libraryOpened = true;  // tried once: a library that cannot be opened is said once
        try {
            const std::string path = runLibraryPath();
            if (path.empty())
                throw chargpt::Error("there is no data folder to keep it in.");
            std::string setAside;
            d->library = chargpt::RunLibrary::open(path, &setAside);
            if (!setAside.empty())
                emit recordingProblem(QString::fromStdString(setAside), true);
        } catch (const std::exception& error) {
            emit recordingProblem(messageOf(error), false);
        }
    }
    return d->library;
}

void TrainingWorker::pause() { d->control->pause(); }

void TrainingWorker::resume() { d->control->resume(); }

void TrainingWorker::stop() { d->control->stop(); }

void TrainingWorker::requestSave(const QString& path, bool autosave) {
    // Between two steps or while paused, by the running trainer; when no run
    // is in progress, by the queued call below (which then finds it done).
    d->control->post([this, path, autosave] {
        try {
            if (!d->model)
                throw chargpt::Error("there is no model to save yet: train one first.");
            const chargpt::Checkpoint checkpoint = d->current();
            QDir().mkpath(QFileInfo(path).absolutePath());
            chargpt::saveCheckpoint(QFile::encodeName(path).toStdString(), checkpoint);
            if (!autosave)
                d->checkpointPath = QFileInfo(path).absoluteFilePath();
            if (d->library && d->recordedRun >= 0) {
                try {
                    d->library->addCheckpoint(d->recordedRun, checkpoint.step,
                                              QFile::encodeName(QFileInfo(path).absoluteFilePath()).toStdString());
                } catch (const std::exception& error) {
                    emit recordingProblem(messageOf(error), false);
                }
            }
            emit saved(path, autosave);
        } catch (const std::exception& error) {
            emit saveFailed(path, messageOf(error));
        }
    });
    QMetaObject::invokeMethod(this, &TrainingWorker::processPendingSaves, Qt::QueuedConnection);
}

void TrainingWorker::requestSnapshot() {
    d->control->post([this] {
        try {
            const qint64 step = d->currentStep();
            if (!d->lastSnapshot.isNull() && d->lastSnapshot.step == step)
                emit snapshotReady(d->lastSnapshot);  // the weights did not change since
            else
                emitSnapshot(step);
        } catch (const std::exception& error) {
            emit snapshotFailed(messageOf(error));
        }
    });
    QMetaObject::invokeMethod(this, &TrainingWorker::processSnapshotRequest, Qt::QueuedConnection);
}

void TrainingWorker::requestRestoreBest() {
    d->control->post([this] {
        try {
            qint64 step = 0;
            if (d->session) {
                chargpt::Trainer& trainer = d->session->trainer();
                if (!trainer.restoreBest())
                    return;
                step = trainer.step();
                // The run goes on from these weights; the summary says so until its next step.
                d->state.weightsStep = trainer.weightsStep();
            } else {
                if (!d->model || !chargpt::restoreWeights(d->model, d->best))
                    return;
                d->state.weightsStep = d->best.step;
                step = d->state.step;
            }
            // The views follow the weights put back.
            d->lastSnapshot = ModelSnapshot();
            emitSnapshot(step);
            ModelSummary info = d->modelInfo(/*withHistory=*/false);
            info.step = step;
            if (d->session) {
                info.tokensSeen = d->session->trainer().tokensSeen();
                info.bestStep = d->session->trainer().bestStep();
                info.bestValLoss = d->session->trainer().bestValLoss();
            }
            emit modelChanged(info);
        } catch (const std::exception& error) {
            emit snapshotFailed(messageOf(error));
        }
    });
    QMetaObject::invokeMethod(this, &TrainingWorker::processPendingSaves, Qt::QueuedConnection);
}

// Both run the work posted while no run was in progress; during a run (this
// thread is inside train()) the trainer has done it already.
void TrainingWorker::processPendingSaves() { d->control->runPosted(); }

void TrainingWorker::processSnapshotRequest() { d->control->runPosted(); }

void TrainingWorker::forgetSnapshot() {
    d->lastSnapshot = ModelSnapshot();
    // Whoever forgets the model's snapshot changes the model or the corpus:
    // until it trains on the loaded corpus, nothing is said about copying.
    d->modelCopies.reset();
    d->modelEvaluation.reset();
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
        snapshot.copies = d->modelCopies;
        snapshot.evaluation = d->modelEvaluation;
    }
    snapshot.serial = ++d->snapshotSerial;
    d->lastSnapshot = snapshot;
    emit snapshotReady(snapshot);
}

QString TrainingWorker::pythonLibraryPath() { return QString::fromStdString(chargpt::pythonLibraryPath()); }

QString TrainingWorker::autosavePath() {
    const QString folder = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    return QDir(folder).filePath(QStringLiteral("autosave.pt"));
}

void TrainingWorker::loadCorpus(const QString& source) {
    // The corpus split as a new model would split it (the corpus's vocabulary,
    // the last run's context and validation share): for the summary's
    // training size, unigram entropy and samples, and for the copy index.
    std::optional<chargpt::Dataset> data;
    chargpt::CharTokenizer vocabulary;
    try {
        std::optional<chargpt::Corpus> corpus =
            chargpt::loadCorpusSource(QFile::encodeName(source).toStdString());

        CorpusSummary info;
        info.source = source;
        info.name = source.startsWith(QLatin1String("builtin:")) ? source : QFileInfo(source).fileName();
        info.bytes = static_cast<qint64>(corpus->byteCount());
        info.characters = static_cast<qint64>(corpus->charCount());
        info.tokens = static_cast<qint64>(corpus->tokenCount());
        vocabulary = corpus->buildTokenizer();
        info.vocabularySize = static_cast<int>(vocabulary.vocabSize());
        try {
            data.emplace(corpus->encode(vocabulary), d->config.sequence_len, d->config.val_fraction);
            info.trainingTokens = data->size(chargpt::Split::Train);
            info.unigramEntropy = data->unigramEntropy();
            fillSplitSamples(*data, vocabulary, info);
        } catch (const chargpt::Error&) {
            // Shorter than one context: the settings check says so.
        }
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
        // The model did not train on this corpus (yet).
        forgetSnapshot();
        d->corpusCopies.reset();
        d->copiesTokens = -1;
        emit corpusLoaded(info);
    } catch (const std::exception& error) {
        emit corpusFailed(source, messageOf(error));
        return;
    }
    // After the summary, so that it is never late: the copy index of the
    // training part, ready when a generation ends. About 0.3 s a megabyte
    // (builtin:python: 1.3 s), on this thread: a start asked for meanwhile
    // waits that long. A run that splits otherwise (the model's own
    // vocabulary, another context) indexes again when it starts.
    if (!data)
        return;
    try {
        d->indexTrainingText(*data, vocabulary);
    } catch (const std::exception&) {
        // Too large to index: generation says nothing about copying.
    }
}

void TrainingWorker::train(const StudioSettings& settings, bool freshModel) {
    RunEnd reason = RunEnd::Error;
    QString message;
    // A stop asked for from here on ends this run (TrainingController asks for
    // one only after trainingStarted); an older one is forgotten.
    d->control->clearStop();
    try {
        if (!d->corpus)
            throw chargpt::Error("there is no corpus to train on.");
        const bool newModel = freshModel || !d->model || !toSettings(d->config).sameArchitecture(settings);
        chargpt::SessionOptions options;
        options.control = d->control;
        std::optional<chargpt::TrainingSession> session;
        if (newModel) {
            session.emplace(toConfig(settings), *d->corpus, options);
            d->model = session->model();
            d->tokenizer = session->tokenizer();
            d->state = chargpt::Checkpoint();
            d->checkpointPath.clear();
            d->imported = false;
            d->best = chargpt::BestWeights();
            forgetSnapshot();
        } else {
            // The model's own vocabulary; characters it does not know are left out.
            session.emplace(toConfig(settings), d->current(), *d->corpus, options);
        }
        d->config = session->config();
        if (!newModel)
            session->trainer().setBest(d->best);  // to beat, and to put back
        // The text this run trains on, for the views that look for copies.
        try {
            d->indexTrainingText(session->data(), session->tokenizer());
            d->modelCopies = d->corpusCopies;
        } catch (const std::exception&) {
            d->modelCopies.reset();  // too large to index: training goes on without
        }
        d->modelEvaluation = std::make_shared<const std::vector<chargpt::Batch>>(
            chargpt::ablationBatches(session->data(), d->config));
        if (d->lastSnapshot.copies != d->modelCopies || d->lastSnapshot.evaluation != d->modelEvaluation)
            d->lastSnapshot = ModelSnapshot();  // a request sends the new index and batches
        chargpt::Trainer& trainer = session->trainer();

        // The run goes into the run library as it trains, as `chargpt train`'s do.
        chargpt::RunRecorder recorder(runLibrary(),
                                      chargpt::runStartOf(*session, *d->corpus, d->corpusSource.toStdString(), "app",
                                                          settings.preset.toStdString()));
        d->recordedRun = recorder.runId();
        bool toldRecording = false;  // a recording that stopped is said once
        auto tellRecording = [&] {
            if (!toldRecording && !recorder.problem().empty()) {
                toldRecording = true;
                emit recordingProblem(QString::fromStdString(recorder.problem()), false);
            }
        };
        tellRecording();
        const qint64 evalInterval = d->config.eval_interval;

        ProgressFeed feed(d->config.time_limit_s, [this](const TrainingProgress& p) { emit progress(p); });
        QElapsedTimer sinceSnapshot;
        sinceSnapshot.start();
        bool firstStep = true;
        auto snapshotBetweenSteps = [&](qint64 step, bool evaluated) {
            // After evaluations, at most ~4 a second however short the interval;
            // between them every few seconds (one copy: under 1% of the time of
            // the book preset); at the first step, so that the attention
            // timeline starts at the start of the run; and when about to pause,
            // so the views get the weights they will stay on.
            const bool wanted = (evaluated && sinceSnapshot.elapsed() >= 250) ||
                                sinceSnapshot.elapsed() >= kSnapshotIntervalMs ||
                                std::exchange(firstStep, false) || d->control->paused();
            if (wanted && !(d->lastSnapshot.step == step && !d->lastSnapshot.isNull())) {
                emitSnapshot(step);
                sinceSnapshot.restart();
            }
        };
        trainer.onStep = [&](const chargpt::TrainSnapshot& s) {
            recorder.step(s);
            feed.step(s);
            // An evaluation follows this step: its snapshot is taken there.
            if (s.step % evalInterval != 0)
                snapshotBetweenSteps(s.step, /*evaluated=*/false);
        };
        trainer.onEval = [&](const chargpt::TrainSnapshot& s) {
            recorder.evaluation(s);
            tellRecording();
            feed.evaluation(s);
            snapshotBetweenSteps(s.step, /*evaluated=*/true);
        };

        // Saves and snapshots asked for during the run read it through
        // d->session, on this thread, between two steps.
        struct Running {
            Private& d;
            ~Running() { d.session = nullptr; }
        } running{*d};
        d->session = &*session;
        emit trainingStarted(d->modelInfo(/*withHistory=*/newModel));
        const chargpt::TrainResult result = trainer.run();
        recorder.finish(result);
        tellRecording();
        feed.finish(result.last);
        // The views end on the weights the run ended with (the last snapshot
        // may be older: at most ~4 are taken a second), unless they went wrong.
        const RunEnd end = runEndOf(result.reason);
        if ((end == RunEnd::Finished || end == RunEnd::TimeLimit || end == RunEnd::Stopped) &&
            (d->lastSnapshot.isNull() || d->lastSnapshot.step != result.last.step))
            emitSnapshot(result.last.step);

        // Keep what the run learned (weights are shared; moments copied out).
        d->state = session->checkpoint();
        d->best = trainer.best();
        d->session = nullptr;
        reason = runEndOf(result.reason);
        message = QString::fromStdString(result.message);
        emit modelChanged(d->modelInfo(/*withHistory=*/false));
        // Saves asked for meanwhile; the end-of-run autosave is TrainingController's.
        d->control->runPosted();
    } catch (const std::exception& error) {
        message = messageOf(error);
    }
    // A pause asked for during the run does not carry over to the next.
    d->control->resume();
    emit trainingFinished(reason, message);
}

void TrainingWorker::resetModel() {
    forgetSnapshot();
    d->best = chargpt::BestWeights();
    d->model = chargpt::CharGPT(nullptr);
    d->state = chargpt::Checkpoint();
    d->checkpointPath.clear();
    d->imported = false;
    d->recordedRun = -1;  // a model no run here recorded
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
        d->recordedRun = -1;  // a model no run here recorded
        d->best = chargpt::BestWeights();  // a checkpoint keeps one set of weights
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
        chargpt::RunConfig training = toConfig(settings);
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
        d->recordedRun = -1;  // a model no run here recorded
        d->best = chargpt::BestWeights();
        emit modelImported(d->modelInfo(/*withHistory=*/true), path);
    } catch (const std::exception& error) {
        emit importFailed(path, messageOf(error));
    }
}
