// SPDX-License-Identifier: GPL-3.0-or-later
// The n-gram floors of the text a model trains on, drawn on the loss plot
// (docs/ARCHITECTURE.md, "The n-gram floors"): measured on a thread of their
// own once a model trains or opens, only where the text is read with its own
// vocabulary, so that no floor of one vocabulary is drawn beside a model of
// another.
#include "app/MainWindow.h"

#include "app/NgramFloorsMeasure.h"
#include "app/TrainingController.h"
#include "app/TrainingWorker.h"
#include "model/train/RunConfig.h"
#include "widgets/LossPlot.h"

void MainWindow::connectFloors() {
    floors_ = new NgramFloorsMeasure(this);
    const TrainingWorker* worker = training_->worker();
    connect(worker, &TrainingWorker::corpusLoaded, this, &MainWindow::showNgramFloors);
    connect(worker, &TrainingWorker::trainingStarted, this, &MainWindow::showNgramFloors);
    connect(worker, &TrainingWorker::checkpointOpened, this, &MainWindow::showNgramFloors);
    connect(training_, &TrainingController::modelChanged, this, &MainWindow::showNgramFloors);
    connect(floors_, &NgramFloorsMeasure::measured, this,
            [this](const QString& source, const QVector<double>& floors, const QString&, qint64 sequenceLen,
                   double valFraction, quint64 seed) {
                const CorpusSummary& corpus = corpusInfo();
                const chargpt::RunConfig& run = training_->model().settings;  // the split asked for below
                if (source == corpus.source && sequenceLen == run.sequence_len &&
                    valFraction == run.val_fraction && seed == run.seed && corpus.modelVocabularySize == 0 &&
                    training_->model().exists)
                    lossPlot_->setNgramFloors(floors);
            });
}

void MainWindow::showNgramFloors() {
    const CorpusSummary& corpus = corpusInfo();
    if (!training_->hasCorpus() || corpus.modelVocabularySize > 0 || !training_->model().exists) {
        lossPlot_->setNgramFloors({});
        return;
    }
    // Split as the model's run splits the text: a folder's validation
    // documents are drawn with its seed.
    const chargpt::RunConfig& run = training_->model().settings;
    floors_->measure(corpus.source, run.sequence_len, run.val_fraction, run.seed);
}
