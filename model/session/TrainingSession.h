// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <memory>

#include "model/io/Checkpoint.h"
#include "model/nn/CharGPT.h"
#include "model/text/CharTokenizer.h"
#include "model/text/Corpus.h"
#include "model/train/Dataset.h"
#include "model/train/RunConfig.h"
#include "model/train/Trainer.h"

namespace chargpt {

struct SessionOptions {
    // Memory training may use, in bytes; 0 or less: the machine's physical
    // memory (physicalMemoryBytes()).
    double availableMemoryBytes = 0.0;
    // A new model moves to computeDevice(); false keeps it on the CPU.
    bool onComputeDevice = true;
    // Shared with whoever pauses, stops or posts work to the run (see
    // TrainerControl); a new one when null.
    std::shared_ptr<TrainerControl> control;
};

// The trainer's state as a checkpoint (model shared, not copied), and back.
Checkpoint checkpointFromTrainer(Trainer& trainer, const CharTokenizer& tokenizer);
void restoreOptimizer(const Checkpoint& checkpoint, Trainer& trainer);

// The one place a Trainer is built from settings, for `chargpt train`, the
// app's TrainingWorker and `chargpt bench` alike. In order: the vocabulary
// (the corpus's, or the model's own when it trains further), the settings
// validated, training's memory checked against the machine's, the data set,
// the seed, the model, the Trainer, and the optimizer's moments restored.
// Every refusal is a chargpt::Error with a readable message, thrown before any
// tensor is allocated.
class TrainingSession {
public:
    // A new model for `corpus`; its vocabulary is the corpus's characters.
    TrainingSession(RunConfig config, const Corpus& corpus, SessionOptions options = {});
    // Trains `previous` further on `corpus`: a checkpoint opened, a state_dict
    // imported or the last run, with its weights (shared, not copied),
    // vocabulary (characters of `corpus` it does not know are left out), step,
    // token count, history and optimizer moments. `config` gives the training
    // settings and must have the model's architecture. A model that already
    // reached config.max_steps trains that many steps more.
    TrainingSession(RunConfig config, const Checkpoint& previous, const Corpus& corpus,
                    SessionOptions options = {});

    TrainingSession(const TrainingSession&) = delete;
    TrainingSession& operator=(const TrainingSession&) = delete;

    Trainer& trainer() { return *trainer_; }
    const Trainer& trainer() const { return *trainer_; }
    // The settings the run trains with: vocab_size set, max_steps extended.
    const RunConfig& config() const { return trainer_->config(); }
    const CharTokenizer& tokenizer() const { return tokenizer_; }
    const Dataset& data() const { return *data_; }
    CharGPT model() const { return trainer_->model(); }
    // The trainer's state (step, history, moments) as a checkpoint; the
    // weights are shared, not copied.
    Checkpoint checkpoint() { return checkpointFromTrainer(*trainer_, tokenizer_); }

private:
    void build(RunConfig config, const Corpus& corpus, const SessionOptions& options, CharGPT model);

    CharTokenizer tokenizer_;
    std::shared_ptr<const Dataset> data_;
    std::unique_ptr<Trainer> trainer_;
};

}  // namespace chargpt
