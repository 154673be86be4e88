// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/TrainingController.h"
#include "app/WorkerThread.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QSettings>

#include <utility>

#include "app/InspectWorker.h"
#include "app/ModelBridge.h"
#include "app/TrainingWorker.h"
#include "model/runtime/Runtime.h"
#include "model/text/BuiltinCorpora.h"

namespace {

constexpr int kAutosaveIntervalMs = 5 * 60 * 1000;
const char* const kCorpusKey = "corpus/source";
// Where Python's library is not installed, the first text is the Tang poems.
const char* const kFallbackCorpus = "builtin:tang300";

}  // namespace

void registerStudioTypes() {
    qRegisterMetaType<chargpt::RunConfig>();
    qRegisterMetaType<RunState>();
    qRegisterMetaType<EndReason>();
    qRegisterMetaType<VocabularySource>();
    qRegisterMetaType<CorpusSummary>();
    qRegisterMetaType<ModelSummary>();
    qRegisterMetaType<TrainingProgress>();
    qRegisterMetaType<FrozenModel>();
    qRegisterMetaType<LadderFloors>();
    qRegisterMetaType<LadderRungData>();
    InspectWorker::registerTypes();
}

TrainingController::TrainingController(QObject* parent)
    : QObject(parent) {
    registerStudioTypes();
    autosaveTimer_.setInterval(kAutosaveIntervalMs);
    connect(&autosaveTimer_, &QTimer::timeout, this, [this] { worker_->requestAutosave(); });

    worker_ = new TrainingWorker;
    // What the worker says is connected to its users directly; these
    // connections come first, so that this state is up to date when theirs
    // are called (worker()).
    connect(worker_, &TrainingWorker::corpusLoaded, this, &TrainingController::onCorpusLoaded);
    connect(worker_, &TrainingWorker::corpusFailed, this, &TrainingController::corpusFailed);  // the header says why
    connect(worker_, &TrainingWorker::trainingStarted, this, &TrainingController::onTrainingStarted);
    connect(worker_, &TrainingWorker::progress, this, &TrainingController::onProgress);
    connect(worker_, &TrainingWorker::trainingFinished, this, &TrainingController::onTrainingFinished);
    connect(worker_, &TrainingWorker::modelChanged, this, &TrainingController::onModelChanged);
    connect(worker_, &TrainingWorker::ladderStarted, this, [this] {
        if (state_ == RunState::Starting)
            setState(RunState::Training);
        if (std::exchange(stopWhenStarted_, false))
            worker_->stop();
    });
    connect(worker_, &TrainingWorker::ladderFinished, this, [this](bool stopped, const QString& message) {
        stopWhenStarted_ = false;
        ladder_ = false;
        setState(RunState::Idle);
        emit ladderFinished(stopped, message);
    });
    auto modelArrived = [this](const ModelSummary& model) { model_ = model; };
    connect(worker_, &TrainingWorker::checkpointOpened, this, modelArrived);
    connect(worker_, &TrainingWorker::modelImported, this, modelArrived);
    connect(worker_, &TrainingWorker::saved, this, &TrainingController::onSaved);
    // The sentences keep the translation context of the window, which wrote them before.
    connect(worker_, &TrainingWorker::saveFailed, this, [this](const QString& path, const QString& message, bool autosave) {
        emit problem(QCoreApplication::translate("MainWindow", "Could not save “%1”: %2")
                         .arg(QDir::toNativeSeparators(path), message));
        if (autosave)
            finishRun();
    });
    connect(worker_, &TrainingWorker::importFailed, this, [this](const QString& path, const QString& message) {
        emit problem(QCoreApplication::translate("MainWindow", "Could not import “%1”: %2 The current model is unchanged.")
                         .arg(QFileInfo(path).fileName(), message));
    });
    connect(worker_, &TrainingWorker::checkpointFailed, this, [this](const QString& path, QString message) {
        if (message.endsWith(QLatin1Char('.')))
            message.chop(1);  // the sentence goes on
        emit problem(QCoreApplication::translate(
                         "MainWindow", "Could not open the checkpoint “%1”: %2. The current model is unchanged.")
                         .arg(QFileInfo(path).fileName(), message));
    });
    connect(worker_, &TrainingWorker::recordingProblem, this, [this](const QString& text, bool stillRecorded) {
        emit problem(stillRecorded ? QCoreApplication::translate("MainWindow", "Run library: %1").arg(text)
                              : QCoreApplication::translate("MainWindow", "This run is not recorded in the run library: %1")
                                    .arg(text));
    });
    connect(worker_, &TrainingWorker::freezeFailed, this, [this](const QString& message) {
        emit problem(QCoreApplication::translate("MainWindow", "Could not copy the model for the views: %1").arg(message));
    });
    // Training yields the cores to the event loop whenever the window needs them.
    startWorkerThread(thread_, worker_, QStringLiteral("training"), WorkerKind::Compute);
}

TrainingController::~TrainingController() { shutdown(); }

void TrainingController::setAutosaveFolder(const QString& folder) {
    QMetaObject::invokeMethod(worker_, [worker = worker_, folder] { worker->setAutosaveFolder(folder); },
                              Qt::QueuedConnection);
}

void TrainingController::setRecordRuns(bool on) {
    QMetaObject::invokeMethod(worker_, [worker = worker_, on] { worker->setRecordRuns(on); }, Qt::QueuedConnection);
}

void TrainingController::shutdown() {
    autosaveTimer_.stop();
    if (!thread_.isRunning())
        return;
    if (isTraining() && !ladder_)  // the ladder leaves the window's model as it was
        worker_->requestAutosave();  // the run's end-of-run autosave
    worker_->stop();
    worker_->resume();
    // Queued behind whatever the worker was asked before (a save, say), so all
    // of it is done before its event loop ends.
    QMetaObject::invokeMethod(
        worker_,
        [worker = worker_] {
            worker->processPendingSaves();
            QThread::currentThread()->quit();
        },
        Qt::QueuedConnection);
    thread_.wait();
}

void TrainingController::setState(RunState state) {
    if (state == state_)
        return;
    state_ = state;
    if (state == RunState::Idle || ladder_)  // the ladder leaves the window's model alone
        autosaveTimer_.stop();
    else if (!autosaveTimer_.isActive())
        autosaveTimer_.start();
    emit stateChanged(state);
}

TrainingController::StartKind TrainingController::startKind(const chargpt::RunConfig& settings) const {
    // An imported model has trained in Python: training continues it.
    if (!hasTrainedModel())
        return StartKind::NewModel;
    if (!model_.settings.sameArchitecture(settings))
        return StartKind::DiscardArchitecture;
    return StartKind::Continue;
}

bool TrainingController::loadCorpus(const QString& source, OnNewCorpus model) {
    if (isTraining())
        return false;

    // Reading a folder of many files happens on the worker thread.
    const bool discard = model == OnNewCorpus::DiscardModel;
    QMetaObject::invokeMethod(worker_, [worker = worker_, source, discard] { worker->loadCorpus(source, discard); },
                              Qt::QueuedConnection);
    return true;
}

bool TrainingController::start(const chargpt::RunConfig& settings, bool freshModel) {
    if (isTraining())
        return false;
    const bool newModel = freshModel || startKind(settings) != StartKind::Continue;
    if (newModel)
        model_.checkpointPath.clear();  // what trains next is not that file
    setState(RunState::Starting);
    QMetaObject::invokeMethod(
        worker_, [worker = worker_, settings, newModel] { worker->train(settings, newModel); },
        Qt::QueuedConnection);
    return true;
}

bool TrainingController::startLadder() {
    if (isTraining())
        return false;
    ladder_ = true;
    setState(RunState::Starting);
    QMetaObject::invokeMethod(
        worker_, [worker = worker_, request = ladderRequest_] { worker->trainLadder(request); }, Qt::QueuedConnection);
    return true;
}

bool TrainingController::pause() {
    if (state_ != RunState::Training || ending_)
        return false;
    worker_->pause();
    setState(RunState::Paused);
    requestFrozenModel();  // the views show the weights training paused on
    return true;
}

bool TrainingController::resume() {
    if (state_ != RunState::Paused)
        return false;
    worker_->resume();
    setState(RunState::Training);
    return true;
}

bool TrainingController::stop() {
    if (state_ == RunState::Idle || state_ == RunState::Stopping || ending_)
        return false;
    if (state_ == RunState::Starting) {
        // The worker forgets older stops when it takes the run; this one goes
        // out once the run has started (onTrainingStarted).
        stopWhenStarted_ = true;
    } else {
        worker_->stop();
        worker_->resume();
    }
    setState(RunState::Stopping);
    return true;
}

bool TrainingController::reset() {
    if (isTraining())
        return false;
    QMetaObject::invokeMethod(worker_, &TrainingWorker::resetModel, Qt::QueuedConnection);
    return true;
}

bool TrainingController::openCheckpoint(const QString& path, const std::optional<RunRow>& run) {
    if (isTraining())
        return false;
    QMetaObject::invokeMethod(worker_, [worker = worker_, path, run] { worker->openCheckpoint(path, run); },
                              Qt::QueuedConnection);
    return true;
}

bool TrainingController::importStateDict(const QString& path, VocabularySource from, const QString& source,
                                         const chargpt::RunConfig& settings) {
    if (isTraining())
        return false;
    QMetaObject::invokeMethod(
        worker_, [worker = worker_, path, from, source, settings] { worker->importStateDict(path, from, source, settings); },
        Qt::QueuedConnection);
    return true;
}

void TrainingController::save(const QString& path) { worker_->requestSave(path); }

void TrainingController::exportNanoGpt(const QString& folder) { worker_->requestExportNanoGpt(folder); }

bool TrainingController::restoreBest() {
    const qint64 weightsStep = model_.weightsStep.value_or(model_.step);
    const auto& evaluations = model_.history.evaluations;
    const bool bestIsLatest = !evaluations.empty() && model_.bestStep == evaluations.back().step;
    if (!model_.exists || !model_.bestStep || *model_.bestStep == weightsStep || bestIsLatest ||
        state_ == RunState::Stopping)
        return false;
    worker_->requestRestoreBest();
    return true;
}

void TrainingController::requestFrozenModel() { worker_->requestFrozenModel(); }

void TrainingController::onCorpusLoaded(const CorpusSummary& corpus) {
    corpus_ = corpus;
    hasCorpus_ = true;
    QSettings().setValue(QLatin1String(kCorpusKey), corpus.source);
}

void TrainingController::onTrainingStarted(const ModelSummary& model, bool) {
    model_ = model;
    if (state_ == RunState::Starting)
        setState(RunState::Training);
    if (std::exchange(stopWhenStarted_, false))
        worker_->stop();
}

void TrainingController::onProgress(const TrainingProgress& progress) {
    model_.figures() = progress.figures();
    model_.weightsStep = progress.step;  // a step made the weights that step's
    model_.history.appendEvaluations(progress.curve);
}

void TrainingController::onSaved(const QString& path, bool autosave) {
    if (!autosave)
        model_.checkpointPath = QFileInfo(path).absoluteFilePath();
    else if (ending_)
        // The run's end-of-run autosave: the run ends once it is written. (The
        // worker posts its saved to each receiver in turn: another receiver
        // may hear of it after the run ended here, never before it was
        // written.)
        QMetaObject::invokeMethod(this, &TrainingController::finishRun, Qt::QueuedConnection);
}

void TrainingController::onTrainingFinished(EndReason reason, const QString& message) {
    stopWhenStarted_ = false;
    ending_ = Ending{reason, message};
    // Autosave at the end of every run that kept a model; the run counts as
    // ended once that is written (or failed), as the saves asked for meanwhile.
    if (reason != EndReason::Error && model_.exists)
        worker_->requestAutosave();
    else
        finishRun();
}

void TrainingController::finishRun() {
    if (!ending_)
        return;
    const Ending ending = *std::exchange(ending_, std::nullopt);
    setState(RunState::Idle);
    emit trainingFinished(ending.reason, ending.message);
}

void TrainingController::onModelChanged(const ModelSummary& model) {
    if (!model.exists) {
        model_ = model;  // reset: nothing left to keep
    } else {
        // The figures change; the history shown so far stays.
        model_.exists = true;
        model_.settings = model.settings;
        model_.parameters = model.parameters;
        model_.vocabularySize = model.vocabularySize;
        model_.figures() = model.figures();
        model_.imported = model.imported;
        model_.autosavePath = model.autosavePath;
        model_.weightsStep = model.weightsStep;
    }
    emit modelChanged(model_);
}

chargpt::RunConfig TrainingController::storedSettings() { return loadSettings(QSettings()); }

void TrainingController::storeSettings(const chargpt::RunConfig& settings) {
    QSettings store;
    ::storeSettings(store, settings);
}

QString TrainingController::storedCorpus() { return QSettings().value(QLatin1String(kCorpusKey), defaultCorpus()).toString(); }

QString TrainingController::defaultCorpus() {
    return QString::fromLatin1(TrainingWorker::pythonLibraryPath().isEmpty() ? kFallbackCorpus
                                                                             : chargpt::kDefaultCorpus);
}
