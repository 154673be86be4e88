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
