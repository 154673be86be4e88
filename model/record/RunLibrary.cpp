// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/record/RunLibrary.h"

#include <sqlite3.h>

#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <map>
#include <system_error>

#include <nlohmann/json.hpp>

namespace chargpt {

namespace fs = std::filesystem;

namespace {

// PRAGMA application_id of a run library: "CGPT".
constexpr int kApplicationId = 0x43475054;
// What one list reads at most: a library is a file anyone can hand us.
constexpr int kMaxListedRuns = 100000;
constexpr int kMaxReadPoints = 4000000;
// The longest text or blob a statement may read or write (settings, names, paths).
constexpr int kMaxValueBytes = 1 << 20;

// A file that cannot serve as the run library: set it aside and start anew.
struct Unusable {
    std::string why;
};

bool damaged(int rc) {
    const int primary = rc & 0xff;
    return primary == SQLITE_NOTADB || primary == SQLITE_CORRUPT || primary == SQLITE_FORMAT;
}

[[noreturn]] void fail(sqlite3* db, int rc, const std::string& what) {
    const std::string detail = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    const int primary = rc & 0xff;
    if (primary == SQLITE_BUSY || primary == SQLITE_LOCKED)
        throw RunLibraryBusy("the run library is busy (another program is writing to it): " + detail);
    throw Error("the run library could not " + what + ": " + detail);
}

class Statement {
public:
    Statement(sqlite3* db, const char* sql) : db_(db) {
        const int rc = sqlite3_prepare_v2(db, sql, -1, &stmt_, nullptr);
        if (rc != SQLITE_OK) fail(db_, rc, "be read");
    }
    ~Statement() { sqlite3_finalize(stmt_); }
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;

    Statement& integer(int i, int64_t v) { return check(sqlite3_bind_int64(stmt_, i, static_cast<sqlite3_int64>(v))); }
    Statement& real(int i, double v) {
        return check(std::isfinite(v) ? sqlite3_bind_double(stmt_, i, v) : sqlite3_bind_null(stmt_, i));
    }
    Statement& text(int i, const std::string& v) {
        return check(sqlite3_bind_text(stmt_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT));
    }
    // True for a row, false when done.
    bool step() {
        const int rc = sqlite3_step(stmt_);
        if (rc == SQLITE_ROW) return true;
        if (rc == SQLITE_DONE) return false;
        fail(db_, rc, "be read or written");
    }
    void run() {
        while (step()) {
        }
        reset();
    }
    void reset() {
        sqlite3_reset(stmt_);
        sqlite3_clear_bindings(stmt_);
    }
    int64_t integerAt(int col) const { return static_cast<int64_t>(sqlite3_column_int64(stmt_, col)); }
    double realAt(int col) const {
        return sqlite3_column_type(stmt_, col) == SQLITE_NULL ? std::nan("") : sqlite3_column_double(stmt_, col);
    }
    std::string textAt(int col) const {
        const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, col));
        return p ? std::string(p, static_cast<std::size_t>(sqlite3_column_bytes(stmt_, col))) : std::string();
    }

private:
    Statement& check(int rc) {
        if (rc != SQLITE_OK) fail(db_, rc, "be written");
        return *this;
    }
    sqlite3* db_;
    sqlite3_stmt* stmt_ = nullptr;
};

void exec(sqlite3* db, const char* sql, const std::string& what) {
    const int rc = sqlite3_exec(db, sql, nullptr, nullptr, nullptr);
    if (rc != SQLITE_OK) fail(db, rc, what);
}

// One write transaction: BEGIN IMMEDIATE takes the write lock first (waiting
// up to the busy timeout), so it never fails half-way for another writer.
class Transaction {
public:
    explicit Transaction(sqlite3* db) : db_(db) { exec(db_, "BEGIN IMMEDIATE", "start a write"); }
    ~Transaction() {
        if (!done_) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    }
    void commit() {
        exec(db_, "COMMIT", "save what it was given");
        done_ = true;
    }

private:
    sqlite3* db_;
    bool done_ = false;
};

std::string utcNow(const char* format) {
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&now, &tm);
    char text[40];
    std::strftime(text, sizeof text, format, &tm);
    return text;
}

const char* const kSchema = R"sql(
CREATE TABLE runs(
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    origin TEXT NOT NULL,
    preset TEXT NOT NULL,
    settings TEXT NOT NULL,
    corpus_name TEXT NOT NULL,
    corpus_bytes INTEGER NOT NULL,
    corpus_hash TEXT NOT NULL,
    parameters INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    first_step INTEGER NOT NULL,
    started TEXT NOT NULL,
    ended TEXT,
    end_reason TEXT,
    steps INTEGER NOT NULL DEFAULT 0,
    tokens INTEGER NOT NULL DEFAULT 0,
    seconds REAL NOT NULL DEFAULT 0,
    tokens_per_second REAL,
    last_train_loss REAL,
    last_val_loss REAL,
    best_step INTEGER,
    best_val_loss REAL
);
CREATE TABLE points(
    run INTEGER NOT NULL,
    step INTEGER NOT NULL,
    loss REAL,
    learning_rate REAL,
    tokens INTEGER NOT NULL,
    seconds REAL NOT NULL,
    PRIMARY KEY(run, step)
) WITHOUT ROWID;
CREATE TABLE evaluations(
    run INTEGER NOT NULL,
    step INTEGER NOT NULL,
    train_loss REAL,
    val_loss REAL,
    seconds REAL NOT NULL,
    PRIMARY KEY(run, step)
) WITHOUT ROWID;
CREATE TABLE checkpoints(
    run INTEGER NOT NULL,
    step INTEGER NOT NULL,
    path TEXT NOT NULL,
    written TEXT NOT NULL
);
CREATE INDEX checkpoints_by_run ON checkpoints(run);
)sql";

int pragmaValue(sqlite3* db, const char* sql) {
    sqlite3_stmt* stmt = nullptr;
    int rc = sqlite3_prepare_v2(db, sql, -1, &stmt, nullptr);
    int value = 0;
    if (rc == SQLITE_OK) {
        rc = sqlite3_step(stmt);
        if (rc == SQLITE_ROW) value = sqlite3_column_int(stmt, 0);
        rc = rc == SQLITE_ROW || rc == SQLITE_DONE ? SQLITE_OK : rc;
    }
    sqlite3_finalize(stmt);
    if (damaged(rc)) throw Unusable{"is not a run library or is damaged (" + std::string(sqlite3_errstr(rc)) + ")"};
    if (rc != SQLITE_OK) fail(db, rc, "be opened");
    return value;
}

// Sets the library aside: `path` (and its -wal and -shm files) renamed to
// `path.unreadable-<time>`. Returns the new name.
std::string setAsideFiles(const std::string& path) {
    std::error_code ec;
    const auto status = fs::symlink_status(path, ec);
    if (!fs::is_regular_file(status))
        throw Error("the run library " + path + " is not a regular file, so it was left as it is");
    const std::string stem = path + ".unreadable-" + utcNow("%Y%m%dT%H%M%SZ");
    std::string aside = stem;
    for (int n = 2; fs::exists(fs::symlink_status(aside, ec)); ++n) aside = stem + "-" + std::to_string(n);
    fs::rename(path, aside, ec);
    if (ec) throw Error("the run library " + path + " is unreadable and could not be moved aside: " + ec.message());
    for (const char* suffix : {"-wal", "-shm"})
        if (fs::is_regular_file(fs::symlink_status(path + suffix, ec))) fs::rename(path + suffix, aside + suffix, ec);
    return aside;
}

}  // namespace

RunLibrary::RunLibrary(sqlite3* db, std::string path) : db_(db), path_(std::move(path)) {}

RunLibrary::~RunLibrary() { sqlite3_close_v2(db_); }

void RunLibrary::setBusyTimeout(int milliseconds) { sqlite3_busy_timeout(db_, milliseconds); }

namespace {

std::unique_ptr<RunLibrary> connect(const std::string& path, RunLibrary* (*make)(sqlite3*, const std::string&)) {
    sqlite3* raw = nullptr;
    const int rc = sqlite3_open_v2(path.c_str(), &raw,
                                   SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX | SQLITE_OPEN_NOFOLLOW,
                                   nullptr);
    std::unique_ptr<RunLibrary> library(make(raw, path));  // closes `raw` on every way out
    if (rc != SQLITE_OK) {
        if (damaged(rc)) throw Unusable{"is not a run library"};
        fail(raw, rc, "be opened at " + path);
    }
    sqlite3* db = raw;
    sqlite3_extended_result_codes(db, 1);
    sqlite3_busy_timeout(db, 5000);
    // The file may come from anyone: no triggers or views of its own run with
    // our statements, its schema is not trusted, and no value is read whole
    // past kMaxValueBytes.
    sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
    sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, nullptr);
    sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, nullptr);
    sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_VIEW, 0, nullptr);
    sqlite3_limit(db, SQLITE_LIMIT_LENGTH, kMaxValueBytes);

    const int application = pragmaValue(db, "PRAGMA application_id");
    const int version = pragmaValue(db, "PRAGMA user_version");
    if (application != 0 && application != kApplicationId) throw Unusable{"belongs to another program"};
    if (version > RunLibrary::kSchemaVersion)
        throw Unusable{"was written by a later version of CharGPT Studio (its format " + std::to_string(version) +
                       ", this one reads " + std::to_string(RunLibrary::kSchemaVersion) + ")"};
    if (application == 0 && (version != 0 || pragmaValue(db, "SELECT count(*) FROM sqlite_schema") != 0))
        throw Unusable{"is another program's database"};

    // Reads the list's table through, so that a damaged one is found before
    // anything is written to the file.
    if (version != 0) (void)pragmaValue(db, "SELECT count(*) FROM runs WHERE length(name) >= 0");

    // Readers never wait for the writer, and a commit survives the process
    // being killed (a power cut may lose the last commits, never the file).
    exec(db, "PRAGMA journal_mode=WAL", "be opened");
    exec(db, "PRAGMA synchronous=NORMAL", "be opened");
    if (version == 0) {
        Transaction create(db);
        // Another process may have created it since we looked.
        if (pragmaValue(db, "PRAGMA user_version") == 0) {
            exec(db, kSchema, "be created");
            exec(db, ("PRAGMA application_id=" + std::to_string(kApplicationId)).c_str(), "be created");
            exec(db, ("PRAGMA user_version=" + std::to_string(RunLibrary::kSchemaVersion)).c_str(), "be created");
        }
        create.commit();
    }
    return library;
}

}  // namespace

std::unique_ptr<RunLibrary> RunLibrary::open(const std::string& path, std::string* setAside) {
    if (setAside) setAside->clear();
    std::error_code ec;
    const fs::path parent = fs::path(path).parent_path();
    if (!parent.empty()) fs::create_directories(parent, ec);
    auto make = [](sqlite3* db, const std::string& p) { return new RunLibrary(db, p); };
    try {
        return connect(path, make);
    } catch (const Unusable& unusable) {
        const std::string aside = setAsideFiles(path);
        if (setAside)
            *setAside = "The run library " + path + " " + unusable.why + "; it was moved to " + aside +
                        " and a new one was started.";
    }
    try {
        return connect(path, make);
    } catch (const Unusable& again) {
        throw Error("a new run library could not be started at " + path + ": it " + again.why);
    }
}

int64_t RunLibrary::beginRun(const RunStart& start) {
    Transaction write(db_);
    Statement insert(db_,
                     "INSERT INTO runs(name, origin, preset, settings, corpus_name, corpus_bytes, corpus_hash, "
                     "parameters, seed, first_step, started, steps) VALUES(?,?,?,?,?,?,?,?,?,?,?,?)");
    insert.text(1, start.name).text(2, start.origin).text(3, start.preset).text(4, start.settingsJson);
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
    update.integer(1, f.steps).integer(2, f.tokens).real(3, f.seconds).real(4, f.tokensPerSecond);
    update.real(5, f.lastTrainLoss).real(6, f.lastValLoss);
    if (f.bestStep >= 0)
        update.integer(7, f.bestStep);
    update.real(8, f.bestValLoss).integer(9, run);
    update.run();
}

}  // namespace

void RunLibrary::append(int64_t run, const std::vector<RunPoint>& points,
                        const std::vector<RunEvaluation>& evaluations, const RunFigures& figures) {
    Transaction write(db_);
    if (!points.empty()) {
        Statement insert(db_, "INSERT OR REPLACE INTO points VALUES(?,?,?,?,?,?)");
        for (const RunPoint& p : points) {
            insert.integer(1, run).integer(2, p.step).real(3, p.loss).real(4, p.learningRate);
            insert.integer(5, p.tokens).real(6, p.seconds);
            insert.run();
        }
    }
    if (!evaluations.empty()) {
        Statement insert(db_, "INSERT OR REPLACE INTO evaluations VALUES(?,?,?,?,?)");
        for (const RunEvaluation& e : evaluations) {
            insert.integer(1, run).integer(2, e.step).real(3, e.trainLoss).real(4, e.valLoss).real(5, e.seconds);
            insert.run();
        }
    }
    writeFigures(db_, run, figures);
    write.commit();
}

void RunLibrary::addCheckpoint(int64_t run, int64_t step, const std::string& path) {
    Transaction write(db_);
    Statement insert(db_, "INSERT INTO checkpoints VALUES(?,?,?,?)");
    insert.integer(1, run).integer(2, step).text(3, path).text(4, utcNow("%Y-%m-%dT%H:%M:%SZ"));
    insert.run();
    write.commit();
}

void RunLibrary::endRun(int64_t run, const std::string& reason, const RunFigures& figures) {
    Transaction write(db_);
    writeFigures(db_, run, figures);
    Statement update(db_, "UPDATE runs SET ended=?, end_reason=? WHERE id=?");
    update.text(1, utcNow("%Y-%m-%dT%H:%M:%SZ")).text(2, reason).integer(3, run);
    update.run();
    write.commit();
}

void RunLibrary::rename(int64_t run, const std::string& name) {
    Transaction write(db_);
    Statement update(db_, "UPDATE runs SET name=? WHERE id=?");
    update.text(1, name).integer(2, run);
    update.run();
    write.commit();
}

void RunLibrary::remove(int64_t run) {
    Transaction write(db_);
    for (const char* sql : {"DELETE FROM points WHERE run=?", "DELETE FROM evaluations WHERE run=?",
                            "DELETE FROM checkpoints WHERE run=?", "DELETE FROM runs WHERE id=?"}) {
        Statement del(db_, sql);
        del.integer(1, run);
        del.run();
    }
    write.commit();
}

namespace {

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

std::vector<std::pair<std::string, std::string>> settingsFields(const std::string& settingsJson) {
    constexpr int kMaxDepth = 4;  // {"config": {"emb_size": 128}} is 2
    auto shallow = [](int depth, nlohmann::ordered_json::parse_event_t, nlohmann::ordered_json&) {
        if (depth > kMaxDepth) throw Error("nested too deeply");
        return true;
    };
    std::vector<std::pair<std::string, std::string>> fields;
    try {
        const auto document = nlohmann::ordered_json::parse(settingsJson, shallow, /*allow_exceptions=*/false);
        if (!document.is_object() || !document.contains("config") || !document["config"].is_object()) return fields;
        for (const auto& [key, value] : document["config"].items())
            if (value.is_primitive()) fields.emplace_back(key, value.dump());
    } catch (const Error&) {
        fields.clear();
    }
    return fields;
}

std::string corpusFingerprint(const std::vector<std::u32string>& documents) {
    uint64_t hash = 14695981039346656037ull;
    auto mix = [&hash](uint32_t c) {
        for (int shift = 0; shift < 32; shift += 8) {
            hash ^= (c >> shift) & 0xffu;
            hash *= 1099511628211ull;
        }
    };
    for (const std::u32string& document : documents) {
        for (char32_t c : document) mix(static_cast<uint32_t>(c));
        mix(0xffffffffu);  // between documents: "ab" + "c" is not "a" + "bc"
    }
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash));
    return text;
}

}  // namespace chargpt
