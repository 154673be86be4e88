// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <torch/torch.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <vector>

#include "model/nn/CharGPT.h"
#include "model/train/Dataset.h"
#include "model/train/FusedAdamW.h"
#include "model/nn/GPTConfig.h"
#include "model/runtime/Runtime.h"

namespace chargpt {

// Every point of a run, kept for plots and saved in checkpoints.
struct LossHistory {
    std::vector<int64_t> steps;      // one entry per training step
    std::vector<float> trainLoss;    // loss of that step's batch
    std::vector<float> learningRate;
    std::vector<int64_t> evalSteps;  // one entry per evaluation
    std::vector<float> evalTrainLoss;
    std::vector<float> evalValLoss;
};

// A value copy of the trainer's state after a step or an evaluation.
struct TrainSnapshot {
    int64_t step = 0;        // steps done in total (including earlier runs)
    int64_t totalSteps = 0;  // 0 when only a time limit bounds the run
    int64_t tokensSeen = 0;
    double loss = 0.0;       // this step's batch loss
    double evalTrainLoss = std::numeric_limits<double>::quiet_NaN();
    double valLoss = std::numeric_limits<double>::quiet_NaN();  // set after evaluations
    double learningRate = 0.0;
    double tokensPerSecond = 0.0;
    double elapsedSeconds = 0.0;  // of this run, pauses excluded
    double etaSeconds = std::numeric_limits<double>::quiet_NaN();
};

enum class StopReason { Finished, TimeLimit, Stopped, NonFiniteLoss };
std::string toString(StopReason reason);

struct TrainResult {
    StopReason reason = StopReason::Finished;
    std::string message;  // for NonFiniteLoss: what happened, in words
    TrainSnapshot last;
};

// AdamW with warm-up then cosine decay, gradient clipping and evaluation on
// fixed validation batches. run() blocks the calling thread; pause, resume and
// stop may be called from any thread and take effect between steps.
class Trainer {
public:
    Trainer(CharGPT model, std::shared_ptr<const Dataset> data, GPTConfig config);

    // Called after every step / every evaluation, on the training thread.
    std::function<void(const TrainSnapshot&)> onStep;
    std::function<void(const TrainSnapshot&)> onEval;

    // Trains until max_steps (counted from step 0 of the model's life),
    // time_limit_s of this run, stop() or a non-finite loss. When the loss is not
    // finite the weights of the last good step are put back.
    TrainResult run();

    void pause();
    void resume();
    void stop();
    bool paused() const { return paused_; }

    // Mean loss on eval_iters fixed batches of a split (same batches every call).
    double evaluate(Split split);
    // Learning rate at a step, given the fraction of the run's time already used.
    double learningRateAt(int64_t step, double timeFraction) const;

    CharGPT model() const { return model_; }
    FusedAdamW& optimizer() { return *optimizer_; }
    const GPTConfig& config() const { return config_; }
    int64_t step() const { return step_; }
    int64_t tokensSeen() const { return tokensSeen_; }
    void setProgress(int64_t step, int64_t tokensSeen);
    LossHistory& history() { return history_; }
    const LossHistory& history() const { return history_; }

private:
    CharGPT model_;
    std::shared_ptr<const Dataset> data_;
    GPTConfig config_;
    std::unique_ptr<FusedAdamW> optimizer_;
    std::mt19937_64 rng_;
    int64_t step_ = 0;
    int64_t tokensSeen_ = 0;
    LossHistory history_;
    std::atomic<bool> stop_{false};
    std::atomic<bool> paused_{false};
    std::mutex pauseMutex_;
    std::condition_variable pauseCv_;
};

}  // namespace chargpt
