// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/BenchStudio.h"

#include <torch/torch.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <vector>

#include "app/BenchScratch.h"
#include "app/BenchTools.h"
#include "model/io/ConfigJson.h"
#include "model/record/RunLibrary.h"
#include "model/record/RunRecorder.h"
#include "model/session/TrainingSession.h"

namespace chargpt::bench {

std::string studioProgram(const BenchOptions& o) {
    if (o.self.empty()) return {};
    // Beside this program, or in bin/ when this is the command runner in libexec/chargpt/.
    const std::string folder = o.self.substr(0, o.self.rfind('/') + 1);
    for (const std::string& studio : {folder + "chargpt-studio", folder + "../../bin/chargpt-studio"})
        if (::access(studio.c_str(), X_OK) == 0) return studio;
    return {};
}

std::string studioRun(const BenchOptions& o, const std::string& arguments, const std::string& dataHome,
                      const std::string& corpus) {
    const std::string studio = studioProgram(o);
    if (studio.empty()) return {};
    const std::string folder = scratchFolder(o.scratch, "app");
    if (!corpus.empty()) {  // the corpus the app opens, as its settings keep it
        std::error_code error;
        std::filesystem::create_directories(folder + "/CharGPT", error);
        const bool builtin = corpus.rfind("builtin:", 0) == 0;
        const std::string source = builtin ? corpus : std::filesystem::absolute(corpus, error).string();
        std::string quoted = "\"";  // a quoted value: a comma would make it a list
        for (char c : source) quoted += c == '"' || c == '\\' ? std::string("\\") + c : std::string(1, c);
        std::ofstream(folder + "/CharGPT/CharGPT Studio.conf") << "[corpus]\nsource=" << quoted << "\"\n";
    }
    const std::string home = quote(folder);
    std::ostringstream command;
    command << "XDG_CONFIG_HOME=" << home << " XDG_DATA_HOME=" << (dataHome.empty() ? home : quote(dataHome))
            << " XDG_CACHE_HOME=" << home
            << " QT_QPA_PLATFORM=offscreen " << quote(studio) << ' ' << arguments << " 2>/dev/null";
    const std::string out = capture(command.str());
    std::error_code ignored;
    std::filesystem::remove_all(folder, ignored);
    return out;
}

// The JSON line of `chargpt-studio --measure-stall SECONDS [extra]`.
std::string studioMeasure(const BenchOptions& o, double seconds, const std::string& extra,
                          const std::string& dataHome = std::string()) {
    std::ostringstream arguments;
    arguments << "--measure-stall " << seconds << extra;
    return studioRun(o, arguments.str(), dataHome);
}

GuiFigure guiStall(const BenchOptions& o) {
    GuiFigure figure;
    const std::string out = studioMeasure(o, o.guiSeconds, "");
    figure.stallMs = lastJsonNumber(out, "longest_stall_ms");
    figure.afterTabChangeMs = lastJsonNumber(out, "stall_after_tab_change_ms");
    figure.otherwiseMs = lastJsonNumber(out, "stall_otherwise_ms");
    figure.seconds = lastJsonNumber(out, "seconds");
    figure.steps = lastJsonNumber(out, "steps");
    return figure;
}


ViewsFigure viewsCost(const BenchOptions& o) {
    std::vector<double> with, without;
    for (int i = 0; i < kViewsRuns; ++i) {
        with.push_back(lastJsonNumber(studioMeasure(o, o.viewsSeconds, ""), "tokens_per_s"));
        without.push_back(lastJsonNumber(studioMeasure(o, o.viewsSeconds, " --views-off"), "tokens_per_s"));
    }
    ViewsFigure figure;
    figure.withViews = median(with);
    figure.withoutViews = median(without);
    return figure;
}


RunsFigure runsCost(const BenchOptions& o, const Corpus& corpus, int vocabSize) {
    RunsFigure figure;
    const std::string folder = scratchFolder(o.scratch, "runs");
    RunConfig fast = *RunConfig::preset("fast");
    fast.vocab_size = vocabSize;
    std::vector<double> with, without, shares;
    for (int i = 0; i < kRecordRuns; ++i) {
        int steps = o.steps;
        without.push_back(measureTraining(fast, corpus, o, steps));
        std::shared_ptr<RunLibrary> library = RunLibrary::open(folder + "/record/runs.sqlite");
        std::unique_ptr<RunRecorder> recorder;
        double inRecorder = 0.0;
        steps = o.steps;
        const double rate = measureTraining(fast, corpus, o, steps, [&](TrainingSession& session) {
            recorder = std::make_unique<RunRecorder>(library, runStartOf(session, corpus, o.corpus, RunOrigin::Bench, "fast"));
            recorder->keepWeights(
                keptWeightsOf(session));  // the weights at steps 1, 2, 4, ... are part of the cost
            session.trainer().onStep = [&](const StepFigures& s) {
                const Clock::time_point t0 = Clock::now();
                recorder->step(s);
                if (s.step > o.warmup) inRecorder += seconds(t0, Clock::now());
            };
        });
        with.push_back(rate);
        const double timed = double(steps) * double(fast.batch_size * fast.sequence_len) / rate;
        shares.push_back(inRecorder / timed);
    }
    figure.withRecording = median(with);
    figure.withoutRecording = median(without);
    figure.recorderShare = median(shares);

    // The generated library: runs of the fast preset's shape, a point per step
    // and an evaluation every 250, written in batches of 1,000 points.
    const std::string dataHome = folder + "/data";
    const std::string path = dataHome + "/CharGPT/CharGPT Studio/runs.sqlite";
    const Clock::time_point start = Clock::now();
    {
        auto library = RunLibrary::open(path);
        RunStart runStart;
        runStart.origin = RunOrigin::Bench;
        runStart.preset = "fast";
        runStart.settingsJson = configToJson(fast);
        runStart.corpusName = o.corpus;
        runStart.corpusHash = corpusFingerprint(corpus.documents());
        runStart.corpusBytes = int64_t(corpus.byteCount());
        for (int r = 0; r < o.libraryRuns; ++r) {
            runStart.name = "generated run " + std::to_string(r + 1);
            runStart.seed = uint64_t(r);
            const int64_t run = library->beginRun(runStart);
            RunFigures f;
            std::vector<RunPoint> points;
            std::vector<RunEvaluation> evaluations;
            for (int64_t step = 1; step <= o.libraryRunSteps; ++step) {
                const double loss = 1.3 + 3.0 * std::exp(-double(step) / 800.0) + 0.02 * std::sin(double(step + r));
                points.push_back({step, loss, 1e-3, step * 2048, 0.01 * double(step)});
                if (step % 250 == 0) evaluations.push_back({step, loss, loss + 0.05, 0.01 * double(step)});
                if (points.size() == 1000 || step == o.libraryRunSteps) {
                    f.step = step;
                    f.tokensSeen = step * 2048;
                    f.elapsedSeconds = 0.01 * double(step);
                    library->append(run, points, evaluations, f);
                    points.clear();
                    evaluations.clear();
                }
            }
            library->endRun(run, EndReason::Finished, f);
        }
    }
    figure.generateSeconds = seconds(start, Clock::now());
    struct stat info{};
    if (::stat(path.c_str(), &info) == 0) figure.libraryMiB = double(info.st_size) / (1024.0 * 1024.0);
    const std::string out = studioMeasure(o, o.guiSeconds, "", dataHome);
    figure.gui.stallMs = lastJsonNumber(out, "longest_stall_ms");
    figure.gui.afterTabChangeMs = lastJsonNumber(out, "stall_after_tab_change_ms");
    figure.gui.otherwiseMs = lastJsonNumber(out, "stall_otherwise_ms");
    figure.gui.seconds = lastJsonNumber(out, "seconds");
    figure.gui.steps = lastJsonNumber(out, "steps");
    std::error_code ignored;
    std::filesystem::remove_all(folder, ignored);
    return figure;
}

}  // namespace chargpt::bench
