// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QGroupBox>

#include "widgets/StudioValues.h"

class QLabel;
class QProgressBar;
class QPushButton;

// Start, Pause/Resume, Stop, Reset and Restore best, with the run's progress:
// a bar with step/total and passes over the text (epochs), ETA, tokens per
// second, elapsed time and the latest losses.
class TrainingPanel : public QGroupBox {
    Q_OBJECT

public:
    explicit TrainingPanel(QWidget* parent = nullptr);

    // Shows the run's state (the buttons follow it); the panel never decides it.
    void setState(RunState state);
    RunState state() const { return state_; }
    // Why Start is disabled (empty: it may start).
    void setStartBlockedReason(const QString& reason);
    // `trainedElsewhere`: a model imported at step 0 that already learned (in
    // Python); the button then says Continue as for a model trained here.
    void setHasModel(bool hasModel, qint64 step, bool trainedElsewhere = false);

    void showProgress(const TrainingProgress& progress);

    // The evaluation with the lowest validation loss (none yet: no bestStep) and
    // the step the model's weights are from (its step, unless Restore best put
    // earlier weights back). Restore best is offered when the two differ, while
    // idle, paused or training (the worker swaps the weights between two steps).
    void setBest(std::optional<qint64> bestStep, double bestValLoss, qint64 weightsStep);

    QPushButton* startButton() const { return startButton_; }
    QPushButton* pauseButton() const { return pauseButton_; }
    QPushButton* stopButton() const { return stopButton_; }
    QPushButton* resetButton() const { return resetButton_; }
    QPushButton* restoreBestButton() const { return restoreBestButton_; }
    QProgressBar* progressBar() const { return progressBar_; }
    QString startBlockedText() const;

    static QString formatDuration(double seconds);

signals:
    void startClicked();
    void pauseClicked();
    void resumeClicked();
    void stopClicked();
    void resetClicked();
    void restoreBestClicked();

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslateUi();
    void refresh();

    QPushButton *startButton_ = nullptr, *pauseButton_ = nullptr, *stopButton_ = nullptr, *resetButton_ = nullptr,
                *restoreBestButton_ = nullptr;
    QProgressBar* progressBar_ = nullptr;
    QLabel* figuresLabel_ = nullptr;
    QLabel* stateLabel_ = nullptr;
    QLabel* blockedLabel_ = nullptr;
    RunState state_ = RunState::Idle;
    QString blockedReason_;
    bool hasModel_ = false;
    qint64 modelStep_ = 0;
    bool trainedElsewhere_ = false;
    TrainingProgress progress_;
    bool hasProgress_ = false;
    std::optional<qint64> bestStep_;
    double bestValLoss_ = 0.0;
    std::optional<qint64> weightsStep_;  // of the model shown; none: no model
};
