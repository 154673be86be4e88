// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "model/record/RunLibrary.h"
#include "model/train/Trainer.h"

namespace chargpt {

class Corpus;
class TrainingSession;

// What the library keeps of a run about to start: its settings, corpus and
// model. `source` names the corpus as the user gave it ("builtin:python", a
// path); a relative path to a file or folder is kept made absolute, so that
// the app and `chargpt` started elsewhere find the text again.
RunStart runStartOf(const TrainingSession& session, const Corpus& corpus, const std::string& source,
                    RunOrigin origin, const std::string& preset);

// What the library keeps of why the trainer stopped (the same words as
// toString(StopReason)).
EndReason endReasonOf(StopReason reason);

// What RunRecorder::keepSnapshots calls: the session's weights at a step, as
// the bytes of model/io/WeightsSnapshot.h.
std::function<std::string(int64_t step)> snapshotsOf(const TrainingSession& session);

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

    // The most a run's snapshots take in the library unless told otherwise.
    static constexpr int64_t kDefaultSnapshotBudget = int64_t(64) << 20;

    // Keeps the run's weights with it: at steps 1, 2, 4, 8, ... and at every
    // evaluation (step 0's included), each made by `encode` on the training
    // thread (model/io/WeightsSnapshot.h). Past `budgetBytes` the kept ones
    // are thinned evenly (every other one), the first, the best evaluation's
    // and the newest always kept. A snapshot that cannot be written in time
    // (another program holds the library) is left out; recording goes on.
    void keepSnapshots(std::function<std::string(int64_t step)> encode, int64_t budgetBytes = kDefaultSnapshotBudget);
    // The steps whose snapshots the library holds for this run, and their bytes.
    const std::map<int64_t, int64_t>& keptSnapshots() const { return kept_; }

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
    void snapshot(int64_t step, bool best);
    // Removes every other kept snapshot, except the first, the best and the newest.
    bool thin();

    std::shared_ptr<RunLibrary> library_;
    int64_t run_ = -1;
    std::chrono::steady_clock::duration flushEvery_;
    std::chrono::steady_clock::time_point lastFlush_;
    std::vector<RunPoint> points_;
    std::vector<RunEvaluation> evaluations_;
    RunFigures figures_;
    std::string problem_;
    std::function<std::string(int64_t)> encode_;
    int64_t snapshotBudget_ = kDefaultSnapshotBudget;
    std::map<int64_t, int64_t> kept_;  // step -> bytes
    int64_t keptBytes_ = 0;
    int64_t bestKept_ = -1;  // the step of the best evaluation's snapshot
};

}  // namespace chargpt
