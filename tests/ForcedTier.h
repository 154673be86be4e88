// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// For a test of the kernels that tests/CMakeLists.txt runs once per CPU tier
// (CHARGPT_CPU set, model/runtime/CpuTier.h): in initTestCase(), skips a tier
// this machine or build lacks, and otherwise checks that the tier named is
// the one in force, so that a run under a tier never tests another.

#include <QString>
#include <QTest>

#include "model/runtime/CpuTier.h"

#define CHARGPT_FORCED_TIER_CHECK()                                                                  \
    do {                                                                                             \
        const chargpt::TierChoice& forcedTier = chargpt::cpuTierChoice();                            \
        if (!forcedTier.refusal.empty()) QSKIP(forcedTier.refusal.c_str());                          \
        if (qEnvironmentVariableIsSet("CHARGPT_CPU") && !qEnvironmentVariableIsEmpty("CHARGPT_CPU")) \
            QCOMPARE(QString::fromLatin1(chargpt::tierName(forcedTier.tier)),                        \
                     qEnvironmentVariable("CHARGPT_CPU"));                                           \
    } while (false)
