// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/session/TrainingSession.h"

#include <string>

#include "model/runtime/Device.h"
#include "model/runtime/Error.h"
#include "model/runtime/Runtime.h"

namespace chargpt {

TrainingSession::TrainingSession(RunConfig config, const Corpus& corpus, SessionOptions options) {
    tokenizer_ = corpus.buildTokenizer();
    build(std::move(config), corpus, options, CharGPT(nullptr));
}

TrainingSession::TrainingSession(RunConfig config, const Checkpoint& previous, const Corpus& corpus,
                                 SessionOptions options) {
    if (!previous.model) throw Error("there is no model to train further.");
    const ModelConfig& had = previous.model->config();
    if (!config.sameArchitecture(had))
        throw Error("the settings' architecture differs from the model's: start a new model to change it.");
    tokenizer_ = previous.tokenizer;
    // A model that already reached the step count trains that many more.
    if (config.max_steps > 0 && previous.step >= config.max_steps) config.max_steps += previous.step;
    build(std::move(config), corpus, options, previous.model);
    trainer_->setProgress(previous.step, previous.tokensSeen);
    if (previous.weightsStep >= 0) trainer_->setWeightsStep(previous.weightsStep);
    trainer_->history() = previous.history;
    restoreOptimizer(previous, *trainer_);
}

void TrainingSession::build(RunConfig config, const Corpus& corpus, const SessionOptions& options,
                            CharGPT model) {
    config.vocab_size = tokenizer_.vocabSize();
    if (const ConfigProblem problem = config.validate()) throw Error(problem.message());
    // Before any tensor exists: settings the machine cannot hold are refused.
    const double memory =
        options.availableMemoryBytes > 0.0 ? options.availableMemoryBytes : physicalMemoryBytes();
    if (const ConfigProblem problem = config.memoryProblem(memory)) throw Error(problem.message());
    // A model whose checkpoint every loader would refuse (the budget of a
    // model read from a file) is not trained, whatever memory the machine has.
    if (const std::string why = config.contextMemoryProblem(); !why.empty())
        throw Error("these settings make a model whose checkpoint could not be opened again: " + why);
    data_ = std::make_shared<const Dataset>(
        Dataset::ofCorpus(corpus, tokenizer_, config.sequence_len, config.val_fraction, config.seed));
    if (!model) {
        torch::manual_seed(config.seed);
        model = CharGPT(config);
        if (options.onComputeDevice) model->to(computeDevice());
    }
    trainer_ = std::make_unique<Trainer>(model, data_, std::move(config), options.control);
}

Checkpoint checkpointFromTrainer(Trainer& trainer, const CharTokenizer& tokenizer) {
    Checkpoint c;
    c.config = trainer.config();
    c.tokenizer = tokenizer;
    c.model = trainer.model();
    c.step = trainer.step();
    c.tokensSeen = trainer.tokensSeen();
    c.weightsStep = trainer.weightsStep();
    c.history = trainer.history();
    CharGPT model = trainer.model();
    const FusedAdamW& optimizer = trainer.optimizer();
    if (optimizer.stepCount() > 0) {
        c.optimizerStep = optimizer.stepCount();
        for (const auto& item : model->named_parameters()) {
            c.expAvg[item.key()] = optimizer.expAvg(item.value());
            c.expAvgSq[item.key()] = optimizer.expAvgSq(item.value());
        }
    }
    return c;
}

void restoreOptimizer(const Checkpoint& checkpoint, Trainer& trainer) {
    FusedAdamW& optimizer = trainer.optimizer();
    optimizer.resetState();
    if (checkpoint.expAvg.empty()) return;
    torch::NoGradGuard noGrad;
    CharGPT model = trainer.model();
    for (const auto& item : model->named_parameters()) {
        auto avg = checkpoint.expAvg.find(item.key());
        auto sq = checkpoint.expAvgSq.find(item.key());
        if (avg == checkpoint.expAvg.end() || sq == checkpoint.expAvgSq.end())
            throw Error("the checkpoint's optimizer state lacks " + item.key() + ".");
        optimizer.expAvg(item.value()).copy_(avg->second);
        optimizer.expAvgSq(item.value()).copy_(sq->second);
    }
    optimizer.setStepCount(checkpoint.optimizerStep);
}

}  // namespace chargpt
