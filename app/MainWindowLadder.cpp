// SPDX-License-Identifier: GPL-3.0-or-later
// The window's part of the architecture ladder: Training > Train the
// Architecture Ladder and the Ladder tab's button start it through the
// TrainingController (on the training thread, the window's model untouched);
// the worker's news of it feed the Ladder tab (widgets/LadderView.h) and the
// Runs tab lists each rung as it is recorded. Before (and after) a ladder
// trains here, the tab shows the ladders the run library keeps, from the Runs
// tab's reading of it (RunsWorker::listed), their floors measured again on
// the runs thread, and the n-gram floors of each ladder's text measured as the
// Training tab's are (app/NgramFloorsMeasure).
#include <QAction>
#include <QMenu>
#include <QStatusBar>
#include <QTabWidget>

#include "app/MainWindow.h"
#include "app/NgramFloorsMeasure.h"
#include "app/RunsController.h"
#include "app/TrainingController.h"
#include "app/TrainingWorker.h"
#include "model/train/Ladder.h"
#include "widgets/LadderHistory.h"
#include "widgets/LadderText.h"
#include "widgets/LadderView.h"
#include "widgets/RunsPage.h"

void MainWindow::connectLadder() {
    const TrainingWorker* worker = training_->worker();
    ladderAction_ = new QAction(this);
    ladderAction_->setObjectName(QStringLiteral("trainLadderAction"));
    trainingMenu_->addAction(ladderAction_);
    connect(ladderAction_, &QAction::triggered, this, &MainWindow::startLadder);
    connect(ladderView_, &LadderView::startRequested, this, &MainWindow::startLadder);
    // The ladder and Start exclude each other: neither while anything trains.
    auto enable = [this] {
        const bool can = !training_->isTraining() && training_->hasCorpus();
        ladderAction_->setEnabled(can);
        ladderView_->setStartEnabled(can);
    };
    connect(training_, &TrainingController::stateChanged, this, enable);
    connect(worker, &TrainingWorker::corpusLoaded, this, enable);
    enable();

    // The library's ladders, from each reading of it; it is read again when
    // the tab is shown (a ladder `chargpt ladder` trained meanwhile).
    connect(runs_->worker(), &RunsWorker::listed, ladderView_,
            [this](const QVector<RunRow>& rows, const LibraryNote& note, bool readable) {
                ladderView_->setHistory(laddersOf(rows), readable ? QString() : libraryNoteText(note));
            });
    connect(ladderView_, &LadderView::floorsWanted, runs_, &RunsController::measureLadderFloors);
    connect(runs_->floorsWorker(), &LadderFloorsWorker::measured, ladderView_, &LadderView::setRecordedFloors);
    connect(tabs_, &QTabWidget::currentChanged, this, [this] {
        if (tabs_->currentWidget() == ladderView_)
            runs_->refresh();
    });

    // The n-gram floors of a ladder's text: the Training tab's measurement, once per text.
    // A ladder's rungs split with the ladder's seed; the Training tab's floors
    // of another seed are not theirs.
    const quint64 ladderSeed = chargpt::ladderSettings(1).seed;
    connect(ladderView_, &LadderView::ngramFloorsWanted, floors_,
            [this, ladderSeed](const QString& corpus, qint64 sequenceLen, double valFraction) {
                floors_->measure(corpus, sequenceLen, valFraction, ladderSeed);
            });
    connect(floors_, &NgramFloorsMeasure::measured, ladderView_,
            [this, ladderSeed](const QString& source, const QVector<double>& nats, const QString&,
                               qint64 sequenceLen, double valFraction, quint64 seed) {
                if (seed == ladderSeed) ladderView_->setNgramFloors(source, sequenceLen, valFraction, nats);
            });

    connect(worker, &TrainingWorker::ladderStarted, this, [this](const LadderFloors& floors) {
        // Every rung splits the text as the first does (model/train/Ladder.h).
        const chargpt::RunConfig rung = chargpt::ladderSettings(1);
        ladderView_->start(floors, training_->hasCorpus() ? corpusInfo().source : QString(),
                           rung.sequence_len, rung.val_fraction);
        ladderView_->setLadderTraining(true);
        runs_->setFollowing(tabs_->currentWidget() == runsPage_);
    });
    connect(worker, &TrainingWorker::ladderRung, this, [this](const LadderRungData& rung) {
        ladderView_->setRung(rung);
        if (rung.state == LadderRungData::State::Training)
            statusBar()->showMessage(tr("Training the architecture ladder: rung %1 (%2), step %3 of %4. Start waits "
                                        "until it ends; Stop ends it.")
                                         .arg(rung.number)
                                         .arg(ladderRungTitle(rung.number))
                                         .arg(rung.step)
                                         .arg(rung.totalSteps));
        else if (rung.runId)
            runs_->refresh();  // the rung's run, finished, in the Runs tab
    });
    connect(training_, &TrainingController::ladderFinished, this, [this](bool stopped, const QString& message) {
        ladderView_->setLadderTraining(false);
        runs_->setFollowing(false);
        runs_->refresh();
        if (!message.isEmpty())
            showMessage(tr("The architecture ladder could not train: %1 The model in the window is unchanged.")
                            .arg(message),
                        Level::Error);
        else if (stopped)
            statusBar()->showMessage(
                tr("The architecture ladder stopped: the rungs trained so far are kept in the Runs tab."), 10000);
        else
            statusBar()->showMessage(tr("The architecture ladder is trained: each rung is a run in the Runs tab."),
                                     10000);
    });
}

void MainWindow::startLadder() {
    if (!training_->hasCorpus()) {
        showMessage(tr("Load a corpus first: the architecture ladder trains on the loaded corpus."), Level::Info);
        return;
    }
    if (!training_->startLadder()) {
        showMessage(tr("The architecture ladder cannot start while a run trains: stop it first."), Level::Info);
        return;
    }
    tabs_->setCurrentWidget(ladderView_);
    statusBar()->showMessage(tr("Training the architecture ladder…"));
}

void MainWindow::retranslateLadder() {
    trainingMenu_->setTitle(tr("&Training"));
    ladderAction_->setText(tr("Train the Architecture &Ladder"));
    ladderAction_->setStatusTip(tr("Trains each rung of the architecture ladder on the loaded corpus, records each "
                                   "as a run, and charts their best validation losses beside the floors."));
    tabs_->setTabText(tabs_->indexOf(ladderView_), tr("Ladder"));
}
