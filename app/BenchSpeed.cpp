// SPDX-License-Identifier: GPL-3.0-or-later
// The bench's speed figures: the matrix-multiply ceiling, training tokens/s and generation chars/s.
#include "app/BenchFigures.h"

#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <string>
#include <vector>

#include "app/BenchTools.h"
#include "model/generate/BatchSampler.h"
#include "model/nn/CharGPT.h"
#include "model/runtime/Runtime.h"
#include "model/text/Corpus.h"

namespace chargpt::bench {

namespace {

double matmulGflops(torch::ScalarType type) {
    torch::NoGradGuard noGrad;
    const int64_t n = 2048;
    auto a = torch::randn({n, n}).to(type), b = torch::randn({n, n}).to(type);
    torch::mm(a, b);  // warm-up: thread pool, oneDNN primitives
    std::vector<double> rates;
    for (int i = 0; i < 5; ++i) {
        const auto start = Clock::now();
        torch::mm(a, b);
        rates.push_back(2.0 * n * n * n / seconds(start, Clock::now()) / 1e9);
    }
    return median(rates);
}

enum class Generation { Cached, CachedExactWindow, Recompute };

// chars/s of one greedy sample of `chars` characters, or of `samples` samples
// at temperature 1 decoded together (all their characters).
double measureGeneration(const RunConfig& config, const CharTokenizer& tokenizer, Generation how, bool bf16, int chars,
                         int samples = 1) {
    torch::manual_seed(config.seed);
    CharGPT model(config);
    SamplingOptions options;
    options.temperature = samples > 1 ? 1.0 : 0.0;
    options.maxNewChars = chars;
    options.stopAtEndOfText = false;
    options.candidates = 0;
    options.useCache = how != Generation::Recompute;
    options.exactWindow = how == Generation::CachedExactWindow;
    options.bf16 = bf16;
    BatchSampler sampler(model, tokenizer, options, samples);
    const auto start = Clock::now();
    sampler.generate({});
    return double(chars) * samples / seconds(start, Clock::now());
}

}  // namespace

std::string bf16Skipped() {
    if (cpuHasFastBf16()) return {};
    return std::string("the CPU tier ") + tierName(cpuTier()) +
           " has no native bf16 (AVX512-BF16 or AMX): LibTorch would emulate it, slower than fp32";
}

namespace {
// Both ceilings now (bf16 only where the tier multiplies it natively).
Ceilings ceilingsNow() {
    Ceilings c;
    c.fp32 = matmulGflops(torch::kFloat32);
    if (bf16Skipped().empty()) c.bf16 = matmulGflops(torch::kBFloat16);
    return c;
}
}  // namespace

Ceilings measureCeilings(const BenchOptions& o) {
    Ceilings ceilings;
    const bool wanted = o.wants("ceiling") || o.wants("training");
    ceilings.fp32 = wanted ? matmulGflops(torch::kFloat32) : std::nan("");
    ceilings.bf16 = wanted && bf16Skipped().empty() ? matmulGflops(torch::kBFloat16) : std::nan("");
    return ceilings;
}

double flopsPerToken(const RunConfig& c) {
    return 6.0 * double(c.parameterCount()) +
           12.0 * double(c.n_layer) * double(c.n_head()) * double(c.head_size) * double(c.sequence_len);
}

std::vector<TrainFigure> measureTrainingFigures(const BenchOptions& o, const Corpus& corpus, int vocabSize,
                                                const std::string& referenceCorpus) {
    std::vector<TrainFigure> figures;
    const std::string skipped = bf16Skipped();
    for (const char* preset : {"book", "fast"})
        for (bool bf16 : {false, true}) {
            if (bf16 && !skipped.empty()) {
                std::cerr << "  skipping " << preset << " bf16: " << skipped << "\n";
                continue;
            }
            TrainFigure f;
            f.name = std::string(preset) + (bf16 ? " bf16" : " fp32");
            f.config = *RunConfig::preset(preset);
            f.config.vocab_size = vocabSize;
            f.config.bf16 = bf16;
            std::cerr << "  training " << f.name << "...\n";
            int steps = o.steps;
            const Ceilings before = ceilingsNow();
            f.tokensPerSecond = measureTraining(f.config, corpus, o, steps);
            const Ceilings after = ceilingsNow();
            f.ceilings.fp32 = (before.fp32 + after.fp32) / 2.0;
            f.ceilings.bf16 = (before.bf16 + after.bf16) / 2.0;
            f.referenceTokensPerSecond = referenceTraining(f.config, o, referenceCorpus, steps);
            figures.push_back(f);
        }
    return figures;
}

const TrainFigure* trainFigureNamed(const std::vector<TrainFigure>& figures, const std::string& name) {
    for (const auto& f : figures)
        if (f.name == name) return &f;
    return nullptr;
}

GenerationFigure measureGenerationFigure(const BenchOptions& o, const RunConfig& book, const CharTokenizer& tokenizer) {
    std::cerr << "  generating...\n";
    // The median of three runs: 500 cached characters take a tenth of a
    // second, so one pause of the machine would otherwise decide the figure.
    auto median3 = [&](Generation how, bool bf16, int samples = 1) {
        double r[3];
        for (double& x : r) x = measureGeneration(book, tokenizer, how, bf16, o.chars, samples);
        std::sort(r, r + 3);
        return r[1];
    };
    GenerationFigure figure;
    figure.bf16 = book.bf16;
    figure.cachedFp32 = median3(Generation::Cached, false);
    figure.cached = book.bf16 ? median3(Generation::Cached, true) : figure.cachedFp32;
    figure.exactWindow = median3(Generation::CachedExactWindow, book.bf16);
    figure.recompute = median3(Generation::Recompute, book.bf16);
    figure.batched = median3(Generation::Cached, book.bf16, kBatchedSamples);
    if (!book.bf16) {
        figure.cachedBf16 = median3(Generation::Cached, true);
        figure.batchedBf16 = median3(Generation::Cached, true, kBatchedSamples);
    }
    if (!o.reference.empty()) figure.reference = referenceGeneration(book, o);
    return figure;
}

}  // namespace chargpt::bench
