// SPDX-License-Identifier: GPL-3.0-or-later
// The window's one timeline: its bar under the tabs, and what follows it
// (docs/ARCHITECTURE.md, "One timeline").
#include "app/MainWindow.h"

#include <QFileInfo>

#include <cmath>

#include "app/FileActions.h"
#include "app/FilmstripController.h"
#include "app/InspectionController.h"
#include "app/RunsController.h"
#include "app/TrainingController.h"
#include "app/TrainingWorker.h"
#include "widgets/InsidePage.h"
#include "widgets/LossPlot.h"
#include "widgets/RunsList.h"
#include "widgets/RunsPage.h"
#include "widgets/Timeline.h"
#include "widgets/TimelineControls.h"

void MainWindow::openRun(const RunRow& run, bool thenTrain) {
    if (!training_->openCheckpoint(run.lastCheckpoint, run)) {
        showMessage(tr("Stop training before opening a checkpoint."), Level::Error);
        return;
    }
    if (thenTrain)
        continueAfterOpen_ = QFileInfo(run.lastCheckpoint).absoluteFilePath();  // connectRuns() starts it
    else
        openingRun_ = std::make_pair(run.id, run.lastCheckpoint);
}

QWidget* MainWindow::createTimeline(QWidget* parent) {
    timeline_ = new Timeline(this);
    timelineControls_ = new TimelineControls(timeline_, parent);
    return timelineControls_;
}

void MainWindow::connectTimeline() {
    inspection_->attachTimeline(timeline_);
    // The Filmstrip tab samples the run on the timeline; its rows choose steps on it.
    filmstrip_ = new FilmstripController(filmstripPage_, timeline_, this);
    const TrainingWorker* worker = training_->worker();
    // The model the worker holds: a run that starts, a checkpoint or a model
    // opened from the File menu. The timeline follows its newest step, and
    // lists the steps the library keeps of a run as it trains.
    connect(worker, &TrainingWorker::trainingStarted, timeline_, &Timeline::showLive);
    connect(files_, &FileActions::checkpointChosen, timeline_, &Timeline::showLive);
    connect(files_, &FileActions::importChosen, timeline_, &Timeline::showLive);
    connect(worker, &TrainingWorker::weightsKept, timeline_, &Timeline::setKeptSteps);
    // Open in the Runs tab: the run's checkpoint becomes the model, and once
    // it has (the file may be gone, or hold another model since), the steps
    // the run keeps its weights at go on the timeline, to replay.
    connect(runsPage_->list(), &RunsList::openRequested, this, [this](const RunRow& run) { openRun(run, false); });
    connect(worker, &TrainingWorker::checkpointOpened, this, [this](const ModelSummary& model) {
        if (openingRun_ && QFileInfo(model.checkpointPath) == QFileInfo(openingRun_->second))
            runs_->listKeptSteps(openingRun_->first);
        openingRun_.reset();
    });
    connect(worker, &TrainingWorker::checkpointFailed, this, [this] { openingRun_.reset(); });
    connect(runs_->worker(), &RunsWorker::keptStepsListed, this,
            [this](qint64 run, const QVector<qint64>& steps) {
                if (steps.isEmpty())
                    showMessage(tr("Run %1 keeps no weights, so the timeline cannot replay it.").arg(run),
                                Level::Info);
                else
                    timeline_->showRun(run, steps);
            });
    connect(inspection_, &InspectionController::replayFailed, this,
            [this](const QString& text) { showMessage(text, Level::Error); });
    // Step A: the Inside tab's head roles show each head's change since then
    // (the Surprise tab's comparison is the inspection controller's).
    connect(timeline_, &Timeline::markChanged, insidePage_,
            [this] { insidePage_->setComparedStep(timeline_->markedStep()); });
    // The loss plot marks the step the views show.
    connect(timeline_, &Timeline::stepChosen, lossPlot_, [this](qint64 step) { lossPlot_->setStepCursor(double(step)); });
    connect(timeline_, &Timeline::stepsChanged, lossPlot_, [this] {
        if (!timeline_->chosenStep())
            lossPlot_->setStepCursor(std::nan(""));
    });
}
