// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// What a lesson file may name, each defined once: the views a step brings to
// the front, the controls it rings (each on its view, or anywhere in the
// window), and the answers the studio computes for a question with the keys
// each may give. The reader checks a file against these tables; the window
// maps each view and control to its widget, and widgets/LessonAnswers
// computes each answer. Standard C++ only: the widgets include it.

namespace chargpt {

enum class LessonView {
    Training,
    Attention,
    Surprise,
    SoftmaxMask,
    SoftmaxVariance,
    SoftmaxLive,
    InsideLens,
    InsideRoles,
    InsideKnockout,
    InsideFeedForward,
    InsideResidual,
    InsideMap,
    Generate,
    Filmstrip,
    Runs,
    Ladder,
    WhyPatching,
};

struct LessonViewEntry {
    LessonView id;
    const char* name;  // as lesson files name it: "softmax/mask"
};

// Every view, in the order messages list them.
const std::vector<LessonViewEntry>& lessonViews();
const char* lessonViewName(LessonView view);
std::optional<LessonView> findLessonView(std::string_view name);

// A control a step may ring: an index into lessonControls().
struct LessonControl {
    std::size_t index = 0;
    friend bool operator==(LessonControl a, LessonControl b) { return a.index == b.index; }
    friend bool operator!=(LessonControl a, LessonControl b) { return a.index != b.index; }
};

struct LessonControlEntry {
    std::string name;  // as lesson files name it, and the widget's object name
    std::optional<LessonView>
        view;  // the view that holds it; none: the window's own (the side panel, the timeline)
};

// Every control, in the order messages list them: the controls of the views,
// then the side panel's (its buttons, the preset and a row for each setting
// the panel shows, by the setting's key), then the timeline's.
const std::vector<LessonControlEntry>& lessonControls();
const LessonControlEntry& lessonControlEntry(LessonControl control);
std::optional<LessonControl> findLessonControl(std::string_view name);
// Whether a step on `view` (none: the step stays on the view shown) may ring
// `control`: one of the window's own, or one of that view's.
bool lessonControlOnView(LessonControl control, std::optional<LessonView> view);

enum class LessonAnswerId {
    SoftmaxTimes1000,
    AttentionToFuture,
    PreviousCharacterHead,
    UnscaledSpread,
    FeedForwardKnockout,
    LossAgainstFloors,
    TopPart,
    PatchingLayer,
};

struct LessonAnswerEntry {
    LessonAnswerId id;
    const char* name;               // as lesson files name it: "softmax-times-1000"
    std::vector<std::string> keys;  // what a choice's "key" can be
};

// Every answer the studio computes from the learner's model.
const std::vector<LessonAnswerEntry>& lessonAnswers();
const LessonAnswerEntry& lessonAnswer(LessonAnswerId id);
const LessonAnswerEntry* findLessonAnswer(std::string_view name);

}  // namespace chargpt
