// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The words of a training-health warning (HealthFigures.h), in one place: a
// sentence per kind, marked for the translators, with %1, %2, ... where its
// numbers go, and the numbers in the order the sentence takes them. The window
// translates the sentence and fills it (HealthView::warningText); the command
// line fills it as it is (healthWarningText). Standard C++ only.

#include <array>
#include <string>
#include <vector>

#include "model/runtime/TranslateNoop.h"
#include "model/train/HealthFigures.h"

namespace chargpt {

// Every kind of warning, for whoever words them all (the tests).
inline constexpr std::array<HealthWarning::Kind, 5> kHealthWarningKinds = {
    HealthWarning::Kind::LayerUpdates, HealthWarning::Kind::LargeUpdates, HealthWarning::Kind::LossSpike,
    HealthWarning::Kind::PreviousCharacter, HealthWarning::Kind::EntropyCollapse};

// A kind's name in the command line's JSON ("loss_spike").
inline const char* healthWarningKindName(HealthWarning::Kind kind) {
    switch (kind) {
        case HealthWarning::Kind::LayerUpdates:
            return "layer_updates";
        case HealthWarning::Kind::LargeUpdates:
            return "large_updates";
        case HealthWarning::Kind::LossSpike:
            return "loss_spike";
        case HealthWarning::Kind::PreviousCharacter:
            return "previous_character";
        case HealthWarning::Kind::EntropyCollapse:
            return "entropy_collapse";
    }
    return "";
}

// The translators' context of the sentences.
inline constexpr const char* kHealthWarningContext = "HealthView";

// The sentence of a kind of warning, in English, with %1... for its numbers.
inline const char* healthWarningSentence(HealthWarning::Kind kind) {
    switch (kind) {
        case HealthWarning::Kind::LayerUpdates:
            return CHARGPT_TRANSLATE_NOOP(
                "HealthView", "Layer %1's updates are %2x larger than the other layers' (step %3).");
        case HealthWarning::Kind::LargeUpdates:
            return CHARGPT_TRANSLATE_NOOP(
                "HealthView",
                "At step %1 the updates are %2x the healthy 1e-3 of the weights: the "
                "learning rate is likely too high.");
        case HealthWarning::Kind::LossSpike:
            return CHARGPT_TRANSLATE_NOOP("HealthView",
                                          "Loss spike at step %1: the gradient norm is %2x its median.");
        case HealthWarning::Kind::PreviousCharacter:
            return CHARGPT_TRANSLATE_NOOP("HealthView",
                                          "%1 of %2 heads attend only to the previous character (step %3).");
        case HealthWarning::Kind::EntropyCollapse:
            return CHARGPT_TRANSLATE_NOOP(
                "HealthView",
                "%1 of %2 heads' attention collapsed onto one character, entropy near 0 "
                "(step %3).");
    }
    return "";
}

// A factor as the warnings say it: whole from 10 up, else to one decimal.
inline std::string healthWarningFactor(double factor) {
    if (!(factor >= 0.0) || factor > 1e15) return "?";
    if (factor >= 10.0) return std::to_string(int64_t(factor + 0.5));
    const int64_t tenths = int64_t(factor * 10.0 + 0.5);
    return std::to_string(tenths / 10) + "." + std::to_string(tenths % 10);
}

// The warning's numbers, in the order of its sentence's %1, %2, ...
inline std::vector<std::string> healthWarningNumbers(const HealthWarning& w) {
    const std::string step = std::to_string(w.step), factor = healthWarningFactor(w.factor);
    switch (w.kind) {
        case HealthWarning::Kind::LayerUpdates:
            return {std::to_string(w.layer + 1), factor, step};
        case HealthWarning::Kind::LargeUpdates:
        case HealthWarning::Kind::LossSpike:
            return {step, factor};
        case HealthWarning::Kind::PreviousCharacter:
        case HealthWarning::Kind::EntropyCollapse:
            return {std::to_string(w.count), std::to_string(w.total), step};
    }
    return {};
}

// `sentence` with %1.. %9 replaced by `numbers` (a place without a number is left as it is).
inline std::string fillHealthWarning(const std::string& sentence, const std::vector<std::string>& numbers) {
    std::string out;
    for (std::size_t i = 0; i < sentence.size(); ++i) {
        const char next = i + 1 < sentence.size() ? sentence[i + 1] : '\0';
        const std::size_t index = std::size_t(next - '1');
        if (sentence[i] == '%' && next >= '1' && next <= '9' && index < numbers.size()) {
            out += numbers[index];
            ++i;
        } else {
            out += sentence[i];
        }
    }
    return out;
}

// A warning in plain English (the command line, the tests).
inline std::string healthWarningText(const HealthWarning& w) {
    return fillHealthWarning(healthWarningSentence(w.kind), healthWarningNumbers(w));
}

}  // namespace chargpt
