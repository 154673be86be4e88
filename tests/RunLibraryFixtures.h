// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the run library's hostile tests build their files from: a run's start,
// its points, and SQL run on the file by SQLite's own plain connection.
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <QString>

#include <csignal>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "model/record/RunLibrary.h"

namespace runlibrary_fixtures {

inline chargpt::RunStart someRun(const std::string& name) {
    chargpt::RunStart start;
    start.name = name;
    start.origin = chargpt::RunOrigin::Cli;
    start.preset = "tiny";
    start.settingsJson = R"({"format":"chargpt-config","config":{"emb_size":128}})";
    start.corpusName = "builtin:tang300";
    start.corpusBytes = 29577;
    start.corpusHash = chargpt::corpusFingerprint({U"abc"});
    start.parameters = 1234;
    start.seed = 7;
    return start;
}

inline std::vector<chargpt::RunPoint> pointsFrom(int64_t first, int64_t count) {
    std::vector<chargpt::RunPoint> points;
    points.reserve(std::size_t(count));
    for (int64_t step = first; step < first + count; ++step)
        points.push_back({step, 4.0 - 1e-6 * double(step), 1e-3, step * 2048, 0.01 * double(step)});
    return points;
}

// Runs `sql` on the file with a plain connection of SQLite's own (no limits);
// `keepLog` leaves its write-ahead log behind, as a writer killed would.
inline QString edit(const std::string& path, const char* sql, bool keepLog = false) {
    sqlite3* db = nullptr;
    sqlite3_open(path.c_str(), &db);
    if (keepLog) sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, nullptr);
    char* error = nullptr;
    const int rc = sqlite3_exec(db, sql, nullptr, nullptr, &error);
    const QString why = rc == SQLITE_OK ? QString() : QString::fromUtf8(error ? error : sqlite3_errstr(rc));
    sqlite3_free(error);
    sqlite3_close(db);
    return why;
}

// SQLite's own check of the whole file: "ok" for a sound one.
inline QString integrity(const std::string& path) {
    sqlite3* db = nullptr;
    sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
    sqlite3_stmt* stmt = nullptr;
    QString result = QStringLiteral("cannot read");
    if (sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &stmt, nullptr) == SQLITE_OK &&
        sqlite3_step(stmt) == SQLITE_ROW)
        result = QString::fromUtf8(reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0)));
    sqlite3_finalize(stmt);
    sqlite3_close(db);
    return result;
}

// A writer killed in the middle of its work: a child process calls
// `write(library, i)` for i = 0, 1, 2, ... on its own connection to the
// library at `path`, telling after each call returns; once it has told of
// `atLeast`, it gets SIGKILL. The count it told of in all, or -1 when it did
// not die of SIGKILL (it failed first).
inline int killedWriter(const std::string& path, int atLeast,
                        const std::function<void(chargpt::RunLibrary&, int)>& write) {
    int committed[2];
    if (::pipe(committed) != 0) return -1;
    const pid_t child = ::fork();
    if (child < 0) return -1;
    if (child == 0) {
        ::close(committed[0]);
        try {
            auto library = chargpt::RunLibrary::open(path);
            for (int i = 0;; ++i) {
                write(*library, i);
                const int done = i + 1;
                if (::write(committed[1], &done, sizeof done) != sizeof done) ::_exit(3);
            }
        } catch (...) {
            ::_exit(2);
        }
    }
    ::close(committed[1]);
    int done = 0;
    while (done < atLeast && ::read(committed[0], &done, sizeof done) == ssize_t(sizeof done)) {
    }
    ::kill(child, SIGKILL);
    int status = 0;
    const bool killed = ::waitpid(child, &status, 0) == child && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
    // What it finished after the last one read above.
    while (::read(committed[0], &done, sizeof done) == ssize_t(sizeof done)) {
    }
    ::close(committed[0]);
    return killed && done >= atLeast ? done : -1;
}

}  // namespace runlibrary_fixtures
