// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The window's left column: the corpus, the settings and the model in a
// scroll area, the training controls below it, always in sight. It shows
// what the TrainingController says (the run state, the model) and checks
// the settings as they are edited: whether Start may start, and why not.

#include <QString>
#include <QWidget>

#include "app/StudioTypes.h"

class CheckpointPanel;
class CorpusPanel;
class SettingsPanel;
class TrainingController;
class TrainingPanel;

class SidePanel : public QWidget {
    Q_OBJECT

public:
    explicit SidePanel(TrainingController* training, QWidget* parent = nullptr);

    CorpusPanel* corpusPanel() const { return corpusPanel_; }
    SettingsPanel* settingsPanel() const { return settingsPanel_; }
    TrainingPanel* trainingPanel() const { return trainingPanel_; }
    // The panel's settings, with about as many evaluations whatever the steps
    // (chargpt::RunConfig::fitEvaluations): what trains.
    chargpt::RunConfig settings() const;

    // Checks the settings against the loaded corpus, says under Start why it
    // may not start (startBlockedReason()), and stores them.
    void reassess();
    QString startBlockedReason() const { return startBlocked_; }
    // The settings of a model opened or imported, at `step`; preset and
    // threads stay, and so do Steps and the time limit when it reached its total.
    void takeArchitecture(const chargpt::RunConfig& model, qint64 step);
    void showModel();

private:
    void showState(RunState state);
    // The training part of the loaded corpus, in tokens (0: none loaded).
    qint64 corpusTrainingTokens() const;
    // A preset left as chosen is fitted again to a newly loaded text.
    void fitPresetToCorpus(qint64 trainingTokens);

    TrainingController* training_;
    CorpusPanel* corpusPanel_ = nullptr;
    SettingsPanel* settingsPanel_ = nullptr;
    TrainingPanel* trainingPanel_ = nullptr;
    CheckpointPanel* checkpointPanel_ = nullptr;
    QString startBlocked_;  // why Start may not start now, or empty
    qint64 fittedTokens_ = 0;  // the training text the shown preset was fitted to
};
