// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/record/RunRecorder.h"

#include <cmath>
#include <filesystem>

#include "model/io/ConfigJson.h"
#include "model/io/WeightsSnapshot.h"
#include "model/text/BuiltinCorpora.h"
#include "model/text/Corpus.h"
#include "model/session/TrainingSession.h"

namespace chargpt {

namespace {

// While training, a write waits this long for another program's write, then
// the batch waits for the next one: a step is never held up for longer.
constexpr int kStepBusyMs = 250;
// The end of a run waits longer: nothing trains any more.
constexpr int kFinishBusyMs = 5000;
// Points held while the library stays locked; past this the recording stops.
constexpr std::size_t kMaxHeldPoints = 1000000;

// The corpus as recorded: a path that names a file or folder, absolute.
std::string recordedSource(const std::string& source) {
    std::error_code error;
    if (isBuiltinSource(source) || !std::filesystem::exists(source, error)) return source;
    const std::filesystem::path absolute = std::filesystem::absolute(source, error);
    return error ? source : absolute.lexically_normal().string();
}

}  // namespace

RunStart runStartOf(const TrainingSession& session, const Corpus& corpus, const std::string& source,
                    RunOrigin origin, const std::string& preset) {
    RunStart start;
    start.origin = origin;
    start.preset = preset;
    start.settingsJson = configToJson(session.config());
    start.corpusName = source.empty() ? corpus.name() : recordedSource(source);
    start.corpusBytes = static_cast<int64_t>(corpus.byteCount());
    start.corpusHash = corpusFingerprint(corpus.documents());
    start.parameters = session.config().parameterCount();
    start.seed = session.config().seed;
    start.firstStep = session.trainer().step();
    start.name = (preset.empty() ? std::string("run") : preset) + " on " + start.corpusName;
    return start;
}

std::function<std::string(int64_t)> snapshotsOf(const TrainingSession& session) {
    return [&session](int64_t step) {
        return encodeWeightsSnapshot(session.config(), session.tokenizer(), session.model(), step);
    };
}

EndReason endReasonOf(StopReason reason) {
    switch (reason) {
        case StopReason::Finished: return EndReason::Finished;
        case StopReason::TimeLimit: return EndReason::TimeLimit;
        case StopReason::Stopped: return EndReason::Stopped;
        case StopReason::NonFiniteLoss: return EndReason::NonFiniteLoss;
    }
    return EndReason::Other;
}

RunRecorder::RunRecorder(std::shared_ptr<RunLibrary> library, const RunStart& start, double flushSeconds)
    : library_(std::move(library)),
      flushEvery_(std::chrono::duration_cast<std::chrono::steady_clock::duration>(
          std::chrono::duration<double>(flushSeconds))),
      lastFlush_(std::chrono::steady_clock::now()) {
    if (!library_) return;
    figures_.steps = start.firstStep;
    try {
        library_->setBusyTimeout(kFinishBusyMs);
        run_ = library_->beginRun(start);
        library_->setBusyTimeout(kStepBusyMs);
    } catch (const std::exception& e) {
        stop(e.what());
    }
}

RunRecorder::~RunRecorder() {
    if (library_) flush(true);
}

void RunRecorder::note(const TrainSnapshot& s) {
    figures_.steps = s.step;
    figures_.tokens = s.tokensSeen;
    figures_.seconds = s.elapsedSeconds;
    figures_.tokensPerSecond = s.tokensPerSecond;
    figures_.bestStep = s.bestStep;
    figures_.bestValLoss = s.bestValLoss;
}

void RunRecorder::keepSnapshots(std::function<std::string(int64_t)> encode, int64_t budgetBytes) {
    encode_ = std::move(encode);
    snapshotBudget_ = budgetBytes;
}

void RunRecorder::step(const TrainSnapshot& s) {
    if (!library_) return;
    note(s);
    points_.push_back({s.step, s.loss, s.learningRate, s.tokensSeen, s.elapsedSeconds});
    if (std::chrono::steady_clock::now() - lastFlush_ >= flushEvery_) flush(false);
    // 1, 2, 4, 8, ...: the early steps, where the model changes most.
    if (s.step > 0 && (s.step & (s.step - 1)) == 0) snapshot(s.step, false);
}

void RunRecorder::evaluation(const TrainSnapshot& s) {
    if (!library_) return;
    note(s);
    figures_.lastTrainLoss = s.evalTrainLoss;
    figures_.lastValLoss = s.valLoss;
    evaluations_.push_back({s.step, s.evalTrainLoss, s.valLoss, s.elapsedSeconds});
    flush(false);
    if (library_) snapshot(s.step, s.bestStep == s.step);
}

void RunRecorder::snapshot(int64_t step, bool best) {
    if (!encode_ || !library_) return;
    if (best) bestKept_ = step;
    if (kept_.count(step)) return;  // a step's snapshot and its evaluation's are the same weights
    try {
        const std::string bytes = encode_(step);
        const int64_t size = static_cast<int64_t>(bytes.size());
        if (size > snapshotBudget_) return;
        while (keptBytes_ + size > snapshotBudget_)
            if (!thin()) return;
        library_->addSnapshot(run_, step, bytes);
        kept_[step] = size;
        keptBytes_ += size;
    } catch (const RunLibraryBusy&) {
        // Left out: the next one is tried in its turn.
    } catch (const std::exception& e) {
        stop(e.what());
    }
}

bool RunRecorder::thin() {
    std::vector<int64_t> drop;
    std::size_t index = 0;
    for (const auto& [step, bytes] : kept_) {
        const bool keep = index % 2 == 0 || step == bestKept_ || index + 1 == kept_.size();
        if (!keep) drop.push_back(step);
        ++index;
    }
    // Two left: the newest gives way to the next, unless it is the first or the best.
    if (drop.empty() && kept_.size() >= 2 && std::prev(kept_.end())->first != bestKept_)
        drop.push_back(std::prev(kept_.end())->first);
    if (drop.empty()) return false;
    library_->removeSnapshots(run_, drop);
    for (const int64_t step : drop) {
        keptBytes_ -= kept_[step];
        kept_.erase(step);
    }
    return true;
}

void RunRecorder::checkpoint(int64_t step, const std::string& path) {
    if (!library_) return;
    try {
        library_->setBusyTimeout(kFinishBusyMs);
        library_->addCheckpoint(run_, step, path);
        library_->setBusyTimeout(kStepBusyMs);
    } catch (const std::exception& e) {
        stop(e.what());
    }
}

void RunRecorder::finish(const TrainResult& result) {
    if (!library_) return;
    note(result.last);
    try {
        library_->setBusyTimeout(kFinishBusyMs);
        library_->append(run_, points_, evaluations_, figures_);
        points_.clear();
        evaluations_.clear();
        library_->endRun(run_, endReasonOf(result.reason), figures_);
    } catch (const std::exception& e) {
        stop(e.what());
        return;
    }
    library_.reset();  // ended: nothing more to write
}

void RunRecorder::flush(bool mustWrite) {
    lastFlush_ = std::chrono::steady_clock::now();
    try {
        if (mustWrite) library_->setBusyTimeout(kFinishBusyMs);
        library_->append(run_, points_, evaluations_, figures_);
        points_.clear();
        evaluations_.clear();
    } catch (const RunLibraryBusy& busy) {
        // Another program holds the lock: keep the batch for the next write.
        if (mustWrite || points_.size() > kMaxHeldPoints) stop(busy.what());
    } catch (const std::exception& e) {
        stop(e.what());
    }
}

void RunRecorder::stop(const std::string& why) {
    if (problem_.empty()) problem_ = why;
    library_.reset();
    points_.clear();
    evaluations_.clear();
}

}  // namespace chargpt
