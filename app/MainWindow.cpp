// SPDX-License-Identifier: GPL-3.0-or-later
#include "MainWindow.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenuBar>
#include <QLocale>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include <cmath>
#include <cstdio>
#include <utility>

#include "AttentionGrid.h"
#include "AttentionPage.h"
#include "CheckpointPanel.h"
#include "GenerationView.h"
#include "InspectWorker.h"
#include "LiveScoresView.h"
#include "SoftmaxLab.h"
#include "CorpusPanel.h"
#include "LanguageManager.h"
#include "LossPlot.h"
#include "ModelBridge.h"
#include "model/runtime/Runtime.h"
#include "SettingsPanel.h"
#include "TrainingPanel.h"
#include "TrainingWorker.h"

namespace {

const char* const kGeometryKey = "mainWindow/geometry";
const char* const kWindowStateKey = "mainWindow/state";
const char* const kSplitterKey = "mainWindow/splitter";
const char* const kLastDirectoryKey = "files/lastCheckpointDirectory";
const char* const kLastCorpusDirectoryKey = "files/lastCorpusDirectory";
const char* const kRecentKey = "files/recentCheckpoints";
const char* const kLastImportDirectoryKey = "files/lastImportDirectory";
const char* const kCorpusKey = "corpus/source";
const char* const kSettingsKey = "settings/";
const char* const kDefaultCorpus = "builtin:tang300";
constexpr int kMaxRecent = 8;
constexpr int kAutosaveIntervalMs = 5 * 60 * 1000;

using State = TrainingPanel::State;

void registerTypes() {
    qRegisterMetaType<StudioSettings>();
    qRegisterMetaType<CorpusInfo>();
    qRegisterMetaType<TrainingUpdate>();
    qRegisterMetaType<ModelInfo>();
    InspectWorker::registerTypes();
}

StudioSettings loadStoredSettings() {
    const QSettings s;
    const QString prefix = QString::fromLatin1(kSettingsKey);
    const QString preset = s.value(prefix + QStringLiteral("preset"), QStringLiteral("fast")).toString();
    StudioSettings v = presetSettings(preset);
    if (!s.contains(prefix + QStringLiteral("emb_size")))
        return v;
    v.embSize = s.value(prefix + QStringLiteral("emb_size"), v.embSize).toInt();
    v.headSize = s.value(prefix + QStringLiteral("head_size"), v.headSize).toInt();
    v.layers = s.value(prefix + QStringLiteral("n_layer"), v.layers).toInt();
    v.sequenceLen = s.value(prefix + QStringLiteral("sequence_len"), v.sequenceLen).toInt();
    v.dropout = s.value(prefix + QStringLiteral("dropout"), v.dropout).toDouble();
    v.batchSize = s.value(prefix + QStringLiteral("batch_size"), v.batchSize).toInt();
    v.learningRate = s.value(prefix + QStringLiteral("learning_rate"), v.learningRate).toDouble();
    v.warmupSteps = s.value(prefix + QStringLiteral("warmup_steps"), v.warmupSteps).toInt();
    v.maxSteps = s.value(prefix + QStringLiteral("max_steps"), v.maxSteps).toLongLong();
    v.timeLimitSeconds = s.value(prefix + QStringLiteral("time_limit"), v.timeLimitSeconds).toDouble();
    v.seed = s.value(prefix + QStringLiteral("seed"), v.seed).toLongLong();
    v.threads = s.value(prefix + QStringLiteral("threads"), v.threads).toInt();
    v.bf16 = s.value(prefix + QStringLiteral("bf16"), v.bf16).toBool();
    return v;
}

void storeSettings(const StudioSettings& v) {
    QSettings s;
    const QString prefix = QString::fromLatin1(kSettingsKey);
    s.setValue(prefix + QStringLiteral("preset"), v.preset);
    s.setValue(prefix + QStringLiteral("emb_size"), v.embSize);
    s.setValue(prefix + QStringLiteral("head_size"), v.headSize);
    s.setValue(prefix + QStringLiteral("n_layer"), v.layers);
    s.setValue(prefix + QStringLiteral("sequence_len"), v.sequenceLen);
    s.setValue(prefix + QStringLiteral("dropout"), v.dropout);
    s.setValue(prefix + QStringLiteral("batch_size"), v.batchSize);
    s.setValue(prefix + QStringLiteral("learning_rate"), v.learningRate);
    s.setValue(prefix + QStringLiteral("warmup_steps"), v.warmupSteps);
    s.setValue(prefix + QStringLiteral("max_steps"), v.maxSteps);
    s.setValue(prefix + QStringLiteral("time_limit"), v.timeLimitSeconds);
    s.setValue(prefix + QStringLiteral("seed"), v.seed);
    s.setValue(prefix + QStringLiteral("threads"), v.threads);
    s.setValue(prefix + QStringLiteral("bf16"), v.bf16);
}

CorpusSummary toSummary(const CorpusInfo& c) {
    CorpusSummary s;
    s.source = c.source;
    s.bytes = c.bytes;
    s.characters = c.characters;
    s.vocabularySize = c.vocabularySize;
    s.preview = c.preview;
    s.warnings = c.warnings;
    return s;
}

}  // namespace

MainWindow::MainWindow(LanguageManager* languages, QWidget* parent) : QMainWindow(parent), languages_(languages) {
    registerTypes();
    setAcceptDrops(true);

    // Left: corpus, settings, controls, model summary, in a scroll area.
    auto* left = new QWidget;
    auto* leftLayout = new QVBoxLayout(left);
    corpusPanel_ = new CorpusPanel(left);
    settingsPanel_ = new SettingsPanel(left);
    trainingPanel_ = new TrainingPanel;
    checkpointPanel_ = new CheckpointPanel(left);
    leftLayout->addWidget(corpusPanel_);
    leftLayout->addWidget(settingsPanel_);
    leftLayout->addWidget(checkpointPanel_);
    leftLayout->addStretch(1);
    auto* scroll = new QScrollArea;
    scroll->setWidget(left);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setFrameShape(QFrame::NoFrame);
    // The controls stay in sight below the scrolling panels.
    auto* side = new QWidget;
    auto* sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(6, 6, 6, 6);
    leftLayout->setContentsMargins(0, 0, 4, 0);
    sideLayout->addWidget(scroll, 1);
    sideLayout->addWidget(trainingPanel_);
    side->setMinimumWidth(360);

    // Centre: a message bar above the tabs.
    auto* centre = new QWidget;
    auto* centreLayout = new QVBoxLayout(centre);
    centreLayout->setContentsMargins(0, 0, 0, 0);
    messageBar_ = new QFrame(centre);
    messageBar_->setObjectName(QStringLiteral("messageBar"));
    messageBar_->setFrameShape(QFrame::StyledPanel);
    auto* barLayout = new QHBoxLayout(messageBar_);
    barLayout->setContentsMargins(8, 4, 4, 4);
    messageLabel_ = new QLabel(messageBar_);
    messageLabel_->setObjectName(QStringLiteral("messageLabel"));
    messageLabel_->setWordWrap(true);
    messageLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    messageClose_ = new QToolButton(messageBar_);
    messageClose_->setText(QStringLiteral("✕"));
    messageClose_->setAutoRaise(true);
    barLayout->addWidget(messageLabel_, 1);
    barLayout->addWidget(messageClose_);
    messageBar_->hide();
    connect(messageClose_, &QToolButton::clicked, messageBar_, &QWidget::hide);
    centreLayout->addWidget(messageBar_);

    tabs_ = new QTabWidget(centre);
    tabs_->setObjectName(QStringLiteral("tabs"));
    lossPlot_ = new LossPlot(tabs_);
    tabs_->addTab(lossPlot_, QString());
    attentionPage_ = new AttentionPage(tabs_);
    tabs_->addTab(attentionPage_, QString());
    softmaxLab_ = new SoftmaxLab(tabs_);
    liveScores_ = new LiveScoresView(softmaxLab_);
    softmaxLab_->tabs()->addTab(liveScores_, QString());
    tabs_->addTab(softmaxLab_, QString());
    generationView_ = new GenerationView(tabs_);
    tabs_->addTab(generationView_, QString());
    centreLayout->addWidget(tabs_, 1);

    splitter_ = new QSplitter(Qt::Horizontal, this);
    splitter_->addWidget(side);
    splitter_->addWidget(centre);
    splitter_->setStretchFactor(0, 0);
    splitter_->setStretchFactor(1, 1);
    splitter_->setCollapsible(1, false);
    splitter_->setSizes({380, 900});
    setCentralWidget(splitter_);

    createActions();
    createMenus();
    statusBar();

    settingsPanel_->setPresetNames(presetNames());
    settingsPanel_->setSettings(loadStoredSettings());
    corpusPanel_->setPythonAvailable(!TrainingWorker::pythonLibraryPath().isEmpty());
    trainingPanel_->setHasModel(false, 0);

    connect(settingsPanel_, &SettingsPanel::settingsEdited, this, &MainWindow::reassessSettings);
    connect(settingsPanel_, &SettingsPanel::presetChosen, this, [this](const QString& name) {
        StudioSettings chosen = presetSettings(name);
        chosen.threads = settingsPanel_->settings().threads;
        chosen.bf16 = settingsPanel_->settings().bf16;
        settingsPanel_->setSettings(chosen);
        reassessSettings();
    });
    connect(corpusPanel_, &CorpusPanel::builtinRequested, this, &MainWindow::openCorpus);
    connect(corpusPanel_, &CorpusPanel::openFileRequested, this, &MainWindow::chooseCorpusFile);
    connect(corpusPanel_, &CorpusPanel::openFolderRequested, this, &MainWindow::chooseCorpusFolder);
    connect(trainingPanel_, &TrainingPanel::startClicked, this, &MainWindow::startTraining);
    connect(trainingPanel_, &TrainingPanel::pauseClicked, this, [this] {
        worker_->pause();
        setTrainingState(int(State::Paused));
        refreshSnapshot();  // the views show the weights training paused on
    });
    connect(trainingPanel_, &TrainingPanel::resumeClicked, this, [this] {
        worker_->resume();
        setTrainingState(int(State::Training));
    });
    connect(trainingPanel_, &TrainingPanel::stopClicked, this, [this] {
        worker_->stop();
        worker_->resume();
        setTrainingState(int(State::Stopping));
    });
    connect(trainingPanel_, &TrainingPanel::resetClicked, this, [this] {
        QMetaObject::invokeMethod(worker_, &TrainingWorker::resetModel, Qt::QueuedConnection);
        lossPlot_->clear();
        checkpointPath_.clear();
        updateWindowTitle();
    });

    autosaveTimer_.setInterval(kAutosaveIntervalMs);
    connect(&autosaveTimer_, &QTimer::timeout, this,
            [this] { worker_->requestSave(TrainingWorker::autosavePath(), /*autosave=*/true); });

    if (qEnvironmentVariableIntValue("CHARGPT_MEASURE") != 0) {
        heartbeatClock_.start();
        heartbeat_.setInterval(10);
        connect(&heartbeat_, &QTimer::timeout, this, [this] {
            const qint64 now = heartbeatClock_.elapsed();
            if (isTraining() && lastBeatMs_ > 0)
                longestStallMs_ = std::max(longestStallMs_, now - lastBeatMs_);
            lastBeatMs_ = now;
        });
        heartbeat_.start();
    }

    createWorker();
    createInspector();
    retranslateUi();
    restoreSettings();
    reassessSettings();

    const QString corpus = QSettings().value(kCorpusKey, QString::fromLatin1(kDefaultCorpus)).toString();
    openCorpus(corpus);
}

MainWindow::~MainWindow() { shutdownWorker(); }

void MainWindow::createWorker() {
    worker_ = new TrainingWorker;
    worker_->moveToThread(&workerThread_);
    connect(&workerThread_, &QThread::finished, worker_, &QObject::deleteLater);
    // Training yields the cores to the event loop whenever the window needs them.
    connect(&workerThread_, &QThread::started, worker_, [] { chargpt::lowerComputePriority(); });
    connect(worker_, &TrainingWorker::corpusLoaded, this, &MainWindow::onCorpusLoaded);
    connect(worker_, &TrainingWorker::corpusFailed, this, &MainWindow::onCorpusFailed);
    connect(worker_, &TrainingWorker::trainingStarted, this, &MainWindow::onTrainingStarted);
    connect(worker_, &TrainingWorker::progress, this, &MainWindow::onProgress);
    connect(worker_, &TrainingWorker::trainingFinished, this, &MainWindow::onTrainingFinished);
    connect(worker_, &TrainingWorker::modelChanged, this, [this](const ModelInfo& model) {
        if (!model.exists) {
            modelInfo_ = model;  // reset: nothing left to keep
            refreshSnapshot();   // an empty one: the views forget the model
        } else {
            // The figures change; the history shown so far stays.
            modelInfo_.exists = true;
            modelInfo_.settings = model.settings;
            modelInfo_.parameters = model.parameters;
            modelInfo_.vocabularySize = model.vocabularySize;
            modelInfo_.step = model.step;
            modelInfo_.tokensSeen = model.tokensSeen;
            modelInfo_.imported = model.imported;
        }
        updateModelPanel();
        emit modelReady();
    });
    connect(worker_, &TrainingWorker::checkpointOpened, this, &MainWindow::onCheckpointOpened);
    connect(worker_, &TrainingWorker::modelImported, this, &MainWindow::onModelImported);
    connect(worker_, &TrainingWorker::importFailed, this, [this](const QString& path, const QString& message) {
        showMessage(tr("Could not import “%1”: %2 The current model is unchanged.")
                        .arg(QFileInfo(path).fileName(), message),
                    Level::Error);
    });
    connect(worker_, &TrainingWorker::checkpointFailed, this, [this](const QString& path, QString message) {
        if (message.endsWith(QLatin1Char('.')))
            message.chop(1);  // the sentence goes on
        showMessage(tr("Could not open the checkpoint “%1”: %2. The current model is unchanged.")
                        .arg(QFileInfo(path).fileName(), message),
                    Level::Error);
    });
    connect(worker_, &TrainingWorker::saved, this, [this](const QString& path, bool autosave) {
        if (autosave) {
            statusBar()->showMessage(tr("Autosaved to %1").arg(QDir::toNativeSeparators(path)), 5000);
        } else {
            checkpointPath_ = QFileInfo(path).absoluteFilePath();
            modelInfo_.checkpointPath = checkpointPath_;
            addRecentFile(checkpointPath_);
            updateWindowTitle();
            updateModelPanel();
            statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(path)), 5000);
        }
        emit checkpointSaved(path);
    });
    connect(worker_, &TrainingWorker::saveFailed, this, [this](const QString& path, const QString& message) {
        showMessage(tr("Could not save “%1”: %2").arg(QDir::toNativeSeparators(path), message), Level::Error);
    });
    connect(worker_, &TrainingWorker::snapshotReady, this, &MainWindow::onSnapshot);
    connect(worker_, &TrainingWorker::snapshotFailed, this, [this](const QString& message) {
        showMessage(tr("Could not copy the model for the views: %1").arg(message), Level::Error);
    });
    workerThread_.setObjectName(QStringLiteral("training"));
    workerThread_.start();
}

void MainWindow::shutdownWorker() {
    autosaveTimer_.stop();
    if (inspectThread_.isRunning()) {
        inspector_->stopGeneration();
        inspectThread_.quit();
        inspectThread_.wait();
    }
    if (!workerThread_.isRunning())
        return;
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
    workerThread_.wait();
}

bool MainWindow::isTraining() const { return trainingPanel_->state() != State::Idle; }

void MainWindow::createActions() {
    openCorpusFileAction_ = new QAction(this);
    connect(openCorpusFileAction_, &QAction::triggered, this, &MainWindow::chooseCorpusFile);
    openCorpusFolderAction_ = new QAction(this);
    connect(openCorpusFolderAction_, &QAction::triggered, this, &MainWindow::chooseCorpusFolder);

    openAction_ = new QAction(this);
    openAction_->setShortcut(QKeySequence::Open);
    openAction_->setIcon(QIcon::fromTheme(QStringLiteral("document-open")));
    connect(openAction_, &QAction::triggered, this, &MainWindow::chooseCheckpoint);

    importAction_ = new QAction(this);
    connect(importAction_, &QAction::triggered, this, &MainWindow::chooseImport);
    exportConfigAction_ = new QAction(this);
    connect(exportConfigAction_, &QAction::triggered, this, &MainWindow::chooseExportConfig);

    saveAction_ = new QAction(this);
    saveAction_->setShortcut(QKeySequence::Save);
    saveAction_->setIcon(QIcon::fromTheme(QStringLiteral("document-save")));
    connect(saveAction_, &QAction::triggered, this, &MainWindow::saveCheckpoint);
    saveAsAction_ = new QAction(this);
    saveAsAction_->setShortcut(QKeySequence::SaveAs);
    connect(saveAsAction_, &QAction::triggered, this, &MainWindow::saveCheckpointAs);

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

    languageGroup_ = new QActionGroup(this);
    languageGroup_->setExclusive(true);
    for (const QString& language : LanguageManager::availableLanguages()) {
        QAction* action = languageGroup_->addAction(LanguageManager::nativeName(language));
        action->setCheckable(true);
        action->setData(language);
        action->setChecked(language == languages_->currentLanguage());
    }
    connect(languageGroup_, &QActionGroup::triggered, this, [this](QAction* action) {
        languages_->setLanguage(action->data().toString(), LanguageManager::Remember::Yes);
    });
}

void MainWindow::createMenus() {
    fileMenu_ = menuBar()->addMenu(QString());
    fileMenu_->addAction(openCorpusFileAction_);
    fileMenu_->addAction(openCorpusFolderAction_);
    fileMenu_->addSeparator();
    fileMenu_->addAction(openAction_);
    recentMenu_ = fileMenu_->addMenu(QString());
    fileMenu_->addAction(saveAction_);
    fileMenu_->addAction(saveAsAction_);
    fileMenu_->addSeparator();
    fileMenu_->addAction(importAction_);
    fileMenu_->addAction(exportConfigAction_);
    fileMenu_->addSeparator();
    fileMenu_->addAction(quitAction_);
    updateRecentMenu();

    languageMenu_ = menuBar()->addMenu(QString());
    languageMenu_->addActions(languageGroup_->actions());

    helpMenu_ = menuBar()->addMenu(QString());
    helpMenu_->addAction(aboutAction_);
    helpMenu_->addAction(aboutQtAction_);
}

void MainWindow::retranslateUi() {
    fileMenu_->setTitle(tr("&File"));
    openCorpusFileAction_->setText(tr("Open &corpus file…"));
    openCorpusFileAction_->setStatusTip(tr("Train on a UTF-8 text file"));
    openCorpusFolderAction_->setText(tr("Open corpus &folder…"));
    openCorpusFolderAction_->setStatusTip(tr("Train on every text file of a folder"));
    openAction_->setText(tr("&Open checkpoint…"));
    openAction_->setStatusTip(tr("Restore a saved model with its optimizer and loss history"));
    recentMenu_->setTitle(tr("Open &recent"));
    importAction_->setText(tr("&Import PyTorch model…"));
    importAction_->setStatusTip(tr("Open a state_dict saved by the book's Python code, with its vocabulary"));
    exportConfigAction_->setText(tr("&Export settings for PyTorch…"));
    exportConfigAction_->setStatusTip(tr("Write the settings as JSON for python/train_ddp.py"));
    saveAction_->setText(tr("&Save checkpoint"));
    saveAsAction_->setText(tr("Save checkpoint &as…"));
    quitAction_->setText(tr("&Quit"));
    languageMenu_->setTitle(tr("&Language"));
    helpMenu_->setTitle(tr("&Help"));
    aboutAction_->setText(tr("&About CharGPT Studio"));
    aboutQtAction_->setText(tr("About &Qt"));
    tabs_->setTabText(0, tr("Training"));
    tabs_->setTabText(1, tr("Attention"));
    tabs_->setTabText(2, tr("Softmax lab"));
    tabs_->setTabText(3, tr("Generate"));
    softmaxLab_->tabs()->setTabText(softmaxLab_->tabs()->indexOf(liveScores_), tr("From the live model"));
    updateRecentMenu();
    updateWindowTitle();
    reassessSettings();
}

void MainWindow::updateWindowTitle() {
    const QString application = QCoreApplication::applicationName();
    if (checkpointPath_.isEmpty())
        setWindowTitle(application);
    else
        setWindowTitle(tr("%1 — %2").arg(QFileInfo(checkpointPath_).fileName(), application));
}

void MainWindow::updateRecentMenu() {
    if (!recentMenu_)
        return;
    recentMenu_->clear();
    const QStringList recent = QSettings().value(kRecentKey).toStringList();
    for (const QString& path : recent) {
        QAction* action = recentMenu_->addAction(QDir::toNativeSeparators(path));
        connect(action, &QAction::triggered, this, [this, path] { openCheckpoint(path); });
    }
    recentMenu_->setEnabled(!recent.isEmpty() && !isTraining());
}

void MainWindow::addRecentFile(const QString& path) {
    QSettings settings;
    QStringList recent = settings.value(kRecentKey).toStringList();
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > kMaxRecent)
        recent.removeLast();
    settings.setValue(kRecentKey, recent);
    updateRecentMenu();
}

void MainWindow::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) {
        retranslateUi();
        for (QAction* action : languageGroup_->actions())
            action->setChecked(action->data().toString() == languages_->currentLanguage());
    }
    QMainWindow::changeEvent(event);
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (isTraining()) {
        QMessageBox box(QMessageBox::Question, tr("Training is running"),
                        tr("Training is still running. Save the model before quitting?"),
                        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, this);
        box.setObjectName(QStringLiteral("quitWhileTrainingBox"));
        box.setInformativeText(tr("It is autosaved to %1 either way.")
                                   .arg(QDir::toNativeSeparators(TrainingWorker::autosavePath())));
        box.setDefaultButton(QMessageBox::Save);
        const int answer = box.exec();
        if (answer == QMessageBox::Cancel) {
            event->ignore();
            return;
        }
        if (answer == QMessageBox::Save) {
            QString path = checkpointPath_;
            if (path.isEmpty())
                path = QFileDialog::getSaveFileName(this, tr("Save checkpoint"), QDir::homePath() + QStringLiteral("/chargpt.pt"),
                                                    tr("CharGPT checkpoints (*.pt)"));
            if (path.isEmpty()) {
                event->ignore();
                return;
            }
            worker_->requestSave(path, /*autosave=*/false);
        }
    }
    saveSettings();
    shutdownWorker();  // the worker saves what was asked between steps, then stops
    event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    if (event->mimeData()->hasUrls() && !event->mimeData()->urls().isEmpty() &&
        event->mimeData()->urls().constFirst().isLocalFile() && !isTraining())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    const QString path = event->mimeData()->urls().constFirst().toLocalFile();
    event->acceptProposedAction();
    if (QFileInfo(path).suffix().compare(QLatin1String("pt"), Qt::CaseInsensitive) == 0)
        openCheckpoint(path);
    else
        openCorpus(path);
}

void MainWindow::chooseCheckpoint() {
    QSettings settings;
    const QString startDirectory = settings.value(kLastDirectoryKey, QDir::homePath()).toString();
    const QString path = QFileDialog::getOpenFileName(this, tr("Open checkpoint"), startDirectory,
                                                      tr("CharGPT checkpoints (*.pt);;All files (*)"));
    if (path.isEmpty())
        return;
    settings.setValue(kLastDirectoryKey, QFileInfo(path).absolutePath());
    openCheckpoint(path);
}

void MainWindow::chooseCorpusFile() {
    QSettings settings;
    const QString start = settings.value(kLastCorpusDirectoryKey, QDir::homePath()).toString();
    const QString path = QFileDialog::getOpenFileName(this, tr("Open corpus file"), start,
                                                      tr("Text files (*.txt *.md *.py *.c *.h *.cpp);;All files (*)"));
    if (path.isEmpty())
        return;
    settings.setValue(kLastCorpusDirectoryKey, QFileInfo(path).absolutePath());
    openCorpus(path);
}

void MainWindow::chooseCorpusFolder() {
    QSettings settings;
    const QString start = settings.value(kLastCorpusDirectoryKey, QDir::homePath()).toString();
    const QString path = QFileDialog::getExistingDirectory(this, tr("Open corpus folder"), start);
    if (path.isEmpty())
        return;
    settings.setValue(kLastCorpusDirectoryKey, path);
    openCorpus(path);
}

void MainWindow::openCorpus(const QString& source) {
    if (isTraining()) {
        showMessage(tr("Stop training before changing the corpus."), Level::Error);
        return;
    }
    loadingCorpus_ = source;
    corpusPanel_->setLoading(source);
    // Reading a folder of many files happens on the worker thread.
    QMetaObject::invokeMethod(worker_, "loadCorpus", Qt::QueuedConnection, Q_ARG(QString, source));
}

void MainWindow::onCorpusLoaded(const CorpusInfo& corpus) {
    loadingCorpus_.clear();
    const bool changed = corpus.source != corpusInfo_.source;
    corpusInfo_ = corpus;
    hasCorpus_ = true;
    if (changed && modelInfo_.exists)
        corpusChangedSinceModel_ = true;
    corpusPanel_->showCorpus(toSummary(corpus));
    QSettings().setValue(kCorpusKey, corpus.source);
    setDefaultProbe();
    reassessSettings();
    emit corpusReady();
}

void MainWindow::onCorpusFailed(const QString& source, const QString& message) {
    loadingCorpus_.clear();
    corpusPanel_->showError(source, message);
    emit corpusRejected(message);
    if (!hasCorpus_ && source != QLatin1String(kDefaultCorpus))
        openCorpus(QString::fromLatin1(kDefaultCorpus));  // the remembered corpus is gone
}

void MainWindow::reassessSettings() {
    if (!settingsPanel_ || !trainingPanel_)
        return;
    const StudioSettings settings = settingsPanel_->settings();
    const int vocabulary = hasCorpus_ ? corpusInfo_.vocabularySize : 0;
    const SettingsAssessment a = assessSettings(settings, vocabulary, hasCorpus_ ? corpusInfo_.tokens : -1);
    SettingsPanel::Assessment shown;
    shown.problem = a.problem;
    shown.badFields = a.badFields;
    shown.heads = a.heads;
    shown.parameters = a.parameters;
    shown.memoryBytes = a.memoryBytes;
    settingsPanel_->setAssessment(shown);
    QString blocked;
    if (!a.problem.isEmpty())
        blocked = tr("Start is disabled: %1").arg(a.problem);
    else if (!hasCorpus_)
        blocked = tr("Start is disabled until a corpus is loaded.");
    trainingPanel_->setStartBlockedReason(blocked);
    storeSettings(settings);
}

void MainWindow::startTraining() {
    if (isTraining() || !trainingPanel_->startButton()->isEnabled())
        return;
    const StudioSettings settings = settingsPanel_->settings();
    // An imported model has trained in Python: training continues it.
    bool fresh = !modelInfo_.exists || (modelInfo_.step == 0 && !modelInfo_.imported);
    if (!fresh && (!modelInfo_.settings.sameArchitecture(settings) || corpusChangedSinceModel_)) {
        const QString why = corpusChangedSinceModel_ ? tr("The corpus changed since this model was made.")
                                                     : tr("The architecture settings changed.");
        QMessageBox box(QMessageBox::Question, tr("Discard the trained model?"),
                        tr("%1 Training now starts a new model and discards the current one (step %2).")
                            .arg(why)
                            .arg(modelInfo_.step),
                        QMessageBox::Discard | QMessageBox::Cancel, this);
        box.setObjectName(QStringLiteral("discardModelBox"));
        box.setDefaultButton(QMessageBox::Cancel);
        if (box.exec() != QMessageBox::Discard)
            return;
        fresh = true;
    }
    if (fresh) {
        lossPlot_->clear();
        checkpointPath_.clear();
        updateWindowTitle();
    }
    messageBar_->hide();
    setTrainingState(int(State::Starting));
    QMetaObject::invokeMethod(worker_, "train", Qt::QueuedConnection, Q_ARG(StudioSettings, settings),
                              Q_ARG(bool, fresh));
}

void MainWindow::setTrainingState(int state) {
    const auto s = State(state);
    trainingPanel_->setState(s);
    const bool idle = s == State::Idle;
    settingsPanel_->setEditable(idle);
    corpusPanel_->setChangeable(idle);
    openAction_->setEnabled(idle);
    importAction_->setEnabled(idle);
    openCorpusFileAction_->setEnabled(idle);
    openCorpusFolderAction_->setEnabled(idle);
    updateRecentMenu();
    if (idle)
        autosaveTimer_.stop();
    else if (!autosaveTimer_.isActive())
        autosaveTimer_.start();
}

void MainWindow::onTrainingStarted(const ModelInfo& model) {
    if (model.step == 0) {
        lossPlot_->clear();
        corpusChangedSinceModel_ = false;
        attentionPage_->clear();  // a new model: a new timeline
    }
    modelInfo_ = model;
    updateModelPanel();
    if (trainingPanel_->state() == State::Starting)
        setTrainingState(int(State::Training));
    longestStallMs_ = 0;
    lastBeatMs_ = 0;
}

void MainWindow::onProgress(const TrainingUpdate& u) {
    lossPlot_->appendSteps(u.steps, u.losses, u.learningRates);
    for (qsizetype i = 0; i < std::min(u.evalSteps.size(), u.evalLosses.size()); ++i)
        lossPlot_->appendEval(u.evalSteps[i], u.evalLosses[i]);
    TrainingPanel::Progress p;
    p.step = u.step;
    p.totalSteps = u.totalSteps;
    p.elapsedSeconds = u.elapsedSeconds;
    p.timeLimitSeconds = u.timeLimitSeconds;
    p.etaSeconds = u.etaSeconds;
    p.tokensPerSecond = u.tokensPerSecond;
    p.loss = u.loss;
    p.valLoss = u.valLoss;
    trainingPanel_->showProgress(p);
    lastTokensPerSecond_ = u.tokensPerSecond;
    modelInfo_.step = u.step;
    modelInfo_.tokensSeen = u.tokensSeen;
    modelInfo_.evalSteps += u.evalSteps;
    modelInfo_.evalLosses += u.evalLosses;
    updateModelPanel();
    emit trainingProgressed(u.step);
}

void MainWindow::onTrainingFinished(const QString& reason, const QString& message) {
    setTrainingState(int(State::Idle));
    refreshSnapshot();  // the weights the run ended with
    trainingPanel_->setHasModel(modelInfo_.exists, modelInfo_.step, modelInfo_.imported);
    if (reason == QLatin1String("error"))
        showMessage(tr("Training failed: %1").arg(message), Level::Error);
    else if (reason == QLatin1String("non-finite loss"))
        showMessage(tr("Training stopped: %1").arg(message), Level::Error);
    else if (reason == QLatin1String("stopped"))
        statusBar()->showMessage(tr("Training stopped at step %1").arg(modelInfo_.step), 5000);
    else
        statusBar()->showMessage(tr("Training finished at step %1").arg(modelInfo_.step), 5000);
    if (heartbeat_.isActive()) {
        std::printf("chargpt-studio: step %lld, %.0f tokens/s, longest GUI-thread stall %lld ms\n",
                    static_cast<long long>(modelInfo_.step), lastTokensPerSecond_,
                    static_cast<long long>(longestStallMs_));
        std::fflush(stdout);
    }
    emit trainingEnded(reason);
}

void MainWindow::onCheckpointOpened(const ModelInfo& model) {
    modelInfo_ = model;
    corpusChangedSinceModel_ = false;
    checkpointPath_ = model.checkpointPath;
    StudioSettings settings = model.settings;
    settings.preset = settingsPanel_->settings().preset;
    settings.threads = settingsPanel_->settings().threads;
    settingsPanel_->setSettings(settings);
    reassessSettings();
    lossPlot_->setHistory(model.steps, model.losses, model.evalSteps, model.evalLosses, model.learningRates);
    addRecentFile(checkpointPath_);
    updateModelPanel();
    updateWindowTitle();
    statusBar()->showMessage(tr("Opened %1").arg(QDir::toNativeSeparators(checkpointPath_)), 5000);
    attentionPage_->clear();
    refreshSnapshot();
    emit modelReady();
}

void MainWindow::onModelImported(const ModelInfo& model, const QString& path) {
    modelInfo_ = model;
    corpusChangedSinceModel_ = false;
    checkpointPath_.clear();
    StudioSettings settings = model.settings;
    settings.preset = settingsPanel_->settings().preset;
    settings.threads = settingsPanel_->settings().threads;
    settingsPanel_->setSettings(settings);
    reassessSettings();
    lossPlot_->clear();
    updateModelPanel();
    updateWindowTitle();
    const StudioSettings& s = model.settings;
    showMessage(tr("Imported %1: %2 layers, %3 heads of %4, width %5, context %6, %7 tokens. Its attention and "
                   "generation are in the tabs; Continue trains it further on the loaded corpus; Save keeps it "
                   "as a checkpoint.")
                    .arg(QFileInfo(path).fileName())
                    .arg(s.layers)
                    .arg(s.headSize > 0 ? s.embSize / s.headSize : 0)
                    .arg(s.headSize)
                    .arg(s.embSize)
                    .arg(s.sequenceLen)
                    .arg(model.vocabularySize),
                Level::Info);
    attentionPage_->clear();
    refreshSnapshot();
    emit modelReady();
    emit modelImported(path);
}

void MainWindow::importModel(const QString& stateDictPath, VocabularyFrom from, const QString& source) {
    if (isTraining()) {
        showMessage(tr("Stop training before importing a model."), Level::Error);
        return;
    }
    QMetaObject::invokeMethod(worker_, "importStateDict", Qt::QueuedConnection, Q_ARG(QString, stateDictPath),
                              Q_ARG(int, int(from)), Q_ARG(QString, source),
                              Q_ARG(StudioSettings, settingsPanel_->settings()));
}

void MainWindow::chooseImport() {
    QSettings settings;
    const QString start = settings.value(kLastImportDirectoryKey, QDir::homePath()).toString();
    const QString path = QFileDialog::getOpenFileName(this, tr("Import PyTorch model"), start,
                                                      tr("PyTorch state_dict (*.pt *.pth *.bin);;All files (*)"));
    if (path.isEmpty())
        return;
    settings.setValue(kLastImportDirectoryKey, QFileInfo(path).absolutePath());

    QMessageBox box(QMessageBox::Question, tr("Vocabulary of the imported model"),
                    tr("A state_dict holds numbers, not characters. Take the vocabulary from the text the model was "
                       "trained on (<|e|> is 0, its sorted characters follow) or from a JSON vocabulary file."),
                    QMessageBox::NoButton, this);
    box.setObjectName(QStringLiteral("importVocabularyBox"));
    QPushButton* loaded = nullptr;
    if (hasCorpus_)
        loaded = box.addButton(tr("The loaded corpus (%1)").arg(corpusInfo_.name), QMessageBox::AcceptRole);
    QPushButton* file = box.addButton(tr("Corpus file…"), QMessageBox::ActionRole);
    QPushButton* folder = box.addButton(tr("Corpus folder…"), QMessageBox::ActionRole);
    QPushButton* vocabulary = box.addButton(tr("Vocabulary file…"), QMessageBox::ActionRole);
    box.addButton(QMessageBox::Cancel);
    box.exec();
    QAbstractButton* clicked = box.clickedButton();
    const QString here = QFileInfo(path).absolutePath();
    if (loaded && clicked == loaded) {
        importModel(path, VocabularyFrom::LoadedCorpus);
    } else if (clicked == file) {
        const QString corpus = QFileDialog::getOpenFileName(this, tr("Corpus the model was trained on"), here,
                                                            tr("Text files (*.txt *.md *.py *.c *.h *.cpp);;All files (*)"));
        if (!corpus.isEmpty())
            importModel(path, VocabularyFrom::Corpus, corpus);
    } else if (clicked == folder) {
        const QString corpus = QFileDialog::getExistingDirectory(this, tr("Corpus the model was trained on"), here);
        if (!corpus.isEmpty())
            importModel(path, VocabularyFrom::Corpus, corpus);
    } else if (clicked == vocabulary) {
        const QString file = QFileDialog::getOpenFileName(this, tr("Vocabulary file"), here,
                                                          tr("JSON vocabulary (*.json);;All files (*)"));
        if (!file.isEmpty())
            importModel(path, VocabularyFrom::VocabularyFile, file);
    }
}

bool MainWindow::exportConfigTo(const QString& path) {
    const QString problem = writeConfigFile(settingsPanel_->settings(), path);
    if (!problem.isEmpty()) {
        showMessage(tr("Could not export the settings to “%1”: %2").arg(QDir::toNativeSeparators(path), problem),
                    Level::Error);
        return false;
    }
    statusBar()->showMessage(tr("Wrote %1").arg(QDir::toNativeSeparators(path)), 5000);
    return true;
}

void MainWindow::chooseExportConfig() {
    QSettings settings;
    const QString start = settings.value(kLastDirectoryKey, QDir::homePath()).toString();
    const QString path = QFileDialog::getSaveFileName(this, tr("Export settings for PyTorch"),
                                                      start + QStringLiteral("/config.json"), tr("JSON (*.json)"));
    if (!path.isEmpty())
        exportConfigTo(path);
}

void MainWindow::updateModelPanel() {
    trainingPanel_->setHasModel(modelInfo_.exists, modelInfo_.step, modelInfo_.imported);
    if (!modelInfo_.exists) {
        checkpointPanel_->clear();
        return;
    }
    CheckpointSummary summary;
    summary.filePath = modelInfo_.checkpointPath;
    summary.parameterCount = modelInfo_.parameters;
    summary.layerCount = modelInfo_.settings.layers;
    summary.headSize = modelInfo_.settings.headSize;
    summary.headCount = modelInfo_.settings.headSize > 0 ? modelInfo_.settings.embSize / modelInfo_.settings.headSize : 0;
    summary.embeddingWidth = modelInfo_.settings.embSize;
    summary.contextLength = modelInfo_.settings.sequenceLen;
    summary.vocabularySize = modelInfo_.vocabularySize;
    summary.step = modelInfo_.step;
    summary.tokensSeen = modelInfo_.tokensSeen;
    if (!modelInfo_.evalLosses.isEmpty()) {
        summary.lastValLoss = modelInfo_.evalLosses.constLast();
        summary.lastValStep = qint64(modelInfo_.evalSteps.constLast());
    }
    checkpointPanel_->showSummary(summary);
}

void MainWindow::openCheckpoint(const QString& path) {
    if (isTraining()) {
        showMessage(tr("Stop training before opening a checkpoint."), Level::Error);
        return;
    }
    QMetaObject::invokeMethod(worker_, "openCheckpoint", Qt::QueuedConnection, Q_ARG(QString, path));
}

void MainWindow::saveCheckpoint() {
    if (checkpointPath_.isEmpty()) {
        saveCheckpointAs();
        return;
    }
    worker_->requestSave(checkpointPath_, /*autosave=*/false);
}

void MainWindow::saveCheckpointAs() {
    QSettings settings;
    const QString start = settings.value(kLastDirectoryKey, QDir::homePath()).toString();
    const QString path = QFileDialog::getSaveFileName(this, tr("Save checkpoint"), start + QStringLiteral("/chargpt.pt"),
                                                      tr("CharGPT checkpoints (*.pt)"));
    if (path.isEmpty())
        return;
    settings.setValue(kLastDirectoryKey, QFileInfo(path).absolutePath());
    saveCheckpointTo(path);
}

void MainWindow::saveCheckpointTo(const QString& path) { worker_->requestSave(path, /*autosave=*/false); }

void MainWindow::showMessage(const QString& text, Level level) {
    messageLabel_->setText(text);
    messageBar_->setStyleSheet(level == Level::Error
                                   ? QStringLiteral("#messageBar { background: #fde7e9; border: 1px solid #e0a0a8; }")
                                   : QStringLiteral("#messageBar { background: #e7f1fd; border: 1px solid #a0b8e0; }"));
    messageBar_->show();
    emit messageShown(text);
}

QString MainWindow::messageText() const { return messageBar_->isHidden() ? QString() : messageLabel_->text(); }

void MainWindow::showAbout() {
    QMessageBox::about(
        this, tr("About CharGPT Studio"),
        tr("<h3>CharGPT Studio %1</h3>"
           "<p>Trains a small character-level GPT on your own text and shows how it learns.</p>"
           "<p>Built with LibTorch, Qt and QCustomPlot.</p>"
           "<p>Licensed under the GNU General Public License, version 3 or later.</p>")
            .arg(QCoreApplication::applicationVersion().toHtmlEscaped()));
}

void MainWindow::restoreSettings() {
    const QSettings settings;
    if (!restoreGeometry(settings.value(kGeometryKey).toByteArray())) {
        const QRect available = screen()->availableGeometry();
        resize(QSize(1400, 900).boundedTo(available.size() * 0.9));
        move(available.center() - rect().center());
    }
    restoreState(settings.value(kWindowStateKey).toByteArray());
    splitter_->restoreState(settings.value(kSplitterKey).toByteArray());
}

void MainWindow::saveSettings() const {
    QSettings settings;
    settings.setValue(kGeometryKey, saveGeometry());
    settings.setValue(kWindowStateKey, saveState());
    settings.setValue(kSplitterKey, splitter_->saveState());
    storeSettings(settingsPanel_->settings());
}

// --- Inspection: attention, live scores and generation ----------------------

void MainWindow::createInspector() {
    inspector_ = new InspectWorker;
    inspector_->moveToThread(&inspectThread_);
    connect(&inspectThread_, &QThread::finished, inspector_, &QObject::deleteLater);
    connect(&inspectThread_, &QThread::started, inspector_, [] { chargpt::lowerComputePriority(); });
    connect(inspector_, &InspectWorker::attentionReady, this, &MainWindow::onAttention);
    connect(inspector_, &InspectWorker::attentionFailed, this, [this](const QString& message, quint64 request) {
        attentionInFlight_ = false;
        if (request == attentionRequest_)
            attentionPage_->showProblem(tr("No attention to show: %1").arg(message));
        if (std::exchange(attentionPending_, false))
            requestAttention();
    });
    connect(inspector_, &InspectWorker::scoresReady, this, &MainWindow::onScores);
    connect(inspector_, &InspectWorker::scoresFailed, this, [this](const QString& message, quint64 request) {
        scoresInFlight_ = false;
        if (request == scoresRequest_)
            liveScores_->showProblem(tr("No scores to show: %1").arg(message));
        if (std::exchange(scoresPending_, false))
            requestScores();
    });
    connect(inspector_, &InspectWorker::promptChecked, this,
            [this](const QVector<int>& positions, const QStringList& characters) {
                generationView_->setUnknownCharacters(positions);
                if (!characters.isEmpty())
                    generationView_->showMessage(
                        tr("Not in the model's vocabulary, left out of the prompt: %1")
                            .arg(characters.join(QStringLiteral(" "))));
                else if (!promptNote_.isEmpty())
                    generationView_->showMessage(promptNote_);  // the highlighting cleared it
            });
    connect(inspector_, &InspectWorker::characterGenerated, this, [this](const QString& character) {
        generationView_->appendCharacter(character);
        emit characterGenerated(character);
    });
    connect(inspector_, &InspectWorker::generationFinished, this,
            [this](const QString& reason, const QString& message) {
                generationView_->setRunning(false);
                if (reason == QLatin1String("error"))
                    generationView_->showMessage(tr("Generation failed: %1").arg(message));
                emit generationEnded(reason);
            });
    connect(inspector_, &InspectWorker::stepped, this, &MainWindow::onStepped);
    connect(inspector_, &InspectWorker::stepFailed, this, [this](const QString& message) {
        generationView_->showMessage(tr("Generation failed: %1").arg(message));
        emit stepShown(QString());
    });

    connect(attentionPage_, &AttentionPage::probeChanged, this, [this] {
        requestAttention();
        requestScores();
    });
    connect(attentionPage_, &AttentionPage::refreshRequested, this, &MainWindow::refreshSnapshot);
    connect(liveScores_, &LiveScoresView::scoresRequested, this, &MainWindow::requestScores);
    connect(generationView_, &GenerationView::generateRequested, this, &MainWindow::onGenerate);
    connect(generationView_, &GenerationView::stopRequested, this, [this] { inspector_->stopGeneration(); });
    connect(generationView_, &GenerationView::stepRequested, this, &MainWindow::onStep);
    connect(generationView_, &GenerationView::attentionLayerChanged, this, [this](int layer) {
        QMetaObject::invokeMethod(inspector_, "stepAttention", Qt::QueuedConnection, Q_ARG(int, layer));
    });

    inspectThread_.setObjectName(QStringLiteral("inspector"));
    inspectThread_.start();
}

void MainWindow::refreshSnapshot() { worker_->requestSnapshot(); }

void MainWindow::onSnapshot(const ModelSnapshot& snapshot) {
    QMetaObject::invokeMethod(inspector_, "setSnapshot", Qt::QueuedConnection, Q_ARG(ModelSnapshot, snapshot));
    hasSnapshot_ = !snapshot.isNull();
    snapshotStep_ = snapshot.step;
    if (!hasSnapshot_) {
        attentionPage_->clear();
        liveScores_->setModelShape(0, 0);
        return;
    }
    const StudioSettings& settings = modelInfo_.settings;
    const int heads = settings.headSize > 0 ? settings.embSize / settings.headSize : 0;
    liveScores_->setModelShape(settings.layers, heads);
    generationView_->setLayerCount(settings.layers);
    emit snapshotArrived(snapshot.step);
    requestAttention();
    requestScores();
}

void MainWindow::requestAttention() {
    if (!hasSnapshot_ || attentionPage_->probeText().isEmpty())
        return;
    if (attentionInFlight_) {
        attentionPending_ = true;  // once the current one is back, with the latest snapshot
        return;
    }
    attentionInFlight_ = true;
    QMetaObject::invokeMethod(inspector_, "computeAttention", Qt::QueuedConnection,
                              Q_ARG(QString, attentionPage_->probeText()), Q_ARG(quint64, ++attentionRequest_));
}

void MainWindow::requestScores() {
    if (!hasSnapshot_ || attentionPage_->probeText().isEmpty())
        return;
    if (scoresInFlight_) {
        scoresPending_ = true;
        return;
    }
    scoresInFlight_ = true;
    QMetaObject::invokeMethod(inspector_, "computeScores", Qt::QueuedConnection,
                              Q_ARG(QString, attentionPage_->probeText()), Q_ARG(int, liveScores_->layer()),
                              Q_ARG(int, liveScores_->head()), Q_ARG(quint64, ++scoresRequest_));
}

void MainWindow::onAttention(const AttentionProbe& probe, qint64 step, quint64 request, double milliseconds) {
    attentionInFlight_ = false;
    if (request == attentionRequest_ && hasSnapshot_) {
        attentionPage_->addAttention(step, probe.text, probe.attention, probe.unknownCharacters,
                                     probe.croppedCharacters, milliseconds);
        emit attentionShown(step);
    }
    if (std::exchange(attentionPending_, false))
        requestAttention();
}

void MainWindow::onScores(const HeadScores& scores, qint64 step, quint64 request) {
    scoresInFlight_ = false;
    if (request == scoresRequest_ && hasSnapshot_) {
        liveScores_->setScores(scores, step);
        emit scoresShown(step);
    }
    if (std::exchange(scoresPending_, false))
        requestScores();
}

void MainWindow::onGenerate(const GenerationOptions& options) {
    if (!hasSnapshot_) {
        generationView_->setRunning(false);
        generationView_->showMessage(tr("There is no model yet: train one or open a checkpoint."));
        emit generationEnded(QStringLiteral("error"));
        return;
    }
    showPromptNote(options.prompt);
    QMetaObject::invokeMethod(inspector_, "generate", Qt::QueuedConnection, Q_ARG(GenerationOptions, options));
}

void MainWindow::showPromptNote(const QString& prompt) {
    // Counted in code points, as the model counts characters (no copy made).
    qsizetype characters = 0;
    for (qsizetype i = 0; i < prompt.size(); ++i)
        if (!prompt.at(i).isLowSurrogate())
            ++characters;
    const int context = modelInfo_.settings.sequenceLen;
    promptNote_.clear();
    if (context > 0 && characters > context)
        promptNote_ = tr("The prompt has %1 characters; the model reads only its last %2.")
                          .arg(QLocale().toString(characters))
                          .arg(context);
    generationView_->showMessage(promptNote_);
}

void MainWindow::onStep(const GenerationOptions& options, bool restart) {
    if (!hasSnapshot_) {
        generationView_->showMessage(tr("There is no model yet: train one or open a checkpoint."));
        emit stepShown(QString());
        return;
    }
    if (restart)
        showPromptNote(options.prompt);
    QMetaObject::invokeMethod(inspector_, "step", Qt::QueuedConnection, Q_ARG(GenerationOptions, options),
                              Q_ARG(bool, restart), Q_ARG(int, generationView_->attentionLayer()));
}

void MainWindow::onStepped(const GenerationStep& step) {
    if (!step.attentionOnly) {
        if (step.character.isEmpty() && step.finished) {
            generationView_->showMessage(
                tr("The generation is over (end of text or length reached): change the prompt or a setting "
                   "to start again."));
            emit stepShown(QString());
            return;
        }
        generationView_->appendCharacter(step.character);
        generationView_->showCandidates(step.candidates, step.probabilities, step.picked);
    }
    if (step.layer == generationView_->attentionLayer())
        generationView_->showAttentionRows(step.attentionRows);
    if (!step.attentionOnly)
        emit stepShown(step.character);
}

void MainWindow::setDefaultProbe() {
    // From the first line of the corpus long enough to show a pattern, whole
    // lines up to about 30 characters (newlines included: some heads learn to
    // look at the start of the line). Replaces the probe unless the user wrote
    // their own.
    const QString current = attentionPage_->probeText();
    if (!current.isEmpty() && current != defaultProbe_)
        return;
    QString chosen;
    for (const QString& line : corpusInfo_.preview.split(QLatin1Char('\n'))) {
        const QString trimmed = line.trimmed();
        const int length = int(splitCharacters(trimmed).size());
        if (chosen.isEmpty() && length < 12)
            continue;
        if (!chosen.isEmpty() && (length == 0 || splitCharacters(chosen).size() + 1 + length > 30))
            break;
        chosen += (chosen.isEmpty() ? QString() : QStringLiteral("\n"));
        chosen += splitCharacters(trimmed).mid(0, 48).join(QString());
    }
    if (chosen.isEmpty())
        chosen = splitCharacters(corpusInfo_.preview.simplified()).mid(0, 48).join(QString());
    defaultProbe_ = chosen;
    attentionPage_->setProbeText(chosen);
}
