// SPDX-License-Identifier: GPL-3.0-or-later
// The bench's copy-index figure: building, calibrating and checking with the corpus's CopyIndex.
#include "app/BenchFigures.h"

#include <torch/torch.h>

#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include "app/BenchTools.h"
#include "model/text/CharTokenizer.h"
#include "model/text/CopyIndex.h"
#include "model/text/Corpus.h"
#include "model/train/Dataset.h"

namespace chargpt::bench {

CopiesFigure measureCopies(const Corpus& corpus, const CharTokenizer& tokenizer, const RunConfig& config, int chars) {
    CopiesFigure figure;
    const std::vector<int64_t> all = corpus.encode(tokenizer);
    const Dataset data(all, config.sequence_len, config.val_fraction);
    const std::vector<int64_t> training = data.trainingTokens();
    const auto start = Clock::now();
    CopyIndex index(training, tokenizer);
    figure.buildSeconds = seconds(start, Clock::now());
    const auto calibrated = Clock::now();
    figure.minLength = index.calibrate(data.tokens(Split::Validation), tokenizer);
    figure.calibrateSeconds = seconds(calibrated, Clock::now());
    figure.memoryMiB = double(index.memoryBytes()) / (1024.0 * 1024.0);
    figure.megabytes = double(index.byteCount()) / 1e6;
    auto textOf = [&](std::size_t from) {
        std::u32string text;
        for (std::size_t i = from; i < from + std::size_t(chars) && i < all.size(); ++i)
            text += all[i] == CharTokenizer::kEndOfText ? U'\n' : tokenizer.characters()[std::size_t(all[i] - 1)];
        return text;
    };
    // The median of 21 windows spread over a part of the text.
    auto timeChecks = [&](std::size_t begin, std::size_t end, double* share) {
        if (end < begin + std::size_t(chars)) return std::nan("");
        std::vector<double> times;
        double shares = 0.0;
        for (int i = 0; i < 21; ++i) {
            const std::u32string text = textOf(begin + (end - begin - std::size_t(chars)) * std::size_t(i) / 20);
            const auto from = Clock::now();
            const CopyCheck check = index.check(std::u32string_view(text));
            times.push_back(seconds(from, Clock::now()) * 1000.0);
            shares += check.share() / 21.0;
        }
        if (share) *share = shares;
        return median(times);
    };
    figure.copiedMs = timeChecks(0, training.size(), nullptr);
    figure.unseenMs = timeChecks(training.size(), all.size(), &figure.unseenShare);
    return figure;
}

}  // namespace chargpt::bench
