// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/TrainingPanel.h"

#include <QEvent>
#include <QGridLayout>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

TrainingPanel::TrainingPanel(QWidget* parent) : QGroupBox(parent) {
    auto* layout = new QVBoxLayout(this);
    auto* buttons = new QGridLayout;
    startButton_ = new QPushButton(this);
    startButton_->setObjectName(QStringLiteral("startButton"));
    startButton_->setDefault(true);
    pauseButton_ = new QPushButton(this);
    pauseButton_->setObjectName(QStringLiteral("pauseButton"));
    stopButton_ = new QPushButton(this);
    stopButton_->setObjectName(QStringLiteral("stopButton"));
    resetButton_ = new QPushButton(this);
    resetButton_->setObjectName(QStringLiteral("resetButton"));
    buttons->addWidget(startButton_, 0, 0);
    buttons->addWidget(pauseButton_, 0, 1);
    buttons->addWidget(stopButton_, 1, 0);
    buttons->addWidget(resetButton_, 1, 1);
    restoreBestButton_ = new QPushButton(this);
    restoreBestButton_->setObjectName(QStringLiteral("restoreBestButton"));
    buttons->addWidget(restoreBestButton_, 2, 0, 1, 2);
    layout->addLayout(buttons);

    blockedLabel_ = new QLabel(this);
    blockedLabel_->setTextFormat(Qt::PlainText);  // messages name files and hold text read from them: never markup
    blockedLabel_->setObjectName(QStringLiteral("startBlocked"));
    blockedLabel_->setWordWrap(true);
    blockedLabel_->setStyleSheet(QStringLiteral("color: #b00020;"));
    layout->addWidget(blockedLabel_);

    progressBar_ = new QProgressBar(this);
    progressBar_->setObjectName(QStringLiteral("progressBar"));
    layout->addWidget(progressBar_);
    stateLabel_ = new QLabel(this);
    layout->addWidget(stateLabel_);
    figuresLabel_ = new QLabel(this);
    figuresLabel_->setObjectName(QStringLiteral("trainingFigures"));
    figuresLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(figuresLabel_);

    connect(startButton_, &QPushButton::clicked, this, &TrainingPanel::startClicked);
    connect(pauseButton_, &QPushButton::clicked, this, [this] {
        if (state_ == RunState::Paused)
            emit resumeClicked();
        else
            emit pauseClicked();
    });
    connect(stopButton_, &QPushButton::clicked, this, &TrainingPanel::stopClicked);
    connect(resetButton_, &QPushButton::clicked, this, &TrainingPanel::resetClicked);
    connect(restoreBestButton_, &QPushButton::clicked, this, &TrainingPanel::restoreBestClicked);
    retranslateUi();
}

void TrainingPanel::setState(RunState state) {
    state_ = state;
    refresh();
}

void TrainingPanel::setStartBlockedReason(const QString& reason) {
    blockedReason_ = reason;
    refresh();
}

void TrainingPanel::setHasModel(bool hasModel, qint64 step, bool trainedElsewhere) {
    hasModel_ = hasModel;
    modelStep_ = step;
    trainedElsewhere_ = trainedElsewhere;
    if (!hasModel)
        hasProgress_ = false;
    refresh();
}

void TrainingPanel::showProgress(const TrainingProgress& progress) {
    progress_ = progress;
    hasProgress_ = true;
    refresh();
}

void TrainingPanel::setBest(std::optional<qint64> bestStep, double bestValLoss, qint64 weightsStep) {
    bestStep_ = bestStep;
    bestValLoss_ = bestValLoss;
    weightsStep_ = weightsStep;
    refresh();
}

QString TrainingPanel::startBlockedText() const { return blockedLabel_->isHidden() ? QString() : blockedLabel_->text(); }

QString TrainingPanel::formatDuration(double seconds) {
    if (!std::isfinite(seconds) || seconds < 0)
        return QStringLiteral("–");
    const qint64 s = qint64(std::llround(seconds));
    if (s >= 3600)
        return QStringLiteral("%1:%2:%3").arg(s / 3600).arg(s / 60 % 60, 2, 10, QLatin1Char('0')).arg(s % 60, 2, 10, QLatin1Char('0'));
    return QStringLiteral("%1:%2").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'));
}

void TrainingPanel::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QGroupBox::changeEvent(event);
}

void TrainingPanel::retranslateUi() {
    setTitle(tr("Training"));
    startButton_->setToolTip(tr("Train the model on the corpus with these settings"));
    stopButton_->setText(tr("Stop"));
    stopButton_->setToolTip(tr("End the run (the model is kept and autosaved)"));
    resetButton_->setText(tr("Reset"));
    resetButton_->setToolTip(tr("Forget the trained model and start again from random weights"));
    restoreBestButton_->setText(tr("Restore best"));
    refresh();
}

void TrainingPanel::refresh() {
    const bool running = state_ == RunState::Training || state_ == RunState::Paused;
    const bool idle = state_ == RunState::Idle;
    startButton_->setText(hasModel_ && (modelStep_ > 0 || trainedElsewhere_) ? tr("Continue") : tr("Start"));
    startButton_->setEnabled(idle && blockedReason_.isEmpty());
    pauseButton_->setText(state_ == RunState::Paused ? tr("Resume") : tr("Pause"));
    pauseButton_->setEnabled(running);
    stopButton_->setEnabled(running || state_ == RunState::Starting);
    resetButton_->setEnabled(idle && hasModel_);
    const QLocale locale;
    const bool hasBest = bestStep_.has_value();
    const bool bestIsElsewhere = hasBest && bestStep_ != weightsStep_;
    restoreBestButton_->setEnabled(
        hasModel_ && bestIsElsewhere &&
        (idle || state_ == RunState::Paused || state_ == RunState::Training));
    if (!hasBest)
        restoreBestButton_->setToolTip(
            tr("Puts back the weights of the evaluation with the lowest validation loss: none yet"));
    else if (bestIsElsewhere)
        restoreBestButton_->setToolTip(tr("Put back the weights of step %1, where validation loss was lowest (%2)")
                                           .arg(locale.toString(*bestStep_), locale.toString(bestValLoss_, 'f', 2)));
    else
        restoreBestButton_->setToolTip(tr("The weights are those of step %1, where validation loss was lowest (%2)")
                                           .arg(locale.toString(*bestStep_), locale.toString(bestValLoss_, 'f', 2)));

    if (blockedReason_.isEmpty() || !idle) {
        blockedLabel_->hide();
    } else {
        blockedLabel_->setText(blockedReason_);
        blockedLabel_->show();
    }

    switch (state_) {
        case RunState::Idle:
            stateLabel_->setText(
                hasModel_ ? tr("Ready (model at step %1)").arg(QLocale().toString(modelStep_)) : tr("Ready"));
            break;
        case RunState::Starting: stateLabel_->setText(tr("Preparing the data…")); break;
        case RunState::Training: stateLabel_->setText(tr("Training…")); break;
        case RunState::Paused: stateLabel_->setText(tr("Paused")); break;
        case RunState::Stopping: stateLabel_->setText(tr("Stopping…")); break;
    }

    if (!hasProgress_) {
        // No run in this window yet: the model opened or imported is at its own step.
        progressBar_->setRange(0, 1);
        progressBar_->setValue(hasModel_ ? 1 : 0);
        progressBar_->setFormat(hasModel_ ? tr("model at step %1").arg(locale.toString(modelStep_)) : tr("no run yet"));
        figuresLabel_->setText(QString());
        return;
    }
    const TrainingProgress& p = progress_;
    if (p.totalSteps > 0) {
        progressBar_->setRange(0, int(std::min<qint64>(p.totalSteps, INT32_MAX)));
        progressBar_->setValue(int(std::min<qint64>(p.step, p.totalSteps)));
        progressBar_->setFormat(tr("step %1 / %2").arg(locale.toString(p.step), locale.toString(p.totalSteps)));
    } else {
        progressBar_->setRange(0, 1000);
        const double fraction = p.timeLimitSeconds > 0 ? p.elapsedSeconds / p.timeLimitSeconds : 0.0;
        progressBar_->setValue(int(std::clamp(fraction, 0.0, 1.0) * 1000));
        progressBar_->setFormat(tr("step %1").arg(locale.toString(p.step)));
    }
    // Passes over the training text so far: how many times each character has
    // been read, the figure that tells memorising is coming.
    if (std::isfinite(p.passes) && p.passes >= 0.0)
        progressBar_->setFormat(tr("%1 · epoch %2").arg(progressBar_->format(), locale.toString(p.passes, 'f', 1)));
    const auto number = [&](double value) {
        return std::isfinite(value) ? locale.toString(value, 'f', 4) : QStringLiteral("–");
    };
    // The time left only while the run goes: a run that ended has none.
    const bool going = state_ == RunState::Training || state_ == RunState::Paused || state_ == RunState::Starting;
    figuresLabel_->setText(tr("loss %1 · validation %2\n%3 tokens/s · elapsed %4 · ETA %5")
                               .arg(number(p.loss), number(p.lastValLoss),
                                    locale.toString(p.tokensPerSecond, 'f', 0),
                                    formatDuration(p.elapsedSeconds),
                                    going ? formatDuration(p.etaSeconds) : QStringLiteral("–")));
}
