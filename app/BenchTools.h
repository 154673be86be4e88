// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The bench's helpers that more than one room of measurements uses
// (BenchTools.cpp defines them).

#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "app/Bench.h"

namespace chargpt {

class Corpus;
struct RunConfig;
class TrainingSession;

namespace bench {

using Clock = std::chrono::steady_clock;
double seconds(Clock::time_point from, Clock::time_point to);
double median(std::vector<double> v);
// Trains `base` for o.warmup untimed steps, then times at least o.steps steps and
// at least two seconds of them; returns tokens/s and sets `timedSteps`.
// `prepare` may hook the session's trainer before it runs.
double measureTraining(const RunConfig& base, const Corpus& corpus, const BenchOptions& o, int& timedSteps,
                       const std::function<void(TrainingSession&)>& prepare = nullptr);
// Runs a command and returns its standard output (empty when it fails).
std::string capture(const std::string& command);
std::string quote(const std::string& s);
// The number `key` holds in the last JSON-object line of `text` that holds it; NaN when none.
double lastJsonNumber(const std::string& text, const std::string& key);

}  // namespace bench
}  // namespace chargpt
