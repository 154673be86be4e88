// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/record/LadderRuns.h"

#include <algorithm>

#include "model/record/RunRecorder.h"
#include "model/runtime/Error.h"
#include "model/text/Corpus.h"

namespace chargpt {

RunConfig ladderRunSettings(int number, const LadderOptions& options, int64_t trainTokens) {
    RunConfig c = ladderSettings(number);
    if (options.steps > 0) {  // as given, as `chargpt train --steps` takes them
        c.max_steps = options.steps;
        c.fitEvaluations();
        c.warmup_steps = std::min(c.warmup_steps, c.max_steps / 10);
    } else {
        c.fitToText(trainTokens);
    }
    if (options.batchSize > 0) c.batch_size = options.batchSize;
    if (options.learningRate > 0.0) c.setLearningRate(options.learningRate);
    if (options.evalIters > 0) c.eval_iters = options.evalIters;
    if (options.seed) c.seed = *options.seed;
    if (options.bf16) c.bf16 = *options.bf16;
    return c;
}

namespace {

// The row of a rung once its trainer is done.
LadderRow rowOf(const LadderRung& rung, const TrainingSession& session, const TrainResult& result,
                const RunRecorder& recorder) {
    LadderRow row;
    row.rung = rung;
    row.config = session.config();
    row.parameters = row.config.parameterCount();
    const Trainer& trainer = session.trainer();
    const LossHistory& history = trainer.history();
    if (!history.evalSteps.empty() && history.evalSteps.front() == 0) row.firstValLoss = history.evalValLoss.front();
    row.figures() = result.last.figures();
    // The trainer's best and history as they stand: a step that diverged is undone in them.
    row.bestStep = trainer.bestStep();
    row.bestValLoss = trainer.bestStep() ? trainer.bestValLoss() : std::numeric_limits<double>::quiet_NaN();
    if (!history.evalSteps.empty()) {
        row.lastTrainLoss = history.evalTrainLoss.back();
        row.lastValLoss = history.evalValLoss.back();
    }
    row.reason = result.reason;
    row.message = result.message;
    row.runId = recorder.runId();
    row.recordingProblem = recorder.problem();
    return row;
}

}  // namespace

LadderReport trainLadder(const Corpus& corpus, const LadderOptions& options, const LadderHooks& hooks) {
    std::vector<int> rungs = options.rungs;
    if (rungs.empty())
        for (const LadderRung& rung : kLadder) rungs.push_back(rung.number);
    // Every number checked before the first rung trains.
    for (const int number : rungs) ladderSettings(number);
    LadderReport report;
    for (const int number : rungs) {
        const LadderRung& rung = kLadder[number - 1];
        const RunConfig base = ladderSettings(number);
        const int64_t trainTokens = Dataset::trainSize(corpus, base.sequence_len, base.val_fraction,
                                                       options.seed ? *options.seed : base.seed);
        TrainingSession session(ladderRunSettings(number, options, trainTokens), corpus, options.session);
        if (report.rows.empty()) {
            // Every rung has the same context and split: the first rung's data
            // is every rung's.
            const Dataset& data = session.data();
            report.vocabSize = session.config().vocab_size;
            report.trainingTokens = data.size(Split::Train);
            report.validationTokens = data.size(Split::Validation);
            report.validationOverlapsTraining = data.validationOverlapsTraining();
            report.floors = ladderFloors(data, report.vocabSize);
            if (hooks.started) hooks.started(report);
        }
        if (hooks.rungStarts) hooks.rungStarts(rung, session);
        RunRecorder recorder(options.library, runStartOf(session, corpus, options.source, options.origin, rung.name));
        if (options.keepWeights) recorder.keepWeights(keptWeightsOf(session));
        Trainer& trainer = session.trainer();
        trainer.onStep = [&](const StepFigures& s) {
            recorder.step(s);
            if (hooks.step) hooks.step(rung, s);
        };
        trainer.onEval = [&](const StepFigures& s) {
            recorder.evaluation(s);
            if (hooks.evaluation) hooks.evaluation(rung, s);
        };
        const TrainResult result = trainer.run();
        recorder.finish(result);
        report.rows.push_back(rowOf(rung, session, result, recorder));
        if (hooks.rungEnds) hooks.rungEnds(report.rows.back());
        if (result.reason == EndReason::Stopped) {
            report.stopped = true;
            break;
        }
    }
    return report;
}

}  // namespace chargpt
