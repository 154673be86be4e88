// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <torch/torch.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "model/nn/CharGPT.h"
#include "model/runtime/Runtime.h"
#include "model/train/Dataset.h"
#include "model/train/EndReason.h"
#include "model/train/FusedAdamW.h"
#include "model/train/Learning.h"
#include "model/train/LossHistory.h"
#include "model/train/RunConfig.h"
#include "model/train/RunFigures.h"

namespace chargpt {

class TrainingHealth;
struct HealthReport;

// A value copy of the trainer's state after a step or an evaluation: the run's
// figures (RunFigures: step, tokens, time, speed, best, memorising) and this
// step's own.
struct StepFigures : RunFigures {
    int64_t totalSteps = 0;  // 0 when only a time limit bounds the run
    double loss = 0.0;       // this step's batch loss
    // This evaluation's losses; NaN after a step (lastTrainLoss and lastValLoss keep the latest).
    double evalTrainLoss = std::numeric_limits<double>::quiet_NaN();
    double valLoss = std::numeric_limits<double>::quiet_NaN();
    double learningRate = 0.0;
    double etaSeconds = std::numeric_limits<double>::quiet_NaN();
    double passes = 0.0;  // times each training character was seen (epochs)
};

// The weights of the evaluation with the lowest validation loss, kept so that
// they can be put back (Restore best, `chargpt train --keep-best`). The owner
// of a model keeps them across runs and hands them to the next Trainer.
struct BestWeights {
    std::optional<int64_t> step;  // none: none kept
    double valLoss = std::numeric_limits<double>::quiet_NaN();
    std::vector<torch::Tensor> tensors;  // deep copies, in parameters() order
    bool empty() const { return tensors.empty(); }
};

// Copies `best` into the model's parameters (bit for bit). False when nothing
// is kept or the shapes are not the model's. Call it on the thread that trains,
// between steps.
bool restoreWeights(CharGPT& model, const BestWeights& best);

struct TrainResult {
    EndReason reason = EndReason::Finished;  // never Error or Other
    std::string message;  // for NonFiniteLoss: what happened, in words
    StepFigures last;
};

// Pause, stop and the work to run between steps of a Trainer, shared with
// whoever steers it from other threads. Every method is thread-safe. A control
// outlives runs: it can be made before the Trainer (so a pause asked for before
// training starts holds from its first step) and given to one Trainer after
// another.
class TrainerControl {
public:
    // Take effect between two steps. A paused run waits without taking a step
    // until resume() or stop(), running work posted meanwhile.
    void pause();
    void resume();
    // Ends the run in progress, or the next one as soon as it begins when no
    // run is in progress yet (a Stop pressed while a run is being set up).
    void stop();
    // Forgets a stop that no run has taken: the owner calls it when it accepts a
    // new run, so a late stop of the previous run does not end the next.
    void clearStop();
    bool paused() const { return paused_; }
    bool stopRequested() const { return stop_; }

    // Queues `work` for the training thread. A run takes it after the current
    // step (and its evaluation), at once while paused (without taking a step),
    // and in any case before run() returns. When no run is in progress the
    // work waits for the next run or for runPosted(). `work` must not throw.
    void post(std::function<void()> work);
    // Runs the queued work, in order, on the calling thread. run() calls it
    // itself; the owner of the model calls it, on the thread that trains, to do
    // work posted while no run was in progress.
    void runPosted();
    // Whether a run() is in progress.
    bool running() const;

private:
    friend class Trainer;
    // Marks a run as started / ended; ending runs what is still queued and
    // forgets the stop that ended it.
    void begin();
    void end();
    // Waits while paused (not stopped), running work as it comes; returns the
    // seconds spent waiting.
    double waitWhilePaused();

    std::atomic<bool> stop_{false};
    std::atomic<bool> paused_{false};
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<std::function<void()>> queue_;  // guarded by mutex_
    bool running_ = false;                     // guarded by mutex_
};

// The fixed batches Trainer::evaluate draws from a split, the same at every
// evaluation of a run with this config: the first `count` of them (all
// eval_iters when count < 0). What the knock-out table is measured on
// (model/analysis/Ablation.h).
std::vector<Batch> evaluationBatches(const Dataset& data, const RunConfig& config, Split split, int64_t count = -1);

// Whether `step` gets an early evaluation. Before the first evaluation
// interval the loss falls fastest (from the uniform guess through the unigram
// entropy), which evaluations every eval_interval drew as one straight line:
// the powers of two from eval_interval / 16 below it are evaluated too (for
// the fast preset's 200: 16, 32, 64 and 128; their weights are kept as well,
// model/record/RunRecorder.h). Each is a whole evaluation, so the best
// weights and the memorising check compare like with like; the four cost
// about 2% of a fast run, 1% of a book run.
constexpr int64_t kEarlyEvaluationsFrom = 16;  // eval_interval / 16
inline bool isEarlyEvaluationStep(int64_t step, int64_t evalInterval) {
    return step > 0 && step < evalInterval && (step & (step - 1)) == 0 && step * kEarlyEvaluationsFrom >= evalInterval;
}

// AdamW with warm-up then cosine decay, gradient clipping and evaluation on
// fixed validation batches (and early ones, isEarlyEvaluationStep). run() blocks the calling thread; pause, resume,
// stop and post may be called from any thread and take effect between steps
// (see TrainerControl).
class Trainer {
public:
    // `control`: shared with the caller, or a new one when null.
    Trainer(CharGPT model, std::shared_ptr<const Dataset> data, RunConfig config,
            std::shared_ptr<TrainerControl> control = nullptr);

    // When set, the learning rate of each step (by the step's number) instead
    // of warm-up and cosine decay: the learning-rate finder's sweep.
    std::function<double(int64_t step)> learningRateSchedule;
    // Called after every step / every evaluation, on the training thread.
    std::function<void(const StepFigures&)> onStep;
    std::function<void(const StepFigures&)> onEval;
    // When set, the run's health is measured on the steps it says are due
    // (model/train/TrainingHealth.h), and onHealth gets, after such a step or
    // one that found a warning, the figures (when measured) and the warnings.
    std::shared_ptr<TrainingHealth> health;
    std::function<void(const HealthReport&)> onHealth;

    // Trains until max_steps (counted from step 0 of the model's life),
    // time_limit_s of this run, stop() or a non-finite loss. When the loss is not
    // finite the weights of the last good step are put back. A stop() asked for
    // before run() is forgotten when it starts; a pause() holds. A model with no
    // evaluation at its current step (a fresh one: step 0) is evaluated before
    // its first step, so the training and validation curves start together.
    // After every evaluation that lowers the best validation loss of this
    // Trainer, a copy of the weights is kept (restoreBest()).
    TrainResult run();

    void pause() { control_->pause(); }
    void resume() { control_->resume(); }
    void stop() { control_->stop(); }
    bool paused() const { return control_->paused(); }
    // See TrainerControl::post.
    void post(std::function<void()> work) { control_->post(std::move(work)); }
    const std::shared_ptr<TrainerControl>& control() const { return control_; }

    // Mean loss on eval_iters fixed batches of a split (same batches every call).
    double evaluate(Split split);
    // Learning rate at a step, given the fraction of the run's time already used.
    double learningRateAt(int64_t step, double timeFraction) const;

    CharGPT model() const { return model_; }
    FusedAdamW& optimizer() { return *optimizer_; }
    const RunConfig& config() const { return config_; }
    const Dataset& data() const { return *data_; }
    int64_t step() const { return step_; }
    int64_t tokensSeen() const { return tokensSeen_; }
    // Also sets weightsStep() to `step`.
    void setProgress(int64_t step, int64_t tokensSeen);

    // The evaluation with the lowest validation loss of this Trainer's runs and
    // its loss; none and NaN before the first evaluation.
    std::optional<int64_t> bestStep() const { return best_.step; }
    double bestValLoss() const { return best_.valLoss; }
    // The kept weights themselves, to keep after the Trainer is gone, and to
    // hand to the Trainer of the model's next run (setBest), whose
    // evaluations then have to beat them.
    const BestWeights& best() const { return best_; }
    void setBest(BestWeights best) { best_ = std::move(best); }
    // Puts the weights kept at bestStep() back into the model (bit for bit).
    // Call it between steps on the thread that trains (post() it during a run).
    // The step counter, history and optimizer moments stay. Returns false when
    // no weights were kept.
    bool restoreBest();
    // The step the model's weights are from: step() unless restoreBest() put
    // earlier ones back (or a checkpoint said so, setWeightsStep()).
    int64_t weightsStep() const { return weightsStep_; }
    void setWeightsStep(int64_t step) { weightsStep_ = step; }
    // detectOverfitting() of the history, as of the last evaluation.
    const Overfitting& overfitting() const { return overfitting_; }
    // passesOverText() of `steps` steps over this data set's training part.
    double passes(int64_t steps) const;
    LossHistory& history() { return history_; }
    const LossHistory& history() const { return history_; }

private:
    using Clock = std::chrono::steady_clock;
    // What run() keeps while it runs; set afresh when it starts.
    struct RunState {
        Clock::time_point start = Clock::now();
        double pausedSeconds = 0.0;  // waited while paused
        double stepSeconds = 0.0;    // spent in steps (the tokens/s)
        int64_t stepsThisRun = 0;
        StepFigures snap;  // what onStep and onEval are given
        std::optional<int64_t> lastEvalStep;
    };
    // Why one step ended the run, when it did.
    struct StepStop {
        EndReason reason;
        std::string message;
    };

    // One optimisation step: the limits checked, a batch sampled, the forward
    // pass, the loss, the backward pass, clipping, the update, the history
    // and onStep (an evaluation too when one is due). Nothing when the run
    // goes on; otherwise why it ends (the weights of the last good step are put
    // back when the loss is not finite).
    std::optional<StepStop> takeStep();
    // Both splits evaluated at the current step, into the history, the best
    // weights, the overfitting check and onEval.
    void evaluateNow();
    // Keeps a copy of weights that lower the best validation loss.
    void keepIfBest();
    // Puts back the weights from before the last update (they gave a finite
    // loss) and takes that update out of the step counter and the history,
    // together with an evaluation made after it.
    void undoLastUpdate();
    // The figures' step, tokens, timing, passes and best evaluation, as of now.
    void fillTiming();
    // Seconds of this run, pauses excluded.
    double elapsed() const;
    int64_t tokensPerStep() const { return config_.batch_size * config_.sequence_len; }

    CharGPT model_;
    std::shared_ptr<const Dataset> data_;
    RunConfig config_;
    std::shared_ptr<TrainerControl> control_;
    std::unique_ptr<FusedAdamW> optimizer_;
    std::mt19937_64 rng_;
    int64_t step_ = 0;
    int64_t tokensSeen_ = 0;
    int64_t weightsStep_ = 0;
    LossHistory history_;
    BestWeights best_;
    Overfitting overfitting_;
    RunState run_;
};

}  // namespace chargpt
