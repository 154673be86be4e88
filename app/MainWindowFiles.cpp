// SPDX-License-Identifier: GPL-3.0-or-later
// What the window does with files: a file dropped on it, a corpus or a
// checkpoint opened, a PyTorch model imported, the settings exported, the
// model saved.
#include "app/MainWindow.h"

#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QMimeData>
#include <QStatusBar>

#include "app/FileActions.h"
#include "app/ModelBridge.h"
#include "app/SidePanel.h"
#include "app/TrainingController.h"
#include "widgets/CorpusPanel.h"

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

void MainWindow::openCorpus(const QString& source) {
    if (!training_->loadCorpus(source)) {
        showMessage(tr("Stop training before changing the corpus."), Level::Error);
        return;
    }
    corpusPanel()->setLoading(source);
}

void MainWindow::openCheckpoint(const QString& path) {
    if (!training_->openCheckpoint(path))
        showMessage(tr("Stop training before opening a checkpoint."), Level::Error);
}

void MainWindow::importModel(const QString& stateDictPath, VocabularySource from, const QString& source) {
    if (!training_->importStateDict(stateDictPath, from, source, side_->settings()))
        showMessage(tr("Stop training before importing a model."), Level::Error);
}

bool MainWindow::exportConfigTo(const QString& path) {
    const QString problem = writeConfigFile(side_->settings(), path);
    if (!problem.isEmpty()) {
        showMessage(tr("Could not export the settings to “%1”: %2").arg(QDir::toNativeSeparators(path), problem),
                    Level::Error);
        return false;
    }
    statusBar()->showMessage(tr("Wrote %1").arg(QDir::toNativeSeparators(path)), 5000);
    return true;
}

void MainWindow::saveCheckpoint() {
    if (training_->model().checkpointPath.isEmpty())
        files_->chooseSavePath();
    else
        training_->save(training_->model().checkpointPath);
}

void MainWindow::saveCheckpointTo(const QString& path) { training_->save(path); }
