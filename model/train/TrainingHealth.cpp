// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/train/TrainingHealth.h"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace chargpt {

namespace {

using HealthClock = std::chrono::steady_clock;

double secondsFrom(HealthClock::time_point start) {
    return std::chrono::duration<double>(HealthClock::now() - start).count();
}

double medianOfFinite(std::vector<double> values) {
    values.erase(std::remove_if(values.begin(), values.end(), [](double v) { return !std::isfinite(v); }),
                 values.end());
    if (values.empty()) return HealthFigures::kUnknown;
    const std::size_t mid = values.size() / 2;
    std::nth_element(values.begin(), values.begin() + mid, values.end());
    const double upper = values[mid];
    if (values.size() % 2 == 1) return upper;
    return 0.5 * (upper + *std::max_element(values.begin(), values.begin() + mid));
}

// Each tensor's norm in one pass, the squares summed in float64, one read
// back to the CPU for them all.
double healthSumOfSquares(const std::vector<torch::Tensor>& tensors) {
    std::vector<torch::Tensor> norms;
    for (const torch::Tensor& t : tensors)
        if (t.defined() && t.numel() > 0) norms.push_back(t.detach().norm().to(torch::kFloat64));
    if (norms.empty()) return 0.0;
    return torch::stack(norms).square().sum().item<double>();
}

}  // namespace

std::vector<double> layerGradientNorms(const CharGPT& model) {
    torch::NoGradGuard noGrad;
    std::vector<double> norms;
    for (const auto& block : *model->blocks) {
        std::vector<torch::Tensor> grads;
        for (const torch::Tensor& p : block->parameters()) grads.push_back(p.grad());
        norms.push_back(std::sqrt(healthSumOfSquares(grads)));
    }
    return norms;
}

std::vector<std::vector<torch::Tensor>> layerWeights(const CharGPT& model) {
    torch::NoGradGuard noGrad;
    std::vector<std::vector<torch::Tensor>> weights;
    for (const auto& block : *model->blocks) {
        std::vector<torch::Tensor> copies;
        for (const torch::Tensor& p : block->parameters()) copies.push_back(p.detach().clone());
        weights.push_back(std::move(copies));
    }
    return weights;
}

std::vector<double> updateRatios(const std::vector<std::vector<torch::Tensor>>& before, const CharGPT& model) {
    torch::NoGradGuard noGrad;
    std::vector<double> ratios;
    std::size_t layer = 0;
    for (const auto& block : *model->blocks) {
        if (layer >= before.size()) break;
        const auto now = block->parameters();
        const auto& was = before[layer++];
        std::vector<torch::Tensor> changes;
        for (std::size_t i = 0; i < now.size() && i < was.size(); ++i) changes.push_back(now[i].detach() - was[i]);
        const double weightNorm = std::sqrt(healthSumOfSquares(was));
        ratios.push_back(weightNorm > 0.0 ? std::sqrt(healthSumOfSquares(changes)) / weightNorm : HealthFigures::kUnknown);
    }
    return ratios;
}

void measureActivity(CharGPT& model, const torch::Tensor& inputs, HealthFigures& figures) {
    torch::NoGradGuard noGrad;
    std::vector<torch::Tensor> weights, hidden;
    ForwardOptions options;
    options.dropout = false;
    options.weights = &weights;
    options.feedForwardHidden = &hidden;
    model->forward(inputs.to(model->token_emb->weight.device()), options);
    figures.deadShare.clear();
    figures.headEntropy.clear();
    figures.previousShare.clear();
    for (std::size_t layer = 0; layer < weights.size(); ++layer) {
        const torch::Tensor& h = layer < hidden.size() ? hidden[layer] : torch::Tensor();
        if (h.defined() && h.numel() > 0) {
            const torch::Tensor peak = h.to(torch::kFloat32).flatten(0, -2).amax(0);  // (4C)
            figures.deadShare.push_back((peak <= 0).to(torch::kFloat64).mean().item<double>());
        } else {
            figures.deadShare.push_back(HealthFigures::kUnknown);
        }
        const torch::Tensor w = weights[layer].to(torch::kFloat32);  // (B, nh, T, T)
        const int64_t heads = w.size(1), T = w.size(2);
        std::vector<double> entropy(std::size_t(heads), HealthFigures::kUnknown);
        std::vector<double> previous(std::size_t(heads), HealthFigures::kUnknown);
        if (T > 1) {
            const torch::Tensor rows = w.slice(2, 1);                                     // positions 1 .. T-1
            const torch::Tensor e = -torch::xlogy(rows, rows).sum(-1).mean(std::vector<int64_t>{0, 2});       // (nh)
            const torch::Tensor p = w.diagonal(-1, 2, 3).mean(std::vector<int64_t>{0, 2});                    // (nh)
            const torch::Tensor both = torch::stack({e, p}).to(torch::kCPU, torch::kFloat64).contiguous();  // one read
            const double* values = both.data_ptr<double>();
            for (int64_t head = 0; head < heads; ++head) {
                entropy[std::size_t(head)] = values[head];
                previous[std::size_t(head)] = values[heads + head];
            }
        }
        figures.headEntropy.push_back(std::move(entropy));
        figures.previousShare.push_back(std::move(previous));
    }
}

TrainingHealth::TrainingHealth(Options options) : options_(options) {}

void TrainingHealth::beforeUpdate(CharGPT& model, const torch::Tensor& inputs) {
    const auto start = HealthClock::now();
    measuring_ = true;
    pending_ = HealthFigures{};
    pending_.layerGradNorm = layerGradientNorms(model);
    before_ = layerWeights(model);
    const int64_t rows = std::min<int64_t>(inputs.size(0), std::max<int64_t>(options_.sequences, 1));
    measureActivity(model, inputs.slice(0, 0, rows), pending_);
    busySeconds_ += secondsFrom(start);
}

std::optional<HealthFigures> TrainingHealth::afterUpdate(const CharGPT& model, int64_t step, double loss,
                                                         double gradNorm) {
    const auto start = HealthClock::now();
    checkSpike(step, loss, gradNorm);
    if (!measuring_) {
        busySeconds_ += secondsFrom(start);
        return std::nullopt;
    }
    measuring_ = false;
    ++measuredSteps_;
    HealthFigures figures = std::move(pending_);
    figures.step = step;
    figures.loss = loss;
    figures.gradNorm = gradNorm;
    figures.updateRatio = updateRatios(before_, model);
    before_.clear();
    checkFigures(figures);
    busySeconds_ += secondsFrom(start);
    return figures;
}

void TrainingHealth::checkSpike(int64_t step, double loss, double gradNorm) {
    if (!std::isfinite(gradNorm) || !std::isfinite(loss)) return;
    const std::size_t window = std::size_t(std::max<int64_t>(options_.window, 2));
    if (recentGradNorm_.size() >= std::min<std::size_t>(20, window)) {
        const double normMedian = medianOfFinite({recentGradNorm_.begin(), recentGradNorm_.end()});
        const double lossMedian = medianOfFinite({recentLoss_.begin(), recentLoss_.end()});
        const bool spike = normMedian > 0.0 && gradNorm >= options_.spikeFactor * normMedian && loss > lossMedian;
        if (spike && (!lastSpike_ || step - *lastSpike_ >= options_.window)) {
            HealthWarning w;
            w.kind = HealthWarning::Kind::LossSpike;
            w.step = step;
            w.factor = gradNorm / normMedian;
            warnings_.push_back(w);
            lastSpike_ = step;
        }
    }
    recentGradNorm_.push_back(gradNorm);
    recentLoss_.push_back(loss);
    while (recentGradNorm_.size() > window) recentGradNorm_.pop_front();
    while (recentLoss_.size() > window) recentLoss_.pop_front();
}

void TrainingHealth::checkFigures(const HealthFigures& figures) {
    const std::vector<double>& ratios = figures.updateRatio;
    const double all = medianOfFinite(ratios);
    if (!largeSaid_ && std::isfinite(all) && all >= options_.largeFactor * kHealthyUpdateRatio) {
        HealthWarning w;
        w.kind = HealthWarning::Kind::LargeUpdates;
        w.step = figures.step;
        w.factor = all / kHealthyUpdateRatio;
        warnings_.push_back(w);
        largeSaid_ = true;
    }
    layerSaid_.resize(ratios.size(), false);
    for (std::size_t layer = 0; ratios.size() >= 2 && layer < ratios.size(); ++layer) {
        std::vector<double> others = ratios;
        others.erase(others.begin() + std::ptrdiff_t(layer));
        const double rest = medianOfFinite(others);
        if (layerSaid_[layer] || !(rest > 0.0) || !(ratios[layer] >= options_.layerFactor * rest)) continue;
        HealthWarning w;
        w.kind = HealthWarning::Kind::LayerUpdates;
        w.step = figures.step;
        w.layer = int64_t(layer);
        w.factor = ratios[layer] / rest;
        warnings_.push_back(w);
        layerSaid_[layer] = true;
    }
    int64_t heads = 0, previous = 0, collapsed = 0;
    for (std::size_t layer = 0; layer < figures.headEntropy.size(); ++layer)
        for (std::size_t head = 0; head < figures.headEntropy[layer].size(); ++head) {
            ++heads;
            const double share = figures.previousShare[layer][head];
            if (std::isfinite(share) && share >= kPreviousCharacterShare) ++previous;
            else if (figures.headEntropy[layer][head] < kCollapsedEntropy) ++collapsed;
        }
    auto countWarning = [&](HealthWarning::Kind kind, int64_t count, int64_t& said) {
        if (count <= said) return;
        HealthWarning w;
        w.kind = kind;
        w.step = figures.step;
        w.count = count;
        w.total = heads;
        warnings_.push_back(w);
        said = count;
    };
    countWarning(HealthWarning::Kind::PreviousCharacter, previous, previousSaid_);
    countWarning(HealthWarning::Kind::EntropyCollapse, collapsed, collapsedSaid_);
}

std::vector<HealthWarning> TrainingHealth::takeWarnings() {
    std::vector<HealthWarning> taken;
    taken.swap(warnings_);
    return taken;
}

}  // namespace chargpt
