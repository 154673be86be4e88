// SPDX-License-Identifier: GPL-3.0-or-later
// TrainingWorker's ladder: every rung of the architecture ladder trained on
// the loaded corpus by chargpt::trainLadder, each recorded in the run library
// as a run of the app, and told to the window as plain values as it goes.
#include "app/TrainingWorkerPrivate.h"

#include "model/record/LadderRuns.h"
#include "model/runtime/Error.h"

#include <QElapsedTimer>

#include "app/ErrorMessage.h"

namespace {

LadderRungData::State stateOf(chargpt::EndReason reason) {
    switch (reason) {
        case chargpt::EndReason::Finished:
        case chargpt::EndReason::TimeLimit:
            return LadderRungData::State::Finished;
        case chargpt::EndReason::Stopped:
            return LadderRungData::State::Stopped;
        case chargpt::EndReason::NonFiniteLoss:
        case chargpt::EndReason::Error:
        case chargpt::EndReason::Other:
            return LadderRungData::State::Failed;
    }
    return LadderRungData::State::Failed;
}

}  // namespace

void TrainingWorker::trainLadder(const LadderRequest& request) {
    d->control->clearStop();  // as train(): a stop from here on ends this ladder
    bool stopped = false;
    QString message;
    try {
        if (!d->corpus)
            throw chargpt::Error("there is no corpus to train on.");
        chargpt::LadderOptions options;
        options.rungs.assign(request.rungs.begin(), request.rungs.end());
        options.steps = request.steps;
        options.evalIters = request.evalIters;
        options.batchSize = request.batchSize;
        options.library = runLibrary();
        options.origin = chargpt::RunOrigin::App;
        options.source = d->corpusSource.toStdString();
        options.session.control = d->control;
        const int count = request.rungs.isEmpty() ? chargpt::kLadderRungs : int(request.rungs.size());

        LadderRungData current;
        QElapsedTimer sinceTold;
        chargpt::LadderHooks hooks;
        hooks.started = [&](const chargpt::LadderReport& report) {
            emit ladderStarted(LadderFloors{report.floors.uniform, report.floors.unigram, report.floors.bigram}, count);
        };
        hooks.rungStarts = [&](const chargpt::LadderRung& rung, const chargpt::TrainingSession& session) {
            current = LadderRungData();
            current.number = rung.number;
            current.parameters = session.config().parameterCount();
            current.totalSteps = session.config().max_steps;
            emit ladderRung(current);
            sinceTold.start();
        };
        hooks.step = [&](const chargpt::LadderRung&, const chargpt::StepFigures& s) {
            current.step = s.step;
            current.seconds = s.elapsedSeconds;
            if (sinceTold.elapsed() >= 500) {  // the table's steps, a few times a second at most
                emit ladderRung(current);
                sinceTold.restart();
            }
        };
        hooks.evaluation = [&](const chargpt::LadderRung&, const chargpt::StepFigures& s) {
            current.step = s.step;
            current.seconds = s.elapsedSeconds;
            current.currentValLoss = s.valLoss;
            current.bestValLoss = s.bestValLoss;
            emit ladderRung(current);
            sinceTold.restart();
        };
        bool toldRecording = false;
        hooks.rungEnds = [&](const chargpt::LadderRow& row) {
            LadderRungData done;
            done.number = row.rung.number;
            done.state = stateOf(row.reason);
            done.parameters = row.parameters;
            done.bestValLoss = row.bestValLoss;
            done.currentValLoss = row.lastValLoss;
            done.step = row.step;
            done.totalSteps = row.config.max_steps;
            done.seconds = row.elapsedSeconds;
            done.runId = row.runId;
            emit ladderRung(done);
            if (!row.recordingProblem.empty() && !std::exchange(toldRecording, true))
                emit recordingProblem(QString::fromStdString(row.recordingProblem), false);
        };
        stopped = chargpt::trainLadder(*d->corpus, options, hooks).stopped;
        d->control->runPosted();  // saves asked for meanwhile (of the window's model)
    } catch (const std::exception& error) {
        message = messageOf(error);
    }
    d->control->resume();  // a pause asked for does not carry over
    emit ladderFinished(stopped, message);
}
