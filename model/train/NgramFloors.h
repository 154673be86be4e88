// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The floors a transformer should pass: the validation loss of classic n-gram
// models of the characters, n = 1 to 5, each fitted to the training part with
// interpolated Kneser-Ney smoothing (Chen and Goodman's "interpolated KN",
// one absolute discount per order). A transformer that has not passed the
// 3-gram floor has not yet learned more than the last two characters tell.

#include <atomic>
#include <cstdint>
#include <vector>

namespace chargpt {

struct NgramFloor {
    int order = 0;       // n: the character predicted and the n - 1 before it
    double loss = 0.0;   // mean negative log-likelihood on the validation part, in nats
    int64_t contexts = 0;  // distinct contexts of n - 1 characters seen in training
};

struct NgramFloors {
    std::vector<NgramFloor> floors;  // by order, from 1
    int64_t trainingTokens = 0;
    int64_t validationTokens = 0;    // those scored (at most kMaxScored, from the start of the part)
    int maxOrder = 0;                // the highest order that fits (a key of n ids in 64 bits)
};

// The most validation tokens scored: the floors of a long validation part
// are those of its first few million characters.
constexpr int64_t kMaxScoredTokens = 4000000;

// Fits the n-gram models of orders 1 to `maxOrder` (at most 5, and at most as
// many ids of the vocabulary's width as fit 64 bits) to `training` and scores
// `validation` (its first kMaxScoredTokens). Ids are below `vocabSize`.
// Throws chargpt::Error on an empty part or an id outside the vocabulary.
// `stop`, when given and set, ends the work early: the result then has no
// floors.
NgramFloors ngramFloors(const uint16_t* training, std::size_t trainingCount, const uint16_t* validation,
                        std::size_t validationCount, int64_t vocabSize, int maxOrder = 5,
                        const std::atomic<bool>* stop = nullptr);

class Corpus;

// The floors of `corpus` in its own vocabulary, split as a run with this
// context, validation share and seed splits it (model/train/Dataset).
NgramFloors ngramFloors(const Corpus& corpus, int64_t sequenceLen, double valFraction, uint64_t seed,
                        int maxOrder = 5, const std::atomic<bool>* stop = nullptr);

}  // namespace chargpt
