// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// How learning is measured: passes over the training text, the loss a model
// that ignores context reaches, and when a run starts to memorise its text.

#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "model/train/LossHistory.h"

namespace chargpt {

// How many times each character of the training text is seen: steps * B * T
// over the training tokens (the number of epochs); 0 when trainTokens <= 0.
double passesOverText(int64_t steps, int64_t batchSize, int64_t sequenceLen, int64_t trainTokens);

// A run that passes more often than this over its text is warned about: a
// model of a preset's size memorises a text it has seen that often.
constexpr double kManyPasses = 20.0;

// Entropy in nats of the distribution the counts describe (counts[i] = how
// often token i occurs): the loss of the best model that ignores context.
// 0 for no counts.
double unigramEntropy(const std::vector<int64_t>& counts);

// Conditional entropy in nats of each token given the one before it, over the
// pairs of `tokens` (every token after the first) and their own frequencies:
// the lowest loss on these tokens of any model that sees one token back (a
// bigram table fitted to them). 0 for fewer than two tokens.
double bigramEntropy(const std::vector<int64_t>& tokens);

// The losses the ladder's rungs are set beside (model/train/Ladder.h), all
// measured on one text, the validation part. Each is the lowest loss on that
// text of a kind of model, fitted to the text itself: a model trained
// elsewhere does worse there.
struct LossFloors {
    double uniform = 0.0;  // ln V: the same guess for every token of the vocabulary
    double unigram = 0.0;  // no context: the text's own character frequencies
    double bigram = 0.0;   // one character back: the text's own pairs
};
LossFloors lossFloors(const std::vector<int64_t>& tokens, int64_t vocabSize);
// The same over `count` ids held in 16 bits (model/train/Dataset's), read in
// place: a validation part of 20 million characters takes 80 MB of pairs.
LossFloors lossFloors(const uint16_t* tokens, std::size_t count, int64_t vocabSize);

// When the validation loss has started to rise while the training loss falls.
struct Overfitting {
    std::optional<int64_t> sinceStep;  // the step of the best evaluation, once detected
    std::optional<int64_t> bestStep;   // the step of the lowest validation loss, once evaluated
    double bestValLoss = std::numeric_limits<double>::quiet_NaN();
    bool detected() const { return sinceStep.has_value(); }
};

// The rise that counts as memorising: at least kOverfitEvaluations
// evaluations after the best validation loss, every one of them above it, the
// last two at least kOverfitMargin nats above it (one noisy evaluation is not
// a trend), and the evaluated training loss at the last evaluation lower than
// at the best one (the model still gets better at its own text). A noisy
// curve that keeps falling sets new bests and never fires; a plateau that
// wobbles by less than the margin does not either. Evaluations whose losses
// are not finite are left out.
constexpr int kOverfitEvaluations = 3;
constexpr double kOverfitMargin = 0.05;
Overfitting detectOverfitting(const LossHistory& history);

}  // namespace chargpt
