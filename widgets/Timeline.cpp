// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/Timeline.h"

#include <algorithm>
#include <cmath>

Timeline::Timeline(QObject* parent) : QObject(parent) {
    connect(&timer_, &QTimer::timeout, this, &Timeline::advance);
    timer_.setInterval(int(std::lround(1000.0 / speed_)));
}

void Timeline::showLive() {
    live_ = true;
    run_.reset();
    kept_.clear();
    liveStep_.reset();
    follow_ = true;
    setPlaying(false);
    rebuild(/*runChanged=*/true);
}

void Timeline::showRun(qint64 run, const QVector<qint64>& steps) {
    live_ = false;
    run_ = run;
    kept_ = steps;
    liveStep_.reset();
    follow_ = true;
    setPlaying(false);
    rebuild(/*runChanged=*/true);
}

void Timeline::setKeptSteps(qint64 run, const QVector<qint64>& steps) {
    if (!live_ || (run == run_ && steps == kept_))
        return;
    run_ = run;
    kept_ = steps;
    rebuild(/*runChanged=*/false);
}

void Timeline::setLiveStep(std::optional<qint64> step) {
    if (!live_ || step == liveStep_)
        return;
    liveStep_ = step;
    rebuild(/*runChanged=*/false);
}

std::optional<qint64> Timeline::chosenStep() const {
    if (!chosen_) return std::nullopt;
    return steps_[*chosen_];
}

bool Timeline::atLiveStep() const { return live_ && liveStep_ && chosenStep() == liveStep_; }

bool Timeline::chosenIsKept() const {
    const std::optional<qint64> step = chosenStep();
    return step && run_ && kept_.contains(*step);
}

void Timeline::choose(int index) {
    if (steps_.isEmpty())
        return;
    index = std::clamp(index, 0, int(steps_.size()) - 1);
    follow_ = index == steps_.size() - 1;
    setChosen(index, /*announce=*/false);
}

void Timeline::chooseStep(qint64 step) {
    const auto after = std::upper_bound(steps_.cbegin(), steps_.cend(), step);
    choose(std::max(0, int(after - steps_.cbegin()) - 1));
}

bool Timeline::markChosen() {
    if (!chosenIsKept())
        return false;
    if (mark_ != chosenStep()) {
        mark_ = chosenStep();
        emit markChanged();
    }
    return true;
}

void Timeline::clearMark() {
    if (!mark_)
        return;
    mark_.reset();
    emit markChanged();
}

void Timeline::setPlaying(bool playing) {
    if (playing == isPlaying())
        return;
    if (playing) {
        if (steps_.size() < 2)
            return;
        if (!chosen_ || *chosen_ >= steps_.size() - 1) choose(0);  // from the newest: again from the start
        timer_.start();
    } else {
        timer_.stop();
    }
    emit playingChanged(playing);
}

void Timeline::setSpeed(double stepsPerSecond) {
    speed_ = std::clamp(stepsPerSecond, 0.25, 20.0);
    timer_.setInterval(int(std::lround(1000.0 / speed_)));
}

void Timeline::advance() {
    const int next = chosen_ ? *chosen_ + 1 : 0;
    if (next >= steps_.size()) {
        setPlaying(false);
        return;
    }
    choose(next);
    if (next + 1 >= steps_.size()) setPlaying(false);  // the newest reached: it follows from here
}

void Timeline::rebuild(bool runChanged) {
    const std::optional<qint64> before = chosenStep();
    QVector<qint64> steps = kept_;
    if (live_ && liveStep_) {
        // A step kept past the model's newest snapshot (the recorder keeps it
        // first) waits for that snapshot: the newest is always the live model.
        steps.erase(std::remove_if(steps.begin(), steps.end(), [this](qint64 s) { return s > *liveStep_; }),
                    steps.end());
        steps.append(*liveStep_);
    }
    std::sort(steps.begin(), steps.end());
    steps.erase(std::unique(steps.begin(), steps.end()), steps.end());
    steps_ = std::move(steps);
    std::optional<int> index;
    if (!steps_.isEmpty()) {
        if (follow_ || !before) {
            index = int(steps_.size()) - 1;
        } else {
            const auto after = std::upper_bound(steps_.cbegin(), steps_.cend(), *before);
            index = std::max(0, int(after - steps_.cbegin()) - 1);
        }
    }
    // Another run on screen: its steps are not the ones A was marked among.
    // Both are said once the choice is made, so that whoever hears them reads
    // a whole timeline.
    const bool markDropped = runChanged && mark_;
    if (runChanged)
        mark_.reset();
    chosen_ = index;
    if (steps_.size() < 2)
        setPlaying(false);
    if (markDropped)
        emit markChanged();
    emit stepsChanged();
    const std::optional<qint64> now = chosenStep();
    if (now && (runChanged || now != before))
        emit stepChosen(*now);
}

void Timeline::setChosen(int index, bool announce) {
    const std::optional<qint64> before = chosenStep();
    chosen_ = index;
    const std::optional<qint64> now = chosenStep();
    if (now && (announce || now != before))
        emit stepChosen(*now);
}
