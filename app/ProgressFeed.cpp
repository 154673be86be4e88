// SPDX-License-Identifier: GPL-3.0-or-later
// LibTorch before Qt: Qt's `slots` macro would break LibTorch's headers.
#include "model/train/Trainer.h"
#include "model/train/HealthFigures.h"

#include "app/ProgressFeed.h"

#include <utility>

namespace {
constexpr qint64 kUpdateIntervalMs = 33;  // at most ~30 updates a second
}  // namespace

ProgressFeed::ProgressFeed(double timeLimitSeconds, std::function<void(const TrainingProgress&)> send)
    : timeLimitSeconds_(timeLimitSeconds), send_(std::move(send)) {
    sinceUpdate_.start();
}

void ProgressFeed::step(const chargpt::StepFigures& s) {
    fill(s);
    pending_.loss = s.loss;
    pending_.curve.addStep(s.step, s.tokensSeen, s.elapsedSeconds, s.loss, s.learningRate);
    if (sinceUpdate_.elapsed() >= kUpdateIntervalMs) flush();
}

void ProgressFeed::evaluation(const chargpt::StepFigures& s) {
    fill(s);
    pending_.curve.addEvaluation(s.step, s.tokensSeen, s.elapsedSeconds, s.evalTrainLoss, s.valLoss);
    flush();
}

void ProgressFeed::finish(const chargpt::StepFigures& last) {
    fill(last);
    flush();
}

void ProgressFeed::health(const chargpt::HealthReport& report) {
    if (report.figures) pending_.health.push_back(*report.figures);
    pending_.warnings.insert(pending_.warnings.end(), report.warnings.begin(), report.warnings.end());
    if (!report.warnings.empty()) flush();
}

void ProgressFeed::fill(const chargpt::StepFigures& s) {
    pending_.figures() = s.figures();
    pending_.totalSteps = s.totalSteps;
    pending_.etaSeconds = s.etaSeconds;
    pending_.timeLimitSeconds = timeLimitSeconds_;
    pending_.passes = s.passes;
}

void ProgressFeed::flush() {
    send_(pending_);
    pending_.curve.clear();  // the update sent holds a copy of its own
    pending_.health.clear();
    pending_.warnings.clear();
    sinceUpdate_.restart();
}
