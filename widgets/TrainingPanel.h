// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QGroupBox>

#include <limits>

class QLabel;
class QProgressBar;
class QPushButton;

// Start, Pause/Resume, Stop and Reset, with the run's progress: a bar with
// step/total, ETA, tokens per second, elapsed time and the latest losses.
class TrainingPanel : public QGroupBox {
    Q_OBJECT

public:
    enum class State { Idle, Starting, Training, Paused, Stopping };

    explicit TrainingPanel(QWidget* parent = nullptr);

    void setState(State state);
    State state() const { return state_; }
    // Why Start is disabled (empty: it may start).
    void setStartBlockedReason(const QString& reason);
    // `trainedElsewhere`: a model imported at step 0 that already learned (in
    // Python); the button then says Continue as for a model trained here.
    void setHasModel(bool hasModel, qint64 step, bool trainedElsewhere = false);

    struct Progress {
        qint64 step = 0;
        qint64 totalSteps = 0;  // 0: only a time limit
        double elapsedSeconds = 0.0;
        double timeLimitSeconds = 0.0;
        double etaSeconds = std::numeric_limits<double>::quiet_NaN();
        double tokensPerSecond = 0.0;
        double loss = std::numeric_limits<double>::quiet_NaN();
        double valLoss = std::numeric_limits<double>::quiet_NaN();
    };
    void showProgress(const Progress& progress);

    QPushButton* startButton() const { return startButton_; }
    QPushButton* pauseButton() const { return pauseButton_; }
    QPushButton* stopButton() const { return stopButton_; }
    QPushButton* resetButton() const { return resetButton_; }
    QString startBlockedText() const;

    static QString formatDuration(double seconds);

signals:
    void startClicked();
    void pauseClicked();
    void resumeClicked();
    void stopClicked();
    void resetClicked();

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslateUi();
    void refresh();

    QPushButton *startButton_ = nullptr, *pauseButton_ = nullptr, *stopButton_ = nullptr, *resetButton_ = nullptr;
    QProgressBar* progressBar_ = nullptr;
    QLabel* figuresLabel_ = nullptr;
    QLabel* stateLabel_ = nullptr;
    QLabel* blockedLabel_ = nullptr;
    State state_ = State::Idle;
    QString blockedReason_;
    bool hasModel_ = false;
    qint64 modelStep_ = 0;
    bool trainedElsewhere_ = false;
    Progress progress_;
    bool hasProgress_ = false;
};
