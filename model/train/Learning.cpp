// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/train/Learning.h"

#include <cmath>
#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace chargpt {

double passesOverText(int64_t steps, int64_t batchSize, int64_t sequenceLen, int64_t trainTokens) {
    if (trainTokens <= 0 || steps <= 0) return 0.0;
    return double(steps) * double(batchSize) * double(sequenceLen) / double(trainTokens);
}

double unigramEntropy(const std::vector<int64_t>& counts) {
    double total = 0.0;
    for (const int64_t c : counts)
        if (c > 0) total += double(c);
    if (total <= 0.0) return 0.0;
    double h = 0.0;
    for (const int64_t c : counts) {
        if (c <= 0) continue;
        const double p = double(c) / total;
        h -= p * std::log(p);
    }
    return h;
}

namespace {

// Conditional entropy of each token given the one before, over `n` tokens of
// at most `bits` bits: each pair as one number, sorted, so that a pair's count
// is the length of its run and a first token's the sum of its pairs' runs.
template <typename Pair, typename Token>
double bigramEntropyOf(const Token* tokens, std::size_t n, int bits) {
    if (n < 2) return 0.0;
    std::vector<Pair> pairs;
    pairs.reserve(n - 1);
    for (std::size_t i = 1; i < n; ++i) pairs.push_back(Pair(Pair(tokens[i - 1]) << bits | Pair(tokens[i])));
    std::sort(pairs.begin(), pairs.end());
    double h = 0.0;
    for (std::size_t from = 0; from < pairs.size();) {
        const Pair first = pairs[from] >> bits;
        std::size_t to = from;
        while (to < pairs.size() && pairs[to] >> bits == first) ++to;
        const double given = double(to - from);  // how often `first` comes before another token
        for (std::size_t i = from; i < to;) {
            std::size_t j = i;
            while (j < to && pairs[j] == pairs[i]) ++j;
            const double n = double(j - i);
            h -= n * std::log(n / given);
            i = j;
        }
        from = to;
    }
    return h / double(pairs.size());
}

template <typename Token>
LossFloors lossFloorsOf(const Token* tokens, std::size_t n, int64_t vocabSize, double bigram) {
    LossFloors floors;
    floors.uniform = vocabSize > 0 ? std::log(double(vocabSize)) : 0.0;
    std::vector<int64_t> counts(std::size_t(std::max<int64_t>(vocabSize, 0)), 0);
    for (std::size_t i = 0; i < n; ++i)
        if (int64_t(tokens[i]) >= 0 && int64_t(tokens[i]) < vocabSize) ++counts[std::size_t(tokens[i])];
    floors.unigram = unigramEntropy(counts);
    floors.bigram = bigram;
    return floors;
}

}  // namespace

double bigramEntropy(const std::vector<int64_t>& tokens) {
    // Tokens are below 2^32: a pair fits 64 bits.
    std::vector<uint32_t> narrow(tokens.begin(), tokens.end());
    return bigramEntropyOf<uint64_t>(narrow.data(), narrow.size(), 32);
}

LossFloors lossFloors(const std::vector<int64_t>& tokens, int64_t vocabSize) {
    return lossFloorsOf(tokens.data(), tokens.size(), vocabSize, bigramEntropy(tokens));
}

LossFloors lossFloors(const uint16_t* tokens, std::size_t count, int64_t vocabSize) {
    // 16-bit ids: a pair fits 32 bits.
    return lossFloorsOf(tokens, count, vocabSize, bigramEntropyOf<uint32_t>(tokens, count, 16));
}

Overfitting detectOverfitting(const LossHistory& history) {
    Overfitting result;
    const std::size_t n = std::min({history.evalSteps.size(), history.evalValLoss.size(),
                                    history.evalTrainLoss.size()});
    // The evaluations with finite losses, in order.
    std::vector<std::size_t> good;
    good.reserve(n);
    for (std::size_t i = 0; i < n; ++i)
        if (std::isfinite(history.evalValLoss[i]) && std::isfinite(history.evalTrainLoss[i])) good.push_back(i);
    if (good.empty()) return result;
    // The best: the lowest validation loss, the latest of equal ones (so every
    // evaluation after it is strictly above it).
    std::size_t best = 0;
    for (std::size_t k = 1; k < good.size(); ++k)
        if (history.evalValLoss[good[k]] <= history.evalValLoss[good[best]]) best = k;
    const double bestVal = history.evalValLoss[good[best]];
    result.bestStep = history.evalSteps[good[best]];
    result.bestValLoss = bestVal;

    const std::size_t after = good.size() - 1 - best;
    if (after < std::size_t(kOverfitEvaluations)) return result;
    const std::size_t last = good.back(), beforeLast = good[good.size() - 2];
    if (history.evalValLoss[last] < bestVal + kOverfitMargin) return result;
    if (history.evalValLoss[beforeLast] < bestVal + kOverfitMargin) return result;
    if (!(history.evalTrainLoss[last] < history.evalTrainLoss[good[best]])) return result;
    result.sinceStep = result.bestStep;
    return result;
}

}  // namespace chargpt
