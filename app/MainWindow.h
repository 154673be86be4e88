// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QMainWindow>
#include <QString>

#include <optional>
#include <utility>

#include "widgets/MessageBar.h"
#include "app/StudioTypes.h"
#include "widgets/RunsData.h"

class AttentionPage;
class AttributionView;
class WhyWindow;
class QDialog;
class CorpusPanel;
class FileActions;
class GenerationView;
class InspectionController;
class LanguageManager;
class LessonController;
class LiveScoresView;
class LossPlot;
namespace chargpt {
struct HealthWarning;
}
class HealthView;
class LearningRateSearch;
class LearningRateView;
class QPushButton;
class QAction;
class QMenu;
class QSplitter;
class QTabWidget;
class RunsController;
class RunsPage;
class QThread;
class SettingsPanel;
class SidePanel;
class SoftmaxLab;
class InsidePage;
class LadderView;
class SurpriseView;
class FilmstripController;
class NgramFloorsMeasure;
class FilmstripPage;
class Timeline;
class TimelineControls;
class TrainingController;
class TrainingPanel;

// The studio's window: corpus, settings and training controls on the left, the
// loss curves and the views of the model in tabs in the centre, a message bar
// above them. It keeps the layout, the menus, the language and the messages;
// the TrainingController runs training and knows its state, the
// InspectionController runs frozen models for the views, and
// FileActions asks for files (docs/ARCHITECTURE.md).
class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    explicit MainWindow(LanguageManager* languages, QWidget* parent = nullptr);
    ~MainWindow() override;

    // Each asks the training controller; the result arrives later (a signal
    // below, or an error in the message bar). Refused while training.
    void openCheckpoint(const QString& path);
    // A run's last checkpoint from the Runs tab, only while it still holds
    // that run's model; then its kept steps on the timeline, or (`thenTrain`)
    // trained further.
    void openRun(const RunRow& run, bool thenTrain);
    // A text file, a folder or "builtin:tang300" / "builtin:song100" / "builtin:python".
    void openCorpus(const QString& source);
    // Imports a state_dict saved by the seed's Python code; the vocabulary comes
    // from `from` (and `source`, a corpus or a JSON vocabulary file). On failure
    // the current model stays.
    void importModel(const QString& stateDictPath, VocabularySource from, const QString& source = QString());
    // Starts (or continues) training when it may start, asking first when that
    // would discard the current model.
    void startTraining();
    // Trains the architecture ladder on the loaded corpus (MainWindowLadder.cpp).
    void startLadder();
    // Writes the current settings as JSON for python/train_ddp.py; false (and
    // the reason in the message bar) when it cannot.
    bool exportConfigTo(const QString& path);
    // Saves the model on the worker (between steps while training).
    void saveCheckpointTo(const QString& path);

    TrainingController* training() const { return training_; }
    InspectionController* inspection() const { return inspection_; }
    RunsController* runs() const { return runs_; }
    RunsPage* runsPage() const { return runsPage_; }
    LadderView* ladderView() const { return ladderView_; }
    QAction* ladderAction() const { return ladderAction_; }
    bool isTraining() const;
    const ModelSummary& modelInfo() const;
    const CorpusSummary& corpusInfo() const;
    QThread* workerThread() const;
    bool hasFrozenModel() const;
    std::optional<qint64> frozenStep() const;  // none: no model to inspect
    QString messageText() const;

    // For tests and the README: the parts of the window.
    CorpusPanel* corpusPanel() const;
    SettingsPanel* settingsPanel() const;
    TrainingPanel* trainingPanel() const;
    LossPlot* lossPlot() const { return lossPlot_; }
    // The Training tab: the loss curves beside the training health, and the
    // learning-rate finder's button and window (MainWindowHealth.cpp).
    QWidget* trainingPage() const { return trainingPage_; }
    HealthView* healthView() const { return healthView_; }
    QPushButton* findRateButton() const { return findRateButton_; }
    // Null until the finder is first opened.
    LearningRateView* learningRateView() const { return rateView_; }
    QTabWidget* tabs() const { return tabs_; }
    AttentionPage* attentionPage() const { return attentionPage_; }
    SurpriseView* surpriseView() const { return surpriseView_; }
    // The window that answers a click on a character: why the model wrote it.
    AttributionView* attributionView() const { return attributionView_; }
    // That window, with its patching lab.
    WhyWindow* whyWindow() const { return whyWindow_; }
    InsidePage* insidePage() const { return insidePage_; }
    SoftmaxLab* softmaxLab() const { return softmaxLab_; }
    LiveScoresView* liveScores() const { return liveScores_; }
    GenerationView* generationView() const { return generationView_; }
    FilmstripPage* filmstripPage() const { return filmstripPage_; }
    FilmstripController* filmstrip() const { return filmstrip_; }
    // The window's one timeline: the step every view that replays shows.
    Timeline* timeline() const { return timeline_; }
    // The Lessons menu, the lesson pane and presentation mode.
    LessonController* lessons() const { return lessons_; }
    TimelineControls* timelineControls() const { return timelineControls_; }

    // What happens in the training and the views is said by its source:
    // training() (and its worker()), inspection(), runs(), runsPage(). The
    // window says only what is its own.
signals:
    // A model is shown: one that changed, was opened, or was imported.
    void modelReady();
    void messageShown(const QString& text);

protected:
    void changeEvent(QEvent* event) override;
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    using Level = MessageBar::Level;
    QWidget* createCentre();
    void createMenus();
    void connectTraining();
    // The model files of other projects: imported, found by Open, exported (MainWindowFiles.cpp).
    void connectFiles();
    void connectRuns();
    // The architecture ladder's action, tab and news (MainWindowLadder.cpp).
    void connectLadder();
    void retranslateLadder();
    // The timeline and its bar under the tabs, and what follows it (MainWindowTimeline.cpp).
    QWidget* createTimeline(QWidget* parent);
    void connectTimeline();
    // The n-gram floors on the loss plot, for a model trained on the loaded
    // text in its own vocabulary (MainWindowFloors.cpp).
    void connectFloors();
    void connectAttribution();  // MainWindowWhy.cpp
    void showNgramFloors();
    // The Training tab's health panel and learning-rate finder (MainWindowHealth.cpp).
    QWidget* createTrainingPage(QWidget* parent);
    void connectHealth();
    void retranslateHealth();
    void showHealthWarning(const chargpt::HealthWarning& warning);
    void showHealthPlot();
    void showLearningRateFinder();
    void useLearningRate(double rate);
    // The lessons' view table and menu (MainWindowLessons.cpp).
    void createLessons(QMenu* menu);
    void retranslateUi();
    void updateWindowTitle();
    void showMessage(const QString& text, Level level);
    void saveCheckpoint();
    void showAbout();
    void onTrainingFinished(EndReason reason, const QString& message);
    void onModelArrived(const ModelSummary& model);
    // The loss plot's reference lines (ln V of the model's or the corpus's
    // vocabulary, the corpus's unigram entropy) and its memorising marks; the
    // message bar says once per run what a rise of validation loss means.
    void showReferenceLevels();
    // Those two levels in nats (NaN where unknown): the uniform guess, the unigram entropy.
    std::pair<double, double> referenceLevels() const;
    void showLearning(std::optional<qint64> overfittingSince, std::optional<qint64> bestStep, double bestValLoss);
    QString memorisingMessage() const;  // of memorisingTold_ and memorisingBest_

    LanguageManager* languages_ = nullptr;
    TrainingController* training_ = nullptr;
    InspectionController* inspection_ = nullptr;
    RunsController* runs_ = nullptr;
    RunsPage* runsPage_ = nullptr;
    LadderView* ladderView_ = nullptr;
    QAction* ladderAction_ = nullptr;
    QString continueAfterOpen_;  // the checkpoint Continue training opens, to train once open
    // The run whose checkpoint Runs > Open opens (id, file), to replay once open.
    std::optional<std::pair<qint64, QString>> openingRun_;
    FileActions* files_ = nullptr;
    LessonController* lessons_ = nullptr;
    SidePanel* side_ = nullptr;

    QSplitter* splitter_ = nullptr;
    QTabWidget* tabs_ = nullptr;
    LossPlot* lossPlot_ = nullptr;
    QWidget* trainingPage_ = nullptr;
    QSplitter* trainingSplitter_ = nullptr;
    HealthView* healthView_ = nullptr;
    QPushButton* findRateButton_ = nullptr;
    LearningRateView* rateView_ = nullptr;
    LearningRateSearch* rateSearch_ = nullptr;
    qint64 healthWarningStep_ = 0;  // the step of the warning the message bar shows
    MessageBar* messageBar_ = nullptr;
    AttentionPage* attentionPage_ = nullptr;
    SurpriseView* surpriseView_ = nullptr;
    InsidePage* insidePage_ = nullptr;
    SoftmaxLab* softmaxLab_ = nullptr;
    LiveScoresView* liveScores_ = nullptr;
    GenerationView* generationView_ = nullptr;
    FilmstripPage* filmstripPage_ = nullptr;
    FilmstripController* filmstrip_ = nullptr;
    NgramFloorsMeasure* floors_ = nullptr;
    WhyWindow* whyWindow_ = nullptr;
    AttributionView* attributionView_ = nullptr;
    Timeline* timeline_ = nullptr;
    TimelineControls* timelineControls_ = nullptr;
    std::optional<qint64> memorisingTold_;  // the step the message bar last said memorising began
    std::optional<qint64> memorisingBest_;  // the step whose weights that message offers back
    QString memorisingText_;      // that message as shown

    QMenu *fileMenu_ = nullptr, *trainingMenu_ = nullptr, *languageMenu_ = nullptr, *lessonMenu_ = nullptr, *helpMenu_ = nullptr;
    QAction *quitAction_ = nullptr, *aboutAction_ = nullptr, *aboutQtAction_ = nullptr;
};
