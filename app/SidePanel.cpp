// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/SidePanel.h"

#include <QCoreApplication>
#include <QScrollArea>
#include <QVBoxLayout>

#include "widgets/CheckpointPanel.h"
#include "widgets/CorpusPanel.h"
#include "app/ModelBridge.h"
#include "widgets/SettingsPanel.h"
#include "app/TrainingController.h"
#include "widgets/TrainingPanel.h"
#include "app/TrainingWorker.h"
#include "model/train/RunFields.h"

SidePanel::SidePanel(TrainingController* training, QWidget* parent) : QWidget(parent), training_(training) {
    auto* panels = new QWidget;
    auto* panelsLayout = new QVBoxLayout(panels);
    panelsLayout->setContentsMargins(0, 0, 4, 0);
    corpusPanel_ = new CorpusPanel(panels);
    settingsPanel_ = new SettingsPanel(panels);
    checkpointPanel_ = new CheckpointPanel(panels);
    panelsLayout->addWidget(corpusPanel_);
    panelsLayout->addWidget(settingsPanel_);
    panelsLayout->addWidget(checkpointPanel_);
    panelsLayout->addStretch(1);
    auto* scroll = new QScrollArea;
    scroll->setWidget(panels);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setFrameShape(QFrame::NoFrame);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(scroll, 1);
    trainingPanel_ = new TrainingPanel;
    layout->addWidget(trainingPanel_);
    setMinimumWidth(360);

    settingsPanel_->setPresetNames(presetNames());
    settingsPanel_->setSettings(TrainingController::storedSettings());
    corpusPanel_->setPythonAvailable(!TrainingWorker::pythonLibraryPath().isEmpty());
    trainingPanel_->setHasModel(false, 0);

    connect(settingsPanel_, &SettingsPanel::settingsEdited, this, &SidePanel::reassess);
    connect(settingsPanel_, &SettingsPanel::presetChosen, this, [this](const QString& name) {
        settingsPanel_->setSettings(
            chargpt::withUserChoices(presetSettings(name, corpusTrainingTokens()), settingsPanel_->settings()));
        reassess();
    });
    connect(trainingPanel_, &TrainingPanel::pauseClicked, training_, &TrainingController::pause);
    connect(trainingPanel_, &TrainingPanel::resumeClicked, training_, &TrainingController::resume);
    connect(trainingPanel_, &TrainingPanel::stopClicked, training_, &TrainingController::stop);
    connect(trainingPanel_, &TrainingPanel::restoreBestClicked, training_, &TrainingController::restoreBest);
    // The worker's news reach this panel after the controller took them in
    // (TrainingController::worker()): the model shown is the controller's.
    const TrainingWorker* worker = training_->worker();
    connect(training_, &TrainingController::stateChanged, this, &SidePanel::showState);
    connect(worker, &TrainingWorker::corpusLoaded, this, [this](const CorpusSummary& corpus) {
        corpusPanel_->showCorpus(corpus);
        fitPresetToCorpus(corpus.trainingTokens);
        reassess();
    });
    connect(training_, &TrainingController::corpusFailed, corpusPanel_, &CorpusPanel::showError);
    connect(worker, &TrainingWorker::progress, trainingPanel_, &TrainingPanel::showProgress);
    connect(training_, &TrainingController::modelChanged, this, &SidePanel::showModel);
    connect(training_, &TrainingController::trainingFinished, this, &SidePanel::showModel);
    connect(worker, &TrainingWorker::trainingStarted, this, &SidePanel::showModel);
    connect(worker, &TrainingWorker::checkpointOpened, this, &SidePanel::showModel);
    connect(worker, &TrainingWorker::progress, this, &SidePanel::showModel);
    connect(worker, &TrainingWorker::modelImported, this, &SidePanel::showModel);
    connect(worker, &TrainingWorker::saved, this, &SidePanel::showModel);
}

chargpt::RunConfig SidePanel::settings() const {
    chargpt::RunConfig settings = settingsPanel_->settings();
    settings.fitEvaluations();
    return settings;
}

void SidePanel::reassess() {
    const chargpt::RunConfig settings = this->settings();
    const bool hasCorpus = training_->hasCorpus();
    const CorpusSummary& corpus = training_->corpus();
    const SettingsAssessment a = assessSettings(settings, hasCorpus ? corpus.readVocabularySize() : 0,
                                                hasCorpus ? corpus.readTokens() : -1, -1, corpusTrainingTokens());
    settingsPanel_->setAssessment(a);
    settingsPanel_->setTrainingTokens(corpusTrainingTokens());
    settingsPanel_->setPlannedPasses(a.passes, a.manyPasses);
    // The sentences keep the translation context of the window, which wrote them before.
    startBlocked_.clear();
    if (!a.problem.isEmpty())
        startBlocked_ = QCoreApplication::translate("MainWindow", "Start is disabled: %1").arg(a.problem);
    else if (!hasCorpus)
        startBlocked_ = QCoreApplication::translate("MainWindow", "Start is disabled until a corpus is loaded.");
    trainingPanel_->setStartBlockedReason(startBlocked_);
    TrainingController::storeSettings(settings);
}

qint64 SidePanel::corpusTrainingTokens() const {
    return training_->hasCorpus() ? training_->corpus().trainingTokens : 0;
}

void SidePanel::fitPresetToCorpus(qint64 trainingTokens) {
    // Only a preset as it was chosen (for the previous text, or for none):
    // numbers the user typed stay, and the passes line says what they mean.
    const chargpt::RunConfig current = settingsPanel_->settings();
    const QString preset = QString::fromStdString(current.preset_name);
    if (preset.isEmpty())
        return;
    if (!chargpt::samePresetFields(presetSettings(preset, fittedTokens_), current) &&
        !chargpt::samePresetFields(presetSettings(preset), current))
        return;
    settingsPanel_->setSettings(chargpt::withUserChoices(presetSettings(preset, trainingTokens), current));
    fittedTokens_ = trainingTokens;
}

void SidePanel::takeArchitecture(const chargpt::RunConfig& model, qint64 step) {
    chargpt::RunConfig settings = model;
    settings.preset_name = settingsPanel_->settings().preset_name;
    settings.threads = settingsPanel_->settings().threads;
    // A model that reached its own total would show that total, its step
    // count, as the Steps to train: the Steps set stay (it trains that many
    // more, as the field says). One stopped short keeps its total: Continue
    // finishes its run, on its learning-rate schedule.
    if (model.max_steps > 0 && step >= model.max_steps) {
        settings.max_steps = settingsPanel_->settings().max_steps;
        settings.time_limit_s = settingsPanel_->settings().time_limit_s;
    }
    settingsPanel_->setSettings(settings);
    reassess();
}

void SidePanel::showModel() {
    const ModelSummary& model = training_->model();
    trainingPanel_->setHasModel(model.exists, model.step, model.imported);
    qint64 weights = model.weightsStep.value_or(model.step);
    // Weights of the latest evaluation that were its best are no better than
    // the ones trained since: Restore best is offered once a later evaluation
    // did worse.
    if (!model.history.evaluations.empty() && model.bestStep == model.history.evaluations.back().step &&
        weights >= *model.bestStep)
        weights = *model.bestStep;
    trainingPanel_->setBest(model.exists ? model.bestStep : std::nullopt, model.bestValLoss, weights);
    if (model.exists)
        checkpointPanel_->showModel(model);
    else
        checkpointPanel_->clear();
}

void SidePanel::showState(RunState state) {
    trainingPanel_->setState(state);
    const bool idle = state == RunState::Idle;
    settingsPanel_->setEditable(idle);
    corpusPanel_->setChangeable(idle);
}
