// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDateTime>
#include <QObject>
#include <QString>
#include <QVector>

#include <memory>
#include <optional>

#include "app/StudioTypes.h"
#include "widgets/LadderData.h"
#include "widgets/RunsData.h"

// Owns the corpus, the model and the Trainer, and lives on its own QThread (as
// the RenderThread of Qt's Mandelbrot example): the window calls its slots by
// queued connections and receives copies of values by queued signals. Slots run
// one at a time on the worker's thread; train() blocks that thread until the run
// ends, so pause(), resume(), stop() and requestSave() are thread-safe methods
// the window calls directly; they take effect between two steps. No exception
// leaves a slot: each becomes a signal carrying a readable message.
namespace chargpt {
class RunLibrary;
}

class TrainingWorker : public QObject {
    Q_OBJECT

public:
    explicit TrainingWorker(QObject* parent = nullptr);
    ~TrainingWorker() override;

    // Thread-safe.
    void pause();
    void resume();
    void stop();
    // Saves the model to `path` on the worker's thread: between two steps while
    // training, at once otherwise.
    void requestSave(const QString& path);
    // The model as nanoGPT's ckpt.pt and meta.pkl in `folder` (dataset
    // "chargpt"), between two steps like a save: exported or exportFailed.
    void requestExportNanoGpt(const QString& folder);
    // Saves the model to the file of its own run in the autosave folder
    // (autosaveFileName), likewise: a run never autosaves over another's.
    void requestAutosave();
    // Whether runs go into the run library (on by default; the stall
    // benchmark trains unrecorded). Queue it on the worker's thread.
    void setRecordRuns(bool on);
    // Where autosaves go (by default autosaveFolder()). Queue it on the
    // worker's thread.
    void setAutosaveFolder(const QString& folder);
    // Asks for a frozen copy of the model (modelFrozen): between two steps
    // while training, at once otherwise. The worker also sends one after every
    // evaluation (at most a few a second), so views of a training model follow
    // it without ever running the model that trains.
    void requestFrozenModel();
    // Puts back the weights of the lowest validation loss so far (between two
    // steps while training, at once otherwise), then sends a frozen model and
    // modelChanged; nothing when none are kept.
    void requestRestoreBest();

    // The folder of the installed Python standard library, or empty.
    static QString pythonLibraryPath();
    // Where autosaves go by default: a folder of the user's data folder.
    static QString autosaveFolder();
    // The autosave file of a run: "run-<id>.pt" for a run the run library
    // keeps, else (no run) "unrecorded-<when it started>.pt".
    static QString autosaveFileName(std::optional<qint64> run, const QDateTime& started);

public slots:
    // `source`: "builtin:tang300", "builtin:song100", "builtin:python", or a
    // file or folder path, read with the vocabulary of the trained model
    // (which a run would train further), or with its own when there is none
    // or `discardModel` has it forgotten first. On failure the previous corpus
    // and the model stay.
    void loadCorpus(const QString& source, bool discardModel = false);
    // Trains on the current corpus a new model (`newModel`) or the current one
    // further: TrainingController::start decides which (startKind). Continuing
    // where there is no model, or with another architecture, is refused.
    void train(const chargpt::RunConfig& settings, bool newModel);
    // Trains the architecture ladder on the current corpus (app/WorkerLadder.cpp):
    // each rung a model of its own, recorded in the run library; the model
    // of the window stays as it is. stop() ends the rung that trains and
    // the ladder; pause() and resume() hold it.
    void trainLadder(const LadderRequest& request);
    // Forgets the model; the corpus stays.
    void resetModel();
    // On failure the current model stays. With `run` (Runs > Open), the file
    // is that run's last checkpoint and must still hold its model, at the
    // step it saved with the run's settings: a file gone or replaced since is
    // refused, saying which.
    void openCheckpoint(const QString& path, const std::optional<RunRow>& run = std::nullopt);
    // A state_dict saved by the seed's Python code (torch.save(model.state_dict())).
    // The vocabulary comes from `vocabularyFrom`: the loaded corpus, the corpus
    // file or folder `vocabularySource`, or the JSON vocabulary file
    // `vocabularySource`. The architecture is read off the file; the training
    // values of `settings` (dropout, batch, learning rate, steps...) apply when
    // it trains further. On failure the current model stays.
    void importStateDict(const QString& path, VocabularySource vocabularyFrom, const QString& vocabularySource,
                         const chargpt::RunConfig& settings);
    void processPendingSaves();
    void processFreezeRequest();

signals:
    void corpusLoaded(const CorpusSummary& corpus);
    void corpusFailed(const QString& source, const QString& message);
    // `newModel`: the run trains a new model (the views' history starts
    // afresh); otherwise the model trains further.
    void trainingStarted(const ModelSummary& model, bool newModel);
    void progress(const TrainingProgress& progress);
    // `message` says more for NonFiniteLoss and Error.
    void trainingFinished(EndReason reason, const QString& message);
    void modelChanged(const ModelSummary& model);
    // The ladder: its floors once its text is there, each rung as it starts,
    // evaluates and ends, and its end (`message`: why it failed, or empty).
    void ladderStarted(const LadderFloors& floors, int rungs);
    void ladderRung(const LadderRungData& rung);
    void ladderFinished(bool stopped, const QString& message);
    void checkpointOpened(const ModelSummary& model);
    void checkpointFailed(const QString& path, const QString& message);
    // openCheckpoint found no checkpoint of ours but a model file of nanoGPT,
    // minGPT or the lecture's code, which the window imports (FileActions::importFile).
    void foreignModelFound(const QString& path);
    void modelImported(const ModelSummary& model, const QString& path);
    void importFailed(const QString& path, const QString& message);
    void saved(const QString& path, bool autosave);
    void saveFailed(const QString& path, const QString& message, bool autosave);
    void exported(const QString& folder);
    void exportFailed(const QString& folder, const QString& message);
    void modelFrozen(const FrozenModel& frozen);
    // The steps at which the run library keeps the weights of run `run`, the
    // one training now, oldest first: sent whenever they change (a step kept,
    // or the kept ones thinned).
    void weightsKept(qint64 run, const QVector<qint64>& steps);
    void freezeFailed(const QString& message);
    // The run library was set aside (`text` says where to) or left a part of
    // the run out (its weights, out of room: `text` says what), the run still
    // recorded (`stillRecorded`); or it cannot be used or stopped recording
    // (`text` says why), training going on unrecorded.
    void recordingProblem(const QString& text, bool stillRecorded);

private:
    void emitFrozenModel(qint64 step);
    void save(const QString& path, bool autosave);
    // Forgets the model (modelChanged) and what was kept of it.
    void forgetModel();
    // The loaded corpus's summary again (corpusLoaded) when the model's
    // vocabulary, which it is read with, changed (app/WorkerCorpus.cpp).
    void summarizeCorpusAgain();
    // The run library, opened at the first run (null when runs are not
    // recorded or it cannot be opened, which is then said).
    std::shared_ptr<chargpt::RunLibrary> runLibrary();
    void forgetFrozenModel();

    struct Private;
    std::unique_ptr<Private> d;
};
