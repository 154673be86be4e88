// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The filmstrip of a run as its view and its exports take it: a sample from
// each kept snapshot, all from the same prompt, seed, temperature and length.
// Plain values, no tensors: app/FilmstripBridge fills them from
// model/generate/Filmstrip (docs/ARCHITECTURE.md).

#include <QMetaType>
#include <QString>
#include <QVector>

#include <limits>

// One step of the strip.
struct FilmstripRow {
    qint64 step = 0;
    double valLoss = std::numeric_limits<double>::quiet_NaN();  // nats; NaN: not evaluated at this step
    QString text;     // the characters generated after the prompt
    QString skipped;  // why the step has no sample; empty when it has one
    bool sampled() const { return skipped.isEmpty(); }
};

// The strip and what made it.
struct FilmstripSamples {
    qint64 run = 0;
    QString runName;
    QString prompt;  // as the model read it (characters it lacks left out)
    qint64 chars = 0;
    quint64 seed = 0;
    double temperature = 1.0;
    QVector<FilmstripRow> rows;  // by step
};

// What the Filmstrip tab asks for: a sample of `chars` characters from
// `prompt` with `seed` and `temperature` at every step a run keeps.
struct FilmstripAsk {
    QString prompt;
    qint64 chars = 120;
    quint64 seed = 1;
    double temperature = 1.0;
};

Q_DECLARE_METATYPE(FilmstripRow)
Q_DECLARE_METATYPE(FilmstripSamples)
Q_DECLARE_METATYPE(FilmstripAsk)
