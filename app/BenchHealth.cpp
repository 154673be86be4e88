// SPDX-License-Identifier: GPL-3.0-or-later
// The bench's health figure: what measuring a run's training health
// (model/train/TrainingHealth.h, every few steps) costs as a share of the
// step time, for the fast and book presets, each timed in one run: the
// seconds spent measuring set against the seconds of the steps without them.
// The first measurement of a run (step 1) sets up the kernels of its shapes
// once, so it is given apart and the share is of the measurements after it.
#include "app/BenchFigures.h"

#include <torch/torch.h>

#include <algorithm>
#include <memory>

#include "app/BenchTools.h"
#include "model/session/TrainingSession.h"
#include "model/text/Corpus.h"
#include "model/train/TrainingHealth.h"

namespace chargpt::bench {

HealthFigure measureHealth(const RunConfig& preset, const std::string& name, const Corpus& corpus, int64_t steps) {
    HealthFigure figure;
    figure.preset = name;
    RunConfig config = preset;
    config.max_steps = steps;
    config.warmup_steps = std::min<int64_t>(config.warmup_steps, steps / 10);
    config.eval_interval = steps * 10;  // no evaluation but the first and the last
    config.time_limit_s = 0.0;
    SessionOptions options;
    options.onComputeDevice = false;
    TrainingSession session(config, corpus, options);
    Trainer& trainer = session.trainer();
    auto health = std::make_shared<TrainingHealth>();
    trainer.health = health;
    double firstSeconds = 0.0;
    trainer.onHealth = [&](const HealthReport& report) {
        if (report.figures && health->measuredSteps() == 1) firstSeconds = health->busySeconds();
    };
    const TrainResult result = trainer.run();
    const double tokensPerStep = double(config.batch_size * config.sequence_len);
    const double stepSeconds = result.last.tokensPerSecond > 0 ? tokensPerStep / result.last.tokensPerSecond : 0.0;
    figure.steps = result.last.step;
    figure.every = health->options().every;
    figure.measured = health->measuredSteps();
    if (figure.steps > 1 && figure.measured > 1 && stepSeconds > 0) {
        const double stepsTotal = stepSeconds * double(figure.steps);
        const double busy = health->busySeconds(), after = busy - firstSeconds;
        figure.stepMs = 1000.0 * (stepsTotal - busy) / double(figure.steps);
        figure.firstMs = 1000.0 * firstSeconds;
        figure.measureMs = 1000.0 * after / double(figure.measured - 1);
        figure.share = after / (figure.stepMs / 1000.0 * double(figure.steps - 1));
    }
    return figure;
}

}  // namespace chargpt::bench
