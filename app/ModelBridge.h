// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Settings arithmetic between the window and model/: this header is Qt-only
// (RunConfig is only named), so the files that include it compile without
// LibTorch.

#include <QString>
#include <QStringList>

#include <limits>

#include "StudioTypes.h"

namespace chargpt {
struct RunConfig;
struct ConfigProblem;
}

// The settings of a preset ("book", "fast", "tiny"; `fast` for an unknown
// name), fitted to a training text of `trainingTokens` tokens when that is
// positive (chargpt::RunConfig::fitToText: fewer steps, smaller batches,
// dropout and weight decay for a small text).
StudioSettings presetSettings(const QString& name, qint64 trainingTokens = 0);
QStringList presetNames();

// What the settings panel shows under the fields as the user types.
struct SettingsAssessment {
    QString problem;         // empty when the settings can train; else a sentence
    QStringList badFields;   // names of the fields the problem is about
    int heads = 0;           // emb_size / head_size when it divides
    qint64 parameters = 0;   // for the given vocabulary
    qint64 memoryBytes = 0;  // rough peak while training
    // How many times the run reads each character of the training text
    // (NaN: no corpus, or only a time limit), and the count above which it
    // will memorise the text (chargpt::kManyPasses).
    double passes = std::numeric_limits<double>::quiet_NaN();
    double manyPasses = 0.0;
};
// Checks with chargpt::RunConfig::validate() (worded by describeProblem()) for a corpus of `vocabularySize`
// tokens (0: not known yet), then that training fits in the machine's memory
// (`machineMemoryBytes`; -1: this machine's physical memory) and that the
// corpus of `corpusTokens` tokens (-1: not known) fills one context. The passes
// are over `trainingTokens`, the corpus's training part (0 or less: no corpus).
SettingsAssessment assessSettings(const StudioSettings& settings, int vocabularySize, qint64 corpusTokens = -1,
                                  qint64 machineMemoryBytes = -1, qint64 trainingTokens = 0);

// A settings problem in the user's language (context "ModelBridge").
QString describeProblem(const chargpt::ConfigProblem& problem);

// Writes the settings as JSON for python/train_ddp.py (see model/ConfigJson.h);
// returns an empty string, or why it could not.
QString writeConfigFile(const StudioSettings& settings, const QString& path);

// Conversions used by the worker.
chargpt::RunConfig toConfig(const StudioSettings& settings);
StudioSettings toSettings(const chargpt::RunConfig& config);
