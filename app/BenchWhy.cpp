// SPDX-License-Identifier: GPL-3.0-or-later
// The bench's "why this character?" figure: one direct logit attribution (with
// gradient x input) and each activation-patching sweep on the book preset's
// model (untrained: the arithmetic, and so the time, is that of a trained one),
// over a full context of the corpus.
#include "app/BenchFigures.h"

#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "app/BenchTools.h"
#include "model/analysis/Attribution.h"
#include "model/analysis/Patching.h"
#include "model/nn/CharGPT.h"
#include "model/runtime/Error.h"
#include "model/text/CharTokenizer.h"
#include "model/text/Corpus.h"

namespace chargpt::bench {

WhyFigure measureWhy(const RunConfig& book, const Corpus& corpus, const CharTokenizer& tokenizer) {
    WhyFigure figure;
    torch::manual_seed(12046);
    CharGPT model(static_cast<const ModelConfig&>(book));
    model->eval();
    std::vector<int64_t> clean = corpus.encode(tokenizer);
    if (static_cast<int64_t>(clean.size()) < book.sequence_len) return figure;
    clean.resize(static_cast<std::size_t>(book.sequence_len));
    figure.positions = static_cast<int>(clean.size());
    const int64_t last = book.sequence_len - 1;
    std::vector<double> times;
    for (int i = 0; i < 7; ++i) {
        const auto start = Clock::now();
        const Attribution a = attribute(model, clean, last);
        times.push_back(seconds(start, Clock::now()) * 1000.0);
        figure.gap = std::max(figure.gap, std::abs(a.logitGap()));
    }
    figure.attributionMs = median(times);
    // The corrupted prompt: its last character changed (which an untrained
    // model's logits feel the most).
    std::vector<int64_t> corrupted = clean;
    corrupted.back() = 1 + corrupted.back() % (tokenizer.vocabSize() - 1);
    try {
        const PatchingRuns runs = preparePatching(model, clean, corrupted, attribute(model, clean, last).chosen);
        const auto time = [&](Patch::Part part) {
            const auto start = Clock::now();
            patchingSweep(model, runs, part);
            return seconds(start, Clock::now());
        };
        figure.residualSweepS = time(Patch::Residual);
        figure.headSweepS = time(Patch::Head);
        figure.feedForwardSweepS = time(Patch::FeedForward);
    } catch (const Error&) {  // the two prompts alike to the model: no sweep to time
    }
    return figure;
}

}  // namespace chargpt::bench
