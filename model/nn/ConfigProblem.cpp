// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/nn/ConfigProblem.h"

#include <cstdint>
#include <sstream>

namespace chargpt {

namespace {
std::string whole(double value) { return std::to_string(static_cast<long long>(value)); }
}  // namespace

const char* settingName(Setting setting) {
    switch (setting) {
        case Setting::None:
            return "";
        case Setting::VocabSize:
            return "vocab_size";
        case Setting::EmbSize:
            return "emb_size";
        case Setting::HeadSize:
            return "head_size";
        case Setting::Layers:
            return "n_layer";
        case Setting::SequenceLen:
            return "sequence_len";
        case Setting::Dropout:
            return "dropout";
        case Setting::BatchSize:
            return "batch_size";
        case Setting::LearningRate:
            return "learning_rate";
        case Setting::MinLearningRate:
            return "min_learning_rate";
        case Setting::WeightDecay:
            return "weight_decay";
        case Setting::Betas:
            return "betas";
        case Setting::GradClip:
            return "grad_clip";
        case Setting::WarmupSteps:
            return "warmup_steps";
        case Setting::MaxSteps:
            return "max_steps";
        case Setting::TimeLimit:
            return "time_limit_s";
        case Setting::EvalInterval:
            return "eval_interval";
        case Setting::EvalIters:
            return "eval_iters";
        case Setting::ValFraction:
            return "val_fraction";
        case Setting::Parts:
            return "parts";
        case Setting::Memory:
            return "memory";
    }
    return "";
}

std::string formatBytes(double bytes) {
    std::ostringstream s;
    s.setf(std::ios::fixed);
    if (bytes < double(1 << 30)) {
        s.precision(0);
        s << bytes / double(1 << 20) << " MiB";
    } else {
        s.precision(bytes < 10.0 * (1 << 30) ? 1 : 0);
        s << bytes / double(1 << 30) << " GiB";
    }
    return s.str();
}

std::vector<Setting> ConfigProblem::settings() const {
    switch (problem) {
        case Problem::None:
            return {};
        case Problem::NotDivisible:
            return {Setting::EmbSize, Setting::HeadSize};
        case Problem::NeverEnds:
            return {Setting::MaxSteps, Setting::TimeLimit};
        case Problem::TooMuchMemory:
            return {Setting::BatchSize, Setting::SequenceLen, Setting::EmbSize, Setting::Layers};
        default:
            return {setting};
    }
}

std::string ConfigProblem::message() const {
    const std::string name = settingName(setting);
    switch (problem) {
        case Problem::None:
            return {};
        case Problem::NotPositive:
            if (setting == Setting::LearningRate) return "learning rate must be a positive number.";
            return name + " must be positive (it is " + whole(value) + ").";
        case Problem::NotDivisible:
            return "emb_size (" + whole(value) + ") must be divisible by head_size (" + whole(limit) + ").";
        case Problem::TooSmall:
            if (setting == Setting::VocabSize)
                return "vocab_size must be at least 2 (end-of-text and one character).";
            return name + " must be at least " + whole(limit) + " (it is " + whole(value) + ").";
        case Problem::TooLarge:
            if (setting == Setting::VocabSize)
                return "the vocabulary has " + whole(value) + " entries; at most " + whole(limit) +
                       " are supported.";
            return name + " must be at most " + whole(limit) + " (it is " + whole(value) + ").";
        case Problem::OutOfRange:
            switch (setting) {
                case Setting::Dropout:
                    return "dropout must be in [0, 1) (it is " + std::to_string(value) + ").";
                case Setting::MinLearningRate:
                    return "the minimum learning rate must be between 0 and the learning rate.";
                case Setting::Betas:
                    return "AdamW betas must be in [0, 1).";
                case Setting::ValFraction:
                    return "the validation fraction must be between 0 and 1.";
                default:
                    return name + " is out of range.";
            }
        case Problem::Negative:
            switch (setting) {
                case Setting::WeightDecay:
                    return "weight decay must be zero or positive.";
                case Setting::GradClip:
                    return "gradient clipping must be zero (off) or positive.";
                case Setting::WarmupSteps:
                    return "warm-up steps must be zero or positive.";
                case Setting::MaxSteps:
                    return "the number of steps must be zero or positive.";
                case Setting::TimeLimit:
                    return "the time limit must be zero (none) or a positive number of seconds.";
                default:
                    return name + " must be zero or positive.";
            }
        case Problem::NeverEnds:
            return "set a number of steps or a time limit, or training would never end.";
        case Problem::TooMuchMemory:
            return "training with these settings needs about " + formatBytes(value) +
                   " of memory and this machine has " + formatBytes(limit) +
                   ": lower the batch size, context length, width or number of layers.";
        case Problem::PartsWithoutLayers:
            return "a model without layers (n_layer 0) has no attention or feed-forward to switch off: "
                   "scaled_attention, attention_projection, feed_forward and residual must stay on.";
    }
    return {};
}

}  // namespace chargpt
