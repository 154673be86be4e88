// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Settings arithmetic between the window and model/: this header and its
// file use the standard-library headers of model/ only, so the files that
// include it compile without LibTorch.

#include <QString>
#include <QStringList>

#include "app/StudioTypes.h"
#include "widgets/RunsData.h"

class QSettings;

namespace chargpt {
struct ConfigProblem;
}

// The settings of a preset ("book", "fast", "tiny"; `fast` for an unknown
// name), fitted to a training text of `trainingTokens` tokens when that is
// positive (chargpt::RunConfig::fitToText: fewer steps, smaller batches,
// dropout and weight decay for a small text).
chargpt::RunConfig presetSettings(const QString& name, qint64 trainingTokens = 0);
QStringList presetNames();

// Checks with chargpt::RunConfig::validate() (worded by describeProblem()) for a corpus of `vocabularySize`
// tokens (0: not known yet), then that training fits in the machine's memory
// (`machineMemoryBytes`; -1: this machine's physical memory) and that the
// corpus of `corpusTokens` tokens (-1: not known) fills one context. The passes
// are over `trainingTokens`, the corpus's training part (0 or less: no corpus).
SettingsAssessment assessSettings(const chargpt::RunConfig& settings, int vocabularySize, qint64 corpusTokens = -1,
                                  qint64 machineMemoryBytes = -1, qint64 trainingTokens = 0);

// A settings problem in the user's language (context "ModelBridge").
QString describeProblem(const chargpt::ConfigProblem& problem);

// Why a checkpoint of `settings` at `step` is not the model `run` saved last
// (an empty string when it is): another step, or other settings than the
// run's (those both list), since it was written there. In the user's language.
QString notTheRunsModel(const chargpt::RunConfig& settings, qint64 step, const RunRow& run);
// That the file `run` saved its model to last is gone, likewise.
QString runsModelGone(const RunRow& run);

// Writes the settings as JSON for python/train_ddp.py (see model/io/ConfigJson.h);
// returns an empty string, or why it could not.
QString writeConfigFile(const chargpt::RunConfig& settings, const QString& path);

// The settings as the app keeps them in QSettings, under "settings/": the
// preset's name and every field of chargpt::runFields() that is remembered,
// under its key. What earlier versions wrote still reads: the fields they did
// not keep come from the preset named (the learning rate keeping the floor of
// its decay below it), and a field stored under an older key (`time_limit`)
// is read from it.
chargpt::RunConfig loadSettings(const QSettings& store);
void storeSettings(QSettings& store, const chargpt::RunConfig& settings);
