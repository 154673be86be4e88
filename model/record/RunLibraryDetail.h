// SPDX-License-Identifier: GPL-3.0-or-later
// The statements, transactions and errors shared by the files of model/record/RunLibrary.h.
#pragma once

#include <sqlite3.h>

#include <cmath>
#include <cstdint>
#include <ctime>
#include <map>
#include <string>
#include <string_view>

#include "model/record/RunLibrary.h"

namespace chargpt::runlibrary {

[[noreturn]] inline void fail(sqlite3* db, int rc, const std::string& what) {
    const std::string detail = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    const int primary = rc & 0xff;
    if (primary == SQLITE_BUSY || primary == SQLITE_LOCKED)
        throw RunLibraryBusy("the run library is busy (another program is writing to it): " + detail);
    if (primary == SQLITE_FULL)
        throw RunLibraryFull("the run library could not " + what + ": " + detail);
    throw Error("the run library could not " + what + ": " + detail);
}

class Statement {
public:
    Statement(sqlite3* db, const char* sql) : db_(db) {
        const int rc = sqlite3_prepare_v2(db, sql, -1, &stmt_, nullptr);
        if (rc != SQLITE_OK) fail(db_, rc, "be read");
    }
    // One of the connection's prepared statements (PreparedStatements), reset
    // and cleared for its next use instead of finalized.
    Statement(sqlite3* db, sqlite3_stmt* prepared) : db_(db), stmt_(prepared), owned_(false) {}
    ~Statement() {
        if (owned_) {
            sqlite3_finalize(stmt_);
        } else {
            reset();
        }
    }
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;

    Statement& integer(int i, int64_t v) { return check(sqlite3_bind_int64(stmt_, i, static_cast<sqlite3_int64>(v))); }
    Statement& real(int i, double v) {
        return check(std::isfinite(v) ? sqlite3_bind_double(stmt_, i, v) : sqlite3_bind_null(stmt_, i));
    }
    Statement& text(int i, const std::string& v) {
        return check(sqlite3_bind_text(stmt_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT));
    }
    Statement& blob(int i, std::string_view v) {
        return check(sqlite3_bind_blob64(stmt_, i, v.data(), static_cast<sqlite3_uint64>(v.size()), SQLITE_TRANSIENT));
    }
    enum class Row { Found, Done, TooBig };
    // A row, the end, or a row with a value over SQLITE_LIMIT_LENGTH (which
    // ends the statement: it must be reset); any other failure throws.
    Row tryStep() {
        const int rc = sqlite3_step(stmt_);
        if (rc == SQLITE_ROW) return Row::Found;
        if (rc == SQLITE_DONE) return Row::Done;
        if ((rc & 0xff) == SQLITE_TOOBIG) return Row::TooBig;
        fail(db_, rc, "be read or written");
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
    // NaN for NULL and for a value that is not finite (SQLite keeps infinities).
    double realAt(int col) const {
        const double v = sqlite3_column_type(stmt_, col) == SQLITE_NULL ? std::nan("") : sqlite3_column_double(stmt_, col);
        return std::isfinite(v) ? v : std::nan("");
    }
    // A blob (or text) value's bytes, without a copy: valid until the next step.
    std::string_view blobAt(int col) const {
        const auto* p = static_cast<const char*>(sqlite3_column_blob(stmt_, col));
        return p ? std::string_view(p, static_cast<std::size_t>(sqlite3_column_bytes(stmt_, col))) : std::string_view();
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
    bool owned_ = true;
};

// The statements a path runs once per kept step (a filmstrip reads every
// kept weights of a run, and a hostile library may list 100,000 of them), each
// prepared once per connection instead of parsed at every use. Keyed by the
// SQL's address: only string literals are passed.
class PreparedStatements {
public:
    explicit PreparedStatements(sqlite3* db) : db_(db) {}
    ~PreparedStatements() {
        for (const auto& entry : statements_) sqlite3_finalize(entry.second);
    }
    PreparedStatements(const PreparedStatements&) = delete;
    PreparedStatements& operator=(const PreparedStatements&) = delete;

    Statement operator()(const char* sql) {
        sqlite3_stmt*& stmt = statements_[sql];
        if (!stmt) {
            const int rc = sqlite3_prepare_v3(db_, sql, -1, SQLITE_PREPARE_PERSISTENT, &stmt, nullptr);
            if (rc != SQLITE_OK) {
                statements_.erase(sql);
                fail(db_, rc, "be read");
            }
        }
        return Statement(db_, stmt);
    }

private:
    sqlite3* db_;
    std::map<const char*, sqlite3_stmt*> statements_;
};

inline void exec(sqlite3* db, const char* sql, const std::string& what) {
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

// `path.unreadable-<time>`, or with "-2", "-3"... where that is taken (RunLibraryOpen.cpp).
std::string asideName(const std::string& path);
// When the library's write-ahead log holds what SQLite will not apply, a copy
// of the library and its log is kept beside them and `note` says so
// (RunLibraryLog.cpp).
void keepDamagedLog(sqlite3* db, const std::string& path, std::string* note);

// The schema's cookie, which every change of the schema moves (PRAGMA schema_version).
int schemaVersion(sqlite3* db);
// True when sqlite_schema is exactly the one the library makes (RunLibraryOpen.cpp).
bool ownSchema(sqlite3* db);
// The SQL that makes the tables version `version` (1 to
// RunLibrary::kSchemaVersion) of the schema added (RunLibrarySchema.cpp).
const char* schemaAdded(int version);
// What a library whose schema is not ours would do (RunLibraryOpen.cpp).
extern const char* const kForeignSchema;

inline std::string utcNow(const char* format) {
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&now, &tm);
    char text[40];
    std::strftime(text, sizeof text, format, &tm);
    return text;
}

}  // namespace chargpt::runlibrary
