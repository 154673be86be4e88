// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

class QComboBox;
class QLabel;
class QPushButton;
class QSlider;
class Timeline;

// The window's one timeline bar, shown once under the tabs: Play/Pause, a
// slider over the steps of the run on screen, where it stands ("step 40 (3 of
// 7)", the run when it is a past one), Mark A (the step to compare with) and
// the speed of Play. It shows the
// Timeline and hands it the user's choices; the Timeline keeps the state.
class TimelineControls : public QWidget {
    Q_OBJECT

public:
    // The timeline stays the caller's and must outlive the bar.
    explicit TimelineControls(Timeline* timeline, QWidget* parent = nullptr);

    QSlider* slider() const { return slider_; }
    QPushButton* playButton() const { return play_; }
    QComboBox* speedBox() const { return speed_; }
    QLabel* stepLabel() const { return stepLabel_; }
    QPushButton* markButton() const { return mark_; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslateUi();
    void updateSteps();
    void updateChoice();
    void updateMark();

    Timeline* timeline_;
    QLabel* timelineLabel_ = nullptr;
    QPushButton* play_ = nullptr;
    QSlider* slider_ = nullptr;
    QLabel* stepLabel_ = nullptr;
    QPushButton* mark_ = nullptr;
    QLabel* speedLabel_ = nullptr;
    QComboBox* speed_ = nullptr;
};
