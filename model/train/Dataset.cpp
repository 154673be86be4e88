// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/train/Dataset.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "model/runtime/Error.h"
#include "model/text/Corpus.h"
#include "model/train/Learning.h"

namespace chargpt {

namespace {

std::vector<uint16_t> narrowed(const std::vector<int64_t>& tokens) {
    std::vector<uint16_t> stored;
    stored.reserve(tokens.size());
    for (const int64_t token : tokens) {
        if (token < 0 || token > std::numeric_limits<uint16_t>::max())
            throw Error("token id " + std::to_string(token) + " is not one of a vocabulary's.");
        stored.push_back(uint16_t(token));
    }
    return stored;
}

}  // namespace

Dataset::Dataset(const std::vector<int64_t>& tokens, int64_t sequenceLen, double valFraction)
    : Dataset(narrowed(tokens), sequenceLen, valFraction) {}

Dataset::Dataset(std::vector<uint16_t> tokens, int64_t sequenceLen, double valFraction)
    : tokens_(std::move(tokens)), sequenceLen_(sequenceLen) {
    const int64_t n = static_cast<int64_t>(tokens_.size());
    const int64_t window = sequenceLen + 1;  // inputs plus the next-token targets
    if (n < window)
        throw Error("the corpus has " + std::to_string(n) + " characters; a context of " +
                    std::to_string(sequenceLen) + " needs at least " + std::to_string(window) + ".");

    const int64_t val = std::max<int64_t>(window, std::llround(static_cast<double>(n) * valFraction));
    if (n - val >= window) {
        trainBegin_ = 0;
        trainEnd_ = n - val;
        valBegin_ = n - val;
        valEnd_ = n;
    } else {
        // Too small for two parts: train on everything, validate on the end.
        overlap_ = true;
        trainBegin_ = 0;
        trainEnd_ = n;
        valBegin_ = std::max<int64_t>(0, n - val);
        valEnd_ = n;
    }
    countUnigrams();
}

Dataset::Dataset(std::vector<uint16_t> tokens, int64_t sequenceLen, int64_t validationTokens,
                 ValidationSplit split)
    : tokens_(std::move(tokens)), sequenceLen_(sequenceLen), split_(split) {
    const int64_t n = static_cast<int64_t>(tokens_.size());
    const int64_t window = sequenceLen + 1;
    if (validationTokens < window || n - validationTokens < window)
        throw Error("a split into " + std::to_string(n - validationTokens) + " training and " +
                    std::to_string(validationTokens) + " validation characters leaves a part shorter than " +
                    std::to_string(window) + ".");
    trainEnd_ = valBegin_ = n - validationTokens;
    valEnd_ = n;
    countUnigrams();
}

Dataset Dataset::ofCorpus(const Corpus& corpus, const CharTokenizer& tokenizer, int64_t sequenceLen,
                          double valFraction, uint64_t seed) {
    const std::vector<std::size_t> validation = corpus.validationDocuments(valFraction, seed);
    if (!validation.empty()) {
        std::vector<std::size_t> training;
        for (std::size_t i = 0, next = 0; i < corpus.documents().size(); ++i) {
            if (next < validation.size() && validation[next] == i)
                ++next;
            else
                training.push_back(i);
        }
        std::vector<uint16_t> tokens = corpus.encodeStored(tokenizer, training);
        const std::vector<uint16_t> held = corpus.encodeStored(tokenizer, validation);
        const int64_t window = sequenceLen + 1;
        if (int64_t(tokens.size()) >= window && int64_t(held.size()) >= window) {
            // The training part ends its last document as every other: with end-of-text.
            if (tokenizer.hasEndOfText()) tokens.push_back(uint16_t(CharTokenizer::kEndOfText));
            tokens.insert(tokens.end(), held.begin(), held.end());
            return Dataset(std::move(tokens), sequenceLen, int64_t(held.size()), ValidationSplit::Documents);
        }
    }
    return Dataset(corpus.encodeStored(tokenizer), sequenceLen, valFraction);
}

void Dataset::countUnigrams() {
    std::vector<int64_t> counts;
    for (int64_t i = trainBegin_; i < trainEnd_; ++i) {
        const auto token = static_cast<std::size_t>(tokens_[static_cast<std::size_t>(i)]);
        if (token >= counts.size()) counts.resize(token + 1, 0);
        ++counts[token];
    }
    unigramEntropy_ = chargpt::unigramEntropy(counts);
}

int64_t Dataset::trainSize(int64_t tokens, int64_t sequenceLen, double valFraction) {
    const int64_t window = sequenceLen + 1;
    if (tokens < window) return 0;
    const int64_t val = std::max<int64_t>(window, std::llround(static_cast<double>(tokens) * valFraction));
    return tokens - val >= window ? tokens - val : tokens;
}

int64_t Dataset::trainSize(const Corpus& corpus, int64_t sequenceLen, double valFraction, uint64_t seed) {
    const int64_t tokens = int64_t(corpus.tokenCount());
    const std::vector<std::size_t> validation = corpus.validationDocuments(valFraction, seed);
    if (!validation.empty()) {
        // As ofCorpus joins them: the validation documents with end-of-text
        // between them, the training ones each followed by one.
        int64_t held = int64_t(validation.size()) - 1;
        for (const std::size_t index : validation) held += int64_t(corpus.documents()[index].size());
        const int64_t training = tokens - held;
        const int64_t window = sequenceLen + 1;
        if (training - 1 >= window && held >= window) return training;
    }
    return trainSize(tokens, sequenceLen, valFraction);
}

int64_t Dataset::size(Split split) const {
    return split == Split::Train ? trainEnd_ - trainBegin_ : valEnd_ - valBegin_;
}

Batch Dataset::sample(Split split, int64_t batch, std::mt19937_64& rng) const {
    const int64_t begin = split == Split::Train ? trainBegin_ : valBegin_;
    const int64_t end = split == Split::Train ? trainEnd_ : valEnd_;
    const int64_t T = sequenceLen_;
    // Start offsets from begin to end - T - 1 inclusive, so targets stay inside.
    std::uniform_int_distribution<int64_t> offset(begin, end - T - 1);
    Batch out{torch::empty({batch, T}, torch::kInt64), torch::empty({batch, T}, torch::kInt64)};
    const uint16_t* src = tokens_.data();
    int64_t* x = out.inputs.data_ptr<int64_t>();
    int64_t* y = out.targets.data_ptr<int64_t>();
    for (int64_t b = 0; b < batch; ++b) {
        const int64_t start = offset(rng);
        std::copy(src + start, src + start + T, x + b * T);
        std::copy(src + start + 1, src + start + T + 1, y + b * T);
    }
    return out;
}

const uint16_t* Dataset::storedTokens(Split split) const {
    return tokens_.data() + (split == Split::Train ? trainBegin_ : valBegin_);
}

std::vector<int64_t> Dataset::trainingTokens() const { return tokens(Split::Train); }

std::vector<int64_t> Dataset::tokens(Split split, int64_t count) const {
    const int64_t begin = split == Split::Train ? trainBegin_ : valBegin_;
    const int64_t end = split == Split::Train ? trainEnd_ : valEnd_;
    const int64_t n = count < 0 ? end - begin : std::min(count, end - begin);
    const uint16_t* src = tokens_.data();
    return std::vector<int64_t>(src + begin, src + begin + n);
}

}  // namespace chargpt
