// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QTimer>
#include <QVector>

#include <optional>

// The window's one timeline (docs/ARCHITECTURE.md, "One timeline"): the steps
// at which the run on screen has weights to show, the step chosen among them,
// and Play/Pause at a speed. The views that replay follow stepChosen; the
// TimelineControls show it once under the tabs.
//
// The run on screen is either the model the training worker holds (live: the
// steps the run library keeps of its run up to the model's newest step, and
// that step at the end, which the choice follows unless the user moved it), or a past run of
// the library (its kept steps only; the newest is chosen when it is opened).
class Timeline : public QObject {
    Q_OBJECT

public:
    explicit Timeline(QObject* parent = nullptr);

    // Shows the live model; its run is not known until setKeptSteps. The
    // steps start afresh and the choice follows the newest.
    void showLive();
    // Shows past run `run` with its kept steps; the newest is chosen.
    void showRun(qint64 run, const QVector<qint64>& steps);
    // The live model's run and the steps the library keeps of it (ignored
    // while a past run is shown).
    void setKeptSteps(qint64 run, const QVector<qint64>& steps);
    // The newest step of the live model, or none (ignored while a past run is shown).
    void setLiveStep(std::optional<qint64> step);

    bool isLive() const { return live_; }
    // The run whose kept steps are on the timeline; none when none is known.
    std::optional<qint64> run() const { return run_; }
    // Every step, oldest first, each once.
    const QVector<qint64>& steps() const { return steps_; }
    // None when there is no step.
    std::optional<int> chosenIndex() const { return chosen_; }
    std::optional<qint64> chosenStep() const;
    // The chosen step is the live model's newest: the views show the model as it is.
    bool atLiveStep() const;
    // The chosen step's weights are kept in the run library (to be read from there).
    bool chosenIsKept() const;
    // The choice moves to each newest step as it comes (until the user moves it).
    bool followsNewest() const { return follow_; }

    // The user's choice: the timeline follows the newest again only when
    // `index` is the last.
    void choose(int index);
    // The step itself, or the latest before it (the first when none is).
    void chooseStep(qint64 step);

    // Step A of a comparison: a step of the run on screen whose weights are
    // kept, or none. The views that compare (the Surprise tab) show what changed
    // between A and the chosen step. Another run on screen clears it.
    std::optional<qint64> markedStep() const { return mark_; }
    // Marks the chosen step as A; nothing (false) when its weights are not kept.
    bool markChosen();
    void clearMark();
    bool isPlaying() const { return timer_.isActive(); }
    // Play moves on one step every 1/speed seconds and stops at the newest;
    // from the newest it starts again at the oldest.
    void setPlaying(bool playing);
    double speed() const { return speed_; }
    // Steps a second, within 0.25..20.
    void setSpeed(double stepsPerSecond);

signals:
    void stepsChanged();
    // The chosen step changed (the user, Play, or the newest step followed),
    // or the run on screen did.
    void stepChosen(qint64 step);
    void playingChanged(bool playing);
    // Step A was marked or cleared.
    void markChanged();

private:
    void rebuild(bool runChanged);
    void setChosen(int index, bool announce);
    void advance();

    bool live_ = true;
    std::optional<qint64> run_;
    QVector<qint64> kept_;
    std::optional<qint64> liveStep_;
    std::optional<qint64> mark_;
    QVector<qint64> steps_;
    std::optional<int> chosen_;
    bool follow_ = true;
    double speed_ = 2.0;
    QTimer timer_;
};
