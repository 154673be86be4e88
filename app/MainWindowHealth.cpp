// SPDX-License-Identifier: GPL-3.0-or-later
// The Training tab's health panel and learning-rate finder: the loss curves
// and HealthView side by side, the health the worker measures as a run trains
// (or a past run's, from the run library, when the Runs tab opens it), its
// warnings in the message bar with a link to the plot, and the finder's window,
// whose sweep runs on a thread of its own (app/LearningRateSearch) and whose
// "Use this rate" sets the learning-rate setting. The timeline's chosen step
// shows the health measured nearest it.
#include "app/MainWindow.h"

#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QPushButton>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QVBoxLayout>

#include <cmath>

#include "app/LearningRateSearch.h"
#include "app/RunsController.h"
#include "app/SidePanel.h"
#include "app/TrainingController.h"
#include "app/TrainingWorker.h"
#include "widgets/HealthView.h"
#include "widgets/LearningRateView.h"
#include "widgets/LossPlot.h"
#include "widgets/SettingsPanel.h"
#include "widgets/Timeline.h"

QWidget* MainWindow::createTrainingPage(QWidget* parent) {
    trainingPage_ = new QWidget(parent);
    trainingPage_->setObjectName(QStringLiteral("trainingPage"));
    auto* layout = new QVBoxLayout(trainingPage_);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* bar = new QHBoxLayout;
    findRateButton_ = new QPushButton(trainingPage_);
    findRateButton_->setObjectName(QStringLiteral("findLearningRateButton"));
    bar->addWidget(findRateButton_);
    bar->addStretch(1);
    layout->addLayout(bar);
    trainingSplitter_ = new QSplitter(Qt::Horizontal, trainingPage_);
    trainingSplitter_->setObjectName(QStringLiteral("trainingSplitter"));
    lossPlot_ = new LossPlot(trainingSplitter_);
    healthView_ = new HealthView(trainingSplitter_);
    trainingSplitter_->addWidget(lossPlot_);
    trainingSplitter_->addWidget(healthView_);
    trainingSplitter_->setStretchFactor(0, 3);
    trainingSplitter_->setStretchFactor(1, 2);
    trainingSplitter_->setSizes({660, 380});  // scaled to the page's width when shown
    layout->addWidget(trainingSplitter_, 1);
    return trainingPage_;
}

void MainWindow::connectHealth() {
    const TrainingWorker* worker = training_->worker();
    connect(worker, &TrainingWorker::progress, this, [this](const TrainingProgress& p) {
        healthView_->append(p.health);
        healthView_->addWarnings(p.warnings);
        for (const chargpt::HealthWarning& w : p.warnings)
            showHealthWarning(w);
    });
    connect(worker, &TrainingWorker::trainingStarted, this, [this](const ModelSummary&, bool newModel) {
        if (newModel)
            healthView_->clear();
    });
    connect(worker, &TrainingWorker::checkpointOpened, this, [this] { healthView_->clear(); });
    connect(worker, &TrainingWorker::modelImported, this, [this] { healthView_->clear(); });
    // A past run opened from the Runs tab: the health it kept.
    connect(runs_->worker(), &RunsWorker::keptStepsListed, this,
            [this](qint64 run) { runs_->loadHealth(run); });
    connect(runs_->worker(), &RunsWorker::healthLoaded, this,
            [this](qint64, const chargpt::RunHealth& health) { healthView_->setHealth(health); });
    connect(messageBar_, &MessageBar::actionTriggered, this, &MainWindow::showHealthPlot);
    // The timeline on a past step: the health measured nearest it (not while
    // it follows the step a run trains at, which the plots end at).
    connect(timeline_, &Timeline::stepChosen, healthView_, [this](qint64 step) {
        healthView_->setStepCursor(timeline_->atLiveStep() ? std::nan("") : double(step));
    });
    connect(timeline_, &Timeline::stepsChanged, healthView_, [this] {
        if (!timeline_->chosenStep()) healthView_->setStepCursor(std::nan(""));
    });

    rateSearch_ = new LearningRateSearch(this);
    connect(findRateButton_, &QPushButton::clicked, this, &MainWindow::showLearningRateFinder);
}

void MainWindow::showHealthWarning(const chargpt::HealthWarning& warning) {
    const bool severe = warning.kind == chargpt::HealthWarning::Kind::LargeUpdates ||
                        warning.kind == chargpt::HealthWarning::Kind::LossSpike;
    // A learning rate far too high or a spike stays in front of what follows
    // from it (heads that collapse); the plot shows the rest.
    if (!severe && !messageBar_->action().isEmpty() && messageBar_->level() == Level::Error)
        return;
    healthWarningStep_ = warning.step;
    messageBar_->showMessage(HealthView::warningText(warning), severe ? Level::Error : Level::Info,
                             tr("Show the health plot"));
    emit messageShown(messageBar_->text());
}

void MainWindow::showHealthPlot() {
    tabs_->setCurrentWidget(trainingPage_);
    const QList<int> sizes = trainingSplitter_->sizes();
    if (sizes.size() == 2 && sizes[1] < 200)
        trainingSplitter_->setSizes({sizes[0] + sizes[1] - 400, 400});
    healthView_->markStep(double(healthWarningStep_));
}

void MainWindow::showLearningRateFinder() {
    if (!rateView_) {
        rateView_ = new LearningRateView(this);
        connect(rateView_, &LearningRateView::findRequested, this, [this] {
            rateView_->clear();
            if (!training_->hasCorpus()) {
                rateView_->showFailure(tr("open a corpus first."));
                return;
            }
            rateView_->setRunning(true);
            rateSearch_->find(side_->settings(), corpusInfo().source);
        });
        connect(rateView_, &LearningRateView::stopRequested, rateSearch_, &LearningRateSearch::stop);
        connect(rateSearch_, &LearningRateSearch::stepped, rateView_, &LearningRateView::addStep);
        connect(rateSearch_, &LearningRateSearch::finished, rateView_,
                [this](const chargpt::LearningRateFinding& finding, bool stopped, const QString& why) {
                    rateView_->setRunning(false);
                    if (stopped)
                        rateView_->showFailure(tr("stopped."));
                    else if (!why.isEmpty())
                        rateView_->showFailure(why);
                    else
                        rateView_->showFinding(finding);
                });
        connect(rateView_, &LearningRateView::rateChosen, this, &MainWindow::useLearningRate);
    }
    rateView_->show();
    rateView_->raise();
    rateView_->activateWindow();
}

void MainWindow::useLearningRate(double rate) {
    auto* box = qobject_cast<QDoubleSpinBox*>(settingsPanel()->field(QStringLiteral("learning_rate")));
    if (!box)
        return;
    box->setValue(rate);  // as if typed: the settings are checked again
    statusBar()->showMessage(tr("Learning rate set to %1; the next run uses it.").arg(box->textFromValue(box->value())),
                             5000);
}

void MainWindow::retranslateHealth() {
    findRateButton_->setText(tr("Find a learning rate…"));
    findRateButton_->setToolTip(tr("Sweep a copy of the settings from a tiny to a large learning rate and suggest one. "
                                   "The model you train is not touched."));
}
