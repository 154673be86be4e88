// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/MainWindow.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDragEnterEvent>
#include <QDockWidget>
#include <QDropEvent>
#include <QFileInfo>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QScreen>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include "model/runtime/CpuTier.h"

#include "app/FileActions.h"
#include "app/FilmstripController.h"
#include "app/InspectionController.h"
#include "app/LanguageManager.h"
#include "app/LessonController.h"
#include "app/ModelBridge.h"
#include "app/RunsController.h"
#include "app/SidePanel.h"
#include "app/TrainingController.h"
#include "app/TrainingWorker.h"
#include "widgets/AttentionPage.h"
#include "widgets/CorpusPanel.h"
#include "widgets/FilmstripPage.h"
#include "widgets/GenerationView.h"
#include "widgets/HealthView.h"
#include "widgets/InsidePage.h"
#include "widgets/LadderView.h"
#include "widgets/LessonPane.h"
#include "widgets/LiveScoresView.h"
#include "widgets/LossPlot.h"
#include "widgets/MessageBar.h"
#include "widgets/RunsList.h"
#include "widgets/RunsPage.h"
#include "widgets/SoftmaxLab.h"
#include "widgets/SurpriseView.h"
#include "widgets/TrainingPanel.h"
#include "widgets/WhyWindow.h"

namespace {

const char* const kGeometryKey = "mainWindow/geometry";
const char* const kWindowStateKey = "mainWindow/state";
const char* const kSplitterKey = "mainWindow/splitter";

// The window's tabs fill the space the window gives them: they do not ask
// their pages for a height that fits a width. QTabWidget does by default, and
// then every relayout of the window (a label's text changing as a run trains,
// a tab change) measured the wrapped labels of every page, shown or not.
class WindowTabs : public QTabWidget {
public:
    using QTabWidget::QTabWidget;
    bool hasHeightForWidth() const override { return false; }
};

}  // namespace

MainWindow::MainWindow(LanguageManager* languages, QWidget* parent) : QMainWindow(parent), languages_(languages) {
    setAcceptDrops(true);

    training_ = new TrainingController(this);
    side_ = new SidePanel(training_);
    splitter_ = new QSplitter(Qt::Horizontal, this);
    splitter_->addWidget(side_);
    splitter_->addWidget(createCentre());
    splitter_->setStretchFactor(0, 0);
    splitter_->setStretchFactor(1, 1);
    splitter_->setCollapsible(1, false);
    splitter_->setSizes({380, 900});
    setCentralWidget(splitter_);

    inspection_ = new InspectionController(attentionPage_, liveScores_, generationView_, this);
    inspection_->attachSurprise(surpriseView_);
    inspection_->attachInside(insidePage_);
    whyWindow_ = new WhyWindow(this);  // before the menus: a lesson's step may show its patching lab
    files_ = new FileActions(this);
    createMenus();
    connectAttribution();  // after the menus: its lab joins the Training menu
    statusBar();

    connect(corpusPanel(), &CorpusPanel::builtinRequested, this, &MainWindow::openCorpus);
    connect(corpusPanel(), &CorpusPanel::openFileRequested, files_, &FileActions::chooseCorpusFile);
    connect(corpusPanel(), &CorpusPanel::openFolderRequested, files_, &FileActions::chooseCorpusFolder);
    connect(files_, &FileActions::corpusChosen, this, &MainWindow::openCorpus);
    connect(files_, &FileActions::checkpointChosen, this, &MainWindow::openCheckpoint);
    connect(files_, &FileActions::importChosen, this, &MainWindow::importModel);
    connect(files_, &FileActions::exportChosen, this, &MainWindow::exportConfigTo);
    connect(files_, &FileActions::exportNanoGptChosen, training_, &TrainingController::exportNanoGpt);
    connect(files_, &FileActions::saveChosen, this, &MainWindow::saveCheckpointTo);
    connect(files_, &FileActions::saveRequested, this, &MainWindow::saveCheckpoint);
    connect(trainingPanel(), &TrainingPanel::startClicked, this, &MainWindow::startTraining);
    connect(trainingPanel(), &TrainingPanel::resetClicked, this, [this] {
        if (training_->reset()) {
            lossPlot_->clear();
            healthView_->clear();  // the discarded model's health is no run's now
            showLearning(std::nullopt, std::nullopt, qQNaN());
        }
    });
    connect(attentionPage_, &AttentionPage::refreshRequested, training_,
            &TrainingController::requestFrozenModel);
    connectTraining();
    connectFiles();
    connectRuns();
    connectFloors();  // before the ladder, which asks its measurement too
    connectLadder();
    connectHealth();
    connectTimeline();
    runs_->refresh();  // once the Runs and Ladder tabs listen to the list

    retranslateUi();
    const QSettings settings;
    if (!restoreGeometry(settings.value(kGeometryKey).toByteArray())) {
        // The first start fills the screen; then the size the user gave it
        // (kept on closing, maximised or not). Un-maximised, it is this size.
        const QRect available = screen()->availableGeometry();
        resize(QSize(1400, 900).boundedTo(available.size() * 0.9));
        move(available.center() - rect().center());
        setWindowState(windowState() | Qt::WindowMaximized);
    }
    restoreState(settings.value(kWindowStateKey).toByteArray());
    if (!lessons_->pane()->hasLesson()) lessons_->dock()->hide();  // no lesson is open at a start
    splitter_->restoreState(settings.value(kSplitterKey).toByteArray());
    openCorpus(TrainingController::storedCorpus());
}

MainWindow::~MainWindow() {
    filmstrip_->shutdown();
    runs_->shutdown();
    inspection_->shutdown();
    training_->shutdown();
}

void MainWindow::connectRuns() {
    runs_ = new RunsController(runsPage_, this);
    const TrainingWorker* worker = training_->worker();
    connect(runs_, &RunsController::problem, this, [this](const QString& text) { showMessage(text, Level::Error); });
    // Trains it further once it is open (checkpointOpened below).
    connect(runsPage_->list(), &RunsList::continueRequested, this, [this](const RunRow& run) { openRun(run, true); });
    // The list follows a run while it is shown; it is read again whenever it is shown.
    auto follow = [this] {
        const bool shown = tabs_->currentWidget() == runsPage_;
        runs_->setFollowing(shown && training_->isTraining());
        if (shown)
            runs_->refresh();
    };
    connect(tabs_, &QTabWidget::currentChanged, this, follow);
    connect(worker, &TrainingWorker::trainingStarted, this, follow);
    connect(training_, &TrainingController::trainingFinished, this, [this] {
        runs_->setFollowing(false);
        runs_->refresh();
    });
    connect(worker, &TrainingWorker::checkpointOpened, this, [this](const ModelSummary& model) {
        if (!continueAfterOpen_.isEmpty() && QFileInfo(model.checkpointPath).absoluteFilePath() == continueAfterOpen_) {
            continueAfterOpen_.clear();
            startTraining();
        }
    });
    connect(worker, &TrainingWorker::checkpointFailed, this, [this] { continueAfterOpen_.clear(); });
}

QWidget* MainWindow::createCentre() {
    auto* centre = new QWidget;
    auto* centreLayout = new QVBoxLayout(centre);
    centreLayout->setContentsMargins(0, 0, 0, 0);
    messageBar_ = new MessageBar(centre);
    centreLayout->addWidget(messageBar_);

    tabs_ = new WindowTabs(centre);
    tabs_->setObjectName(QStringLiteral("tabs"));
    tabs_->addTab(createTrainingPage(tabs_), QString());
    attentionPage_ = new AttentionPage(tabs_);
    tabs_->addTab(attentionPage_, QString());
    surpriseView_ = new SurpriseView(tabs_);
    tabs_->addTab(surpriseView_, QString());
    insidePage_ = new InsidePage(tabs_);
    tabs_->addTab(insidePage_, QString());
    softmaxLab_ = new SoftmaxLab(tabs_);
    liveScores_ = new LiveScoresView(softmaxLab_);
    softmaxLab_->tabs()->addTab(liveScores_, QString());
    tabs_->addTab(softmaxLab_, QString());
    generationView_ = new GenerationView(tabs_);
    tabs_->addTab(generationView_, QString());
    filmstripPage_ = new FilmstripPage(tabs_);
    tabs_->addTab(filmstripPage_, QString());
    runsPage_ = new RunsPage(tabs_);
    tabs_->addTab(runsPage_, QString());
    ladderView_ = new LadderView(tabs_);
    tabs_->addTab(ladderView_, QString());
    centreLayout->addWidget(tabs_, 1);
    centreLayout->addWidget(createTimeline(centre));
    return centre;
}

void MainWindow::connectTraining() {
    // The controller's signals, and the worker's where the controller only keeps count (queued).
    TrainingController* t = training_;
    const TrainingWorker* worker = t->worker();
    connect(t, &TrainingController::stateChanged, this, [this](RunState state) {
        files_->setIdle(state == RunState::Idle);
        inspection_->setTraining(state == RunState::Training);
    });
    connect(worker, &TrainingWorker::corpusLoaded, this, [this](const CorpusSummary& corpus) {
        files_->setLoadedCorpusName(corpus.name);
        inspection_->setCorpusPreview(corpus.preview);
        surpriseView_->setSamples(corpus.validationSample, corpus.trainingSample);
        inspection_->setInsideText(corpus.validationSample);
        showReferenceLevels();
    });
    connect(t, &TrainingController::corpusFailed, this, [this](const QString& source) {
        if (!training_->hasCorpus() && source != TrainingController::defaultCorpus())
            openCorpus(TrainingController::defaultCorpus());  // the remembered corpus is gone
    });
    connect(worker, &TrainingWorker::trainingStarted, this, [this](const ModelSummary& model, bool newModel) {
        showReferenceLevels();
        memorisingTold_ = model.overfittingSince;  // said before, or shown by the marker already
        if (newModel) {
            lossPlot_->clear();
            showLearning(std::nullopt, std::nullopt, qQNaN());
            inspection_->clearViews();  // a new model: a new history
        }
    });
    connect(worker, &TrainingWorker::progress, this, [this](const TrainingProgress& p) {
        lossPlot_->append(p.curve);
        if (!p.curve.evaluations.empty())
            showLearning(p.overfittingSince, p.bestStep, p.bestValLoss);
    });
    connect(t, &TrainingController::trainingFinished, this, &MainWindow::onTrainingFinished);
    connect(t, &TrainingController::modelChanged, this, [this](const ModelSummary& model) {
        if (!model.exists) training_->requestFrozenModel();  // an empty one: the views forget the model
        showReferenceLevels();
        updateWindowTitle();
        emit modelReady();
    });
    connect(worker, &TrainingWorker::checkpointOpened, this, [this](const ModelSummary& model) {
        onModelArrived(model);
        lossPlot_->setCurve(model.history);
        showLearning(model.overfittingSince, model.bestStep, model.bestValLoss);
        files_->addRecent(model.checkpointPath);
        statusBar()->showMessage(tr("Opened %1").arg(QDir::toNativeSeparators(model.checkpointPath)), 5000);
        emit modelReady();
    });
    connect(worker, &TrainingWorker::saved, this, [this](const QString& path, bool autosave) {
        if (autosave) {
            statusBar()->showMessage(tr("Autosaved to %1").arg(QDir::toNativeSeparators(path)), 5000);
        } else {
            files_->addRecent(training_->model().checkpointPath);
            updateWindowTitle();
            statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(path)), 5000);
        }
    });
    // Two hops from the training thread to the inspector: the worker's
    // frozen model to the inspection controller (queued), which hands it on.
    connect(worker, &TrainingWorker::modelFrozen, inspection_, &InspectionController::setFrozenModel);
    connect(t, &TrainingController::problem, this, [this](const QString& text) { showMessage(text, Level::Error); });
}

bool MainWindow::isTraining() const { return training_->isTraining(); }
CorpusPanel* MainWindow::corpusPanel() const { return side_->corpusPanel(); }
SettingsPanel* MainWindow::settingsPanel() const { return side_->settingsPanel(); }
TrainingPanel* MainWindow::trainingPanel() const { return side_->trainingPanel(); }
const ModelSummary& MainWindow::modelInfo() const { return training_->model(); }
const CorpusSummary& MainWindow::corpusInfo() const { return training_->corpus(); }
QThread* MainWindow::workerThread() const { return training_->workerThread(); }
bool MainWindow::hasFrozenModel() const { return inspection_->hasFrozenModel(); }
std::optional<qint64> MainWindow::frozenStep() const { return inspection_->frozenStep(); }

void MainWindow::createMenus() {
    quitAction_ = new QAction(this);
    quitAction_->setShortcut(QKeySequence::Quit);
    quitAction_->setMenuRole(QAction::QuitRole);
    connect(quitAction_, &QAction::triggered, this, &QWidget::close);
    aboutAction_ = new QAction(this);
    aboutAction_->setMenuRole(QAction::AboutRole);
    connect(aboutAction_, &QAction::triggered, this, &MainWindow::showAbout);
    aboutQtAction_ = new QAction(this);
    aboutQtAction_->setMenuRole(QAction::AboutQtRole);
    connect(aboutQtAction_, &QAction::triggered, qApp, &QApplication::aboutQt);
    fileMenu_ = menuBar()->addMenu(QString());
    files_->fillMenu(fileMenu_, quitAction_);
    trainingMenu_ = menuBar()->addMenu(QString());  // filled by connectLadder()
    languageMenu_ = menuBar()->addMenu(QString());
    languageMenu_->addActions(languages_->createActions(this)->actions());
    lessonMenu_ = menuBar()->addMenu(QString());
    createLessons(lessonMenu_);
    helpMenu_ = menuBar()->addMenu(QString());
    helpMenu_->addAction(aboutAction_);
    helpMenu_->addAction(aboutQtAction_);
}

void MainWindow::retranslateUi() {
    // The memorising message, while it is shown, in the new language.
    if (!memorisingText_.isEmpty() && messageBar_->text() == memorisingText_) {
        memorisingText_ = memorisingMessage();
        messageBar_->showMessage(memorisingText_, Level::Info);
    }
    fileMenu_->setTitle(tr("&File"));
    files_->retranslate();
    quitAction_->setText(tr("&Quit"));
    languageMenu_->setTitle(tr("&Language"));
    lessons_->retranslate(languages_->currentLanguage());
    helpMenu_->setTitle(tr("&Help"));
    aboutAction_->setText(tr("&About CharGPT Studio"));
    aboutQtAction_->setText(tr("About &Qt"));
    tabs_->setTabText(tabs_->indexOf(trainingPage_), tr("Training"));
    retranslateHealth();
    tabs_->setTabText(tabs_->indexOf(attentionPage_), tr("Attention"));
    tabs_->setTabText(tabs_->indexOf(surpriseView_), tr("Surprise"));
    tabs_->setTabText(tabs_->indexOf(insidePage_), tr("Inside"));
    tabs_->setTabText(tabs_->indexOf(softmaxLab_), tr("Softmax lab"));
    tabs_->setTabText(tabs_->indexOf(generationView_), tr("Generate"));
    tabs_->setTabText(tabs_->indexOf(filmstripPage_), tr("Filmstrip"));
    tabs_->setTabText(tabs_->indexOf(runsPage_), tr("Runs"));
    retranslateLadder();
    softmaxLab_->tabs()->setTabText(softmaxLab_->tabs()->indexOf(liveScores_), tr("From the live model"));
    updateWindowTitle();
    side_->reassess();
}

void MainWindow::updateWindowTitle() {
    const QString application = QCoreApplication::applicationName();
    const QString path = training_->model().checkpointPath;
    setWindowTitle(path.isEmpty() ? application : tr("%1 — %2").arg(QFileInfo(path).fileName(), application));
}

void MainWindow::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QMainWindow::changeEvent(event);
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (isTraining() && !training_->isLadder()) {  // the ladder leaves the model as it was: nothing to save
        QMessageBox box(QMessageBox::Question, tr("Training is running"),
                        tr("Training is still running. Save the model before quitting?"),
                        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, this);
        box.setObjectName(QStringLiteral("quitWhileTrainingBox"));
        if (!training_->autosavePath().isEmpty())  // known once the run has started
            box.setInformativeText(
                tr("It is autosaved to %1 either way.").arg(QDir::toNativeSeparators(training_->autosavePath())));
        box.setDefaultButton(QMessageBox::Save);
        const int answer = box.exec();
        QString path = training_->model().checkpointPath;
        if (answer == QMessageBox::Save && path.isEmpty())
            path = files_->askSavePath(QDir::homePath());
        if (answer == QMessageBox::Cancel || (answer == QMessageBox::Save && path.isEmpty())) {
            event->ignore();
            return;
        }
        if (answer == QMessageBox::Save)
            training_->save(path);
    }
    QSettings settings;
    settings.setValue(kGeometryKey, saveGeometry());
    settings.setValue(kWindowStateKey, saveState());
    settings.setValue(kSplitterKey, splitter_->saveState());
    TrainingController::storeSettings(side_->settings());
    filmstrip_->shutdown();
    runs_->shutdown();
    inspection_->shutdown();
    training_->shutdown();  // the worker saves what was asked between steps, then stops
    event->accept();
}

void MainWindow::startTraining() {
    if (isTraining() || !side_->startBlockedReason().isEmpty())
        return;
    const chargpt::RunConfig settings = side_->settings();
    const TrainingController::StartKind kind = training_->startKind(settings);
    if (kind == TrainingController::StartKind::DiscardArchitecture) {
        QMessageBox box(QMessageBox::Question, tr("Discard the trained model?"),
                        tr("%1 Training now starts a new model and discards the current one (step %2).")
                            .arg(tr("The architecture settings changed."))
                            .arg(training_->model().step),
                        QMessageBox::Discard | QMessageBox::Cancel, this);
        box.setObjectName(QStringLiteral("discardModelBox"));
        box.setDefaultButton(QMessageBox::Cancel);
        if (box.exec() != QMessageBox::Discard)
            return;
    }
    if (kind != TrainingController::StartKind::Continue)
        lossPlot_->clear();  // at once, before the new model's run begins
    messageBar_->hide();
    training_->start(settings);
    updateWindowTitle();
}

void MainWindow::onTrainingFinished(EndReason reason, const QString& message) {
    training_->requestFrozenModel();  // the weights the run ended with
    const qint64 step = training_->model().step;
    if (reason == EndReason::Error)
        showMessage(tr("Training failed: %1").arg(message), Level::Error);
    else if (reason == EndReason::NonFiniteLoss)
        showMessage(tr("Training stopped: %1").arg(message), Level::Error);
    else if (reason == EndReason::Stopped)
        statusBar()->showMessage(tr("Training stopped at step %1").arg(step), 5000);
    else
        statusBar()->showMessage(tr("Training finished at step %1").arg(step), 5000);
}

std::pair<double, double> MainWindow::referenceLevels() const {
    const ModelSummary& model = training_->model();
    const int vocabulary = model.exists ? model.vocabularySize : corpusInfo().readVocabularySize();
    const double unigram = training_->hasCorpus() ? corpusInfo().unigramEntropy : qQNaN();
    return {vocabulary > 1 ? std::log(double(vocabulary)) : qQNaN(), unigram};
}

void MainWindow::showReferenceLevels() {
    const auto [uniform, unigram] = referenceLevels();
    lossPlot_->setReferenceLevels(uniform, unigram);
}

void MainWindow::showLearning(std::optional<qint64> overfittingSince, std::optional<qint64> bestStep,
                              double bestValLoss) {
    lossPlot_->setOverfittingFrom(overfittingSince ? double(*overfittingSince) : qQNaN());
    lossPlot_->setBestPoint(bestStep ? double(*bestStep) : qQNaN(), bestValLoss);
    if (overfittingSince && overfittingSince != memorisingTold_ && isTraining()) {
        memorisingTold_ = overfittingSince;
        memorisingBest_ = bestStep.value_or(*overfittingSince);
        memorisingText_ = memorisingMessage();
        showMessage(memorisingText_, Level::Info);
    }
}

QString MainWindow::memorisingMessage() const {
    return tr("Validation loss has risen since step %1 while training loss keeps falling: the model is "
              "memorising its training text instead of learning what carries over to new text. Restore "
              "best puts back the weights of step %2; fewer steps, more dropout or a larger text avoid it.")
        .arg(memorisingTold_.value_or(0))
        .arg(memorisingBest_.value_or(memorisingTold_.value_or(0)));
}

void MainWindow::onModelArrived(const ModelSummary& model) {
    side_->takeArchitecture(model.settings, model.step);
    updateWindowTitle();
    inspection_->clearViews();
    training_->requestFrozenModel();
}

void MainWindow::showMessage(const QString& text, Level level) {
    messageBar_->showMessage(text, level);
    emit messageShown(text);
}

QString MainWindow::messageText() const { return messageBar_->text(); }

void MainWindow::showAbout() {
    QMessageBox::about(
        this, tr("About CharGPT Studio"),
        tr("<h3>CharGPT Studio %1</h3>"
           "<p>Trains a small character-level GPT on your own text and shows how it learns.</p>"
           "<p>Built with LibTorch, Qt and QCustomPlot.</p>"
           "<p>Licensed under the GNU General Public License, version 3 or later.</p>")
                .arg(QCoreApplication::applicationVersion().toHtmlEscaped()) +
            QStringLiteral("<p>%1</p>")
                .arg(QString::fromStdString(chargpt::tierLine(chargpt::cpuTierChoice())).toHtmlEscaped()));
}
