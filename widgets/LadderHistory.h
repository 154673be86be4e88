// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The ladders the run library holds: the rung runs (a run whose preset is a
// rung's name, model/train/Ladder.h) gathered into ladders, as plain values
// the Ladder tab shows (LadderView) when no ladder has trained in the window.
// Made from the Runs tab's rows (RunsData.h), the one reading of the library.

#include <QDateTime>
#include <QMetaType>
#include <QString>
#include <QVector>

#include "widgets/LadderData.h"
#include "widgets/RunsData.h"

// One ladder as the run library keeps it. The library keeps no floors: they
// are computed again from the corpus, split as the rungs split it.
struct LadderRecord {
    QString corpus;      // as recorded: "builtin:python", a path (any text: shown plain)
    QString corpusHash;  // chargpt::corpusFingerprint of its text
    QDateTime started;   // its first rung's start (UTC); invalid when unknown
    qint64 sequenceLen = 0;    // the context its rungs split the text with (0: unknown)
    double valFraction = 0.0;  // their validation share (0: unknown)
    QVector<LadderRungData> rungs;  // by number, each once

    // The runs of the ladder by id: what identifies it across readings.
    QVector<qint64> runIds() const;
    // What its floors depend on (the text and its split): equal keys, equal floors.
    QString floorsKey() const;
};

Q_DECLARE_METATYPE(LadderRecord)

// How many ladders are listed at most, the newest (a library may hold any number).
inline constexpr int kMaxListedLadders = 200;

// The ladders among `runs` (any order), newest first. The rule: the rung runs
// that started from step 0, in the order the library recorded them (by id),
// grouped by corpus fingerprint; within one corpus a rung run joins the
// ladder before it while its rung number is higher than that ladder's last
// rung, and begins a new ladder otherwise (`chargpt ladder --rungs 1,6-7` is
// one ladder, a second `chargpt ladder` on the same text another). Ladders on
// different corpora may interleave (the app and `chargpt ladder` at once).
// "Newest" is the ladder whose last run was recorded last. At most
// kMaxListedLadders are returned.
QVector<LadderRecord> laddersOf(const QVector<RunRow>& runs);

// The corpus's name made safe to show in one line: control characters as
// spaces, at most `maxChars` characters (the middle elided).
QString plainCorpusName(const QString& corpus, int maxChars = 80);
