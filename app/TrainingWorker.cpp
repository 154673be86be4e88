// SPDX-License-Identifier: GPL-3.0-or-later
// TrainingWorker's run driver: a run from start to end (recorded, fed to the
// window, frozen for the views), and what other threads ask of it
// (pause, stop); what they ask between two steps is WorkerRequests.cpp's.
// The corpus is WorkerCorpus.cpp's, the model files WorkerModelFiles.cpp's.
#include "app/TrainingWorkerPrivate.h"

#include "model/record/RunRecorder.h"
#include "model/runtime/Error.h"
#include "model/text/BuiltinCorpora.h"
#include "model/train/TrainingHealth.h"

#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>

#include <string>
#include <utility>

#include "app/ErrorMessage.h"
#include "app/ProgressFeed.h"
#include "app/StudioIdentity.h"

namespace {

constexpr qint64 kFreezeIntervalMs = 3000;

}  // namespace

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

QString TrainingWorker::pythonLibraryPath() { return QString::fromStdString(chargpt::pythonLibraryPath()); }

void TrainingWorker::setAutosaveFolder(const QString& folder) { d->autosaveFolder = folder; }

QString TrainingWorker::autosaveFolder() {
    const QString folder = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    return QDir(folder).filePath(QStringLiteral("autosaves"));
}

QString TrainingWorker::autosaveFileName(std::optional<qint64> run, const QDateTime& started) {
    if (run) return QStringLiteral("run-%1.pt").arg(*run);
    return QStringLiteral("unrecorded-%1.pt").arg(started.toUTC().toString(QStringLiteral("yyyyMMdd-HHmmss-zzz")));
}

void TrainingWorker::train(const chargpt::RunConfig& settings, bool newModel) {
    EndReason reason = EndReason::Error;
    QString message;
    // A stop asked for from here on ends this run (TrainingController asks for
    // one only after trainingStarted); an older one is forgotten.
    d->control->clearStop();
    try {
        if (!d->corpus)
            throw chargpt::Error("there is no corpus to train on.");
        if (!newModel && !d->model)
            throw chargpt::Error("there is no model to train further.");
        if (!newModel && !d->config.sameArchitecture(settings))
            throw chargpt::Error("the architecture settings are not the model's: it cannot train further with them.");
        chargpt::SessionOptions options;
        options.control = d->control;
        std::optional<chargpt::TrainingSession> session;
        if (newModel) {
            session.emplace(settings, *d->corpus, options);
            d->model = session->model();
            d->tokenizer = session->tokenizer();
            d->state = chargpt::Checkpoint();
            d->checkpointPath.clear();
            d->imported = false;
            d->best = chargpt::BestWeights();
            forgetFrozenModel();
        } else {
            // The model's own vocabulary; characters it does not know are left out.
            session.emplace(settings, d->current(), *d->corpus, options);
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
        if (d->lastFrozen.copies != d->modelCopies || d->lastFrozen.evaluation != d->modelEvaluation)
            d->lastFrozen = FrozenModel();  // a request sends the new index and batches
        chargpt::Trainer& trainer = session->trainer();

        // The run goes into the run library as it trains, as `chargpt train`'s do.
        chargpt::RunRecorder recorder(runLibrary(),
                                      chargpt::runStartOf(*session, *d->corpus, d->corpusSource.toStdString(),
                                                          chargpt::RunOrigin::App, settings.preset_name));
        // With its weights at log-spaced steps and every evaluation, to replay it.
        recorder.keepWeights(chargpt::keptWeightsOf(*session));
        d->recordedRun = recorder.runId();
        // Its autosaves go to a file of its own: never over another run's.
        d->autosaveName = autosaveFileName(d->recordedRun, QDateTime::currentDateTimeUtc());
        // What the library stops keeping is said once, when it happens: the
        // whole recording, or a part of it (the weights, out of room).
        bool toldRecording = false, toldLeftOut = false;
        auto tellRecording = [&] {
            if (!toldRecording && !recorder.problem().empty()) {
                toldRecording = true;
                emit recordingProblem(QString::fromStdString(recorder.problem()), false);
            }
            if (!toldLeftOut && !recorder.leftOut().empty()) {
                toldLeftOut = true;
                emit recordingProblem(QString::fromStdString(recorder.leftOut()), true);
            }
        };
        tellRecording();
        // The window's timeline lists the kept steps: said whenever they change.
        std::size_t keptCount = 0;
        std::optional<int64_t> keptNewest;  // none while no step is kept
        auto tellKept = [&] {
            const std::map<int64_t, int64_t>& kept = recorder.keptWeights();
            const std::optional<int64_t> newest =
                kept.empty() ? std::nullopt : std::optional<int64_t>(kept.rbegin()->first);
            if (kept.size() == keptCount && newest == keptNewest)
                return;
            keptCount = kept.size();
            keptNewest = newest;
            QVector<qint64> steps;
            steps.reserve(qsizetype(kept.size()));
            for (const auto& entry : kept)
                steps.append(entry.first);
            emit weightsKept(*recorder.runId(), steps);  // kept: recorded
        };
        const qint64 evalInterval = d->config.eval_interval;

        ProgressFeed feed(d->config.time_limit_s, [this](const TrainingProgress& p) { emit progress(p); });
        QElapsedTimer sinceFrozen;
        sinceFrozen.start();
        bool firstStep = true;
        auto freezeBetweenSteps = [&](qint64 step, bool evaluated) {
            // After evaluations, at most ~4 a second however short the interval;
            // between them every few seconds (one copy: under 1% of the time of
            // the book preset); at the first step, so that the attention
            // timeline starts at the start of the run; and when about to pause,
            // so the views get the weights they will stay on.
            const bool wanted = (evaluated && sinceFrozen.elapsed() >= 250) ||
                                sinceFrozen.elapsed() >= kFreezeIntervalMs ||
                                std::exchange(firstStep, false) || d->control->paused();
            if (wanted && !(d->lastFrozen.step == step && !d->lastFrozen.isNull())) {
                emitFrozenModel(step);
                sinceFrozen.restart();
            }
        };
        // The views get a step's weights before the timeline hears that the
        // step is kept: a kept step that is also the newest is shown as the
        // live model, not loaded back from the run's record and then dropped.
        trainer.onStep = [&](const chargpt::StepFigures& s) {
            recorder.step(s);
            // An evaluation follows this step: its frozen model is taken there.
            if (s.step % evalInterval != 0) freezeBetweenSteps(s.step, /*evaluated=*/false);
            tellKept();
            tellRecording();
            feed.step(s);
        };
        // Its health every few steps: drawn beside the loss, kept with the run.
        trainer.health = std::make_shared<chargpt::TrainingHealth>();
        trainer.onHealth = [&](const chargpt::HealthReport& report) {
            recorder.health(report);
            feed.health(report);
        };
        trainer.onEval = [&](const chargpt::StepFigures& s) {
            recorder.evaluation(s);
            freezeBetweenSteps(s.step, /*evaluated=*/true);
            tellKept();
            tellRecording();
            feed.evaluation(s);
        };

        // Saves and frozen models asked for during the run read it through
        // d->session, on this thread, between two steps.
        struct Running {
            Private& d;
            ~Running() { d.session = nullptr; }
        } running{*d};
        d->session = &*session;
        if (newModel)
            summarizeCorpusAgain();  // the text's own vocabulary, where a discarded model's was
        emit trainingStarted(d->modelInfo(/*withHistory=*/newModel), newModel);
        const chargpt::TrainResult result = trainer.run();
        recorder.finish(result);
        tellRecording();
        feed.finish(result.last);
        // The views end on the weights the run ended with (the last frozen model
        // may be older: at most ~4 are taken a second), unless they went wrong.
        const EndReason end = result.reason;
        if ((end == EndReason::Finished || end == EndReason::TimeLimit || end == EndReason::Stopped) &&
            (d->lastFrozen.isNull() || d->lastFrozen.step != result.last.step))
            emitFrozenModel(result.last.step);

        // Keep what the run learned (weights are shared; moments copied out).
        d->state = session->checkpoint();
        d->best = trainer.best();
        d->session = nullptr;
        reason = result.reason;
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
