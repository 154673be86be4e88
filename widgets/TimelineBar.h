// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QVector>
#include <QWidget>

class QLabel;
class QSlider;

// The bar under a view that replays the snapshots of a run: "Timeline:", a
// slider over the frames, and where it stands ("step 40 (3 of 7)", or "no
// snapshot yet"). The view keeps the frames, tells the bar their steps, and
// shows the frame the bar chooses; the slider's tooltip and object name are
// the view's to set.
class TimelineBar : public QWidget {
    Q_OBJECT

public:
    explicit TimelineBar(QWidget* parent = nullptr);

    // The frames now in the timeline, by their steps, oldest first. With
    // `toEnd` the slider moves to the newest; otherwise it stays at its index
    // (within the new range). Neither emits frameChosen. The slider is enabled
    // from two frames on.
    void setSteps(const QVector<qint64>& steps, bool toEnd);
    // Whether the slider is at the newest frame, or there is none: a frame
    // that arrives now is to be shown at once.
    bool atEnd() const;
    int frameCount() const { return int(steps_.size()); }

    QSlider* slider() const { return slider_; }
    QLabel* frameLabel() const { return frameLabel_; }

signals:
    // The slider moved to frame `index`.
    void frameChosen(int index);

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslateUi();
    void updateFrameLabel();

    QLabel* timelineLabel_ = nullptr;
    QSlider* slider_ = nullptr;
    QLabel* frameLabel_ = nullptr;
    QVector<qint64> steps_;
};
