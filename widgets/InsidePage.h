// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The Inside tab: the logit lens, head knock-out, head roles over training and
// the characters' map, under one timeline of the snapshots of the run. The
// page keeps one InsideFrame per snapshot (thinned past kMaxFrames, the first
// and the newest always kept); moving the timeline moves every view to that
// step. The knock-out table is measured on request, on the newest snapshot.
// It only shows values: InspectionController feeds it.

#include <QVector>
#include <QWidget>

#include "widgets/InsideData.h"

class CharacterMapView;
class HeadRolesView;
class KnockoutView;
class LogitLensView;
class QLabel;
class QTabWidget;
class TimelineBar;

class InsidePage : public QWidget {
    Q_OBJECT

public:
    static constexpr int kMaxFrames = 120;
    // The characters' map keeps each character's neighbours for this many of
    // the newest frames (hovering an older one says none were kept).
    static constexpr int kFramesWithNeighbours = 8;

    explicit InsidePage(QWidget* parent = nullptr);

    // A new snapshot's frame: kept, added to the head roles and the map, and
    // shown when the timeline is at its end.
    void addFrame(const InsideFrame& frame);
    // Forgets every frame and the knock-out table (a new model).
    void clear();
    void showProblem(const QString& message);

    void setKnockout(const Knockout& knockout);
    void setKnockoutProgress(int done, int total);
    void showKnockoutProblem(const QString& message);

    int frameCount() const { return int(steps_.size()); }
    qint64 frameStep(int index) const { return steps_[index]; }
    // Shows frame `index` in every view, as the timeline does.
    void showFrame(int index);

    TimelineBar* timeline() const { return timeline_; }
    QTabWidget* tabs() const { return tabs_; }
    LogitLensView* lensView() const { return lens_; }
    KnockoutView* knockoutView() const { return knockout_; }
    HeadRolesView* headRolesView() const { return roles_; }
    CharacterMapView* characterMapView() const { return map_; }

signals:
    void knockoutRequested();

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslateUi();
    void thin();
    void updateTimeline(bool toEnd);

    QLabel* intro_ = nullptr;
    QLabel* problem_ = nullptr;
    QTabWidget* tabs_ = nullptr;
    LogitLensView* lens_ = nullptr;
    KnockoutView* knockout_ = nullptr;
    HeadRolesView* roles_ = nullptr;
    CharacterMapView* map_ = nullptr;
    TimelineBar* timeline_ = nullptr;

    // One entry per frame, oldest first; headRoles_.frames and map_.frames
    // hold the same steps.
    QVector<qint64> steps_;
    QVector<LogitLens> lenses_;
    HeadRoles headRoles_;
    CharacterMap characterMap_;
    int shown_ = -1;
};
