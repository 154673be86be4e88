// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/BenchProfile.h"

#include <torch/csrc/autograd/profiler_legacy.h>
#include <torch/torch.h>

#include <algorithm>
#include <chrono>
#include <map>

#include "model/text/Corpus.h"
#include "model/train/Trainer.h"
#include "model/session/TrainingSession.h"

namespace chargpt {

namespace {

namespace profiler = torch::autograd::profiler;

struct Totals {
    double selfUs = 0.0;
    int64_t calls = 0;
};

// Self time of every range in one thread's events: a range's time less its
// children's, the ranges nested as pushed and popped.
void addSelfTimes(const std::vector<profiler::LegacyEvent>& events, std::map<std::string, Totals>& totals) {
    struct Open {
        const profiler::LegacyEvent* push;
        double childrenUs;
    };
    std::vector<Open> stack;
    for (const auto& event : events) {
        if (event.kindStr() == std::string("push")) {
            stack.push_back({&event, 0.0});
        } else if (event.kindStr() == std::string("pop") && !stack.empty()) {
            const Open open = stack.back();
            stack.pop_back();
            const double us = open.push->cpuElapsedUs(event);
            Totals& t = totals[open.push->name()];
            t.selfUs += us - open.childrenUs;
            ++t.calls;
            if (!stack.empty()) stack.back().childrenUs += us;
        }
    }
}

}  // namespace

StepProfile profileTrainingSteps(const RunConfig& base, const Corpus& corpus, int warmup, int steps) {
    RunConfig config = base;
    config.max_steps = warmup + steps;
    config.time_limit_s = 1e9;
    config.eval_interval = int64_t(1) << 40;  // no evaluation among the profiled steps
    config.warmup_steps = 0;
    SessionOptions options;
    options.onComputeDevice = false;
    TrainingSession session(config, corpus, options);
    Trainer& trainer = session.trainer();
    using Clock = std::chrono::steady_clock;
    Clock::time_point start, end;
    profiler::thread_event_lists events;
    // Steps run on this thread, and the profiler records the thread that enables it.
    trainer.onStep = [&](const StepFigures& s) {
        if (s.step == warmup) {
            profiler::enableProfilerLegacy(torch::profiler::impl::ProfilerConfig(torch::profiler::impl::ProfilerState::CPU));
            start = Clock::now();
        } else if (s.step == warmup + steps) {
            end = Clock::now();
            events = profiler::disableProfilerLegacy();
            trainer.stop();
        }
    };
    trainer.run();
    std::map<std::string, Totals> totals;
    for (const auto& list : events) addSelfTimes(list, totals);
    StepProfile profile;
    profile.stepMs = std::chrono::duration<double, std::milli>(end - start).count() / steps;
    for (const auto& [name, t] : totals)
        profile.operators.push_back({name, t.selfUs / 1000.0 / steps, double(t.calls) / steps});
    std::sort(profile.operators.begin(), profile.operators.end(),
              [](const OperatorTime& a, const OperatorTime& b) { return a.msPerStep > b.msPerStep; });
    return profile;
}

}  // namespace chargpt
