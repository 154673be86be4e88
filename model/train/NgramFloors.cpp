// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/train/NgramFloors.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "model/runtime/Error.h"
#include "model/text/Corpus.h"
#include "model/train/Dataset.h"

namespace chargpt {

namespace {

// The n-grams of one length with their counts, as sorted keys (the ids packed
// `bits` apiece, the first highest), and each context's (the key without its
// last id) total count and number of distinct next ids.
struct CountTable {
    std::vector<uint64_t> keys;
    std::vector<uint32_t> counts;
    std::vector<uint64_t> contexts;
    std::vector<uint32_t> totals, types;
    double discount = 0.5;

    // Keys may repeat (each occurrence counts once).
    static CountTable fromKeys(std::vector<uint64_t> all, int bits) {
        std::sort(all.begin(), all.end());
        CountTable t;
        for (std::size_t i = 0; i < all.size();) {
            std::size_t j = i;
            while (j < all.size() && all[j] == all[i]) ++j;
            t.keys.push_back(all[i]);
            t.counts.push_back(uint32_t(std::min<std::size_t>(j - i, UINT32_MAX)));
            i = j;
        }
        std::vector<uint64_t>().swap(all);
        int64_t once = 0, twice = 0;
        for (std::size_t i = 0; i < t.keys.size(); ++i) {
            once += t.counts[i] == 1;
            twice += t.counts[i] == 2;
            const uint64_t context = t.keys[i] >> bits;
            if (t.contexts.empty() || t.contexts.back() != context) {
                t.contexts.push_back(context);
                t.totals.push_back(0);
                t.types.push_back(0);
            }
            t.totals.back() += t.counts[i];
            t.types.back() += 1;
        }
        // Chen and Goodman's estimate of the one discount: n1 / (n1 + 2 n2).
        if (once > 0) t.discount = double(once) / double(once + 2 * twice);
        t.discount = std::clamp(t.discount, 0.05, 0.95);
        return t;
    }

    uint32_t count(uint64_t key) const {
        const auto it = std::lower_bound(keys.begin(), keys.end(), key);
        return it != keys.end() && *it == key ? counts[std::size_t(it - keys.begin())] : 0;
    }
    // The context's index, or -1 when it was never seen.
    int64_t context(uint64_t key) const {
        const auto it = std::lower_bound(contexts.begin(), contexts.end(), key);
        return it != contexts.end() && *it == key ? int64_t(it - contexts.begin()) : -1;
    }
    // Interpolated Kneser-Ney: this order's discounted share, the rest to `lower`.
    double probability(uint64_t history, uint64_t next, int bits, double lower) const {
        const int64_t c = context(history);
        if (c < 0) return lower;
        const double total = totals[std::size_t(c)];
        const double seen = count(history << bits | next);
        return std::max(seen - discount, 0.0) / total + discount * double(types[std::size_t(c)]) / total * lower;
    }
};

// The key of the `length` ids ending at `end` (exclusive).
uint64_t keyOf(const uint16_t* end, int length, int bits) {
    uint64_t key = 0;
    for (int i = length; i > 0; --i) key = key << bits | uint64_t(end[-i]);
    return key;
}

}  // namespace

NgramFloors ngramFloors(const uint16_t* training, std::size_t trainingCount, const uint16_t* validation,
                        std::size_t validationCount, int64_t vocabSize, int maxOrder, const std::atomic<bool>* stop) {
    const auto stopped = [stop] { return stop && stop->load(std::memory_order_relaxed); };
    if (trainingCount < 2 || validationCount < 1 || vocabSize < 2)
        throw Error("the n-gram floors need a training part of two characters or more and a validation part.");
    int bits = 1;
    while ((int64_t(1) << bits) < vocabSize) ++bits;
    NgramFloors result;
    result.maxOrder = std::clamp(std::min(maxOrder, 64 / bits), 1, 5);
    const int top = result.maxOrder;
    for (const uint16_t* part : {training, validation})
        for (std::size_t i = 0, n = part == training ? trainingCount : validationCount; i < n; ++i)
            if (int64_t(part[i]) >= vocabSize)
                throw Error("token id " + std::to_string(part[i]) + " is outside the vocabulary of " +
                            std::to_string(vocabSize) + ".");
    result.trainingTokens = int64_t(trainingCount);

    // Raw counts of every order; continuation counts (how many different ids
    // come before an n-gram) of every order below the top, which the lower
    // levels of Kneser-Ney use.
    std::vector<CountTable> raw(std::size_t(top) + 1), continuation(std::size_t(top) + 1);
    for (int k = 1; k <= top; ++k) {
        if (std::size_t(k) > trainingCount) break;
        if (stopped()) return result;
        std::vector<uint64_t> keys;
        keys.reserve(trainingCount - std::size_t(k) + 1);
        for (std::size_t i = std::size_t(k); i <= trainingCount; ++i) keys.push_back(keyOf(training + i, k, bits));
        raw[std::size_t(k)] = CountTable::fromKeys(std::move(keys), bits);
    }
    for (int k = 1; k < top; ++k) {
        if (stopped()) return result;
        const uint64_t mask = k * bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << (k * bits)) - 1;
        std::vector<uint64_t> suffixes;
        suffixes.reserve(raw[std::size_t(k) + 1].keys.size());
        for (const uint64_t key : raw[std::size_t(k) + 1].keys) suffixes.push_back(key & mask);
        continuation[std::size_t(k)] = CountTable::fromKeys(std::move(suffixes), bits);
    }

    const std::size_t scored = std::min<std::size_t>(validationCount, std::size_t(kMaxScoredTokens));
    result.validationTokens = int64_t(scored);
    std::vector<double> sums(std::size_t(top) + 1, 0.0);
    const double uniform = 1.0 / double(vocabSize);
    std::vector<double> lower(std::size_t(top) + 1);
    for (std::size_t i = 0; i < scored; ++i) {
        if (i % 65536 == 0 && stopped()) return result;
        const uint64_t next = validation[i];
        // The continuation levels, shared by the models above them.
        lower[0] = uniform;
        for (int k = 1; k < top; ++k) {
            const int history = k - 1;
            lower[std::size_t(k)] = std::size_t(history) > i
                                        ? lower[std::size_t(k) - 1]
                                        : continuation[std::size_t(k)].probability(
                                              keyOf(validation + i, history, bits), next, bits, lower[std::size_t(k) - 1]);
        }
        for (int n = 1; n <= top; ++n) {
            const int history = n - 1;
            const CountTable& counts = raw[std::size_t(n)];
            double p = std::size_t(history) > i || counts.keys.empty()
                           ? lower[std::size_t(n) - 1]
                           : counts.probability(keyOf(validation + i, history, bits), next, bits, lower[std::size_t(n) - 1]);
            sums[std::size_t(n)] -= std::log(std::max(p, 1e-300));
        }
    }
    for (int n = 1; n <= top; ++n)
        result.floors.push_back({n, sums[std::size_t(n)] / double(scored), int64_t(raw[std::size_t(n)].contexts.size())});
    return result;
}

NgramFloors ngramFloors(const Corpus& corpus, int64_t sequenceLen, double valFraction, uint64_t seed,
                        int maxOrder, const std::atomic<bool>* stop) {
    const CharTokenizer vocabulary = corpus.buildTokenizer();
    const Dataset data = Dataset::ofCorpus(corpus, vocabulary, sequenceLen, valFraction, seed);
    return ngramFloors(data.storedTokens(Split::Train), std::size_t(data.size(Split::Train)),
                       data.storedTokens(Split::Validation), std::size_t(data.size(Split::Validation)),
                       vocabulary.vocabSize(), maxOrder, stop);
}

}  // namespace chargpt
