// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

// The numbers of one CharGPT run, as the settings panel edits them (plain
// values; app/ converts them to and from chargpt::GPTConfig).
struct StudioSettings {
    QString preset;
    int embSize = 128;
    int headSize = 32;
    int layers = 2;
    int sequenceLen = 64;
    double dropout = 0.0;
    int batchSize = 32;
    double learningRate = 5e-3;
    int warmupSteps = 50;
    qint64 maxSteps = 3000;
    double timeLimitSeconds = 0.0;
    qint64 seed = 12046;
    int threads = 0;  // 0: one per core; takes effect at the next start of the program
    bool bf16 = false;  // matrix products in bfloat16

    bool sameArchitecture(const StudioSettings& other) const {
        return embSize == other.embSize && headSize == other.headSize && layers == other.layers &&
               sequenceLen == other.sequenceLen;
    }
};
