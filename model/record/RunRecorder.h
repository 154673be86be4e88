// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
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

// What RunRecorder::keepWeights calls: the session's weights at a step, as
// the bytes of model/io/KeptWeightsCodec.h.
std::function<std::string(int64_t step)> keptWeightsOf(const TrainingSession& session);

// Records one run as it trains, for `chargpt train` and the app's training
// worker alike: the trainer's onStep and onEval hand it their figures, and
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

    // The most a run's kept weights take in the library unless told otherwise.
    static constexpr int64_t kDefaultKeptBudget = int64_t(64) << 20;

    // Keeps the run's weights with it: at steps 1, 2, 4, 8, ... and at every
    // evaluation (step 0's included), each made by `encode` on the training
    // thread (model/io/KeptWeightsCodec.h). Past `budgetBytes` the kept ones
    // are thinned so that they stay spread over the whole run (thin()), the
    // first, the best evaluation's and the newest always kept. Weights
    // that cannot be written in time (another program holds the library) are
    // left out; recording goes on. A budget smaller than one step's weights, or a
    // library out of room, ends the keeping, not the recording (leftOut()).
    void keepWeights(std::function<std::string(int64_t step)> encode,
                     int64_t budgetBytes = kDefaultKeptBudget);
    // The steps whose weights the library keeps for this run, and their bytes.
    const std::map<int64_t, int64_t>& keptWeights() const { return kept_; }

    void step(const StepFigures& figures);
    void evaluation(const StepFigures& figures);
    // A measured step's training health and the warnings found, written with
    // the next batch.
    void health(const HealthReport& report);
    void checkpoint(int64_t step, const std::string& path);
    // Writes the rest and the end: why it ended and its last figures.
    void finish(const TrainResult& result);

    bool recording() const { return library_ != nullptr; }
    // The run in the library; none when not recorded (a null library, or beginning it failed).
    std::optional<int64_t> runId() const { return run_; }
    // Why the run is not, or no longer, recorded ("" while all is well).
    const std::string& problem() const { return problem_; }
    // What the recording had to leave out while the rest of the run is kept
    // ("" while nothing was): its weights from some step on (a budget smaller
    // than one step's weights, or no room left), or losses no room was left for.
    const std::string& leftOut() const { return leftOut_; }

    // Where a step lies on the scale the kept weights are spread evenly
    // over, in a run whose newest step is `newest`: half the log of the step
    // (the early steps, where the model changes most), half the step itself
    // (the rest of the run), from 0 at step 0 to 1 at `newest`.
    static double spreadPosition(int64_t step, int64_t newest);

private:
    void note(const StepFigures& figures);
    void flush(bool mustWrite);
    void stop(const std::string& why);
    void keep(int64_t step, bool best);
    // Before the weights at `incoming` are kept: removes the kept one whose
    // going leaves the smallest gap on the spreadPosition() scale, never the
    // first nor the best; false when there is none to remove.
    bool thin(int64_t incoming);
    // Writes the points and evaluations held; false (keeping them, `why`
    // saying why) when another program holds the library or there is no room.
    bool appendHeld(std::string* why);
    // After a write found no room: the weights are no longer kept, and what
    // the failed write took is given back for the losses and the end.
    void makeRoom(const std::string& why);
    void leaveOut(const std::string& what);

    std::shared_ptr<RunLibrary> library_;
    std::optional<int64_t> run_;
    std::chrono::steady_clock::duration flushEvery_;
    std::chrono::steady_clock::time_point lastFlush_;
    std::vector<RunPoint> points_;
    std::vector<RunEvaluation> evaluations_;
    std::vector<HealthFigures> health_;
    std::vector<HealthWarning> warnings_;
    RunFigures figures_;
    std::string problem_;
    std::string leftOut_;
    std::function<std::string(int64_t)> encode_;
    int64_t keptBudget_ = kDefaultKeptBudget;
    std::map<int64_t, int64_t> kept_;  // step -> bytes
    int64_t keptBytes_ = 0;
    std::optional<int64_t> bestKept_;  // the step of the best evaluation's kept weights, once kept
};

}  // namespace chargpt
