// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "model/record/RunLibrary.h"
#include "model/train/Trainer.h"

namespace chargpt {

class Corpus;
class TrainingSession;

// What the library keeps of a run about to start: its settings, corpus and
// model. `source` names the corpus as the user gave it ("builtin:python", a path).
RunStart runStartOf(const TrainingSession& session, const Corpus& corpus, const std::string& source,
                    RunOrigin origin, const std::string& preset);

// What the library keeps of why the trainer stopped (the same words as
// toString(StopReason)).
EndReason endReasonOf(StopReason reason);

// Records one run as it trains, for `chargpt train` and the app's training
// worker alike: the trainer's onStep and onEval hand it their snapshots, and
// it writes them to the run library in batches, one transaction every
// `flushSeconds` (and at each evaluation), so that a killed process loses at
// most that much. Recording never stops training: a failure (a full disk, a
// damaged library, another program holding the library's lock for many
// seconds) ends the recording, and problem() says why.
class RunRecorder {
public:
    // A null library records nothing (--no-record, or no library could be opened).
    RunRecorder(std::shared_ptr<RunLibrary> library, const RunStart& start, double flushSeconds = 2.0);
    // Writes what it holds, without ending the run.
    ~RunRecorder();
    RunRecorder(const RunRecorder&) = delete;
    RunRecorder& operator=(const RunRecorder&) = delete;

    void step(const TrainSnapshot& snapshot);
    void evaluation(const TrainSnapshot& snapshot);
    void checkpoint(int64_t step, const std::string& path);
    // Writes the rest and the end: why it ended and its last figures.
    void finish(const TrainResult& result);

    bool recording() const { return library_ != nullptr; }
    int64_t runId() const { return run_; }
    // Why the run is not, or no longer, recorded ("" while all is well).
    const std::string& problem() const { return problem_; }

private:
    void note(const TrainSnapshot& snapshot);
    void flush(bool mustWrite);
    void stop(const std::string& why);

    std::shared_ptr<RunLibrary> library_;
    int64_t run_ = -1;
    std::chrono::steady_clock::duration flushEvery_;
    std::chrono::steady_clock::time_point lastFlush_;
    std::vector<RunPoint> points_;
    std::vector<RunEvaluation> evaluations_;
    RunFigures figures_;
    std::string problem_;
};

}  // namespace chargpt
