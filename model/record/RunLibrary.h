// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The run library: every training run, from the app or `chargpt train`, in one
// SQLite database (docs/ARCHITECTURE.md, "The run library"). One RunLibrary is
// one connection, used by one thread at a time; other connections, in this
// process or another, may read and write the same file at the same time (WAL).

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/runtime/Error.h"

struct sqlite3;

namespace chargpt {

// What is known of a run when it starts.
struct RunStart {
    std::string name;          // shown in the runs panel; editable later
    std::string origin;        // "app" or "cli"
    std::string preset;        // the preset it started from ("" when none)
    std::string settingsJson;  // configToJson() of the run's settings
    std::string corpusName;
    int64_t corpusBytes = 0;
    std::string corpusHash;    // corpusFingerprint()
    int64_t parameters = 0;
    uint64_t seed = 0;
    int64_t firstStep = 0;     // a model trained further starts past 0
};

// One training step.
struct RunPoint {
    int64_t step = 0;
    double loss = 0.0;
    double learningRate = 0.0;
    int64_t tokens = 0;     // tokens seen in total after the step
    double seconds = 0.0;   // since the run started, pauses excluded
};

// One evaluation (the fixed evaluation batches of both splits).
struct RunEvaluation {
    int64_t step = 0;
    double trainLoss = 0.0;
    double valLoss = 0.0;
    double seconds = 0.0;
};

// The figures a run has reached; written with every batch of points and at its end.
struct RunFigures {
    int64_t steps = 0;
    int64_t tokens = 0;
    double seconds = 0.0;
    double tokensPerSecond = 0.0;
    double lastTrainLoss = std::numeric_limits<double>::quiet_NaN();
    double lastValLoss = std::numeric_limits<double>::quiet_NaN();
    int64_t bestStep = -1;
    double bestValLoss = std::numeric_limits<double>::quiet_NaN();
};

// A run as the library lists it.
struct RunRecord {
    int64_t id = 0;
    RunStart start;
    std::string started;  // UTC, ISO 8601 ("2026-12-02T09:15:00Z")
    std::string ended;    // empty while it runs, or when it never ended (killed)
    std::string endReason;  // toString(StopReason), or empty
    RunFigures figures;
    std::vector<std::pair<int64_t, std::string>> checkpoints;  // step, path
};

class RunLibrary {
public:
    // The schema this build writes; a database of a later version is set aside.
    static constexpr int kSchemaVersion = 1;

    // Opens the library at `path` (its folder is created), or starts one. A file
    // that is not a run library, is damaged or was written by a later version is
    // renamed beside itself (`runs.sqlite.unreadable-20261202T091500Z`, with its
    // -wal and -shm files) and a new library started; `setAside` then says so in
    // a sentence. Throws chargpt::Error when no library can be opened there at all
    // (a read-only folder, say): the caller trains without recording.
    static std::unique_ptr<RunLibrary> open(const std::string& path, std::string* setAside = nullptr);

    ~RunLibrary();
    RunLibrary(const RunLibrary&) = delete;
    RunLibrary& operator=(const RunLibrary&) = delete;

    const std::string& path() const { return path_; }
    // How long a write waits for another connection's write, in milliseconds.
    void setBusyTimeout(int milliseconds);

    // Each write is one transaction, all or nothing; it throws RunLibraryBusy
    // when another connection kept the lock past the timeout, chargpt::Error
    // for any other failure (a full disk, a damaged file).
    int64_t beginRun(const RunStart& start);
    // Points, evaluations and the figures so far, in one transaction.
    void append(int64_t run, const std::vector<RunPoint>& points, const std::vector<RunEvaluation>& evaluations,
                const RunFigures& figures);
    void addCheckpoint(int64_t run, int64_t step, const std::string& path);
    void endRun(int64_t run, const std::string& reason, const RunFigures& figures);
    void rename(int64_t run, const std::string& name);
    void remove(int64_t run);

    // Every run, newest first.
    std::vector<RunRecord> runs();
    std::optional<RunRecord> run(int64_t id);
    std::vector<RunPoint> points(int64_t run);
    std::vector<RunEvaluation> evaluations(int64_t run);

private:
    RunLibrary(sqlite3* db, std::string path);
    sqlite3* db_;
    std::string path_;
};

// Thrown by a write when another connection held the lock past the busy
// timeout: nothing was written, and the same write may be tried again later.
class RunLibraryBusy : public Error {
public:
    using Error::Error;
};

// The fields of a run's settings (the "config" object of configToJson()), each
// value as its JSON text ("128", "0.005", "true"), in their order; empty when
// the text is not such an object. The library is a file anyone can hand us:
// nesting deeper than the settings' own is refused while parsing.
std::vector<std::pair<std::string, std::string>> settingsFields(const std::string& settingsJson);

// A fingerprint of a corpus's text: FNV-1a (64 bits) of its characters, as 16
// hexadecimal digits. The same text gives the same fingerprint on every machine.
std::string corpusFingerprint(const std::vector<std::u32string>& documents);

}  // namespace chargpt
