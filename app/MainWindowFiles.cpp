// SPDX-License-Identifier: GPL-3.0-or-later
// What the window does with files: a file dropped on it, a corpus or a
// checkpoint opened, a PyTorch model imported, the settings exported, the
// model saved.
#include "app/MainWindow.h"

#include <QCoreApplication>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QStatusBar>
#include <QStringList>

#include "app/FileActions.h"
#include "app/ModelBridge.h"
#include "app/SidePanel.h"
#include "app/TrainingController.h"
#include "app/TrainingWorker.h"
#include "widgets/CorpusPanel.h"
#include "widgets/LossPlot.h"

namespace {

// " It computes unlike the book's CharGPT: ReLU feed-forward, ..." for a model
// of nanoGPT, minGPT or the lecture's code; empty for the book's arithmetic.
QString arithmeticSentence(const chargpt::RunConfig& settings) {
    QStringList differences;
    for (const char* difference : settings.arithmeticDifferenceList())
        differences.append(QCoreApplication::translate("ModelConfig", difference));
    if (differences.isEmpty())
        return QString();
    return QLatin1Char(' ') + QCoreApplication::translate("MainWindow", "It computes unlike the book's CharGPT: %1.")
                                  .arg(differences.join(QCoreApplication::translate("MainWindow", ", ")));
}

}  // namespace

void MainWindow::connectFiles() {
    const TrainingWorker* worker = training_->worker();
    connect(worker, &TrainingWorker::modelImported, this, [this](const ModelSummary& model, const QString& path) {
        onModelArrived(model);
        lossPlot_->clear();
        const chargpt::RunConfig& s = model.settings;
        showMessage(tr("Imported %1: %2 layers, %3 heads of %4, width %5, context %6, %7 tokens. Its attention and "
                       "generation are in the tabs; Continue trains it further on the loaded corpus; Save keeps it "
                       "as a checkpoint.")
                        .arg(QFileInfo(path).fileName())
                        .arg(s.n_layer)
                        .arg(s.n_head())
                        .arg(s.head_size)
                        .arg(s.emb_size)
                        .arg(s.sequence_len)
                        .arg(model.vocabularySize) +
                        arithmeticSentence(s),
                    Level::Info);
        files_->addRecent(path);  // opened again through Open recent, like a checkpoint
        emit modelReady();
    });
    connect(worker, &TrainingWorker::foreignModelFound, files_, &FileActions::importFile);
    connect(worker, &TrainingWorker::exported, this, [this](const QString& folder) {
        showMessage(tr("Wrote ckpt.pt and meta.pkl to %1. In nanoGPT, put meta.pkl in data/chargpt/; sample.py and "
                       "train.py (init_from='resume') then read them.")
                        .arg(QDir::toNativeSeparators(folder)),
                    Level::Info);
    });
    connect(worker, &TrainingWorker::exportFailed, this, [this](const QString& folder, const QString& message) {
        showMessage(tr("Could not export the model to %1: %2").arg(QDir::toNativeSeparators(folder), message),
                    Level::Error);
    });
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    if (event->mimeData()->hasUrls() && !event->mimeData()->urls().isEmpty() &&
        event->mimeData()->urls().constFirst().isLocalFile() && !isTraining())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    const QString path = event->mimeData()->urls().constFirst().toLocalFile();
    event->acceptProposedAction();
    files_->openDropped(path);
}

void MainWindow::openCorpus(const QString& source) {
    if (isTraining()) {
        showMessage(tr("Stop training before changing the corpus."), Level::Error);
        return;
    }
    // A trained model and another text: what becomes of the model is asked
    // before anything of the text is shown, so that no view ever reads one
    // text with another text's model.
    auto model = TrainingController::OnNewCorpus::KeepModel;
    if (training_->hasTrainedModel() && source != training_->corpus().source) {
        const ModelSummary& current = training_->model();
        const QString file = current.checkpointPath.isEmpty() ? current.autosavePath : current.checkpointPath;
        const QString question =
            tr("The current model (step %1) knows %2 characters. Keep it and train it further on “%3”, reading that "
               "text with the model's own characters (those it does not know are left out), or discard it and start "
               "a new model on the new text?")
                .arg(current.step)
                .arg(current.vocabularySize)
                .arg(corpusPanel()->displayName(source));
        const QString kept = file.isEmpty() ? tr("A discarded model is lost unless you save it first.")
                                            : tr("A discarded model stays in its file, %1.").arg(QDir::toNativeSeparators(file));
        QMessageBox box(QMessageBox::Question, tr("Keep the trained model?"), question + QStringLiteral("\n\n") + kept,
                        QMessageBox::Yes | QMessageBox::Discard | QMessageBox::Cancel, this);
        box.setObjectName(QStringLiteral("corpusChangeBox"));
        box.setTextFormat(Qt::PlainText);  // names of files are never markup
        box.button(QMessageBox::Yes)->setText(tr("Keep the model"));
        box.button(QMessageBox::Discard)->setText(tr("New model"));
        box.setDefaultButton(QMessageBox::Cancel);
        const int answer = box.exec();
        if (answer == QMessageBox::Cancel) {
            corpusPanel()->showCorpus(training_->corpus());  // its choice back on the text loaded
            return;
        }
        if (answer == QMessageBox::Discard)
            model = TrainingController::OnNewCorpus::DiscardModel;
    }
    training_->loadCorpus(source, model);
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
