// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The Inside tab: the logit lens, head knock-out, head roles over training,
// the feed-forward's neurons, the residual stream and the characters' map of the model at the step the window's timeline chose
// (docs/ARCHITECTURE.md, "One timeline"). The inspector computes an
// InsideFrame for that step and the page shows it in every view; the head
// roles' lines are the run's history, the scores of every step shown so far
// (bounded by kMaxRoleSteps). The knock-out table is measured on request, on
// the step shown. It only shows values: InspectionController feeds it.

#include <QVector>
#include <QWidget>

#include <optional>

#include "widgets/InsideData.h"

class CharacterMapView;
class FeedForwardView;
class HeadRolesView;
class KnockoutView;
class LogitLensView;
class QLabel;
class QTabWidget;
class ResidualStreamView;

class InsidePage : public QWidget {
    Q_OBJECT

public:
    // Steps on the head roles' lines; past this every other one goes (the
    // first, the newest and the step shown stay).
    static constexpr int kMaxRoleSteps = 400;

    explicit InsidePage(QWidget* parent = nullptr);

    // The model at the timeline's step: every view shows `frame`, and its
    // heads' scores join the head roles' lines (in place of those of the same
    // step). A frame of another shape starts the lines again.
    void showFrame(const InsideFrame& frame);
    // Forgets the frame shown, the head roles' lines and the knock-out table
    // (a new model, or another run on the timeline).
    void clear();
    void showProblem(const QString& message);
    // Step A of the timeline: the views that compare show the change since then.
    void setComparedStep(std::optional<qint64> step);

    void setKnockout(const Knockout& knockout);
    void setKnockoutProgress(int done, int total);
    void showKnockoutProblem(const QString& message);

    // The step of the frame shown; none when none is.
    std::optional<qint64> shownStep() const { return shownStep_; }
    QLabel* stepLabel() const { return stepLabel_; }
    QTabWidget* tabs() const { return tabs_; }
    LogitLensView* lensView() const { return lens_; }
    KnockoutView* knockoutView() const { return knockout_; }
    HeadRolesView* headRolesView() const { return roles_; }
    CharacterMapView* characterMapView() const { return map_; }
    FeedForwardView* feedForwardView() const { return feedForward_; }
    ResidualStreamView* residualView() const { return residual_; }

signals:
    void knockoutRequested();

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslateUi();
    void updateStepLabel();
    void addRoles(const InsideFrame& frame);
    // The red line: the shown frame's gaps, worded now, then its problem.
    void showProblemLine();

    QLabel* intro_ = nullptr;
    QLabel* stepLabel_ = nullptr;
    QLabel* problem_ = nullptr;
    QTabWidget* tabs_ = nullptr;
    LogitLensView* lens_ = nullptr;
    KnockoutView* knockout_ = nullptr;
    HeadRolesView* roles_ = nullptr;
    CharacterMapView* map_ = nullptr;
    FeedForwardView* feedForward_ = nullptr;
    ResidualStreamView* residual_ = nullptr;

    HeadRoles headRoles_;  // the lines: one frame per step shown, by increasing step
    std::optional<qint64> shownStep_;
    QVector<InsideGap> shownGaps_;
    QString shownProblem_;
};
