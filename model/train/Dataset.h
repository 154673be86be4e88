// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <torch/torch.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace chargpt {

class CharTokenizer;
class Corpus;

enum class Split { Train, Validation };

// Which text a data set validates on: the end of the text (the last share of
// one document), or whole documents of a folder drawn with the run's seed.
enum class ValidationSplit { TextEnd, Documents };

struct Batch {
    torch::Tensor inputs;   // (B, T) int64
    torch::Tensor targets;  // (B, T) int64, inputs shifted by one
};

// Token stream split into training (first part) and validation (last
// `valFraction`, or the last `validationTokens`), with batch sampling from a
// seeded generator.
class Dataset {
public:
    // Throws chargpt::Error when there are fewer than sequenceLen + 1 tokens.
    // Held in 16 bits a token (a vocabulary has at most 65,536): a corpus's
    // data set takes two bytes a character (Corpus::encodeStored makes them).
    Dataset(std::vector<uint16_t> tokens, int64_t sequenceLen, double valFraction = 0.1);
    // The same from ids of any width; one past 16 bits is refused.
    Dataset(const std::vector<int64_t>& tokens, int64_t sequenceLen, double valFraction = 0.1);
    // The last `validationTokens` of `tokens` for validation, the rest for
    // training (documents put in that order); each part holds at least one
    // context, else this throws chargpt::Error.
    Dataset(std::vector<uint16_t> tokens, int64_t sequenceLen, int64_t validationTokens,
            ValidationSplit split);
    // `corpus` split as a run splits it: a folder's documents by
    // Corpus::validationDocuments(valFraction, seed), the validation documents
    // after the training ones; one document (or documents too short for a
    // context in each part) by the last `valFraction` of the text.
    static Dataset ofCorpus(const Corpus& corpus, const CharTokenizer& tokenizer, int64_t sequenceLen,
                            double valFraction, uint64_t seed);

    int64_t sequenceLen() const { return sequenceLen_; }
    int64_t size(Split split) const;
    // Every token held, each once (the two parts together, when they overlap).
    int64_t tokenCount() const { return int64_t(tokens_.size()); }
    // The training part's size for `tokens` tokens, as the constructor splits
    // them (so a preset can be fitted to it before the data set is built).
    static int64_t trainSize(int64_t tokens, int64_t sequenceLen, double valFraction = 0.1);
    // The training part's size of `corpus` in its own vocabulary, as ofCorpus
    // splits it with this share and seed: a folder's training documents
    // (Corpus::validationDocuments), else the rule above; nothing encoded.
    static int64_t trainSize(const Corpus& corpus, int64_t sequenceLen, double valFraction, uint64_t seed);
    // Entropy in nats of the characters of the training part: the loss of a
    // model that ignores context (see model/train/Learning.h).
    double unigramEntropy() const { return unigramEntropy_; }
    // True when the corpus is too small for two separate parts and validation
    // reuses the end of the training text.
    bool validationOverlapsTraining() const { return overlap_; }
    ValidationSplit validationSplit() const { return split_; }

    // `batch` random windows of the split, drawn with `rng`.
    Batch sample(Split split, int64_t batch, std::mt19937_64& rng) const;

    // The tokens of the training part, in order: the text the model learns
    // from (what CopyIndex indexes).
    std::vector<int64_t> trainingTokens() const;
    // The first `count` tokens of a split (all of it when count < 0 or more).
    std::vector<int64_t> tokens(Split split, int64_t count = -1) const;
    // A split's tokens as they are held (size(split) of them), read in place.
    const uint16_t* storedTokens(Split split) const;

private:
    void countUnigrams();  // the training part's unigram entropy

    std::vector<uint16_t> tokens_;  // the N token ids
    int64_t sequenceLen_;
    int64_t trainBegin_ = 0, trainEnd_ = 0, valBegin_ = 0, valEnd_ = 0;
    bool overlap_ = false;
    ValidationSplit split_ = ValidationSplit::TextEnd;
    double unigramEntropy_ = 0.0;
};

}  // namespace chargpt
