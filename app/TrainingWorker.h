// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QString>
#include <QVector>

#include <memory>

#include "app/StudioTypes.h"
#include "widgets/LadderData.h"

// Owns the corpus, the model and the Trainer, and lives on its own QThread (as
// the RenderThread of Qt's Mandelbrot example): the window calls its slots by
// queued connections and receives value snapshots by queued signals. Slots run
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
    // training, at once otherwise. `autosave` only changes the signal's flag.
    void requestSave(const QString& path, bool autosave);
    // Whether runs go into the run library (on by default; the stall
    // benchmark trains unrecorded). Queue it on the worker's thread.
    void setRecordRuns(bool on);
    // Asks for a frozen copy of the model (snapshotReady): between two steps
    // while training, at once otherwise. The worker also sends one after every
    // evaluation (at most a few a second), so views of a training model follow
    // it without ever running the model that trains.
    void requestSnapshot();
    // Puts back the weights of the lowest validation loss so far (between two
    // steps while training, at once otherwise), then sends a snapshot and
    // modelChanged; nothing when none are kept.
    void requestRestoreBest();

    // The folder of the installed Python standard library, or empty.
    static QString pythonLibraryPath();
    // Where autosaves go (the user's data folder).
    static QString autosavePath();

public slots:
    // `source`: "builtin:tang300", "builtin:song100", "builtin:python", or a
    // file or folder path. On failure the previous corpus stays.
    void loadCorpus(const QString& source);
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
    // On failure the current model stays.
    void openCheckpoint(const QString& path);
    // A state_dict saved by the seed's Python code (torch.save(model.state_dict())).
    // The vocabulary comes from `vocabularyFrom`: the loaded corpus, the corpus
    // file or folder `vocabularySource`, or the JSON vocabulary file
    // `vocabularySource`. The architecture is read off the file; the training
    // values of `settings` (dropout, batch, learning rate, steps...) apply when
    // it trains further. On failure the current model stays.
    void importStateDict(const QString& path, VocabularySource vocabularyFrom, const QString& vocabularySource,
                         const chargpt::RunConfig& settings);
    void processPendingSaves();
    void processSnapshotRequest();

signals:
    void corpusLoaded(const CorpusSummary& corpus);
    void corpusFailed(const QString& source, const QString& message);
    // `newModel`: the run trains a new model (the views' history starts
    // afresh); otherwise the model trains further.
    void trainingStarted(const ModelSummary& model, bool newModel);
    void progress(const TrainingProgress& progress);
    // `message` says more for NonFiniteLoss and Error.
    void trainingFinished(RunEnd reason, const QString& message);
    void modelChanged(const ModelSummary& model);
    // The ladder: its floors once its text is there, each rung as it starts,
    // evaluates and ends, and its end (`message`: why it failed, or empty).
    void ladderStarted(const LadderFloors& floors, int rungs);
    void ladderRung(const LadderRungData& rung);
    void ladderFinished(bool stopped, const QString& message);
    void checkpointOpened(const ModelSummary& model);
    void checkpointFailed(const QString& path, const QString& message);
    void modelImported(const ModelSummary& model, const QString& path);
    void importFailed(const QString& path, const QString& message);
    void saved(const QString& path, bool autosave);
    void saveFailed(const QString& path, const QString& message);
    void snapshotReady(const ModelSnapshot& snapshot);
    // The steps at which the run library keeps the weights of run `run`, the
    // one training now, oldest first: sent whenever they change (a step kept,
    // or the kept ones thinned).
    void snapshotsKept(qint64 run, const QVector<qint64>& steps);
    void snapshotFailed(const QString& message);
    // The run library was set aside (`text` says where to), or cannot be used
    // or stopped recording (`text` says why); training goes on unrecorded.
    void recordingProblem(const QString& text, bool setAside);

private:
    void emitSnapshot(qint64 step);
    // The run library, opened at the first run (null when runs are not
    // recorded or it cannot be opened, which is then said).
    std::shared_ptr<chargpt::RunLibrary> runLibrary();
    void forgetSnapshot();

    struct Private;
    std::unique_ptr<Private> d;
};
