// SPDX-License-Identifier: GPL-3.0-or-later
// Opening the run library: the schema, the defensive settings, and setting aside a file that is not one.
#include "model/record/RunLibrary.h"

#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include "model/record/RunLibraryDetail.h"

namespace chargpt {

namespace fs = std::filesystem;
using namespace runlibrary;  // fail, exec, Transaction, utcNow

const char* const runlibrary::kForeignSchema =
    "has a schema that is not the one CharGPT Studio makes (its own columns, constraints, indexes, views or triggers "
    "would run with every statement)";

namespace {

// PRAGMA application_id of a run library: "CGPT".
constexpr int kApplicationId = 0x43475054;
// The longest text or blob a statement may read or write (settings, names, paths).
constexpr int kMaxValueBytes = RunLibrary::kMaxValueBytes;

// A file that cannot serve as the run library: set it aside and start anew.
struct Unusable {
    std::string why;
};

bool damaged(int rc) {
    const int primary = rc & 0xff;
    return primary == SQLITE_NOTADB || primary == SQLITE_CORRUPT || primary == SQLITE_FORMAT;
}

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

}  // namespace

std::string runlibrary::asideName(const std::string& path) {
    std::error_code ec;
    const std::string stem = path + ".unreadable-" + utcNow("%Y%m%dT%H%M%SZ");
    std::string aside = stem;
    for (int n = 2; fs::exists(fs::symlink_status(aside, ec)) || fs::exists(fs::symlink_status(aside + "-wal", ec)); ++n)
        aside = stem + "-" + std::to_string(n);
    return aside;
}

namespace {

// Sets the library aside: `path` (and its -wal and -shm files) renamed to
// asideName(path). Returns the new name.
std::string setAsideFiles(const std::string& path) {
    std::error_code ec;
    const auto status = fs::symlink_status(path, ec);
    if (!fs::is_regular_file(status))
        throw Error("the run library " + path + " is not a regular file, so it was left as it is");
    const std::string aside = asideName(path);
    fs::rename(path, aside, ec);
    if (ec) throw Error("the run library " + path + " is unreadable and could not be moved aside: " + ec.message());
    for (const char* suffix : {"-wal", "-shm"})
        if (fs::is_regular_file(fs::symlink_status(path + suffix, ec))) fs::rename(path + suffix, aside + suffix, ec);
    return aside;
}

// The rows of sqlite_schema (type, name, table, SQL text), in name order;
// Unusable when there are more than `most`.
std::vector<std::string> schemaRows(sqlite3* db, std::size_t most) {
    sqlite3_stmt* stmt = nullptr;
    int rc = sqlite3_prepare_v2(db, "SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY name", -1, &stmt,
                                nullptr);
    std::vector<std::string> rows;
    while (rc == SQLITE_OK || rc == SQLITE_ROW) {
        if ((rc = sqlite3_step(stmt)) != SQLITE_ROW) break;
        if (rows.size() == most) {
            sqlite3_finalize(stmt);
            throw Unusable{kForeignSchema};
        }
        std::string row;
        for (int column = 0; column < 4; ++column) {
            const unsigned char* text = sqlite3_column_text(stmt, column);
            row += text ? reinterpret_cast<const char*>(text) : "(null)";
            row += '\x1f';
        }
        rows.push_back(std::move(row));
    }
    if (rc == SQLITE_ROW || rc == SQLITE_DONE) rc = SQLITE_OK;
    sqlite3_finalize(stmt);
    if (damaged(rc)) throw Unusable{"is not a run library or is damaged (" + std::string(sqlite3_errstr(rc)) + ")"};
    if (rc != SQLITE_OK) fail(db, rc, "be opened");
    return rows;
}

// The first row of `sql`'s answer, as text (empty when none); Unusable when
// the file is found damaged on the way.
std::string firstRow(sqlite3* db, const char* sql) {
    sqlite3_stmt* stmt = nullptr;
    int rc = sqlite3_prepare_v2(db, sql, -1, &stmt, nullptr);
    std::string text;
    if (rc == SQLITE_OK) {
        rc = sqlite3_step(stmt);
        if (rc == SQLITE_ROW) {
            const unsigned char* value = sqlite3_column_text(stmt, 0);
            text = value ? reinterpret_cast<const char*>(value) : "";
        }
        rc = rc == SQLITE_ROW || rc == SQLITE_DONE ? SQLITE_OK : rc;
    }
    sqlite3_finalize(stmt);
    if (damaged(rc)) throw Unusable{"is not a run library or is damaged (" + std::string(sqlite3_errstr(rc)) + ")"};
    if (rc != SQLITE_OK) fail(db, rc, "be opened");
    return text;
}

// Past this size only the tables a listing reads are checked on opening.
constexpr int64_t kWholeCheckBytes = int64_t(32) << 20;

// SQLite finds a damaged page only when a statement reads it: a damaged
// checkpoints table left the library open and made every listing fail, and a
// check that read each run's name whole made a name over the value limit
// refuse the whole library. PRAGMA quick_check reads every page of the
// tables it checks, and each row's NOT NULL columns without reading a value
// whole. The budget is decided from the file's size before it starts: the
// whole file up to kWholeCheckBytes (0.1 to 0.3 s for 30 MiB on a loaded
// 2-core machine), else the
// tables a listing reads (runs, checkpoints, evaluations: they grow with the
// number of runs, not with their length); a larger file's points are found
// damaged when a curve reads them.
void checkPages(sqlite3* db) {
    const int64_t pages = std::stoll("0" + firstRow(db, "PRAGMA page_count"));
    const int64_t pageSize = std::stoll("0" + firstRow(db, "PRAGMA page_size"));
    std::vector<const char*> checks{"PRAGMA quick_check(1)"};
    if (pages * pageSize > kWholeCheckBytes)
        checks = {"PRAGMA quick_check(runs)", "PRAGMA quick_check(checkpoints)", "PRAGMA quick_check(evaluations)"};
    for (const char* check : checks) {
        std::string found = firstRow(db, check);
        if (found == "ok") continue;
        if (found.size() > 200) found = found.substr(0, 200) + "...";
        for (char& c : found)
            if (c == '\n' || c == '\r' || c == '\t') c = ' ';
        throw Unusable{"is damaged (SQLite's check of its pages found: " + found + ")"};
    }
}

// sqlite_schema as `version` of the library makes it, from a database in memory.
std::vector<std::string> madeSchema(int version) {
    sqlite3* db = nullptr;
    bool ok =
        sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_MEMORY, nullptr) == SQLITE_OK;
    for (int v = 1; ok && v <= version; ++v)
        ok = sqlite3_exec(db, schemaAdded(v), nullptr, nullptr, nullptr) == SQLITE_OK;
    if (!ok) {
        sqlite3_close_v2(db);
        throw Error("the run library's schema could not be made in memory");
    }
    std::vector<std::string> made = schemaRows(db, 64);
    sqlite3_close_v2(db);
    return made;
}

const std::vector<std::string>& expectedSchema(int version) {
    static const std::vector<std::vector<std::string>> made = [] {
        std::vector<std::vector<std::string>> all;
        for (int v = 1; v <= RunLibrary::kSchemaVersion; ++v) all.push_back(madeSchema(v));
        return all;
    }();
    return made[std::size_t(std::clamp(version, 1, RunLibrary::kSchemaVersion) - 1)];
}

// The statements a library runs are its own, but SQLite runs the file's own
// schema along with them: a generated column's expression, a CHECK
// constraint, a default, an index on an expression. SQLite's defensive
// settings leave those on (one library's CHECK made each insert of the
// training thread take 6 s; another's generated columns made a listing 1.9 GB),
// so a library whose schema is not exactly the one made here is not used.
void checkSchema(sqlite3* db, int version = RunLibrary::kSchemaVersion) {
    const std::vector<std::string>& expected = expectedSchema(version);
    const std::vector<std::string> found = schemaRows(db, expected.size());
    if (found != expected) throw Unusable{kForeignSchema};
}

}  // namespace

int runlibrary::schemaVersion(sqlite3* db) {
    Statement cookie(db, "PRAGMA schema_version");
    return cookie.step() ? int(cookie.integerAt(0)) : 0;
}

bool runlibrary::ownSchema(sqlite3* db) {
    try {
        checkSchema(db);
        return true;
    } catch (const Unusable&) {
        return false;
    }
}

RunLibrary::RunLibrary(sqlite3* db, std::string path)
    : db_(db), prepared_(std::make_unique<PreparedStatements>(db)), path_(std::move(path)) {}

RunLibrary::~RunLibrary() {
    prepared_.reset();  // its statements finalized before the connection closes
    sqlite3_close_v2(db_);
}

void RunLibrary::setBusyTimeout(int milliseconds) { sqlite3_busy_timeout(db_, milliseconds); }

void RunLibrary::releaseSpace() noexcept {
    sqlite3_exec(db_, "PRAGMA wal_checkpoint(TRUNCATE)", nullptr, nullptr, nullptr);
}

void RunLibrary::setSizeLimit(int64_t bytes) {
    Statement pageSize(db_, "PRAGMA page_size");
    const int64_t page = pageSize.step() ? pageSize.integerAt(0) : 4096;
    const int64_t pages = std::max<int64_t>(1, bytes / std::max<int64_t>(page, 512));
    const std::string sql = "PRAGMA max_page_count=" + std::to_string(pages);
    exec(db_, sql.c_str(), "limit its size");
}

namespace {

// `path` as a URI that opens it immutable: read as it is, without the -wal
// and -shm files that a read-only folder cannot hold.
std::string immutableUri(const std::string& path) {
    static const char* const hex = "0123456789ABCDEF";
    std::string uri = "file:";
    for (unsigned char c : path) {
        if (std::isalnum(c) || c == '/' || c == '.' || c == '-' || c == '_' || c == '~') {
            uri += char(c);
        } else {
            uri += '%';
            uri += hex[c >> 4];
            uri += hex[c & 15];
        }
    }
    return uri + "?immutable=1";
}

// Opens and checks the library; `cookie` is its schema's cookie as checked,
// `tables` the version whose tables it has (an older library opened read-only
// keeps its own).
std::unique_ptr<RunLibrary> connect(const std::string& path, const std::string& shown, bool readOnly,
                                    RunLibrary* (*make)(sqlite3*, const std::string&), std::string* note,
                                    int* cookie, int* tables) {
    sqlite3* raw = nullptr;
    // Read-only: a WAL library needs its -shm file to be read, which a folder
    // that cannot be written cannot hold unless a writer left one there; without
    // a -wal file the database file alone holds every run, read immutable. With
    // a -wal file and no -shm file (a writer killed, the folder then made
    // read-only), SQLite keeps the log's index in its own memory instead, in
    // the exclusive locking mode; that mode locks the file for writing, which a
    // read-only file refuses, so that connection takes no locks (unix-none),
    // as an immutable one takes none.
    std::error_code ec;
    const bool log = fs::exists(fs::symlink_status(path + "-wal", ec));
    const bool immutable = readOnly && !log;
    const bool privateIndex = readOnly && log && !fs::exists(fs::symlink_status(path + "-shm", ec));
    const int flags = (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) |
                      SQLITE_OPEN_FULLMUTEX | SQLITE_OPEN_NOFOLLOW | (immutable ? SQLITE_OPEN_URI : 0);
    const int rc = sqlite3_open_v2(immutable ? immutableUri(path).c_str() : path.c_str(), &raw, flags,
                                   privateIndex ? "unix-none" : nullptr);
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
    if (readOnly) sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, nullptr);
    if (privateIndex) exec(db, "PRAGMA locking_mode=EXCLUSIVE", "be opened");

    const int application = pragmaValue(db, "PRAGMA application_id");
    const int version = pragmaValue(db, "PRAGMA user_version");
    if (application != 0 && application != kApplicationId) throw Unusable{"belongs to another program"};
    if (version > RunLibrary::kSchemaVersion)
        throw Unusable{"was written by a later version of CharGPT Studio (its format " + std::to_string(version) +
                       ", this one reads " + std::to_string(RunLibrary::kSchemaVersion) + ")"};
    if (application == 0 && (version != 0 || pragmaValue(db, "SELECT count(*) FROM sqlite_schema") != 0))
        throw Unusable{"is another program's database"};
    // Our id without a version: only an empty file is set up (tables of its
    // own would stay beside ours, their constraints run by our statements).
    if (version == 0 && pragmaValue(db, "SELECT count(*) FROM sqlite_schema") != 0) throw Unusable{kForeignSchema};
    if (readOnly && version == 0)
        throw Error("the run library " + path + " is empty and its folder cannot be written, so none can be started");

    // The cookie first: a change after it is seen by the next write (RunLibrary::checkOwnSchema).
    if (version != 0) *cookie = pragmaValue(db, "PRAGMA schema_version");
    if (version != 0) checkSchema(db, version);
    *tables = version;
    // Damaged pages are found before anything is written to the file.
    if (version != 0) checkPages(db);

    if (readOnly) return library;
    // Readers never wait for the writer, and a commit survives the process
    // being killed (a power cut may lose the last commits, never the file).
    exec(db, "PRAGMA journal_mode=WAL", "be opened");
    exec(db, "PRAGMA synchronous=NORMAL", "be opened");
    if (version != 0) keepDamagedLog(db, shown, note);
    if (version == 0) {
        Transaction create(db);
        // Another process may have created it since we looked.
        if (pragmaValue(db, "PRAGMA user_version") == 0) {
            for (int v = 1; v <= RunLibrary::kSchemaVersion; ++v) exec(db, schemaAdded(v), "be created");
            exec(db, ("PRAGMA application_id=" + std::to_string(kApplicationId)).c_str(), "be created");
            exec(db, ("PRAGMA user_version=" + std::to_string(RunLibrary::kSchemaVersion)).c_str(), "be created");
        } else {
            checkSchema(db);
        }
        *cookie = pragmaValue(db, "PRAGMA schema_version");
        create.commit();
    } else if (version < RunLibrary::kSchemaVersion) {
        // An earlier version's library gets the tables it lacks (the
        // versions' tables in RunLibrarySchema.cpp); what it holds stays.
        Transaction upgrade(db);
        if (pragmaValue(db, "PRAGMA user_version") == version) {
            checkSchema(db, version);
            for (int v = version + 1; v <= RunLibrary::kSchemaVersion; ++v)
                exec(db, schemaAdded(v), "be upgraded");
            exec(db, ("PRAGMA user_version=" + std::to_string(RunLibrary::kSchemaVersion)).c_str(), "be upgraded");
        } else {
            checkSchema(db);
        }
        *cookie = pragmaValue(db, "PRAGMA schema_version");
        upgrade.commit();
    }
    *tables = RunLibrary::kSchemaVersion;
    return library;
}

}  // namespace

std::unique_ptr<RunLibrary> RunLibrary::open(const std::string& path, std::string* setAside) {
    if (setAside) setAside->clear();
    std::error_code ec;
    const fs::path parent = fs::path(path).parent_path();
    if (!parent.empty()) fs::create_directories(parent, ec);
    // SQLITE_OPEN_NOFOLLOW refuses a symbolic link anywhere in the path, and a
    // home folder reached through one is common: the folder is resolved first,
    // so that only the file itself (and its -wal and -shm) must not be a link.
    std::string opened = path;
    if (!parent.empty()) {
        const fs::path resolved = fs::canonical(parent, ec);
        if (!ec) opened = (resolved / fs::path(path).filename()).string();
    }
    // A folder (or a file) that cannot be written: the library is only read.
    const std::string folder = parent.empty() ? std::string(".") : parent.string();
    const bool readOnly = ::access(folder.c_str(), W_OK) != 0 ||
                          (fs::exists(fs::symlink_status(opened, ec)) && ::access(opened.c_str(), W_OK) != 0);
    auto make = [](sqlite3* db, const std::string& p) { return new RunLibrary(db, p); };
    // Named as given (the resolved folder is for opening only).
    int cookie = 0;
    int tables = RunLibrary::kSchemaVersion;
    auto named = [&path, readOnly, &cookie, &tables](std::unique_ptr<RunLibrary> library) {
        library->path_ = path;
        library->readOnly_ = readOnly;
        library->schemaCookie_ = cookie;
        library->tables_ = tables;
        return library;
    };
    try {
        std::string note;
        auto library = named(connect(opened, path, readOnly, make, &note, &cookie, &tables));
        if (setAside) *setAside = note;
        return library;
    } catch (const Unusable& unusable) {
        if (readOnly)
            throw Error("the run library " + path + " " + unusable.why +
                        ", and it cannot be set aside (its folder cannot be written)");
        const std::string aside = setAsideFiles(path);
        if (setAside)
            *setAside = "The run library " + path + " " + unusable.why + "; it was moved to " + aside +
                        " and a new one was started.";
    }
    std::string note;
    try {
        return named(connect(opened, path, readOnly, make, &note, &cookie, &tables));
    } catch (const Unusable& again) {
        throw Error("a new run library could not be started at " + path + ": it " + again.why);
    }
}

}  // namespace chargpt
