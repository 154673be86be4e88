// SPDX-License-Identifier: GPL-3.0-or-later
// A microbenchmark of the decoder (model/nn/kernels/Decoder.h) on an untrained
// model of the `book` preset's shape, in the tier in force (CHARGPT_CPU):
//   linear M   the book model's 48 products and its head for M rows at a
//              time, one thread: each product's best of 10N, summed, in us a
//              pass;
//   one        one greedy sample (the window shifted by half, its next window
//              on the other thread where there are two): characters/s and
//              the process's CPU time per character, best of N; and the sum
//              of each step's best at its place in the window (robust to a
//              shared machine's load);
//   step       one stream's steps alone and helped by a second thread;
//   many       16 samples at temperature 1, decoded together: the same.
// Build: cmake --build build --target bench_decoder; run: build/bin/bench_decoder
// [linear|step|one|many|all] [rounds]. Each figure is the best of `rounds` (5):
// on a shared machine the best run is the one least slowed by the others.
#include <sys/resource.h>

#include <torch/torch.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "model/generate/BatchSampler.h"
#include "model/nn/CharGPT.h"
#include "model/nn/kernels/Decoder.h"
#include "model/nn/kernels/DecoderMath.h"
#include "model/runtime/CpuTier.h"
#include "model/runtime/Runtime.h"
#include "model/train/RunConfig.h"

using namespace chargpt;

namespace {

using Clock = std::chrono::steady_clock;

double seconds(Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double>(b - a).count();
}

// User and system CPU time of the process so far, in seconds.
double cpuSeconds() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           1e-6 * double(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

CharTokenizer tokenizer() {
    std::u32string text;
    for (char32_t c = 32; c < 127; ++c) text += c;
    return CharTokenizer::fromText(text);
}

RunConfig bookConfig(const CharTokenizer& t) {
    RunConfig c = *RunConfig::preset("book");
    c.vocab_size = t.vocabSize();
    c.bf16 = false;
    return c;
}

void benchLinear(int rounds, const std::vector<int64_t>& rowCounts) {
    const CharTokenizer t = tokenizer();
    const RunConfig c = bookConfig(t);
    const int64_t C = c.emb_size;
    torch::manual_seed(1);
    std::vector<decoding::PackedLinear> layers;
    auto add = [&](int64_t N, int64_t K) {
        const auto w = torch::randn({N, K}) * 0.05, b = torch::randn({N}) * 0.05;
        layers.push_back(decoding::PackedLinear::pack(w.data_ptr<float>(), b.data_ptr<float>(), N, K, false));
    };
    for (int64_t l = 0; l < c.n_layer; ++l) {
        add(3 * C, C);
        add(C, C);
        add(4 * C, C);
        add(C, 4 * C);
    }
    add(c.vocab_size, C);
    for (const int64_t M : rowCounts) {
        const int64_t ld = decoding::padded(4 * C) + decoding::padded(c.vocab_size);
        std::vector<float> X(std::size_t(M * ld), 0.01f), Y(std::size_t(M * ld), 0.0f);
        // Each product timed alone, its best of 10 * rounds summed: a whole
        // pass is long enough to be preempted on a shared machine. The
        // products run in the model's order, so that (as in a step) each
        // reads weights the others have pushed out of the L2 cache.
        std::vector<double> best(layers.size(), 1e30);
        for (int r = 0; r < 10 * rounds; ++r)
            for (std::size_t i = 0; i < layers.size(); ++i) {
                const auto start = Clock::now();
                decoding::linear(layers[i], X.data(), ld, Y.data(), ld, M);
                best[i] = std::min(best[i], seconds(start, Clock::now()));
            }
        double pass = 0.0;
        for (double b : best) pass += b;
        const double flops = [&] {
            double f = 0;
            for (const auto& layer : layers) f += 2.0 * double(layer.K) * double(layer.N) * double(M);
            return f;
        }();
        std::printf("linear, %lld rows: %.1f us a pass, %.1f GFLOP/s, %.2f us a row\n", (long long)M,
                    pass * 1e6, flops / pass / 1e9, pass * 1e6 / double(M));
    }
}

void benchSampling(int rounds, int samples, int chars) {
    const CharTokenizer t = tokenizer();
    const RunConfig c = bookConfig(t);
    torch::manual_seed(c.seed);
    CharGPT model(c);
    SamplingOptions options;
    options.temperature = samples > 1 ? 1.0 : 0.0;
    options.maxNewChars = chars;
    options.stopAtEndOfText = false;
    options.candidates = 0;
    double bestRate = 0.0, bestCpu = 1e30;
    // Each step timed alone; a step's best over every round and every window
    // at its place in the window (the window moves every 32 characters),
    // summed over the places: what a quiet machine would give, as each step
    // is short enough to run unpreempted now and then.
    const int64_t period = c.sequence_len / 2;
    std::vector<double> bestStep(std::size_t(period), 1e30);
    std::string first;
    std::vector<SampleStreamStep> steps;
    for (int r = 0; r < rounds; ++r) {
        BatchSampler sampler(model, t, options, samples);
        std::string text;
        const double cpu0 = cpuSeconds();
        const auto start = Clock::now();
        sampler.start({});
        for (int64_t i = 0; !sampler.finished(); ++i) {
            const auto before = Clock::now();
            sampler.next(steps);
            double& best = bestStep[std::size_t(i % period)];
            best = std::min(best, seconds(before, Clock::now()));
            for (const auto& step : steps)
                if (step.sample == 0) text += step.step.text;
        }
        const double wall = seconds(start, Clock::now()), cpu = cpuSeconds() - cpu0;
        if (r == 0) first = text;
        if (text != first) std::printf("the text differs between rounds!\n");
        bestRate = std::max(bestRate, double(chars) * samples / wall);
        bestCpu = std::min(bestCpu, cpu / (double(chars) * samples));
    }
    double window = 0.0;
    for (double b : bestStep) window += b;
    unsigned hash = 2166136261u;
    for (unsigned char ch : first) hash = (hash ^ ch) * 16777619u;
    std::printf(
        "%d sample%s of %d characters: %.0f characters/s (steps at their best: %.0f), %.1f us of CPU a "
        "character "
        "(text %08x)\n",
        samples, samples > 1 ? "s" : "", chars, bestRate, double(period) * samples / window, bestCpu * 1e6,
        hash);
}

// One stream's steps through a decoder of the book's shape, 32 positions
// after 32 cached (the window's second half), alone and with a thread that
// helps with their products and attention (SharedWork): the best of N
// rounds of each step, summed, in us a character.
void benchStep(int rounds) {
    const CharTokenizer t = tokenizer();
    const RunConfig c = bookConfig(t);
    torch::manual_seed(c.seed);
    CharGPT model(c);
    const int64_t half = c.sequence_len / 2;
    std::vector<int64_t> tokens;
    for (int64_t i = 0; i < c.sequence_len; ++i) tokens.push_back(1 + (i * 7) % (t.vocabSize() - 1));
    for (const bool helped : {false, true}) {
        Decoder decoder(model, 1, Decoder::Weights::Fp32, Decoder::Threads::Caller);
        auto work = std::make_shared<SharedWork>();
        std::atomic<bool> stop{false};
        std::thread helper;
        if (helped) {
            decoder.shareWith(work);
            helper = std::thread([&] {
                while (!stop.load(std::memory_order_relaxed)) work->help();
            });
        }
        std::vector<double> best(std::size_t(half), 1e30);
        for (int r = 0; r < 20 * rounds; ++r) {
            decoder.reset();
            decoder.feed(tokens.data(), half);
            for (int64_t i = 0; i < half; ++i) {
                const auto start = Clock::now();
                decoder.step(tokens[std::size_t(half + i)]);
                best[std::size_t(i)] = std::min(best[std::size_t(i)], seconds(start, Clock::now()));
            }
        }
        stop = true;
        if (helper.joinable()) helper.join();
        double sum = 0.0;
        for (double b : best) sum += b;
        std::printf("a step, %s: %.1f us a character\n", helped ? "helped by a second thread" : "alone",
                    sum / double(half) * 1e6);
    }
}

}  // namespace

int main(int argc, char** argv) {
    const std::string what = argc > 1 ? argv[1] : "all";
    const int rounds = argc > 2 ? std::max(1, std::atoi(argv[2])) : 5;
    initThreads();  // as chargpt picks them: every core (linear M runs on this one alone)
    std::printf("tier %s, %d threads\n", tierName(cpuTier()), at::get_num_threads());
    torch::NoGradGuard noGrad;
    if (what == "linear" || what == "all") benchLinear(rounds, {1, 4, 8, 16, 64, 264});
    if (what == "step" || what == "all") benchStep(rounds);
    if (what == "one" || what == "all") benchSampling(rounds, 1, 2000);
    if (what == "many" || what == "all") benchSampling(rounds, 16, 500);
    return 0;
}
