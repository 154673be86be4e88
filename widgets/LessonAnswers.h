// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include "model/lesson/LessonTables.h"

struct CharacterAttribution;
struct Knockout;
struct ModelAttention;
struct PatchingResult;

// The answers a lesson's question reveals, computed from what the views hold
// (the learner's own model where the question is about it), never written in
// the lesson. Each gives one of the keys of model/lesson/LessonTables.h's
// table for its id, and says in a sentence what was computed.
struct LessonAnswer {
    bool available = false;  // false: `text` says what is needed first
    QString key;
    QString text;
};

namespace lesson_answers {

// "softmax-times-1000": softmax(1000 x) against softmax(x) of the softmax lab's vector.
LessonAnswer softmaxTimes1000(const std::vector<double>& x);
// "unscaled-spread": the spread of q.k over random q, k at head sizes 8 and 64,
// unscaled and scaled by 1/sqrt(H).
LessonAnswer unscaledSpread();
// "attention-to-future": what every head of the model shown gives to the
// characters before a query and itself; the rest is what later ones get.
LessonAnswer attentionToFuture(const ModelAttention& attention);
// "previous-character-head": the head of the model shown that puts the most of
// its attention on the previous character, and whether that is most of it.
LessonAnswer previousCharacterHead(const ModelAttention& attention);

// "feed-forward-knockout": the rise of the validation loss with each layer's
// feed-forward knocked out, from the knock-out table: under 0.05 nats little,
// under 0.5 some, else much.
LessonAnswer feedForwardKnockout(const Knockout& knockout);

// "top-part": the part that adds most to the logit of the character the why
// window explains: a head of the last layer, a head of an earlier one, or
// another part (a feed-forward, the embeddings, a bias).
LessonAnswer topPart(const CharacterAttribution& attribution);

// "patching-layer": the first layer after which the patching lab's residual
// stream at the last position, patched alone, restores half or more of the
// clean logit difference: the layer whose attention carried the changed
// character there (the first layer, or a later one).
LessonAnswer patchingLayer(const PatchingResult& result);

// "loss-against-floors": the lowest validation loss of the run shown against
// the uniform guess (ln V) and the unigram entropy of the text, all in nats.
struct LossLevels {
    std::vector<std::pair<long long, double>> validation;  // (step, loss) of each evaluation
    double uniform = std::numeric_limits<double>::quiet_NaN();
    double unigram = std::numeric_limits<double>::quiet_NaN();
};
LessonAnswer lossAgainstFloors(const LossLevels& levels);

// Which model an answer measured: its step, its run and the newest step of
// that run, each none when not known.
struct Measured {
    std::optional<long long> step;
    std::optional<long long> run;
    std::optional<long long> newestStep;
};
// "Measured at step 64 of run 3." and, when a newer step is kept, that the
// answer may differ there. Empty without a step.
QString measuredNote(const Measured& measured);

// The answer `id` from what is at hand: every id of the table is computed.
struct Inputs {
    std::vector<double> softmaxVector;
    const ModelAttention* attention = nullptr;
    std::optional<long long> attentionStep;  // the step `attention` was computed at
    const Knockout* knockout = nullptr;  // null or empty: not measured yet (its step in it)
    const CharacterAttribution* attribution = nullptr;  // the why window's, null or not valid: none yet
    const PatchingResult* patching = nullptr;           // the patching lab's, null or not valid: none yet
    std::optional<long long> run;                       // the run on screen, none when not known
    std::optional<long long> newestStep;                // that run's newest step, none when not known
    LossLevels loss;
};
LessonAnswer compute(chargpt::LessonAnswerId id, const Inputs& inputs);

}  // namespace lesson_answers
