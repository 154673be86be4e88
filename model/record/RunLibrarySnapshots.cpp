// SPDX-License-Identifier: GPL-3.0-or-later
// A run's kept weights in the run library (the table "snapshots"): its weights at some steps, each kept
// in parts under the library's value limit, all parts of one written in one
// transaction and read back only when they are all there and within budget.
#include <sqlite3.h>

#include "model/record/RunLibrary.h"
#include "model/record/RunLibraryDetail.h"

namespace chargpt {

using namespace runlibrary;  // Statement, Transaction

namespace {

constexpr int64_t kMaxParts = RunLibrary::kMaxKeptBytes / RunLibrary::kKeptPartBytes;

}  // namespace

void RunLibrary::addKeptWeights(int64_t run, int64_t step, const std::string& bytes) {
    if (step < 0 || step > kMaxStep) throw Error("a snapshot's step " + std::to_string(step) + " is out of range");
    if (bytes.empty() || int64_t(bytes.size()) > kMaxKeptBytes)
        throw Error("a snapshot of " + std::to_string(bytes.size()) + " bytes cannot be kept (the most is 1 GiB)");
    Transaction write(db_);
    checkOwnSchema();
    Statement del(db_, "DELETE FROM snapshots WHERE run=? AND step=?");
    del.integer(1, run).integer(2, step);
    del.run();
    const int64_t parts = (int64_t(bytes.size()) + kKeptPartBytes - 1) / kKeptPartBytes;
    Statement insert(db_, "INSERT INTO snapshots VALUES(?,?,?,?,?)");
    for (int64_t part = 0; part < parts; ++part) {
        const std::size_t from = std::size_t(part) * kKeptPartBytes;
        insert.integer(1, run).integer(2, step).integer(3, part).integer(4, parts);
        insert.blob(5, std::string_view(bytes).substr(from, kKeptPartBytes));
        insert.run();
    }
    write.commit();
}

void RunLibrary::removeKeptWeights(int64_t run, const std::vector<int64_t>& steps) {
    if (steps.empty()) return;
    Transaction write(db_);
    checkOwnSchema();
    Statement del(db_, "DELETE FROM snapshots WHERE run=? AND step=?");
    for (const int64_t step : steps) {
        del.integer(1, run).integer(2, step);
        del.run();
    }
    write.commit();
}

std::vector<KeptWeights> RunLibrary::keptWeights(int64_t run) {
    std::vector<KeptWeights> found;
    if (tables_ < 2) return found;
    // length() of a blob is read from its header, not its pages.
    Statement select(db_,
                     "SELECT step, count(*), min(parts), max(parts), min(part), max(part), sum(length(bytes)) "
                     "FROM snapshots WHERE run=? GROUP BY step ORDER BY step LIMIT ?");
    select.integer(1, run).integer(2, kMaxListedKept);
    while (select.step()) {
        const int64_t step = select.integerAt(0), count = select.integerAt(1), parts = select.integerAt(2);
        const int64_t bytes = select.integerAt(6);
        const bool whole = parts == select.integerAt(3) && parts >= 1 && parts <= kMaxParts && count == parts &&
                           select.integerAt(4) == 0 && select.integerAt(5) == parts - 1;
        if (whole && step >= 0 && step <= kMaxStep && bytes > 0 && bytes <= kMaxKeptBytes)
            found.push_back({step, bytes});
    }
    return found;
}

std::optional<std::string> RunLibrary::keptWeightsBytes(int64_t run, int64_t step) {
    if (tables_ < 2) return std::nullopt;
    // One read transaction: the parts counted are the parts read.
    PreparedStatements& prepared = *prepared_;
    prepared("BEGIN").run();
    struct End {
        PreparedStatements& prepared;
        ~End() {
            try {
                prepared("COMMIT").run();
            } catch (const Error&) {
                // A read transaction's end: nothing was written to keep or lose.
            }
        }
    } end{prepared};
    Statement count = prepared(
        "SELECT count(*), min(parts), max(parts), min(part), max(part), sum(length(bytes)) "
        "FROM snapshots WHERE run=? AND step=?");
    count.integer(1, run).integer(2, step);
    if (!count.step() || count.integerAt(0) == 0) return std::nullopt;
    const int64_t parts = count.integerAt(1), total = count.integerAt(5);
    const std::string where = "the snapshot of run " + std::to_string(run) + " at step " + std::to_string(step);
    if (parts != count.integerAt(2) || parts < 1 || parts > kMaxParts || count.integerAt(0) != parts ||
        count.integerAt(3) != 0 || count.integerAt(4) != parts - 1)
        throw Error(where + " is damaged (its parts are missing or do not match)");
    if (total <= 0 || total > kMaxKeptBytes || total > parts * int64_t(kKeptPartBytes))
        throw Error(where + " claims " + std::to_string(total) + " bytes, more than a snapshot may hold");
    std::string bytes;
    bytes.reserve(std::size_t(total));
    Statement select = prepared("SELECT part, bytes FROM snapshots WHERE run=? AND step=? ORDER BY part");
    select.integer(1, run).integer(2, step);
    int64_t expected = 0;
    while (select.step()) {
        const std::string_view part = select.blobAt(1);
        if (select.integerAt(0) != expected++ || part.size() > std::size_t(kKeptPartBytes) ||
            int64_t(bytes.size() + part.size()) > total)
            throw Error(where + " is damaged (its parts are out of order or larger than they claim)");
        bytes.append(part);
    }
    if (int64_t(bytes.size()) != total || expected != parts) throw Error(where + " is damaged (parts changed while read)");
    return bytes;
}

}  // namespace chargpt
