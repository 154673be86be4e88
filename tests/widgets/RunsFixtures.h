// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The runs and loss curves the Runs tab's tests show: hand-made values of
// widgets/RunsData.h, no run library.

#include <QDate>
#include <QDateTime>
#include <QString>
#include <QTime>

#include "widgets/RunsData.h"

namespace runs_fixtures {

// A finished run of the tiny preset on the Tang poems, its learning rate and
// seed as given.
inline RunRow makeRun(qint64 id, const QString& lr, const QString& seed, const QString& checkpoint = QString()) {
    RunRow run;
    run.id = id;
    run.name = QStringLiteral("run on tang");
    run.origin = chargpt::RunOrigin::Cli;
    run.preset = QStringLiteral("tiny");
    run.corpus = QStringLiteral("builtin:tang300");
    run.corpusHash = QStringLiteral("abad951f6b65173f");
    run.started = QDateTime(QDate(2026, 12, 2), QTime(9, 0, int(id)), Qt::UTC);
    run.ended = run.started.addSecs(60);
    run.endReason = chargpt::EndReason::Finished;
    run.step = 100;
    run.elapsedSeconds = 60;
    run.tokensPerSecond = 1000.0 * double(id);
    run.bestStep = 100;
    run.bestValLoss = 2.0 + 0.1 * double(id);
    run.lastCheckpoint = checkpoint;
    run.settings = {{QStringLiteral("emb_size"), QStringLiteral("32")},
                    {QStringLiteral("learning_rate"), lr},
                    {QStringLiteral("seed"), seed}};
    return run;
}

// 100 steps of 512 tokens, 0.5 s each; validation every 25 steps.
inline RunCurve makeCurve(qint64 id, double offset) {
    RunCurve c;
    c.id = id;
    for (int step = 1; step <= 100; ++step)
        c.losses.addStep(step, 512 * step, 0.5 * step, 3.0 - 0.01 * step + offset, 1e-3);
    for (int step = 0; step <= 100; step += 25)
        c.losses.addEvaluation(step, 512 * step, 0.5 * step, 3.1 - 0.01 * step + offset, 3.2 - 0.01 * step + offset);
    return c;
}

}  // namespace runs_fixtures
