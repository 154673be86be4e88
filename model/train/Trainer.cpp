// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/train/Trainer.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "model/runtime/Error.h"

#include "model/runtime/Autocast.h"
#include "model/train/TrainingHealth.h"

namespace chargpt {

namespace {
using Clock = std::chrono::steady_clock;
double secondsSince(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
}

}  // namespace

void TrainerControl::pause() { paused_ = true; }

void TrainerControl::resume() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        paused_ = false;
    }
    wake_.notify_all();
}

void TrainerControl::stop() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stop_ = true;
    }
    wake_.notify_all();
}

void TrainerControl::clearStop() {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = false;
}

void TrainerControl::post(std::function<void()> work) {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        queue_.push_back(std::move(work));
    }
    wake_.notify_all();
}

bool TrainerControl::running() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return running_;
}

void TrainerControl::runPosted() {
    while (true) {
        std::function<void()> work;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            if (queue_.empty()) return;
            work = std::move(queue_.front());
            queue_.pop_front();
        }
        work();
    }
}

void TrainerControl::begin() {
    std::lock_guard<std::mutex> lock(mutex_);
    running_ = true;
}

void TrainerControl::end() {
    runPosted();
    std::lock_guard<std::mutex> lock(mutex_);
    running_ = false;
    stop_ = false;
}

double TrainerControl::waitWhilePaused() {
    const auto start = Clock::now();
    std::unique_lock<std::mutex> lock(mutex_);
    while (paused_ && !stop_) {
        wake_.wait(lock, [&] { return !paused_ || stop_ || !queue_.empty(); });
        if (!queue_.empty()) {
            // Work asked for while paused (a save, a copy of the weights) runs
            // now, on this thread, and the run goes back to waiting.
            lock.unlock();
            runPosted();
            lock.lock();
        }
    }
    return secondsSince(start);
}

Trainer::Trainer(CharGPT model, std::shared_ptr<const Dataset> data, RunConfig config,
                 std::shared_ptr<TrainerControl> control)
    : model_(std::move(model)),
      data_(std::move(data)),
      config_(std::move(config)),
      control_(control ? std::move(control) : std::make_shared<TrainerControl>()),
      rng_(config_.seed) {
    if (const ConfigProblem problem = config_.validate()) throw Error(problem.message());
    if (!data_ || data_->sequenceLen() != config_.sequence_len)
        throw Error("the data set's context does not match the model's.");
    torch::manual_seed(config_.seed);  // dropout masks

    // Weight decay on matrices only (nanoGPT): not on biases or LayerNorm.
    std::vector<torch::Tensor> decay, noDecay;
    for (auto& p : model_->parameters()) (p.dim() >= 2 ? decay : noDecay).push_back(p);
    FusedAdamW::Options options;
    options.beta1 = config_.beta1;
    options.beta2 = config_.beta2;
    options.weightDecay = config_.weight_decay;
    optimizer_ = std::make_unique<FusedAdamW>(decay, noDecay, options);
}

void Trainer::setProgress(int64_t step, int64_t tokensSeen) {
    step_ = step;
    tokensSeen_ = tokensSeen;
    weightsStep_ = step;
}

double Trainer::passes(int64_t steps) const {
    return passesOverText(steps, config_.batch_size, config_.sequence_len, data_->size(Split::Train));
}

bool restoreWeights(CharGPT& model, const BestWeights& best) {
    if (best.empty()) return false;
    torch::NoGradGuard noGrad;
    const auto parameters = model->parameters();
    if (parameters.size() != best.tensors.size()) return false;
    for (std::size_t i = 0; i < parameters.size(); ++i)
        if (!parameters[i].sizes().equals(best.tensors[i].sizes())) return false;
    for (std::size_t i = 0; i < parameters.size(); ++i) parameters[i].copy_(best.tensors[i]);
    return true;
}

bool Trainer::restoreBest() {
    if (!best_.step || !restoreWeights(model_, best_)) return false;
    weightsStep_ = *best_.step;
    return true;
}

double Trainer::learningRateAt(int64_t step, double timeFraction) const {
    const double maxLr = config_.learning_rate, minLr = config_.min_learning_rate;
    if (step < config_.warmup_steps)
        return maxLr * double(step + 1) / double(config_.warmup_steps + 1);
    double progress = 0.0;
    if (config_.max_steps > config_.warmup_steps)
        progress = double(step - config_.warmup_steps) / double(config_.max_steps - config_.warmup_steps);
    if (config_.time_limit_s > 0.0) progress = std::max(progress, timeFraction);
    progress = std::clamp(progress, 0.0, 1.0);
    return minLr + 0.5 * (1.0 + std::cos(M_PI * progress)) * (maxLr - minLr);
}

namespace {
// The generator of a split's evaluation batches: the same at every evaluation,
// so the curve shows the model change.
std::mt19937_64 evaluationRng(const RunConfig& config, Split split) {
    return std::mt19937_64(config.seed + (split == Split::Validation ? 1 : 2));
}
}  // namespace

std::vector<Batch> evaluationBatches(const Dataset& data, const RunConfig& config, Split split, int64_t count) {
    std::mt19937_64 rng = evaluationRng(config, split);
    const int64_t n = count < 0 ? config.eval_iters : std::min(count, config.eval_iters);
    std::vector<Batch> batches;
    batches.reserve(static_cast<std::size_t>(std::max<int64_t>(n, 0)));
    for (int64_t i = 0; i < n; ++i) batches.push_back(data.sample(split, config.batch_size, rng));
    return batches;
}

double Trainer::evaluate(Split split) {
    torch::NoGradGuard noGrad;
    const bool wasTraining = model_->is_training();
    model_->eval();
    std::mt19937_64 rng = evaluationRng(config_, split);  // the batches of evaluationBatches()
    double sum = 0.0;
    for (int64_t i = 0; i < config_.eval_iters; ++i) {
        Batch batch = data_->sample(split, config_.batch_size, rng);
        torch::Tensor logits;
        {
            AutocastScope autocast(config_.bf16 && model_->token_emb->weight.device().is_cpu());
            logits = model_->forward(batch.inputs.to(model_->token_emb->weight.device())).to(torch::kFloat32);
        }
        sum += torch::cross_entropy_loss(logits.view({-1, logits.size(-1)}),
                                         batch.targets.view({-1}).to(logits.device()))
                   .item<double>();
    }
    if (wasTraining) model_->train();
    return sum / double(config_.eval_iters);
}

double Trainer::elapsed() const { return secondsSince(run_.start) - run_.pausedSeconds; }

void Trainer::fillTiming() {
    StepFigures& snap = run_.snap;
    snap.step = step_;
    snap.tokensSeen = tokensSeen_;
    snap.elapsedSeconds = elapsed();
    snap.tokensPerSecond =
        run_.stepSeconds > 0 ? double(run_.stepsThisRun * tokensPerStep()) / run_.stepSeconds : 0.0;
    double eta = std::numeric_limits<double>::infinity();
    if (config_.max_steps > 0 && run_.stepsThisRun > 0)
        eta = double(config_.max_steps - step_) * snap.elapsedSeconds / double(run_.stepsThisRun);
    if (config_.time_limit_s > 0) eta = std::min(eta, config_.time_limit_s - snap.elapsedSeconds);
    snap.etaSeconds = std::isfinite(eta) ? std::max(eta, 0.0) : std::numeric_limits<double>::quiet_NaN();
    snap.passes = passes(step_);
    snap.overfittingSince = overfitting_.sinceStep;
    snap.bestStep = best_.step;
    snap.bestValLoss = best_.valLoss;
}

void Trainer::keepIfBest() {
    const double valLoss = run_.snap.valLoss;
    if (!std::isfinite(valLoss)) return;
    if (std::isfinite(best_.valLoss) && !(valLoss < best_.valLoss)) return;
    torch::NoGradGuard noGrad;
    const auto parameters = model_->parameters();
    // New tensors, never copied into: a BestWeights handed out by best()
    // keeps the weights it was given.
    best_.tensors.clear();
    for (const auto& p : parameters) best_.tensors.push_back(p.detach().clone());
    best_.valLoss = valLoss;
    best_.step = step_;
}

void Trainer::evaluateNow() {
    StepFigures& snap = run_.snap;
    snap.evalTrainLoss = evaluate(Split::Train);
    snap.valLoss = evaluate(Split::Validation);
    snap.lastTrainLoss = snap.evalTrainLoss;
    snap.lastValLoss = snap.valLoss;
    history_.evalSteps.push_back(step_);
    history_.evalTrainLoss.push_back(static_cast<float>(snap.evalTrainLoss));
    history_.evalValLoss.push_back(static_cast<float>(snap.valLoss));
    run_.lastEvalStep = step_;
    keepIfBest();
    overfitting_ = detectOverfitting(history_);
    fillTiming();
    if (onEval) onEval(snap);
}

void Trainer::undoLastUpdate() {
    optimizer_->restoreWeights();
    optimizer_->resetState();  // the moments saw the step that diverged
    if (best_.step == step_) best_ = BestWeights();  // weights that diverged at their next step are no best
    if (!history_.evalSteps.empty() && history_.evalSteps.back() == step_) {
        history_.evalSteps.pop_back();
        history_.evalTrainLoss.pop_back();
        history_.evalValLoss.pop_back();
    }
    if (!history_.steps.empty() && history_.steps.back() == step_) {
        history_.steps.pop_back();
        history_.trainLoss.pop_back();
        history_.learningRate.pop_back();
    }
    --step_;
    --run_.stepsThisRun;
    tokensSeen_ -= tokensPerStep();
    weightsStep_ = step_;
    run_.lastEvalStep.reset();
    overfitting_ = detectOverfitting(history_);
}

std::optional<Trainer::StepStop> Trainer::takeStep() {
    if (config_.max_steps > 0 && step_ >= config_.max_steps) return StepStop{EndReason::Finished, {}};
    const double timeUsed = elapsed();
    if (config_.time_limit_s > 0 && timeUsed >= config_.time_limit_s)
        return StepStop{EndReason::TimeLimit, {}};

    const auto stepStart = Clock::now();
    const double lr = learningRateSchedule
                          ? learningRateSchedule(step_)
                          : learningRateAt(step_, config_.time_limit_s > 0 ? timeUsed / config_.time_limit_s : 0.0);
    const auto device = model_->token_emb->weight.device();

    Batch batch = data_->sample(Split::Train, config_.batch_size, rng_);
    torch::Tensor logits;
    {
        AutocastScope autocast(config_.bf16 && device.is_cpu());
        logits = model_->forward(batch.inputs.to(device));  // (B, T, V)
    }
    auto loss = torch::cross_entropy_loss(logits.to(torch::kFloat32).view({-1, logits.size(-1)}),
                                          batch.targets.view({-1}).to(device));
    const double lossValue = loss.item<double>();
    if (!std::isfinite(lossValue)) {
        StepStop stop{EndReason::NonFiniteLoss,
                      "the loss became " + std::string(std::isnan(lossValue) ? "NaN" : "infinite") +
                          " at step " + std::to_string(step_ + 1) +
                          "; training stopped and the weights of the last good step were kept. "
                          "A lower learning rate usually helps."};
        if (run_.stepsThisRun > 0) undoLastUpdate();
        return stop;
    }
    optimizer_->saveWeights();  // they gave a finite loss
    optimizer_->zeroGrad();
    loss.backward();
    const bool measureHealth = health && health->due(step_ + 1);
    if (measureHealth) health->beforeUpdate(model_, batch.inputs);
    double gradNorm = std::numeric_limits<double>::quiet_NaN();
    if (config_.grad_clip > 0) {
        gradNorm = optimizer_->clipGradNorm(config_.grad_clip);
        if (!std::isfinite(gradNorm))
            return StepStop{
                EndReason::NonFiniteLoss,
                "the gradient became non-finite at step " + std::to_string(step_ + 1) +
                    "; training stopped before applying it. A lower learning rate usually helps."};
    } else if (health) {
        gradNorm = optimizer_->clipGradNorm(std::numeric_limits<double>::infinity());  // the norm, unclipped
    }
    optimizer_->step(lr);
    HealthReport healthReport;
    if (health) {
        healthReport.figures = health->afterUpdate(model_, step_ + 1, lossValue, gradNorm);
        healthReport.warnings = health->takeWarnings();
    }

    ++step_;
    ++run_.stepsThisRun;
    tokensSeen_ += tokensPerStep();
    weightsStep_ = step_;
    run_.stepSeconds += secondsSince(stepStart);
    history_.steps.push_back(step_);
    history_.trainLoss.push_back(static_cast<float>(lossValue));
    history_.learningRate.push_back(static_cast<float>(lr));

    StepFigures& snap = run_.snap;
    snap.loss = lossValue;
    snap.learningRate = lr;
    snap.evalTrainLoss = snap.valLoss = std::numeric_limits<double>::quiet_NaN();
    fillTiming();
    if (onStep) onStep(snap);
    if (onHealth && (healthReport.figures || !healthReport.warnings.empty())) onHealth(healthReport);
    if (step_ % config_.eval_interval == 0 || isEarlyEvaluationStep(step_, config_.eval_interval)) evaluateNow();
    return std::nullopt;
}

TrainResult Trainer::run() {
    TrainerControl& control = *control_;
    control.begin();
    // Whatever ends the run (an exception too), work posted meanwhile runs.
    struct EndRun {
        TrainerControl& control;
        ~EndRun() { control.end(); }
    } endRun{control};
    TrainResult result;
    model_->train();
    run_ = RunState{};
    run_.snap.totalSteps = config_.max_steps;
    // A model with no evaluation at its current step is evaluated first.
    bool evaluateFirst = std::find(history_.evalSteps.begin(), history_.evalSteps.end(), step_) ==
                         history_.evalSteps.end();
    if (!evaluateFirst) run_.lastEvalStep = step_;

    while (true) {
        control.runPosted();
        if (control.paused() && !control.stopRequested()) run_.pausedSeconds += control.waitWhilePaused();
        if (control.stopRequested()) {
            result.reason = EndReason::Stopped;
            break;
        }
        if (evaluateFirst) {
            evaluateFirst = false;
            run_.snap.loss = std::numeric_limits<double>::quiet_NaN();
            run_.snap.learningRate = learningRateSchedule ? learningRateSchedule(step_) : learningRateAt(step_, 0.0);
            evaluateNow();
            continue;  // posted work, a pause or a stop take effect before the first step
        }
        if (std::optional<StepStop> stop = takeStep()) {
            result.reason = stop->reason;
            result.message = std::move(stop->message);
            break;
        }
    }

    if (result.reason != EndReason::NonFiniteLoss && run_.lastEvalStep != step_ && step_ > 0) evaluateNow();
    fillTiming();
    result.last = run_.snap;
    return result;
}

}  // namespace chargpt
