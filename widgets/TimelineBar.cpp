// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/TimelineBar.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>

#include <algorithm>

TimelineBar::TimelineBar(QWidget* parent) : QWidget(parent) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    timelineLabel_ = new QLabel(this);
    slider_ = new QSlider(Qt::Horizontal, this);
    slider_->setRange(0, 0);
    slider_->setEnabled(false);
    frameLabel_ = new QLabel(this);
    frameLabel_->setMinimumWidth(frameLabel_->fontMetrics().horizontalAdvance(QStringLiteral("0")) * 28);
    layout->addWidget(timelineLabel_);
    layout->addWidget(slider_, 1);
    layout->addWidget(frameLabel_);

    connect(slider_, &QSlider::valueChanged, this, [this](int index) {
        updateFrameLabel();
        emit frameChosen(index);
    });
    retranslateUi();
}

void TimelineBar::setSteps(const QVector<qint64>& steps, bool toEnd) {
    steps_ = steps;
    {
        const QSignalBlocker blocker(slider_);
        slider_->setRange(0, std::max(0, int(steps_.size()) - 1));
        slider_->setEnabled(steps_.size() > 1);
        if (toEnd)
            slider_->setValue(slider_->maximum());
    }
    updateFrameLabel();
}

bool TimelineBar::atEnd() const { return slider_->value() >= slider_->maximum(); }

void TimelineBar::updateFrameLabel() {
    if (steps_.isEmpty()) {
        frameLabel_->setText(tr("no snapshot yet"));
        return;
    }
    const int index = std::min(slider_->value(), int(steps_.size()) - 1);
    frameLabel_->setText(tr("step %1 (%2 of %3)").arg(steps_[index]).arg(index + 1).arg(steps_.size()));
}

void TimelineBar::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void TimelineBar::retranslateUi() {
    timelineLabel_->setText(tr("Timeline:"));
    updateFrameLabel();
}
