// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/generate/Sampling.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "model/runtime/Error.h"

namespace chargpt {

namespace {

// Below this temperature the tempered distribution is its limit for any two
// different float scores: their gap is at least the smallest float
// (2^-149), and exp(-gap / T) is 0 in double once gap / T passes ~745. The
// pick is then the greedy one, its probability 1.
const double kGreedyBelow = double(std::numeric_limits<float>::denorm_min()) / 746.0;

// The index of the first score that is NaN or infinite, or -1.
int64_t firstNonFinite(const float* scores, int64_t n) {
    for (int64_t i = 0; i < n; ++i)
        if (!std::isfinite(scores[i])) return i;
    return -1;
}

std::string nonFiniteMessage(int64_t position) {
    std::string where = position >= 0 ? " at position " + std::to_string(position) : std::string();
    return "the model produced non-finite scores" + where +
           "; its weights have diverged (NaN, infinity or values too large to compute with): retrain it or "
           "open another checkpoint.";
}

}  // namespace

bool samplesGreedily(double temperature) { return temperature < kGreedyBelow; }

void pickToken(const torch::Tensor& logitsTensor, const SamplingOptions& options, double uniform,
               const CharTokenizer& tokenizer, SampleStep& step, int64_t position) {
    auto cpu = logitsTensor.detach().to(torch::kCPU, torch::kFloat32).contiguous();
    pickToken(cpu.data_ptr<float>(), cpu.numel(), options, uniform, tokenizer, step, position);
}

void pickToken(const float* raw, int64_t V, const SamplingOptions& options, double uniform,
               const CharTokenizer& tokenizer, SampleStep& step, int64_t position) {
    if (std::isnan(options.temperature)) throw Error("the temperature is not a number.");
    if (V <= 0) throw Error("the model produced no scores to sample from.");
    // A NaN compares false with everything: it would sort anywhere and the
    // softmax would pick a character at random. Never sample from it.
    if (firstNonFinite(raw, V) >= 0) throw Error(nonFiniteMessage(position));
    // 0 is greedy with the model's own distribution shown (temperature 1); a
    // positive temperature too small to divide by is its limit, greedy, with
    // the limit's probabilities: 1 for the pick.
    const bool greedy = samplesGreedily(options.temperature);
    const bool limit = greedy && options.temperature > 0.0;
    const double temperature = greedy ? 1.0 : options.temperature;

    // Indices by descending logit (ties: lower index first; no score is NaN).
    thread_local std::vector<int64_t> order;
    order.resize(static_cast<std::size_t>(V));
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(),
              [&](int64_t a, int64_t b) { return raw[a] > raw[b] || (raw[a] == raw[b] && a < b); });

    int64_t keep = V;
    if (!greedy && options.topK > 0) keep = std::min<int64_t>(keep, options.topK);

    // Softmax over the kept tokens, in descending order. Each score is divided
    // by the temperature only after the largest one is subtracted: the
    // differences are finite in double, a quotient too large gives exp() = 0,
    // and the likeliest token always weighs exactly 1, so the sum is in [1, V].
    thread_local std::vector<double> prob;
    prob.assign(static_cast<std::size_t>(keep), 0.0);
    const double top = raw[order[0]];
    double sum = 0.0;
    for (int64_t i = 0; i < keep; ++i) sum += prob[i] = std::exp((double(raw[order[i]]) - top) / temperature);
    if (!std::isfinite(sum) || !(sum >= 1.0)) throw Error(nonFiniteMessage(position));
    for (auto& p : prob) p /= sum;
    if (limit)
        for (int64_t i = 0; i < keep; ++i) prob[i] = i == 0 ? 1.0 : 0.0;

    if (!greedy && options.topP < 1.0) {
        double cumulative = 0.0;
        int64_t n = 0;
        while (n < keep && cumulative < options.topP) cumulative += prob[n++];
        keep = std::max<int64_t>(n, 1);
        prob.resize(static_cast<std::size_t>(keep));
        for (auto& p : prob) p /= cumulative;
    }

    int64_t chosen = 0;  // position in `order`
    if (!greedy) {
        // Rounding may leave the cumulative sum a hair under 1: a uniform number
        // above it takes the last token that has any probability, never one
        // whose probability is 0.
        chosen = 0;
        for (int64_t i = keep - 1; i > 0; --i)
            if (prob[i] > 0.0) {
                chosen = i;
                break;
            }
        double cumulative = 0.0;
        for (int64_t i = 0; i < keep; ++i) {
            cumulative += prob[i];
            if (uniform < cumulative) {
                chosen = i;
                break;
            }
        }
    }
    step.token = order[chosen];
    step.text = tokenizer.tokenText(step.token);
    step.probability = static_cast<float>(prob[chosen]);
    step.top.clear();
    const int64_t shown = std::min<int64_t>(keep, std::max<int64_t>(options.candidates, 0));
    for (int64_t i = 0; i < shown; ++i)
        step.top.push_back({order[i], tokenizer.tokenText(order[i]), static_cast<float>(prob[i])});
}

}  // namespace chargpt
