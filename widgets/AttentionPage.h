// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <QTimer>
#include <QVector>
#include <QWidget>

#include "widgets/AttentionData.h"
#include "widgets/StudioValues.h"
#include "widgets/TimelineBar.h"

class AttentionGrid;
class AttentionOverview;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QSlider;
class QSpinBox;

// The probe's attention as a bounded series of snapshots: at most `capacity`
// kept, thinned evenly (every other one dropped, then only every 2nd, 4th, ...
// new one kept) so the series always spans the whole run; the newest is always
// kept as the last frame. Weights are stored as bytes (1/254 steps), which is
// finer than a colour scale shows.
class AttentionTimeline {
public:
    explicit AttentionTimeline(qint64 budgetBytes = 128LL << 20, int maxFrames = 200)
        : budgetBytes_(budgetBytes), maxFrames_(maxFrames) {}

    void clear();
    void add(qint64 step, const ModelAttention& attention);
    int size() const { return int(frames_.size()); }
    qint64 step(int index) const { return frames_[index].step; }
    QVector<qint64> steps() const;  // of every frame, oldest first
    ModelAttention attention(int index) const;
    int capacity() const { return capacity_; }
    qint64 bytes() const;

private:
    struct Frame {
        qint64 step = 0;
        QStringList characters;
        int layers = 0, heads = 0;
        QByteArray weights;  // layers x heads x T x T, 255 where masked
    };
    qint64 budgetBytes_;
    int maxFrames_;
    int capacity_ = 0;
    QVector<Frame> frames_;
    bool lastIsExtra_ = false;  // the last frame is the newest, kept outside the stride
    qint64 arrivals_ = 0;
    qint64 stride_ = 1;
};

// The Attention tab: a probe text, a layer, that layer's heads in a grid (sort,
// enlarge on click, export), all layers x heads at a glance, and a timeline
// slider replaying the snapshots taken during training. It only shows values;
// whoever owns the model computes them.
class AttentionPage : public QWidget {
    Q_OBJECT

public:
    explicit AttentionPage(QWidget* parent = nullptr);

    QString probeText() const;
    void setProbeText(const QString& text);  // emits probeChanged
    // A new result for the probe: kept in the timeline and shown when the
    // slider is at its end. `milliseconds`: how long the computation took.
    void addAttention(const AttentionProbe& probe, qint64 step, double milliseconds);
    // A result at a step the window's timeline chose (weights the run library
    // keeps): shown at once, not kept in the page's own timeline.
    void showAttention(const AttentionProbe& probe, qint64 step, double milliseconds);
    void showProblem(const QString& message);
    // Forgets the timeline (a new model or probe).
    void clear();

    int layer() const;
    void setLayer(int layer);
    const ModelAttention& shownAttention() const { return shown_; }
    qint64 shownStep() const { return shownStep_; }
    const AttentionTimeline& timeline() const { return timeline_; }
    void showTimelineFrame(int index);

    AttentionGrid* grid() const { return grid_; }
    AttentionOverview* overview() const { return overview_; }
    QSlider* timelineSlider() const { return timelineBar_->slider(); }
    QSpinBox* layerSpin() const { return layerSpin_; }
    QPlainTextEdit* probeEdit() const { return probeEdit_; }

signals:
    void probeChanged(const QString& text);  // after typing pauses
    void refreshRequested();

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslateUi();
    void show(const ModelAttention& attention, qint64 step);
    void noteResult(const AttentionProbe& probe, qint64 step, double milliseconds);

    QLabel* probeLabel_ = nullptr;
    QPlainTextEdit* probeEdit_ = nullptr;
    QLabel* layerLabel_ = nullptr;
    QSpinBox* layerSpin_ = nullptr;
    QPushButton* refreshButton_ = nullptr;
    QLabel* statusLabel_ = nullptr;
    AttentionGrid* grid_ = nullptr;
    AttentionOverview* overview_ = nullptr;
    TimelineBar* timelineBar_ = nullptr;
    QTimer probeTimer_;

    AttentionTimeline timeline_;
    ModelAttention shown_;
    qint64 shownStep_ = -1;
    // What the status line says about the last result, kept as values so a
    // change of language rewrites it.
    struct Status {
        bool valid = false;
        qint64 step = 0;
        int characters = 0;
        double milliseconds = 0.0;
        QStringList unknownCharacters;
        int croppedCharacters = 0;
    } status_;
    QString problem_;
    void updateStatus();
};
