// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QElapsedTimer>

#include <functional>

#include "widgets/StudioValues.h"

namespace chargpt {
struct StepFigures;
struct HealthReport;
}

// A run's steps and evaluations, merged into at most ~30 TrainingProgress
// updates a second for the window: each step and each evaluation is added to
// the pending update's loss store (the same step figures, and the same sums of
// them, that the RunRecorder writes to the run library), which is sent when it
// is due, at every evaluation and at the end. Lives on the training thread.
class ProgressFeed {
public:
    ProgressFeed(double timeLimitSeconds, std::function<void(const TrainingProgress&)> send);

    void step(const chargpt::StepFigures& s);        // sent when ~33 ms have passed
    void evaluation(const chargpt::StepFigures& s);  // sent at once
    void finish(const chargpt::StepFigures& last);   // sent at once
    // A measured step's health (sent with the next update), a warning at once.
    void health(const chargpt::HealthReport& report);

private:
    void fill(const chargpt::StepFigures& s);
    void flush();

    double timeLimitSeconds_;
    std::function<void(const TrainingProgress&)> send_;
    TrainingProgress pending_;
    QElapsedTimer sinceUpdate_;
};
