// SPDX-License-Identifier: GPL-3.0-or-later
// The bench's timeline figures: moving the app's timeline to a kept step of a
// past run (`chargpt-studio --measure-scrub`), and what keeping snapshots costs
// the trainer.
#include <torch/torch.h>

#include <filesystem>
#include <iostream>
#include <memory>
#include <sstream>
#include <vector>

#include "app/BenchScratch.h"
#include "app/BenchStudio.h"
#include "app/BenchTools.h"
#include "model/record/RunLibrary.h"
#include "model/record/RunRecorder.h"
#include "model/session/TrainingSession.h"

namespace chargpt::bench {

namespace {

// A run of `preset` trained by `chargpt train` into a run library of the
// bench's own, then moved through by the app. The batch is 8 sequences: it
// changes how long the run takes to train, not the model whose weights are
// read and run; one batch an evaluation, for the same reason.
ScrubFigure scrub(const BenchOptions& o, const std::string& preset) {
    ScrubFigure figure;
    if (o.self.empty()) return figure;
    const std::string folder = scratchFolder(o.scratch, "timeline-" + preset);
    const std::string dataHome = folder + "/data";
    std::ostringstream train;
    train << "XDG_DATA_HOME=" << quote(dataHome) << " XDG_CONFIG_HOME=" << quote(folder)
          << " XDG_CACHE_HOME=" << quote(folder) << ' ' << quote(o.self) << " train " << quote(o.corpus)
          << " --preset " << preset << " --steps " << kScrubRunSteps << " --batch 8 --eval-iters 1 --out "
          << quote(folder + "/" + preset + ".pt") << " 2>/dev/null";
    const Clock::time_point start = Clock::now();
    const std::string trained = capture(train.str());
    figure.trainSeconds = seconds(start, Clock::now());
    if (!trained.empty()) {
        const std::string out = studioRun(o, "--measure-scrub", dataHome, o.corpus);
        figure.keptSteps = lastJsonNumber(out, "kept_steps");
        figure.moves = lastJsonNumber(out, "moves");
        figure.medianMs = lastJsonNumber(out, "median_ms");
        figure.p90Ms = lastJsonNumber(out, "p90_ms");
        figure.maxMs = lastJsonNumber(out, "max_ms");
        figure.arrivedMedianMs = lastJsonNumber(out, "arrived_median_ms");
        figure.stallMs = lastJsonNumber(out, "longest_stall_ms");
    }
    std::error_code ignored;
    std::filesystem::remove_all(folder, ignored);
    return figure;
}

}  // namespace

TimelineFigure timelineCost(const BenchOptions& o, const Corpus& corpus, int vocabSize) {
    TimelineFigure figure;
    std::cerr << "    the fast preset's run, " << kScrubRunSteps << " steps, and its timeline...\n";
    figure.fast = scrub(o, "fast");
    std::cerr << "    the book preset's run, " << kScrubRunSteps << " steps, and its timeline...\n";
    figure.book = scrub(o, "book");

    // The fast preset recorded with its snapshots and without, alternated: the
    // weights at steps 4, 8, 16, ... of the timed steps (those at 1 and 2 fall
    // in the untimed ones), each encoded on the training thread and written.
    std::cerr << "    the fast preset recorded with and without snapshots (" << 2 * kKeepingRuns
              << " runs of " << kKeepingTimedSteps << " steps)...\n";
    const std::string folder = scratchFolder(o.scratch, "snapshots");
    RunConfig fast = *RunConfig::preset("fast");
    fast.vocab_size = vocabSize;
    BenchOptions timed = o;
    timed.steps = kKeepingTimedSteps;
    std::shared_ptr<RunLibrary> library = RunLibrary::open(folder + "/runs.sqlite");
    std::vector<double> with, without, sharesWith, sharesWithout;
    for (int i = 0; i < 2 * kKeepingRuns; ++i) {
        const bool keep = i % 2 == 1;
        std::unique_ptr<RunRecorder> recorder;
        double inRecorder = 0.0;
        int steps = timed.steps;
        const double rate = measureTraining(fast, corpus, timed, steps, [&](TrainingSession& session) {
            recorder = std::make_unique<RunRecorder>(
                library, runStartOf(session, corpus, o.corpus, RunOrigin::Bench, "fast"));
            if (keep) recorder->keepWeights(keptWeightsOf(session));
            session.trainer().onStep = [&](const StepFigures& s) {
                const Clock::time_point t0 = Clock::now();
                recorder->step(s);
                if (s.step > timed.warmup) inRecorder += seconds(t0, Clock::now());
            };
        });
        recorder.reset();
        const double timedSeconds = double(steps) * double(fast.batch_size * fast.sequence_len) / rate;
        (keep ? with : without).push_back(rate);
        (keep ? sharesWith : sharesWithout).push_back(inRecorder / timedSeconds);
    }
    figure.withKeptWeights = median(with);
    figure.withoutKeptWeights = median(without);
    figure.recorderShareWith = median(sharesWith);
    figure.recorderShareWithout = median(sharesWithout);
    library.reset();
    std::error_code ignored;
    std::filesystem::remove_all(folder, ignored);
    return figure;
}

}  // namespace chargpt::bench
