// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Owns the training worker and its thread, and is the one place that knows
// whether a run is going: its RunState is what the window and the panels show
// (docs/ARCHITECTURE.md). Also keeps what the worker last said about the corpus
// and the model, autosaves (every five minutes while a run goes, and at the
// end of every run), and stores the studio settings.

#include <QObject>
#include <QString>
#include <QThread>
#include <QTimer>

#include <optional>

#include "app/StudioTypes.h"
#include "widgets/LadderData.h"
#include "widgets/RunsData.h"

class TrainingWorker;

class TrainingController : public QObject {
    Q_OBJECT

public:
    explicit TrainingController(QObject* parent = nullptr);
    // Stops a run, lets the worker finish the saves asked for, ends the thread.
    ~TrainingController() override;

    RunState state() const { return state_; }
    bool isTraining() const { return state_ != RunState::Idle; }
    bool hasCorpus() const { return hasCorpus_; }
    // A model that has trained (ModelSummary::trained).
    bool hasTrainedModel() const { return model_.trained(); }
    const CorpusSummary& corpus() const { return corpus_; }
    const ModelSummary& model() const { return model_; }
    QThread* workerThread() { return &thread_; }
    // The worker, on its own thread: the source of what it says that this
    // controller does not change (a corpus loaded, a run started, its
    // progress, a checkpoint opened, a model imported, a save, the frozen
    // models), to be connected to directly: queued to a receiver on the
    // GUI thread. This controller connected first, so its state (corpus(),
    // model(), state()) has taken the news in before any of those
    // connections is called. Call none of the worker's methods: they are
    // this controller's to call.
    const TrainingWorker* worker() const { return worker_; }

    // What training with `settings` does to the current model: the one place
    // where a new model or the current one's next run is decided (start()
    // follows it, the worker's trainingStarted says which it was).
    enum class StartKind {
        NewModel,            // there is none yet, or it never trained
        Continue,            // trains it further
        DiscardArchitecture, // starts a new one: the architecture settings changed
    };
    StartKind startKind(const chargpt::RunConfig& settings) const;
    // What a new corpus does to a trained model: it stays (the text is then
    // read with the model's vocabulary, by the views and by the runs that
    // train it further), or it goes (a new model trains on the text).
    enum class OnNewCorpus { KeepModel, DiscardModel };

    // The file the model's run autosaves to (empty until a run here trains
    // it): one of its own for each run, in the autosave folder (by default
    // TrainingWorker::autosaveFolder()), every five minutes while it goes
    // (or `milliseconds`) and at its end.
    QString autosavePath() const { return model_.autosavePath; }
    void setAutosaveFolder(const QString& folder);
    void setAutosaveInterval(int milliseconds) { autosaveTimer_.setInterval(milliseconds); }
    // Whether runs go into the run library (on unless turned off: the stall benchmark).
    void setRecordRuns(bool on);

    // The studio settings and the corpus the studio opens with, in QSettings.
    static chargpt::RunConfig storedSettings();
    static void storeSettings(const chargpt::RunConfig& settings);
    static QString storedCorpus();  // defaultCorpus() when none was loaded yet
    // builtin:python, or builtin:tang300 where the Python library is missing.
    static QString defaultCorpus();

    // What startLadder() trains (by default all seven rungs with their own settings).
    void setLadderRequest(const LadderRequest& request) { ladderRequest_ = request; }
    const LadderRequest& ladderRequest() const { return ladderRequest_; }
    // Whether the run going is the architecture ladder (false while idle).
    bool isLadder() const { return ladder_; }

    // Finishes the saves asked for and ends the worker's thread (stopping a run
    // first, autosaved); the destructor does it when not done before.
    void shutdown();

public slots:
    // Each asks the worker; the answer comes as a signal. Refused (false)
    // where the state does not allow it: loading, opening and importing only
    // while idle; start only while idle; pause while training; resume while
    // paused; stop while a run goes.
    // With a trained model (hasTrainedModel()), what becomes of it is asked
    // first: kept (OnNewCorpus) or discarded. Without one, both load alike.
    bool loadCorpus(const QString& source, OnNewCorpus model);
    // A new model when startKind(settings) says so, or when `freshModel`
    // (even where the current one could train further).
    bool start(const chargpt::RunConfig& settings, bool freshModel = false);
    // Trains the architecture ladder (ladderRequest()) on the loaded corpus:
    // a run like start()'s for the state (Start and the ladder exclude each
    // other; pause, resume and stop act on it), the window's model untouched.
    bool startLadder();
    bool pause();
    bool resume();
    bool stop();
    bool reset();
    // With `run` (Runs > Open): only when the file still holds that run's
    // model (TrainingWorker::openCheckpoint).
    bool openCheckpoint(const QString& path, const std::optional<RunRow>& run = std::nullopt);
    bool importStateDict(const QString& path, VocabularySource from, const QString& source,
                         const chargpt::RunConfig& settings);
    // Saves between two steps while training, at once otherwise.
    void save(const QString& path);
    // The model for nanoGPT (TrainingWorker::requestExportNanoGpt).
    void exportNanoGpt(const QString& folder);
    // Puts back the weights of the evaluation with the lowest validation loss
    // (between two steps while training, at once otherwise); modelChanged
    // follows. Refused when there are none or they are the model's already.
    bool restoreBest();
    // A fresh frozen model for the views (the worker's modelFrozen).
    void requestFrozenModel();

signals:
    void stateChanged(RunState state);
    // The worker's, emitted again from here on the GUI thread: whoever
    // connects after the window asked for its first corpus (the stall
    // measurement) still hears of that one, which the worker's own signal,
    // emitted before the connection existed, would not tell it. The loaded
    // corpus stays.
    void corpusFailed(const QString& source, const QString& message);
    // The run has ended and its end-of-run autosave is written (or failed);
    // the worker's trainingFinished says only that its steps ended.
    void trainingFinished(EndReason reason, const QString& message);
    // model() changed its figures (step, size), or was reset (exists false):
    // the worker's figures merged into the history kept here.
    void modelChanged(const ModelSummary& model);
    // The worker's failures (of opening, importing, saving, recording or
    // copying the model for the views) as one sentence for the user, the
    // current model unchanged.
    void problem(const QString& text);
    // The ladder has ended (the state is Idle again): `stopped` when a stop
    // ended a rung, `message` says why it failed (empty when it did not).
    void ladderFinished(bool stopped, const QString& message);

private:
    void setState(RunState state);
    void onCorpusLoaded(const CorpusSummary& corpus);
    void onTrainingStarted(const ModelSummary& model, bool newModel);
    void onSaved(const QString& path, bool autosave);
    void onProgress(const TrainingProgress& progress);
    void onTrainingFinished(EndReason reason, const QString& message);
    void onModelChanged(const ModelSummary& model);
    void finishRun();

    QThread thread_;
    TrainingWorker* worker_ = nullptr;  // lives on thread_
    RunState state_ = RunState::Idle;
    QTimer autosaveTimer_;
    CorpusSummary corpus_;
    bool hasCorpus_ = false;
    ModelSummary model_;
    // The run has ended on the worker; it ends here once its autosave is done.
    struct Ending {
        EndReason reason;
        QString message;
    };
    std::optional<Ending> ending_;
    bool stopWhenStarted_ = false;
    bool ladder_ = false;  // the run going is the ladder
    LadderRequest ladderRequest_;  // Stop pressed while the run was being set up
};
