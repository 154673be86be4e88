// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/TimelineControls.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSlider>

#include <algorithm>
#include <iterator>

#include "widgets/PlainToolTip.h"
#include "widgets/Timeline.h"

namespace {

// The speeds Play offers, in steps a second.
constexpr double kSpeeds[] = {0.5, 1.0, 2.0, 4.0, 8.0};

}  // namespace

TimelineControls::TimelineControls(Timeline* timeline, QWidget* parent) : QWidget(parent), timeline_(timeline) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 2, 6, 2);
    timelineLabel_ = new QLabel(this);
    play_ = new QPushButton(this);
    play_->setObjectName(QStringLiteral("timelinePlay"));
    play_->setCheckable(true);
    slider_ = new QSlider(Qt::Horizontal, this);
    slider_->setObjectName(QStringLiteral("timelineSlider"));
    slider_->setRange(0, 0);
    slider_->setPageStep(1);
    stepLabel_ = new QLabel(this);
    stepLabel_->setMinimumWidth(stepLabel_->fontMetrics().horizontalAdvance(QStringLiteral("0")) * 32);
    mark_ = new QPushButton(this);
    mark_->setObjectName(QStringLiteral("timelineMark"));
    mark_->setCheckable(true);
    speedLabel_ = new QLabel(this);
    speed_ = new QComboBox(this);
    speed_->setObjectName(QStringLiteral("timelineSpeed"));
    for (double s : kSpeeds)
        speed_->addItem(QString(), s);
    speed_->setCurrentIndex(int(std::find(std::begin(kSpeeds), std::end(kSpeeds), timeline_->speed()) - std::begin(kSpeeds)));
    layout->addWidget(timelineLabel_);
    layout->addWidget(play_);
    layout->addWidget(slider_, 1);
    layout->addWidget(stepLabel_);
    layout->addWidget(mark_);
    layout->addWidget(speedLabel_);
    layout->addWidget(speed_);

    connect(slider_, &QSlider::valueChanged, timeline_, &Timeline::choose);
    connect(play_, &QPushButton::clicked, timeline_, &Timeline::setPlaying);
    connect(speed_, &QComboBox::currentIndexChanged, this,
            [this](int index) { timeline_->setSpeed(speed_->itemData(index).toDouble()); });
    connect(mark_, &QPushButton::clicked, timeline_, [this] {
        if (timeline_->markedStep())
            timeline_->clearMark();
        else
            timeline_->markChosen();
        updateMark();  // also when nothing changed: the button shows the timeline's state
    });
    connect(timeline_, &Timeline::markChanged, this, &TimelineControls::updateMark);
    connect(timeline_, &Timeline::stepsChanged, this, &TimelineControls::updateSteps);
    connect(timeline_, &Timeline::stepChosen, this, &TimelineControls::updateChoice);
    connect(timeline_, &Timeline::playingChanged, this, [this](bool playing) {
        play_->setChecked(playing);
        retranslateUi();
    });
    updateSteps();
    retranslateUi();
}

void TimelineControls::updateSteps() {
    const QSignalBlocker blocker(slider_);
    slider_->setRange(0, std::max(0, int(timeline_->steps().size()) - 1));
    slider_->setEnabled(timeline_->steps().size() > 1);
    play_->setEnabled(timeline_->steps().size() > 1);
    updateChoice();
}

void TimelineControls::updateChoice() {
    {
        const QSignalBlocker blocker(slider_);
        slider_->setValue(timeline_->chosenIndex().value_or(0));
    }
    updateMark();
    const std::optional<qint64> step = timeline_->chosenStep();
    if (!step) {
        stepLabel_->setText(tr("no snapshot yet"));
        return;
    }
    const QString where = tr("step %1 (%2 of %3)")
                              .arg(*step)
                              .arg(timeline_->chosenIndex().value_or(0) + 1)
                              .arg(timeline_->steps().size());
    if (const std::optional<qint64> run = timeline_->run(); !timeline_->isLive() && run)
        stepLabel_->setText(tr("run %1, %2").arg(*run).arg(where));
    else if (timeline_->atLiveStep())
        stepLabel_->setText(tr("%1, newest").arg(where));
    else
        stepLabel_->setText(where);
}

void TimelineControls::updateMark() {
    const std::optional<qint64> mark = timeline_->markedStep();
    mark_->setChecked(mark.has_value());
    mark_->setEnabled(mark || timeline_->chosenIsKept());
    if (mark) {
        mark_->setText(tr("A: step %1").arg(*mark));
        mark_->setToolTip(plainToolTip(tr("The Surprise tab colours each character by what the model learned "
                                          "between step %1 (A) and the step shown. Click to stop comparing.")
                                           .arg(*mark)));
    } else {
        mark_->setText(tr("Mark A"));
        mark_->setToolTip(plainToolTip(tr("Mark the step shown as A, then move the timeline: the Surprise tab "
                                          "colours each character by what the model learned between A and the "
                                          "step shown. Only steps whose weights the run keeps can be marked.")));
    }
}

void TimelineControls::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void TimelineControls::retranslateUi() {
    timelineLabel_->setText(tr("Timeline:"));
    play_->setText(timeline_->isPlaying() ? tr("Pause") : tr("Play"));
    slider_->setToolTip(plainToolTip(tr("The step every view shows. At the right end it follows the newest step "
                                        "while the model trains; anywhere else the views recompute at that step "
                                        "from the weights the run library keeps.")));
    speedLabel_->setText(tr("Speed:"));
    for (int i = 0; i < speed_->count(); ++i)
        speed_->setItemText(i, tr("%1/s").arg(QLocale().toString(speed_->itemData(i).toDouble())));
    updateChoice();
}
