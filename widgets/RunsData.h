// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What the Runs tab shows of the run library (model/record/RunLibrary.h), as
// plain Qt values: the list of runs, the curves of the runs compared, and what
// sets compared runs apart. app/ fills them on the runs thread.

#include <QDateTime>
#include <QList>
#include <QMetaType>
#include <QPair>
#include <QString>
#include <QStringList>
#include <QVector>
#include <cmath>
#include <limits>
#include <optional>

#include "model/record/RunWords.h"
#include "model/train/LossCurve.h"
#include "model/train/RunFigures.h"

// One run as the Runs tab lists it: its figures as the library holds them (the
// step it reached, its tokens, time, speed, last and best evaluation), and more.
struct RunRow : chargpt::RunFigures {
    qint64 id = 0;
    QString name;
    chargpt::RunOrigin origin = chargpt::RunOrigin::Other;  // which program trained it
    QString preset;
    QString corpus;
    QString corpusHash;
    qint64 corpusBytes = 0;
    qint64 parameters = 0;
    QDateTime started;  // UTC
    QDateTime ended;    // invalid: no end recorded (training now, or killed)
    std::optional<chargpt::EndReason> endReason;  // none: no end recorded
    QString endReasonText;  // as the library holds it: what is shown of an Other
    qint64 firstStep = 0;   // the step it started from: past 0 when it trained a model further
    QString lastCheckpoint;  // the last checkpoint written of it; empty when none
    std::optional<qint64> lastCheckpointStep;  // the step it was written at; none without one
    // Its settings, field by field ("emb_size", "128"), in the library's order.
    QVector<QPair<QString, QString>> settings;

    // The value of `key`, as the library lists it ("" when unknown); a switch
    // of the network's parts that the settings leave out is on ("true"); a
    // layer's parts in a model without layers (n_layer 0) are "".
    QString setting(const QString& key) const;
    // "2 × 128, ctx 64, batch 32, lr 0.005" (a bigram: "bigram, emb 128, ..."):
    // the settings that matter most.
    QString shape() const;
};

// Whether two rows say the same of a run: every field equal (its figures as
// chargpt::sameFigures compares them: two unknown numbers, NaN, count as equal). A list read again while
// nothing changed compares equal row by row, so the views keep what they show.
bool sameRun(const RunRow& a, const RunRow& b);

// What one compared run's curves are drawn from: its losses as the run library
// keeps them (RunLibrary::lossCurve).
struct RunCurve {
    qint64 id = 0;
    chargpt::LossCurve losses;
};

// Where the run library is, or why there is none, as a kind and its detail,
// so that the tab words it in the language shown now (libraryNoteText).
struct LibraryNote {
    enum Kind { Kept, NoDataFolder, Unusable };
    Kind kind = Kept;
    QString detail;  // Kept: the library's path; Unusable: what went wrong
};
QString libraryNoteText(const LibraryNote& note);

Q_DECLARE_METATYPE(RunRow)
Q_DECLARE_METATYPE(RunCurve)
Q_DECLARE_METATYPE(LibraryNote)

// The settings whose values differ between `runs` (the keys, in the order of
// the settings' fields, chargpt::runFields(), then any other key as the runs
// list it), for the Compare view's settings diff. The seed is among them when
// it differs.
QStringList differingSettings(const QVector<RunRow>& runs);

// Runs that differ only in their seed: same corpus (by its fingerprint), same
// settings but the seed. Groups of two runs or more, each in the order given;
// a run is in at most one group.
QVector<QVector<int>> seedGroups(const QVector<RunRow>& runs);

// Runs that differ only in their seed, drawn as one: their mean at the steps
// and evaluations all of them have (tokens, time, losses and learning rate
// averaged), and the lowest and highest validation loss at each evaluation of
// the mean.
struct SeedMean {
    chargpt::LossCurve mean;
    QVector<double> valLow, valHigh;  // one per evaluation of `mean`
};
SeedMean seedMean(const QVector<const chargpt::LossCurve*>& curves);
