// SPDX-License-Identifier: GPL-3.0-or-later
// Reading the run library: the list of runs, one run, and a run's points and evaluations.
#include "model/record/RunLibrary.h"

#include <algorithm>
#include <cmath>

#include "model/record/RunLibraryDetail.h"

namespace chargpt {

using namespace runlibrary;  // Statement

namespace {

constexpr const char* kRunColumns =
    "SELECT id, name, origin, preset, settings, corpus_name, corpus_bytes, corpus_hash, parameters, seed, "
    "first_step, started, ended, end_reason, steps, tokens, seconds, tokens_per_second, last_train_loss, "
    "last_val_loss, best_step, best_val_loss FROM runs";

// The longest a run's time may be: a figure past it (1e308 s) is unknown.
constexpr double kMaxSeconds = 1e9;

bool stepInRange(int64_t step) { return step >= 0 && step <= RunLibrary::kMaxStep; }

double secondsOrUnknown(double seconds) {
    return seconds >= 0.0 && seconds <= kMaxSeconds ? seconds : std::nan("");
}

// The fastest a run may have trained, and the largest loss it may report (in
// nats; a character model's first is a few): a figure past them (1e308) or
// below zero is unknown.
constexpr double kMaxTokensPerSecond = 1e12;
constexpr double kMaxLoss = 1e6;

double figureOrUnknown(double value, double most) {
    return value >= 0.0 && value <= most ? value : std::nan("");
}

// A count (tokens, bytes, parameters) below zero is none.
int64_t countOrNone(int64_t count) { return std::max<int64_t>(count, 0); }

RunRecord readRun(const Statement& s) {
    RunRecord r;
    r.id = s.integerAt(0);
    r.start.name = s.textAt(1);
    r.originText = s.textAt(2);
    r.start.origin = runOriginFromString(r.originText);
    r.start.preset = s.textAt(3);
    r.start.settingsJson = s.textAt(4);
    r.start.corpusName = s.textAt(5);
    r.start.corpusBytes = countOrNone(s.integerAt(6));
    r.start.corpusHash = s.textAt(7);
    r.start.parameters = countOrNone(s.integerAt(8));
    r.start.seed = static_cast<uint64_t>(s.integerAt(9));
    r.start.firstStep = stepInRange(s.integerAt(10)) ? s.integerAt(10) : 0;
    r.started = s.textAt(11);
    r.ended = s.textAt(12);
    r.endReasonText = s.textAt(13);
    if (!r.endReasonText.empty()) r.endReason = endReasonFromString(r.endReasonText);
    r.figures.step = stepInRange(s.integerAt(14)) ? s.integerAt(14) : 0;
    r.figures.tokensSeen = countOrNone(s.integerAt(15));
    r.figures.elapsedSeconds = secondsOrUnknown(s.realAt(16));
    r.figures.tokensPerSecond = figureOrUnknown(s.realAt(17), kMaxTokensPerSecond);
    r.figures.lastTrainLoss = figureOrUnknown(s.realAt(18), kMaxLoss);
    r.figures.lastValLoss = figureOrUnknown(s.realAt(19), kMaxLoss);
    if (!std::isnan(s.realAt(20)) && stepInRange(s.integerAt(20))) r.figures.bestStep = s.integerAt(20);
    // A best loss without its step is no figure either.
    r.figures.bestValLoss = r.figures.bestStep ? figureOrUnknown(s.realAt(21), kMaxLoss) : std::nan("");
    return r;
}

// The text a run holds, as a listing counts it against kMaxListedBytes.
int64_t textBytes(const RunRecord& r) {
    int64_t bytes = 0;
    for (const std::string* text : {&r.start.name, &r.originText, &r.start.preset, &r.start.settingsJson,
                                    &r.start.corpusName, &r.start.corpusHash, &r.started, &r.ended, &r.endReasonText})
        bytes += int64_t(text->size());
    return bytes;
}

std::string counted(int64_t n, const char* one) {
    return std::to_string(n) + " " + one + (n == 1 ? "" : "s");
}

// A run's checkpoints, at most `most`: each path read on its own, so that one
// over the value limit leaves out only itself (counted in `tooLong`).
void readCheckpoints(sqlite3* db, RunRecord& r, int64_t most, int64_t& tooLong, int64_t& bytes) {
    Statement rows(db, "SELECT rowid, step FROM checkpoints WHERE run=? ORDER BY rowid LIMIT ?");
    rows.integer(1, r.id).integer(2, most);
    Statement path(db, "SELECT path FROM checkpoints WHERE rowid=?");
    while (rows.step()) {
        path.integer(1, rows.integerAt(0));
        const Statement::Row row = path.tryStep();
        if (row == Statement::Row::TooBig) {
            ++tooLong;
        } else if (row == Statement::Row::Found) {
            r.checkpoints.emplace_back(rows.integerAt(1), path.textAt(0));
            bytes += int64_t(r.checkpoints.back().second.size());
        }
        path.reset();
    }
}

}  // namespace

std::vector<RunRecord> RunLibrary::runs(std::string* leftOut) {
    if (leftOut) leftOut->clear();
    checkOwnSchema();  // a column or constraint added since opening would run with each read
    // The ids first (no value read), then each run on its own: a run with a
    // value over kMaxValueBytes is left out, never the whole list.
    std::vector<int64_t> ids;
    {
        Statement select(db_, "SELECT id FROM runs ORDER BY id DESC LIMIT ?");
        select.integer(1, int64_t(kMaxListedRuns) + 1);
        while (select.step()) ids.push_back(select.integerAt(0));
    }
    const bool pastCount = ids.size() > std::size_t(kMaxListedRuns);
    if (pastCount) ids.resize(std::size_t(kMaxListedRuns));

    std::vector<RunRecord> list;
    int64_t bytes = 0, tooLongRuns = 0, tooLongCheckpoints = 0, checkpoints = 0;
    std::size_t pastBudget = 0;
    Statement one(db_, (std::string(kRunColumns) + " WHERE id=?").c_str());
    for (std::size_t i = 0; i < ids.size(); ++i) {
        one.integer(1, ids[i]);
        const Statement::Row row = one.tryStep();
        if (row == Statement::Row::TooBig) ++tooLongRuns;
        if (row != Statement::Row::Found) {
            one.reset();
            continue;
        }
        RunRecord r = readRun(one);
        one.reset();
        bytes += textBytes(r);
        const int64_t before = int64_t(r.checkpoints.size());
        readCheckpoints(db_, r, kMaxListedCheckpoints - checkpoints, tooLongCheckpoints, bytes);
        checkpoints += int64_t(r.checkpoints.size()) - before;
        if (bytes > kMaxListedBytes) {
            pastBudget = ids.size() - i;
            break;
        }
        list.push_back(std::move(r));
    }

    if (leftOut) {
        std::string said;
        auto add = [&said](const std::string& part) { said += (said.empty() ? "" : "; ") + part; };
        if (tooLongRuns > 0 || tooLongCheckpoints > 0)
            add((tooLongRuns > 0 ? counted(tooLongRuns, "run") : std::string()) +
                (tooLongRuns > 0 && tooLongCheckpoints > 0 ? " and " : "") +
                (tooLongCheckpoints > 0 ? counted(tooLongCheckpoints, "checkpoint") : std::string()) +
                " with a value over 1 MiB");
        if (pastBudget > 0)
            add("the " + std::to_string(pastBudget) + " oldest runs past the listing's " +
                std::to_string(kMaxListedBytes >> 20) + " MiB");
        if (pastCount) add("the runs past the newest " + std::to_string(kMaxListedRuns));
        if (checkpoints >= kMaxListedCheckpoints)
            add("the checkpoints past the first " + std::to_string(kMaxListedCheckpoints));
        if (!said.empty()) *leftOut = "The run library " + path_ + " holds more than is listed: left out are " + said + ".";
    }
    return list;
}

std::optional<RunRecord> RunLibrary::run(int64_t id) {
    checkOwnSchema();
    Statement select(db_, (std::string(kRunColumns) + " WHERE id=?").c_str());
    select.integer(1, id);
    if (select.tryStep() != Statement::Row::Found) return std::nullopt;
    RunRecord r = readRun(select);
    int64_t tooLong = 0, bytes = 0;
    readCheckpoints(db_, r, kMaxListedCheckpoints, tooLong, bytes);
    return r;
}

namespace {

// The rows of a run's curve: in range (a step in 0..kMaxStep, a finite loss,
// tokens and seconds a plot's axis can hold), in step order, read from at most
// kMaxScannedPoints rows.
constexpr const char* kPointRows =
    " FROM points WHERE run=?1 AND step BETWEEN 0 AND ?2 AND loss BETWEEN -1e308 AND 1e308 AND tokens >= 0"
    " AND seconds BETWEEN 0 AND 1e9 ORDER BY step LIMIT ?3";

}  // namespace

std::vector<RunPoint> RunLibrary::points(int64_t run) {
    checkOwnSchema();
    int64_t count = 0;
    {
        Statement rows(db_, (std::string("SELECT count(*) FROM (SELECT 1") + kPointRows + ")").c_str());
        rows.integer(1, run).integer(2, kMaxStep).integer(3, kMaxScannedPoints);
        if (rows.step()) count = rows.integerAt(0);
    }
    // Past kMaxReadPoints, every `stride`-th row and the last.
    const int64_t stride = count <= kMaxReadPoints ? 1 : (count + kMaxReadPoints - 2) / (kMaxReadPoints - 1);
    Statement select(db_, (std::string("SELECT step, loss, learning_rate, tokens, seconds") + kPointRows).c_str());
    select.integer(1, run).integer(2, kMaxStep).integer(3, kMaxScannedPoints);
    std::vector<RunPoint> points;
    points.reserve(std::size_t(std::min(count, kMaxReadPoints)));
    RunPoint last{};
    bool lastKept = true;
    for (int64_t row = 0; select.step();) {
        const int64_t step = select.integerAt(0);
        // Steps increase: a damaged file's order, or a step of 1.5 beside 1, is not followed.
        if (row > 0 && step <= last.step) continue;
        last = {step, select.realAt(1), select.realAt(2), select.integerAt(3), select.realAt(4)};
        lastKept = row % stride == 0 && int64_t(points.size()) < kMaxReadPoints;
        if (lastKept) points.push_back(last);
        ++row;
    }
    if (!lastKept) {
        if (int64_t(points.size()) >= kMaxReadPoints) points.pop_back();
        points.push_back(last);
    }
    return points;
}

std::vector<RunEvaluation> RunLibrary::evaluations(int64_t run) {
    checkOwnSchema();
    Statement select(db_,
                     "SELECT step, train_loss, val_loss, seconds FROM evaluations WHERE run=?1 AND step BETWEEN 0 AND "
                     "?2 AND seconds BETWEEN 0 AND 1e9 AND (train_loss BETWEEN -1e308 AND 1e308 OR val_loss BETWEEN -1e308 AND "
                     "1e308) ORDER BY step "
                     "LIMIT ?3");
    select.integer(1, run).integer(2, kMaxStep).integer(3, kMaxReadPoints);
    std::vector<RunEvaluation> evaluations;
    while (select.step())
        if (evaluations.empty() || select.integerAt(0) > evaluations.back().step)
            evaluations.push_back({select.integerAt(0), select.realAt(1), select.realAt(2), select.realAt(3)});
    return evaluations;
}

LossCurve RunLibrary::lossCurve(int64_t run) {
    LossCurve curve;
    const std::vector<RunPoint> kept = points(run);
    curve.steps.reserve(kept.size());
    for (const RunPoint& p : kept)
        curve.addStep(p.step, p.tokens, p.seconds, p.loss, p.learningRate);
    for (const RunEvaluation& e : evaluations(run))
        curve.addEvaluation(e.step, tokensAt(curve.steps, e.step), e.seconds, e.trainLoss, e.valLoss);
    return curve;
}

}  // namespace chargpt
