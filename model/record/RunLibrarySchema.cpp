// SPDX-License-Identifier: GPL-3.0-or-later
// The run library's tables, by the version of the schema that added them.
// A new library runs them all; an older one gets those after its version
// (RunLibraryOpen.cpp), and a library's tables are checked against them.
#include "model/record/RunLibrary.h"
#include "model/record/RunLibraryDetail.h"

namespace chargpt::runlibrary {

namespace {

// Version 1: the runs, their losses, evaluations and checkpoints.
const char* const kRunsSchema = R"sql(
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

// Version 2: a run's weights at some steps, each in parts under the value limit.
const char* const kSnapshotSchema = R"sql(
CREATE TABLE snapshots(
    run INTEGER NOT NULL,
    step INTEGER NOT NULL,
    part INTEGER NOT NULL,
    parts INTEGER NOT NULL,
    bytes BLOB NOT NULL,
    PRIMARY KEY(run, step, part)
) WITHOUT ROWID;
)sql";

// Version 3: the training health of a run at its measured steps
// (model/train/HealthFigures.h), the figures packed by RunLibraryHealth.cpp.
const char* const kHealthSchema = R"sql(
CREATE TABLE health(
    run INTEGER NOT NULL,
    step INTEGER NOT NULL,
    loss REAL,
    grad_norm REAL,
    layers INTEGER NOT NULL,
    heads INTEGER NOT NULL,
    figures BLOB NOT NULL,
    PRIMARY KEY(run, step)
) WITHOUT ROWID;
)sql";

// Version 4: the warnings its health measurement said (HealthWarning), at
// most one of a kind per step and layer.
const char* const kWarningSchema = R"sql(
CREATE TABLE health_warnings(
    run INTEGER NOT NULL,
    step INTEGER NOT NULL,
    kind INTEGER NOT NULL,
    layer INTEGER NOT NULL,
    factor REAL,
    count INTEGER NOT NULL,
    total INTEGER NOT NULL,
    PRIMARY KEY(run, step, kind, layer)
) WITHOUT ROWID;
)sql";

}  // namespace

const char* schemaAdded(int version) {
    static_assert(RunLibrary::kSchemaVersion == 4, "a new version's tables belong here");
    switch (version) {
        case 1:
            return kRunsSchema;
        case 2:
            return kSnapshotSchema;
        case 3:
            return kHealthSchema;
        case 4:
            return kWarningSchema;
        default:
            return "";
    }
}

}  // namespace chargpt::runlibrary
