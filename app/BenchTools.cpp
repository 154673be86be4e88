// SPDX-License-Identifier: GPL-3.0-or-later
// The bench's shared helpers of BenchTools.h: clocks, medians, the timed training, commands and their JSON lines.
#include "app/BenchTools.h"

#include <torch/torch.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/train/Trainer.h"
#include "model/session/TrainingSession.h"

namespace chargpt::bench {

double seconds(Clock::time_point from, Clock::time_point to) {
    return std::chrono::duration<double>(to - from).count();
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? std::nan("") : v[v.size() / 2];
}

double measureTraining(const RunConfig& base, const Corpus& corpus, const BenchOptions& o, int& timedSteps,
                       const std::function<void(TrainingSession&)>& prepare) {
    RunConfig config = base;
    config.max_steps = 0;
    config.time_limit_s = 1e9;  // ended below
    config.eval_interval = int64_t(1) << 40;  // no evaluation inside the timed steps
    config.warmup_steps = 0;
    SessionOptions options;
    options.onComputeDevice = false;  // the figures are the CPU's
    TrainingSession session(config, corpus, options);
    Trainer& trainer = session.trainer();
    Clock::time_point timedStart, timedEnd;
    if (prepare) prepare(session);
    const auto alsoOnStep = trainer.onStep;
    trainer.onStep = [&](const StepFigures& s) {
        if (alsoOnStep) alsoOnStep(s);
        if (s.step == o.warmup) timedStart = Clock::now();
        const int64_t timed = s.step - o.warmup;
        if (timed >= o.steps && seconds(timedStart, Clock::now()) >= 2.0) {
            timedEnd = Clock::now();
            timedSteps = static_cast<int>(timed);
            trainer.stop();  // skip the closing evaluation
        }
    };
    trainer.run();
    return double(timedSteps * config.batch_size * config.sequence_len) / seconds(timedStart, timedEnd);
}

std::string capture(const std::string& command) {
    std::string out;
    FILE* pipe = ::popen(command.c_str(), "r");
    if (!pipe) return out;
    char buffer[4096];
    while (std::fgets(buffer, sizeof buffer, pipe)) out += buffer;
    if (::pclose(pipe) != 0) return {};
    return out;
}

std::string quote(const std::string& s) {
    std::string out = "'";
    for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

// The scripts print their result as their last line.
double lastJsonNumber(const std::string& text, const std::string& key) {
    std::size_t end = text.size();
    while (end > 0) {
        const std::size_t newline = text.rfind('\n', end - 1);
        const std::size_t begin = newline == std::string::npos ? 0 : newline + 1;
        const nlohmann::json line =
            nlohmann::json::parse(text.begin() + static_cast<std::ptrdiff_t>(begin),
                                  text.begin() + static_cast<std::ptrdiff_t>(end), nullptr, /*allow_exceptions=*/false);
        if (line.is_object()) {
            const auto it = line.find(key);
            if (it != line.end() && it->is_number()) return it->get<double>();
        }
        if (newline == std::string::npos) break;
        end = newline;
    }
    return std::nan("");
}

}  // namespace chargpt::bench
