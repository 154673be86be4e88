// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The rungs of the architecture ladder (model/train/Ladder.h) trained one
// after another on one corpus, each recorded in the run library as a run of
// its own so that the Runs tab compares them: what `chargpt ladder` and the
// app's ladder run.

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/record/RunLibrary.h"
#include "model/session/TrainingSession.h"
#include "model/train/Ladder.h"
#include "model/train/Learning.h"
#include "model/train/Trainer.h"

namespace chargpt {

struct LadderOptions {
    std::vector<int> rungs;  // the rungs to train, in this order; empty: all of them
    // The same for every rung. Unset (0): each rung's own settings, fitted to
    // the text as `chargpt train` fits a preset unless the steps are given.
    int64_t steps = 0;
    int64_t batchSize = 0;
    double learningRate = 0.0;
    int64_t evalIters = 0;
    std::optional<uint64_t> seed;
    std::optional<bool> bf16;
    // Where the runs go: null records nothing. `source` names the corpus as
    // the user gave it ("builtin:python", a path).
    std::shared_ptr<RunLibrary> library;
    RunOrigin origin = RunOrigin::Cli;
    std::string source;
    bool keepWeights = true;
    // Every rung's session (its control: a stop ends the rung and the ladder).
    SessionOptions session;
};

// One rung as it trained: its run's figures when it ended (the step reached,
// time, speed, last and best evaluation) and more.
struct LadderRow : RunFigures {
    LadderRung rung{};
    RunConfig config;  // as it trained: the vocabulary set, fitted to the text
    int64_t parameters = 0;
    double firstValLoss = std::numeric_limits<double>::quiet_NaN();  // at step 0, before training
    EndReason reason = EndReason::Finished;
    std::string message;           // why the loss stopped being finite, for NonFiniteLoss
    std::optional<int64_t> runId;  // in the run library; none when not recorded
    std::string recordingProblem;  // why it is not (or no longer) recorded, "" when all is well
};

struct LadderReport {
    LossFloors floors;  // on the validation part, which every rung is evaluated on
    int64_t vocabSize = 0;
    int64_t trainingTokens = 0;
    int64_t validationTokens = 0;
    bool validationOverlapsTraining = false;
    std::vector<LadderRow> rows;  // the rungs trained, in order
    bool stopped = false;         // a stop ended a rung: the ones after it were not trained
};

// What the caller is told as the ladder trains, on the training thread. Each
// may be empty.
struct LadderHooks {
    // Once the first rung's data is there: the floors and sizes, no rows yet.
    std::function<void(const LadderReport&)> started;
    std::function<void(const LadderRung&, const TrainingSession&)> rungStarts;
    std::function<void(const LadderRung&, const StepFigures&)> step;
    std::function<void(const LadderRung&, const StepFigures&)> evaluation;
    std::function<void(const LadderRow&)> rungEnds;
};

// The settings rung `number` trains with under `options` on a training text
// of `trainTokens` tokens (the vocabulary not yet set).
RunConfig ladderRunSettings(int number, const LadderOptions& options, int64_t trainTokens);

// Trains the rungs on `corpus`. Settings that cannot train (a context longer
// than the text) throw chargpt::Error before the first rung trains; a rung
// whose loss stops being finite ends as such and the next one trains.
LadderReport trainLadder(const Corpus& corpus, const LadderOptions& options, const LadderHooks& hooks = {});

}  // namespace chargpt
