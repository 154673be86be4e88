// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/record/RunRecorder.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>

#include "model/io/ConfigJson.h"
#include "model/io/KeptWeightsCodec.h"
#include "model/session/TrainingSession.h"
#include "model/text/BuiltinCorpora.h"
#include "model/text/Corpus.h"

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

std::string mebibytes(int64_t bytes) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f MiB", double(bytes) / double(1 << 20));
    return text;
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

std::function<std::string(int64_t)> keptWeightsOf(const TrainingSession& session) {
    return [&session](int64_t step) {
        return encodeKeptWeights(session.config(), session.tokenizer(), session.model(), step);
    };
}

RunRecorder::RunRecorder(std::shared_ptr<RunLibrary> library, const RunStart& start, double flushSeconds)
    : library_(std::move(library)),
      flushEvery_(std::chrono::duration_cast<std::chrono::steady_clock::duration>(
          std::chrono::duration<double>(flushSeconds))),
      lastFlush_(std::chrono::steady_clock::now()) {
    if (!library_) return;
    figures_.step = start.firstStep;
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

void RunRecorder::note(const StepFigures& s) { figures_ = s.figures(); }

void RunRecorder::keepWeights(std::function<std::string(int64_t)> encode, int64_t budgetBytes) {
    encode_ = std::move(encode);
    keptBudget_ = budgetBytes;
}

void RunRecorder::step(const StepFigures& s) {
    if (!library_) return;
    note(s);
    points_.push_back({s.step, s.loss, s.learningRate, s.tokensSeen, s.elapsedSeconds});
    if (std::chrono::steady_clock::now() - lastFlush_ >= flushEvery_) flush(false);
    // 1, 2, 4, 8, ...: the early steps, where the model changes most.
    if (s.step > 0 && (s.step & (s.step - 1)) == 0) keep(s.step, false);
}

void RunRecorder::health(const HealthReport& report) {
    if (!library_) return;
    if (report.figures) health_.push_back(*report.figures);
    warnings_.insert(warnings_.end(), report.warnings.begin(), report.warnings.end());
}

void RunRecorder::evaluation(const StepFigures& s) {
    if (!library_) return;
    note(s);
    evaluations_.push_back({s.step, s.evalTrainLoss, s.valLoss, s.elapsedSeconds});
    flush(false);
    if (library_) keep(s.step, s.bestStep == s.step);
}

void RunRecorder::keep(int64_t step, bool best) {
    if (!encode_ || !library_) return;
    if (best) bestKept_ = step;
    if (kept_.count(step)) return;  // a step's kept weights and its evaluation's are the same
    try {
        const std::string bytes = encode_(step);
        const int64_t size = static_cast<int64_t>(bytes.size());
        if (size > keptBudget_) {
            encode_ = nullptr;
            leaveOut("its weights are not kept: one snapshot of this model takes " + mebibytes(size) +
                     ", more than the budget of " + mebibytes(keptBudget_) + " for a run's weights");
            return;
        }
        if (kept_.empty() && size * 3 > keptBudget_)
            leaveOut("the budget of " + mebibytes(keptBudget_) + " for its weights holds " +
                     std::to_string(keptBudget_ / size) + " snapshot(s) of " + mebibytes(size) +
                     ": too few to keep the first, the best and the newest, so the newest is not kept");
        while (keptBytes_ + size > keptBudget_)
            if (!thin(step)) return;
        library_->addKeptWeights(*run_, step, bytes);
        kept_[step] = size;
        keptBytes_ += size;
    } catch (const RunLibraryBusy&) {
        // Left out: the next one is tried in its turn.
    } catch (const RunLibraryFull& full) {
        makeRoom(full.what());
    } catch (const std::exception& e) {
        stop(e.what());
    }
}

double RunRecorder::spreadPosition(int64_t step, int64_t newest) {
    if (newest <= 0) return 0.0;
    const double s = double(std::clamp<int64_t>(step, 0, newest)), n = double(newest);
    return 0.5 * std::log1p(s) / std::log1p(n) + 0.5 * s / n;
}

bool RunRecorder::thin(int64_t incoming) {
    if (kept_.size() < 2) return false;  // the first stays
    std::optional<int64_t> drop;         // the kept step whose going leaves the smallest gap
    double smallest = std::numeric_limits<double>::infinity();
    auto at = [incoming](int64_t step) { return spreadPosition(step, incoming); };
    int64_t previous = kept_.begin()->first;
    for (auto it = std::next(kept_.begin()); it != kept_.end(); ++it) {
        const auto next = std::next(it);
        const int64_t following = next == kept_.end() ? incoming : next->first;
        const double gap = at(following) - at(previous);
        if (it->first != bestKept_ && gap < smallest) {
            smallest = gap;
            drop = it->first;
        }
        previous = it->first;
    }
    if (!drop) return false;
    library_->removeKeptWeights(*run_, {*drop});
    keptBytes_ -= kept_[*drop];
    kept_.erase(*drop);
    return true;
}

void RunRecorder::makeRoom(const std::string& why) {
    if (encode_) {
        encode_ = nullptr;
        const int64_t newest = figures_.step;
        leaveOut("its weights are no longer kept from step " + std::to_string(newest) +
                 " on: there is no room left for them (" + why + "); its losses and its end are still recorded");
    }
    library_->releaseSpace();
}

void RunRecorder::leaveOut(const std::string& what) {
    if (leftOut_.empty()) leftOut_ = what;
}

void RunRecorder::checkpoint(int64_t step, const std::string& path) {
    if (!library_) return;
    try {
        library_->setBusyTimeout(kFinishBusyMs);
        library_->addCheckpoint(*run_, step, path);
        library_->setBusyTimeout(kStepBusyMs);
    } catch (const RunLibraryFull& full) {
        makeRoom(full.what());
        leaveOut("the checkpoint written at step " + std::to_string(step) + " is not listed with it: " + full.what());
    } catch (const std::exception& e) {
        stop(e.what());
    }
}

void RunRecorder::finish(const TrainResult& result) {
    if (!library_) return;
    note(result.last);
    try {
        library_->setBusyTimeout(kFinishBusyMs);
        std::string why;
        if (!appendHeld(&why)) {
            // No room even for them: the end is written without them, so that
            // a run that ended is never shown as killed.
            if (!points_.empty() || !evaluations_.empty())
                leaveOut("its last " + std::to_string(points_.size()) + " steps' losses are not kept: " + why);
            points_.clear();
            evaluations_.clear();
            health_.clear();
            warnings_.clear();
        }
        library_->endRun(*run_, result.reason, figures_);
    } catch (const std::exception& e) {
        stop(e.what());
        return;
    }
    library_.reset();  // ended: nothing more to write
}

bool RunRecorder::appendHeld(std::string* why) {
    for (int attempt = 0;; ++attempt) {
        try {
            library_->append(*run_, points_, evaluations_, figures_);
            points_.clear();
            evaluations_.clear();
            library_->addHealth(*run_, health_, warnings_);
            health_.clear();
            warnings_.clear();
            return true;
        } catch (const RunLibraryBusy& busy) {
            *why = busy.what();
            return false;  // another program holds the lock: kept for the next write
        } catch (const RunLibraryFull& full) {
            // What the weights or the failed write took goes first; then once more.
            *why = full.what();
            makeRoom(full.what());
            if (attempt > 0) return false;
        }
    }
}

void RunRecorder::flush(bool mustWrite) {
    lastFlush_ = std::chrono::steady_clock::now();
    try {
        if (mustWrite) library_->setBusyTimeout(kFinishBusyMs);
        // Held while the library is locked or full, up to a point.
        std::string why;
        if (!appendHeld(&why) && (mustWrite || points_.size() > kMaxHeldPoints)) stop(why);
    } catch (const std::exception& e) {
        stop(e.what());
    }
}

void RunRecorder::stop(const std::string& why) {
    if (problem_.empty()) problem_ = why;
    library_.reset();
    points_.clear();
    evaluations_.clear();
    health_.clear();
    warnings_.clear();
}

}  // namespace chargpt
