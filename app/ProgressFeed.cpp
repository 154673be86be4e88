// SPDX-License-Identifier: GPL-3.0-or-later
// LibTorch before Qt: Qt's `slots` macro would break LibTorch's headers.
#include "model/train/Trainer.h"

#include "ProgressFeed.h"

#include <utility>

namespace {
constexpr qint64 kUpdateIntervalMs = 33;  // at most ~30 updates a second
}  // namespace

ProgressFeed::ProgressFeed(double timeLimitSeconds, std::function<void(const TrainingProgress&)> send)
    : timeLimitSeconds_(timeLimitSeconds), send_(std::move(send)) {
    sinceUpdate_.start();
}

void ProgressFeed::step(const chargpt::TrainSnapshot& s) {
    fill(s);
    pending_.loss = s.loss;
    pending_.steps.append(double(s.step));
    pending_.losses.append(s.loss);
    pending_.learningRates.append(s.learningRate);
    if (sinceUpdate_.elapsed() >= kUpdateIntervalMs) flush();
}

void ProgressFeed::evaluation(const chargpt::TrainSnapshot& s) {
    fill(s);
    pending_.valLoss = s.valLoss;
    pending_.evalSteps.append(double(s.step));
    pending_.evalLosses.append(s.valLoss);
    flush();
}

void ProgressFeed::finish(const chargpt::TrainSnapshot& last) {
    fill(last);
    flush();
}

void ProgressFeed::fill(const chargpt::TrainSnapshot& s) {
    pending_.step = s.step;
    pending_.totalSteps = s.totalSteps;
    pending_.tokensSeen = s.tokensSeen;
    pending_.tokensPerSecond = s.tokensPerSecond;
    pending_.elapsedSeconds = s.elapsedSeconds;
    pending_.etaSeconds = s.etaSeconds;
    pending_.timeLimitSeconds = timeLimitSeconds_;
    pending_.passes = s.passes;
    pending_.overfittingSince = s.overfittingSince;
    pending_.bestStep = s.bestStep;
    pending_.bestValLoss = s.bestValLoss;
}

void ProgressFeed::flush() {
    send_(pending_);
    // New lists, not clear(): the queued copy shares these buffers with the
    // GUI thread, and clear() reuses a buffer in place once the GUI thread has
    // let go of it, seen through a relaxed read of the reference count, which
    // does not order the GUI thread's reads before our next append (a data
    // race that ThreadSanitizer reported).
    pending_.steps = {};
    pending_.losses = {};
    pending_.learningRates = {};
    pending_.evalSteps = {};
    pending_.evalLosses = {};
    sinceUpdate_.restart();
}
