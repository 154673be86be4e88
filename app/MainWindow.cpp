// SPDX-License-Identifier: GPL-3.0-or-later
#include "MainWindow.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>

#include <exception>

#include "CheckpointPanel.h"
#include "LanguageManager.h"
#include "LossPlot.h"
#include "ModelBridge.h"

namespace {

const char* const kGeometryKey = "mainWindow/geometry";
const char* const kWindowStateKey = "mainWindow/state";
const char* const kSplitterKey = "mainWindow/splitter";
const char* const kLastDirectoryKey = "files/lastCheckpointDirectory";

}  // namespace

MainWindow::MainWindow(LanguageManager* languages, QWidget* parent) : QMainWindow(parent), languages_(languages) {
    lossPlot_ = new LossPlot(this);
    checkpointPanel_ = new CheckpointPanel(this);
    checkpointPanel_->setMinimumWidth(240);

    splitter_ = new QSplitter(Qt::Horizontal, this);
    splitter_->addWidget(lossPlot_);
    splitter_->addWidget(checkpointPanel_);
    splitter_->setStretchFactor(0, 1);
    splitter_->setStretchFactor(1, 0);
    splitter_->setCollapsible(0, false);
    splitter_->setSizes({800, 280});
    setCentralWidget(splitter_);

    createActions();
    createMenus();
    statusBar();
    retranslateUi();
    restoreSettings();
}

void MainWindow::createActions() {
    openAction_ = new QAction(this);
    openAction_->setShortcut(QKeySequence::Open);
    openAction_->setIcon(QIcon::fromTheme(QStringLiteral("document-open")));
    connect(openAction_, &QAction::triggered, this, &MainWindow::chooseCheckpoint);

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
    fileMenu_->addAction(openAction_);
    fileMenu_->addSeparator();
    fileMenu_->addAction(quitAction_);

    languageMenu_ = menuBar()->addMenu(QString());
    languageMenu_->addActions(languageGroup_->actions());

    helpMenu_ = menuBar()->addMenu(QString());
    helpMenu_->addAction(aboutAction_);
    helpMenu_->addAction(aboutQtAction_);
}

void MainWindow::retranslateUi() {
    fileMenu_->setTitle(tr("&File"));
    openAction_->setText(tr("&Open checkpoint…"));
    openAction_->setStatusTip(tr("Show the loss curves and settings of a saved model"));
    quitAction_->setText(tr("&Quit"));
    languageMenu_->setTitle(tr("&Language"));
    helpMenu_->setTitle(tr("&Help"));
    aboutAction_->setText(tr("&About CharGPT Studio"));
    aboutQtAction_->setText(tr("About &Qt"));
    updateWindowTitle();
}

void MainWindow::updateWindowTitle() {
    const QString application = QCoreApplication::applicationName();
    if (checkpointPath_.isEmpty())
        setWindowTitle(application);
    else
        setWindowTitle(tr("%1 — %2").arg(QFileInfo(checkpointPath_).fileName(), application));
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
    saveSettings();
    event->accept();
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

bool MainWindow::openCheckpoint(const QString& path) {
    CheckpointForDisplay checkpoint;
    QApplication::setOverrideCursor(Qt::WaitCursor);
    try {
        checkpoint = readCheckpointForDisplay(path);
    } catch (const std::exception& error) {
        QApplication::restoreOverrideCursor();
        QMessageBox box(QMessageBox::Warning, tr("Cannot open checkpoint"),
                        tr("The file “%1” could not be opened.").arg(QFileInfo(path).fileName()),
                        QMessageBox::Ok, this);
        box.setInformativeText(QString::fromUtf8(error.what()));
        box.exec();
        return false;
    }
    QApplication::restoreOverrideCursor();

    checkpointPath_ = QFileInfo(path).absoluteFilePath();
    checkpoint.summary.filePath = checkpointPath_;
    const LossCurves& curves = checkpoint.curves;
    lossPlot_->setHistory(curves.steps, curves.trainLoss, curves.evalSteps, curves.valLoss);
    checkpointPanel_->showSummary(checkpoint.summary);
    updateWindowTitle();
    statusBar()->showMessage(tr("Opened %1").arg(QDir::toNativeSeparators(checkpointPath_)), 5000);
    return true;
}

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
        resize(QSize(1100, 700).boundedTo(available.size() * 0.9));
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
}
