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

#include "model/record/RunWords.h"
#include "model/runtime/Error.h"
#include "model/train/HealthFigures.h"
#include "model/train/LossCurve.h"
#include "model/train/RunFigures.h"

struct sqlite3;

namespace chargpt {

namespace runlibrary {
class PreparedStatements;  // RunLibraryDetail.h
}

// What is known of a run when it starts.
struct RunStart {
    std::string name;          // shown in the runs panel; editable later
    RunOrigin origin = RunOrigin::Other;  // which program trains it
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

// A run's figures (model/train/RunFigures.h) are written with every batch of
// points and at its end, into the runs table's columns steps, tokens, seconds,
// tokens_per_second, last_train_loss, last_val_loss, best_step and best_val_loss.

// Weights of a run that the library keeps at a step: the step and their size.
struct KeptWeights {
    int64_t step = 0;
    int64_t bytes = 0;
};

// A run as the library lists it.
struct RunRecord {
    int64_t id = 0;
    RunStart start;
    std::string started;  // UTC, ISO 8601 ("2026-12-02T09:15:00Z")
    std::string ended;    // empty while it runs, or when it never ended (killed)
    std::optional<EndReason> endReason;  // none while it runs, or when no end was recorded
    // The origin and the end reason as the file holds them: what is shown of
    // an Other, escaped (a library another program wrote may hold any text).
    std::string originText;
    std::string endReasonText;
    RunFigures figures;
    std::vector<std::pair<int64_t, std::string>> checkpoints;  // step, path
};

class RunLibrary {
public:
    // The schema this build writes; a database of a later version is set aside.
    // Version 2 added the kept weights (the table "snapshots"), version 3 the training health, version 4
    // the health's warnings; an earlier library gets the tables it lacks when
    // it is opened for writing.
    static constexpr int kSchemaVersion = 4;

    // What one read takes from the file at most (a library is a file anyone
    // can hand us; docs/RELIABILITY.md, "The run library"). A run with a value
    // over kMaxValueBytes is left out of a listing; a listing holds at most
    // kMaxListedRuns runs, kMaxListedCheckpoints checkpoints and kMaxListedBytes
    // of their text, the newest first; a run's points and evaluations are read
    // from at most kMaxScannedPoints rows and kept to kMaxReadPoints, evenly
    // thinned. A step outside 0..kMaxStep is neither written nor read.
    static constexpr int kMaxValueBytes = 1 << 20;
    static constexpr int kMaxListedRuns = 100000;
    static constexpr int kMaxListedCheckpoints = 100000;
    static constexpr int64_t kMaxListedBytes = int64_t(64) << 20;
    static constexpr int64_t kMaxScannedPoints = 16000000;
    static constexpr int64_t kMaxReadPoints = 1000000;
    static constexpr int64_t kMaxStep = 1000000000000;
    // Kept weights are stored in parts of kKeptPartBytes (under the value limit)
    // and read whole only when its parts claim at most kMaxKeptBytes; a
    // listing of a run's kept weights holds at most kMaxListedKept.
    static constexpr int kKeptPartBytes = 512 * 1024;
    static constexpr int64_t kMaxKeptBytes = int64_t(1) << 30;
    static constexpr int kMaxListedKept = 100000;
    // A run's health is read from at most kMaxReadHealth measured steps, each
    // of at most kMaxHealthLayers layers and kMaxHealthHeads heads a layer.
    static constexpr int kMaxReadHealth = 100000;
    static constexpr int kMaxHealthLayers = 1024;
    static constexpr int kMaxHealthHeads = 1024;
    // A run's health warnings are read from at most kMaxReadWarnings rows.
    static constexpr int kMaxReadWarnings = 10000;

    // Opens the library at `path` (its folder is created), or starts one. A
    // symbolic link above the file is followed; the file itself (and its -wal
    // and -shm) must not be one. A file
    // that is not a run library, is damaged or was written by a later version is
    // renamed beside itself (`runs.sqlite.unreadable-20261202T091500Z`, with its
    // -wal and -shm files) and a new library started; `setAside` then says so in
    // a sentence. Throws chargpt::Error when no library can be opened there at all
    // (no folder can be made there, say): the caller trains without recording.
    // A library in a folder that cannot be written (or a file that cannot be)
    // is opened read-only: it lists, and each write throws chargpt::Error.
    static std::unique_ptr<RunLibrary> open(const std::string& path, std::string* setAside = nullptr);

    ~RunLibrary();
    RunLibrary(const RunLibrary&) = delete;
    RunLibrary& operator=(const RunLibrary&) = delete;

    const std::string& path() const { return path_; }
    // True when the library was opened read-only (above).
    bool readOnly() const { return readOnly_; }
    // How long a write waits for another connection's write, in milliseconds.
    void setBusyTimeout(int milliseconds);
    // After a write failed for want of space (RunLibraryFull): gives back
    // what the write-ahead log grew to, so that the small writes that follow
    // (a run's losses, its end) find room. Never throws.
    void releaseSpace() noexcept;
    // The most the library file may grow to: past it a write fails as on a
    // full disk (PRAGMA max_page_count; for a library kept small, and to try
    // a full disk without one).
    void setSizeLimit(int64_t bytes);

    // Each write is one transaction, all or nothing; it throws RunLibraryBusy
    // when another connection kept the lock past the timeout, chargpt::Error
    // for any other failure (a full disk, a damaged file, a schema another
    // program changed since opening to one that is not the library's own:
    // then every write, and every read below, throws).
    int64_t beginRun(const RunStart& start);
    // Points, evaluations and the figures so far, in one transaction. A point
    // with a step outside 0..kMaxStep or a loss that is not finite, and an
    // evaluation with such a step, are not written.
    void append(int64_t run, const std::vector<RunPoint>& points, const std::vector<RunEvaluation>& evaluations,
                const RunFigures& figures);
    void addCheckpoint(int64_t run, int64_t step, const std::string& path);
    void endRun(int64_t run, EndReason reason, const RunFigures& figures);
    void rename(int64_t run, const std::string& name);
    // Removes the run with its points, evaluations, checkpoints' entries and kept weights.
    void remove(int64_t run);

    // The weights of a run at `step` (model/io/KeptWeightsCodec.h makes the
    // bytes), replacing one kept at that step; all its parts or none.
    void addKeptWeights(int64_t run, int64_t step, const std::string& bytes);
    // Forgets the run's kept weights at these steps, in one transaction.
    void removeKeptWeights(int64_t run, const std::vector<int64_t>& steps);
    // The run's kept weights by step: those whose parts are all there (at most
    // kMaxListedKept; none in a library of version 1 opened read-only).
    std::vector<KeptWeights> keptWeights(int64_t run);
    // The bytes of the weights kept at `step`; nullopt when there is none. Throws
    // chargpt::Error when its parts are missing, out of order or over
    // kMaxKeptBytes (a damaged or hostile library), without reading them.
    std::optional<std::string> keptWeightsBytes(int64_t run, int64_t step);

    // A run's training health at its measured steps and the warnings it said
    // (RunLibraryHealth.cpp): written in one transaction; read back by step, a
    // step whose figures do not match their counts and a warning of no known
    // kind or out of range left out, none from a library older than version 3
    // (the warnings: 4) opened read-only.
    void addHealth(int64_t run, const std::vector<HealthFigures>& figures,
                   const std::vector<HealthWarning>& warnings = {});
    std::vector<HealthFigures> health(int64_t run);
    std::vector<HealthWarning> healthWarnings(int64_t run);

    // Every run, newest first, within the listing's budgets (above). A run with
    // a value over kMaxValueBytes is left out, and so are the oldest runs past
    // a budget; `leftOut` then says which in a sentence (else it is emptied).
    // Figures outside their range (a step below 0 or past kMaxStep, a time or a
    // loss that is not a finite number) are read as unknown: -1, 0 or NaN.
    std::vector<RunRecord> runs(std::string* leftOut = nullptr);
    // One run; nullopt when there is none, or its values are over the limits.
    std::optional<RunRecord> run(int64_t id);
    // A run's points, by step, each step once and increasing: those with a
    // step in 0..kMaxStep and a finite loss; past kMaxReadPoints, every n-th
    // of them and the last.
    std::vector<RunPoint> points(int64_t run);
    // A run's evaluations, by step: those with a step in 0..kMaxStep and a
    // finite loss of either split, at most kMaxReadPoints.
    std::vector<RunEvaluation> evaluations(int64_t run);
    // A run's points and evaluations as the one loss store, each evaluation
    // with the tokens seen at its step (tokensAt: the library keeps them with
    // the points only).
    LossCurve lossCurve(int64_t run);

private:
    RunLibrary(sqlite3* db, std::string path);
    // Throws chargpt::Error when another program changed the schema since it
    // was checked on opening, to one that is not the library's own.
    void checkOwnSchema();
    sqlite3* db_;
    std::unique_ptr<runlibrary::PreparedStatements> prepared_;  // the kept weights' reads' statements
    std::string path_;
    bool readOnly_ = false;
    int schemaCookie_ = 0;  // PRAGMA schema_version when the schema was last found to be ours
    int tables_ = kSchemaVersion;  // the version whose tables it has: older when opened read-only
};

// Thrown by a write when another connection held the lock past the busy
// timeout: nothing was written, and the same write may be tried again later.
class RunLibraryBusy : public Error {
public:
    using Error::Error;
};

// Thrown by a write that found no room (a full disk, or the library's size
// limit): nothing of it was written; a smaller write may still fit.
class RunLibraryFull : public Error {
public:
    using Error::Error;
};

// The fields of a run's settings (the "config" object of configToJson()), each
// value as its JSON text ("128", "0.005", "true"), in their order; empty when
// the text is not such an object. The library is a file anyone can hand us:
// text over 64 KiB is not parsed, and more than 1,000 keys or nesting deeper
// than the settings' own is refused while parsing.
std::vector<std::pair<std::string, std::string>> settingsFields(const std::string& settingsJson);

// A fingerprint of a corpus's text: FNV-1a (64 bits) of its characters, as 16
// hexadecimal digits. The same text gives the same fingerprint on every machine.
std::string corpusFingerprint(const std::vector<std::u32string>& documents);

}  // namespace chargpt
