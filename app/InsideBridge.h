// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Where model/analysis (LogitLens, HeadRoles, EmbeddingMap, Ablation) becomes
// the Inside page's plain values (widgets/InsideData.h). Qt-only header (the
// model's types are only named), for the inspector, the CLI and the tests.

#include <QString>

#include <functional>
#include <memory>
#include <vector>

#include "widgets/InsideData.h"

namespace chargpt {
struct Checkpoint;
struct Batch;
struct EmbeddingFrame;
}  // namespace chargpt

// The characters' map of the last frozen model, so that the next one's axes are
// aligned to it (model/analysis/EmbeddingMap.h). Empty until the first frame;
// a model of another shape starts it again.
class CharacterMapAlignment {
public:
    CharacterMapAlignment();
    ~CharacterMapAlignment();
    void reset();

private:
    friend InsideFrame computeInsideFrame(const chargpt::Checkpoint&, const QString&, const QString&,
                                          CharacterMapAlignment&, const chargpt::Checkpoint*);
    std::unique_ptr<chargpt::EmbeddingFrame> previous_;
};

// One frozen model's frame of the Inside page:
// - the logit lens of `probe` (its known characters, the last sequence_len + 1
//   of them), each position predicting the next;
// - every head's previous-token score on `text` (the probe when empty) and its
//   induction score on random tokens repeated twice, with their chance values;
// - the characters' map (PCA of the token embeddings, aligned by `alignment`),
//   each character's five nearest by cosine and the position similarity.
// - the probe's feed-forward neurons and residual stream (InsideLayersBridge),
//   the neurons' examples from `text`.
// A part that cannot be computed (a probe with fewer than two known
// characters) is left empty with the reason in `problem`. With `against` (the
// same run's weights at step A, of the same vocabulary and width), the map
// also holds where each character was then, placed in this frame's plane.
// Call it on the thread that owns the models.
InsideFrame computeInsideFrame(const chargpt::Checkpoint& checkpoint, const QString& probe, const QString& text,
                               CharacterMapAlignment& alignment, const chargpt::Checkpoint* against = nullptr);

// Generate's Step mode: the logit lens of the text so far (`context`: prompt and
// generated tokens, the newest last, at least 2), over the model's window, cut
// to its last `positions` positions; the last column predicts the newest token.
// Call it on the thread that owns the model.
LogitLens stepLens(const chargpt::Checkpoint& checkpoint, const std::vector<int64_t>& context, int positions);

// The knock-out table of the checkpoint's model on `batches` (ablationBatches:
// the first rows of the fixed validation batches). `progress(done, total)` is
// called after each pass and may return false to stop: the rows done so far
// are returned. Throws chargpt::Error when there is no batch.
Knockout computeKnockout(const chargpt::Checkpoint& checkpoint, const std::vector<chargpt::Batch>& batches,
                         const std::function<bool(int done, int total)>& progress = {});
