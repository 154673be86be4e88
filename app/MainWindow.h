// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QElapsedTimer>
#include <QMainWindow>
#include <QString>
#include <QThread>
#include <QTimer>

#include "StudioTypes.h"

class AttentionPage;
class CheckpointPanel;
class GenerationView;
class InspectWorker;
class LiveScoresView;
class SoftmaxLab;
struct AttentionProbe;
struct GenerationOptions;
struct GenerationStep;
struct HeadScores;
class CorpusPanel;
class LanguageManager;
class LossPlot;
class QAction;
class QActionGroup;
class QLabel;
class QFrame;
class QMenu;
class QSplitter;
class QTabWidget;
class QToolButton;
class SettingsPanel;
class TrainingPanel;
class TrainingWorker;

// The studio's window: corpus, settings and training controls on the left, the
// loss curves (and the tabs the next issue fills) in the centre. The model lives
// in a TrainingWorker on its own thread; this window only sends it requests and
// shows the values it sends back.
class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    explicit MainWindow(LanguageManager* languages, QWidget* parent = nullptr);
    ~MainWindow() override;

    // Opens a checkpoint on the worker; the result arrives later (checkpointOpened
    // or an error in the message bar). Refused while training.
    void openCheckpoint(const QString& path);
    // A text file, a folder or "builtin:tang300" / "builtin:song100" / "builtin:python".
    void openCorpus(const QString& source);
    void startTraining();
    // Imports a state_dict saved by the seed's Python code (on the worker); the
    // vocabulary comes from the loaded corpus, a corpus file or folder, or a
    // JSON vocabulary file (`source`). The result arrives later: modelImported,
    // or an error in the message bar with the current model left as it was.
    enum class VocabularyFrom { LoadedCorpus, Corpus, VocabularyFile };
    void importModel(const QString& stateDictPath, VocabularyFrom from, const QString& source = QString());
    // Writes the current settings as JSON for python/train_ddp.py; false (and
    // the reason in the message bar) when it cannot.
    bool exportConfigTo(const QString& path);
    // Saves the model on the worker (between steps while training).
    void saveCheckpointTo(const QString& path);
    bool isTraining() const;

    // For tests and the README: the parts of the window.
    CorpusPanel* corpusPanel() const { return corpusPanel_; }
    SettingsPanel* settingsPanel() const { return settingsPanel_; }
    TrainingPanel* trainingPanel() const { return trainingPanel_; }
    LossPlot* lossPlot() const { return lossPlot_; }
    QTabWidget* tabs() const { return tabs_; }
    QString messageText() const;
    const ModelInfo& modelInfo() const { return modelInfo_; }
    const CorpusInfo& corpusInfo() const { return corpusInfo_; }
    QThread* workerThread() { return &workerThread_; }
    AttentionPage* attentionPage() const { return attentionPage_; }
    SoftmaxLab* softmaxLab() const { return softmaxLab_; }
    LiveScoresView* liveScores() const { return liveScores_; }
    GenerationView* generationView() const { return generationView_; }
    // Whether the inspector has a model to run (a snapshot of the trained or
    // opened model), and its step.
    bool hasSnapshot() const { return hasSnapshot_; }
    qint64 snapshotStep() const { return snapshotStep_; }
    // Asks the training worker for a fresh snapshot (between two steps).
    void refreshSnapshot();

signals:
    void corpusReady();
    void corpusRejected(const QString& message);
    void trainingProgressed(qint64 step);
    void trainingEnded(const QString& reason);
    void modelReady();
    void messageShown(const QString& text);
    void checkpointSaved(const QString& path);
    void modelImported(const QString& path);
    void snapshotArrived(qint64 step);
    void attentionShown(qint64 step);
    void scoresShown(qint64 step);
    void characterGenerated(const QString& character);
    void generationEnded(const QString& reason);
    void stepShown(const QString& character);

protected:
    void changeEvent(QEvent* event) override;
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private slots:
    void chooseCheckpoint();
    void chooseImport();
    void chooseExportConfig();
    void chooseCorpusFile();
    void chooseCorpusFolder();
    void saveCheckpoint();
    void saveCheckpointAs();
    void showAbout();

private:
    enum class Level { Info, Error };
    void createWorker();
    void createActions();
    void createMenus();
    void retranslateUi();
    void updateWindowTitle();
    void updateRecentMenu();
    void addRecentFile(const QString& path);
    void restoreSettings();
    void saveSettings() const;
    void reassessSettings();
    void setTrainingState(int state);
    void showMessage(const QString& text, Level level);
    void updateModelPanel();
    void shutdownWorker();
    void createInspector();
    void onSnapshot(const ModelSnapshot& snapshot);
    void requestAttention();
    void requestScores();
    void onAttention(const AttentionProbe& probe, qint64 step, quint64 request, double milliseconds);
    void onScores(const HeadScores& scores, qint64 step, quint64 request);
    void onGenerate(const GenerationOptions& options);
    // Says so when the prompt is longer than the model's context (else clears).
    void showPromptNote(const QString& prompt);
    void onStep(const GenerationOptions& options, bool restart);
    void onStepped(const GenerationStep& step);
    void setDefaultProbe();

    void onCorpusLoaded(const CorpusInfo& corpus);
    void onCorpusFailed(const QString& source, const QString& message);
    void onTrainingStarted(const ModelInfo& model);
    void onProgress(const TrainingUpdate& update);
    void onTrainingFinished(const QString& reason, const QString& message);
    void onCheckpointOpened(const ModelInfo& model);
    void onModelImported(const ModelInfo& model, const QString& path);

    LanguageManager* languages_ = nullptr;
    QThread workerThread_;
    TrainingWorker* worker_ = nullptr;  // lives on workerThread_

    ModelInfo modelInfo_;
    CorpusInfo corpusInfo_;
    bool corpusChangedSinceModel_ = false;
    QString promptNote_;  // about the prompt of the running generation, or empty
    bool hasCorpus_ = false;
    QString checkpointPath_;
    QString loadingCorpus_;
    QTimer autosaveTimer_;

    // Benchmark mode (CHARGPT_MEASURE=1): the longest gap between 10 ms ticks of
    // the GUI thread while training, printed with tokens/s when a run ends.
    QTimer heartbeat_;
    QElapsedTimer heartbeatClock_;
    qint64 lastBeatMs_ = 0, longestStallMs_ = 0;
    double lastTokensPerSecond_ = 0.0;

    QSplitter* splitter_ = nullptr;
    QTabWidget* tabs_ = nullptr;
    LossPlot* lossPlot_ = nullptr;
    CorpusPanel* corpusPanel_ = nullptr;
    SettingsPanel* settingsPanel_ = nullptr;
    TrainingPanel* trainingPanel_ = nullptr;
    CheckpointPanel* checkpointPanel_ = nullptr;
    QFrame* messageBar_ = nullptr;
    QLabel* messageLabel_ = nullptr;
    QToolButton* messageClose_ = nullptr;
    AttentionPage* attentionPage_ = nullptr;
    SoftmaxLab* softmaxLab_ = nullptr;
    LiveScoresView* liveScores_ = nullptr;
    GenerationView* generationView_ = nullptr;

    // The inspector runs snapshots of the model for the three views above.
    QThread inspectThread_;
    InspectWorker* inspector_ = nullptr;  // lives on inspectThread_
    bool hasSnapshot_ = false;
    qint64 snapshotStep_ = -1;
    quint64 attentionRequest_ = 0, scoresRequest_ = 0;
    bool attentionInFlight_ = false, attentionPending_ = false;
    bool scoresInFlight_ = false, scoresPending_ = false;
    QString defaultProbe_;  // the probe taken from the corpus, while unedited

    QMenu* fileMenu_ = nullptr;
    QMenu* recentMenu_ = nullptr;
    QMenu* languageMenu_ = nullptr;
    QMenu* helpMenu_ = nullptr;
    QAction* openCorpusFileAction_ = nullptr;
    QAction* openCorpusFolderAction_ = nullptr;
    QAction* openAction_ = nullptr;
    QAction* importAction_ = nullptr;
    QAction* exportConfigAction_ = nullptr;
    QAction* saveAction_ = nullptr;
    QAction* saveAsAction_ = nullptr;
    QAction* quitAction_ = nullptr;
    QAction* aboutAction_ = nullptr;
    QAction* aboutQtAction_ = nullptr;
    QActionGroup* languageGroup_ = nullptr;
};
