// SPDX-License-Identifier: GPL-3.0-or-later
// Writing to the run library: a run's start, its points, evaluations and checkpoints, its end, renames and removals.
#include "model/record/RunLibrary.h"

#include <sqlite3.h>

#include <cmath>

#include "model/record/RunLibraryDetail.h"

namespace chargpt {

using namespace runlibrary;  // Statement, Transaction, utcNow

// Another program may change the schema while the library is open (an index
// on a costly expression added while `chargpt train` records made each batch
// take seconds): each write, under the write lock that any change of the
// schema needs too, looks at the schema's cookie, and checks the schema again
// when it moved. A schema that is not ours is never run: the write throws.
void RunLibrary::checkOwnSchema() {
    const int cookie = schemaVersion(db_);
    if (cookie == schemaCookie_) return;
    if (!ownSchema(db_))
        throw Error("the run library " + path_ + " was changed by another program while it was open: it now " +
                    kForeignSchema + "; nothing more is read from it or written to it");
    schemaCookie_ = cookie;
}

int64_t RunLibrary::beginRun(const RunStart& start) {
    Transaction write(db_);
    checkOwnSchema();
    Statement insert(db_,
                     "INSERT INTO runs(name, origin, preset, settings, corpus_name, corpus_bytes, corpus_hash, "
                     "parameters, seed, first_step, started, steps) VALUES(?,?,?,?,?,?,?,?,?,?,?,?)");
    insert.text(1, start.name).text(2, std::string(toString(start.origin))).text(3, start.preset).text(4, start.settingsJson);
    insert.text(5, start.corpusName).integer(6, start.corpusBytes).text(7, start.corpusHash);
    insert.integer(8, start.parameters).integer(9, static_cast<int64_t>(start.seed)).integer(10, start.firstStep);
    insert.text(11, utcNow("%Y-%m-%dT%H:%M:%SZ")).integer(12, start.firstStep);
    insert.run();
    const int64_t id = sqlite3_last_insert_rowid(db_);
    write.commit();
    return id;
}

namespace {

void writeFigures(sqlite3* db, int64_t run, const RunFigures& f) {
    Statement update(db,
                     "UPDATE runs SET steps=?, tokens=?, seconds=?, tokens_per_second=?, last_train_loss=?, "
                     "last_val_loss=?, best_step=?, best_val_loss=? WHERE id=?");
    update.integer(1, f.step).integer(2, f.tokensSeen).real(3, f.elapsedSeconds).real(4, f.tokensPerSecond);
    update.real(5, f.lastTrainLoss).real(6, f.lastValLoss);
    if (f.bestStep)
        update.integer(7, *f.bestStep);
    update.real(8, f.bestValLoss).integer(9, run);
    update.run();
}

}  // namespace

void RunLibrary::append(int64_t run, const std::vector<RunPoint>& points,
                        const std::vector<RunEvaluation>& evaluations, const RunFigures& figures) {
    Transaction write(db_);
    checkOwnSchema();
    if (!points.empty()) {
        Statement insert(db_, "INSERT OR REPLACE INTO points VALUES(?,?,?,?,?,?)");
        for (const RunPoint& p : points) {
            // Nothing a plot could place: a step out of range, a loss that is no number.
            if (p.step < 0 || p.step > kMaxStep || !std::isfinite(p.loss)) continue;
            insert.integer(1, run).integer(2, p.step).real(3, p.loss).real(4, p.learningRate);
            insert.integer(5, p.tokens).real(6, p.seconds);
            insert.run();
        }
    }
    if (!evaluations.empty()) {
        Statement insert(db_, "INSERT OR REPLACE INTO evaluations VALUES(?,?,?,?,?)");
        for (const RunEvaluation& e : evaluations) {
            if (e.step < 0 || e.step > kMaxStep) continue;
            insert.integer(1, run).integer(2, e.step).real(3, e.trainLoss).real(4, e.valLoss).real(5, e.seconds);
            insert.run();
        }
    }
    writeFigures(db_, run, figures);
    write.commit();
}

void RunLibrary::addCheckpoint(int64_t run, int64_t step, const std::string& path) {
    Transaction write(db_);
    checkOwnSchema();
    Statement insert(db_, "INSERT INTO checkpoints VALUES(?,?,?,?)");
    insert.integer(1, run).integer(2, step).text(3, path).text(4, utcNow("%Y-%m-%dT%H:%M:%SZ"));
    insert.run();
    write.commit();
}

void RunLibrary::endRun(int64_t run, EndReason reason, const RunFigures& figures) {
    Transaction write(db_);
    checkOwnSchema();
    writeFigures(db_, run, figures);
    Statement update(db_, "UPDATE runs SET ended=?, end_reason=? WHERE id=?");
    update.text(1, utcNow("%Y-%m-%dT%H:%M:%SZ")).text(2, std::string(toString(reason))).integer(3, run);
    update.run();
    write.commit();
}

void RunLibrary::rename(int64_t run, const std::string& name) {
    Transaction write(db_);
    checkOwnSchema();
    Statement update(db_, "UPDATE runs SET name=? WHERE id=?");
    update.text(1, name).integer(2, run);
    update.run();
    write.commit();
}

void RunLibrary::remove(int64_t run) {
    Transaction write(db_);
    checkOwnSchema();
    for (const char* sql : {"DELETE FROM points WHERE run=?", "DELETE FROM evaluations WHERE run=?",
                            "DELETE FROM checkpoints WHERE run=?", "DELETE FROM snapshots WHERE run=?",
                            "DELETE FROM health WHERE run=?", "DELETE FROM health_warnings WHERE run=?",
                            "DELETE FROM runs WHERE id=?"}) {
        Statement del(db_, sql);
        del.integer(1, run);
        del.run();
    }
    write.commit();
}

}  // namespace chargpt
