// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Value types that travel between the training worker and the window by queued
// signals. Qt only: no LibTorch, so moc and the widgets never see tensors.

#include <QMetaType>
#include <QString>
#include <QStringList>
#include <QVector>

#include <limits>
#include <memory>

#include "SettingsValues.h"

// What the worker found in a loaded text.
struct CorpusInfo {
    QString name;          // shown to the user
    QString source;        // "builtin:tang300", a file or a folder path
    qint64 bytes = 0;
    qint64 characters = 0;
    qint64 tokens = 0;       // characters plus one end-of-text between documents
    int vocabularySize = 0;  // including end-of-text
    QString preview;
    QStringList warnings;
};

// Points and figures since the previous update; the worker merges steps so the
// GUI receives at most ~30 updates a second however fast training runs.
struct TrainingUpdate {
    QVector<double> steps, losses, learningRates;
    QVector<double> evalSteps, evalLosses;
    qint64 step = 0;
    qint64 totalSteps = 0;
    qint64 tokensSeen = 0;
    double loss = std::numeric_limits<double>::quiet_NaN();
    double valLoss = std::numeric_limits<double>::quiet_NaN();
    double tokensPerSecond = 0.0;
    double elapsedSeconds = 0.0;
    double etaSeconds = std::numeric_limits<double>::quiet_NaN();
    double timeLimitSeconds = 0.0;
};

// Everything the window needs about the model the worker holds.
struct ModelInfo {
    bool exists = false;
    StudioSettings settings;
    qint64 parameters = 0;
    int vocabularySize = 0;
    qint64 step = 0;
    qint64 tokensSeen = 0;
    QString checkpointPath;  // set when the model came from or went to a file
    bool imported = false;   // trained in Python and imported: training continues it
    // The whole history, for a model opened from a checkpoint.
    QVector<double> steps, losses, learningRates, evalSteps, evalLosses;
};

namespace chargpt {
struct Checkpoint;
}

// A frozen copy of the model (cloned between two steps by the training worker,
// in eval mode, never trained again) with its tokenizer and config, for the
// views that run it on another thread: it never races the optimizer. Only
// named here, so this header stays LibTorch-free.
struct ModelSnapshot {
    std::shared_ptr<const chargpt::Checkpoint> checkpoint;
    qint64 step = 0;
    quint64 serial = 0;  // increases with every snapshot the worker makes
    bool isNull() const { return !checkpoint; }
};

Q_DECLARE_METATYPE(StudioSettings)
Q_DECLARE_METATYPE(ModelSnapshot)
Q_DECLARE_METATYPE(CorpusInfo)
Q_DECLARE_METATYPE(TrainingUpdate)
Q_DECLARE_METATYPE(ModelInfo)
