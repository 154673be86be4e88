// SPDX-License-Identifier: GPL-3.0-or-later
// Reading the run library: the list of runs, one run, and a run's points and evaluations.
#include "model/record/RunLibrary.h"

#include <cmath>
#include <map>

#include "model/record/RunLibraryDetail.h"

namespace chargpt {

using namespace runlibrary;  // Statement

namespace {

// What one list reads at most: a library is a file anyone can hand us.
constexpr int kMaxListedRuns = 100000;
constexpr int kMaxReadPoints = 4000000;

constexpr const char* kRunColumns =
    "SELECT id, name, origin, preset, settings, corpus_name, corpus_bytes, corpus_hash, parameters, seed, "
    "first_step, started, ended, end_reason, steps, tokens, seconds, tokens_per_second, last_train_loss, "
    "last_val_loss, best_step, best_val_loss FROM runs";

RunRecord readRun(const Statement& s) {
    RunRecord r;
    r.id = s.integerAt(0);
    r.start.name = s.textAt(1);
    r.start.origin = s.textAt(2);
    r.start.preset = s.textAt(3);
    r.start.settingsJson = s.textAt(4);
    r.start.corpusName = s.textAt(5);
    r.start.corpusBytes = s.integerAt(6);
    r.start.corpusHash = s.textAt(7);
    r.start.parameters = s.integerAt(8);
    r.start.seed = static_cast<uint64_t>(s.integerAt(9));
    r.start.firstStep = s.integerAt(10);
    r.started = s.textAt(11);
    r.ended = s.textAt(12);
    r.endReason = s.textAt(13);
    r.figures.steps = s.integerAt(14);
    r.figures.tokens = s.integerAt(15);
    r.figures.seconds = s.realAt(16);
    r.figures.tokensPerSecond = s.realAt(17);
    r.figures.lastTrainLoss = s.realAt(18);
    r.figures.lastValLoss = s.realAt(19);
    r.figures.bestStep = std::isnan(s.realAt(20)) ? -1 : s.integerAt(20);
    r.figures.bestValLoss = s.realAt(21);
    return r;
}

}  // namespace

std::vector<RunRecord> RunLibrary::runs() {
    std::vector<RunRecord> list;
    std::map<int64_t, std::size_t> byId;
    {
        Statement select(db_, (std::string(kRunColumns) + " ORDER BY id DESC LIMIT " +
                               std::to_string(kMaxListedRuns)).c_str());
        while (select.step()) {
            list.push_back(readRun(select));
            byId[list.back().id] = list.size() - 1;
        }
    }
    Statement checkpoints(db_, ("SELECT run, step, path FROM checkpoints ORDER BY rowid LIMIT " +
                                std::to_string(kMaxListedRuns)).c_str());
    while (checkpoints.step()) {
        const auto it = byId.find(checkpoints.integerAt(0));
        if (it != byId.end()) list[it->second].checkpoints.emplace_back(checkpoints.integerAt(1), checkpoints.textAt(2));
    }
    return list;
}

std::optional<RunRecord> RunLibrary::run(int64_t id) {
    Statement select(db_, (std::string(kRunColumns) + " WHERE id=?").c_str());
    select.integer(1, id);
    if (!select.step()) return std::nullopt;
    RunRecord r = readRun(select);
    Statement checkpoints(db_, "SELECT step, path FROM checkpoints WHERE run=? ORDER BY rowid LIMIT 100000");
    checkpoints.integer(1, id);
    while (checkpoints.step()) r.checkpoints.emplace_back(checkpoints.integerAt(0), checkpoints.textAt(1));
    return r;
}

std::vector<RunPoint> RunLibrary::points(int64_t run) {
    Statement select(db_, ("SELECT step, loss, learning_rate, tokens, seconds FROM points WHERE run=? ORDER BY step "
                           "LIMIT " + std::to_string(kMaxReadPoints)).c_str());
    select.integer(1, run);
    std::vector<RunPoint> points;
    while (select.step())
        points.push_back({select.integerAt(0), select.realAt(1), select.realAt(2), select.integerAt(3), select.realAt(4)});
    return points;
}

std::vector<RunEvaluation> RunLibrary::evaluations(int64_t run) {
    Statement select(db_, ("SELECT step, train_loss, val_loss, seconds FROM evaluations WHERE run=? ORDER BY step "
                           "LIMIT " + std::to_string(kMaxReadPoints)).c_str());
    select.integer(1, run);
    std::vector<RunEvaluation> evaluations;
    while (select.step())
        evaluations.push_back({select.integerAt(0), select.realAt(1), select.realAt(2), select.realAt(3)});
    return evaluations;
}

}  // namespace chargpt
