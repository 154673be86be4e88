// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "model/lesson/LessonTables.h"

namespace chargpt {

// A lesson: steps that each say one idea, bring the view that shows it to the
// front, point at the control to touch, and may ask the learner to predict
// something before the answer is computed from the learner's own model. The
// built-in lessons and a teacher's own are the same JSON:
//
//   {"format": "chargpt-lesson", "version": 1,
//    "title": {"en": "...", "zh_CN": "..."},
//    "steps": [{"title": {...}, "text": {...}, "view": "softmax/mask",
//               "control": "softmaxMaskCheck",
//               "question": {"text": {...}, "answer": "softmax-times-1000",
//                            "choices": [{"key": "one-hot", "text": {...}}, ...]}}]}
//
// A text is a string (English) or an object of "en" (required) and "zh_CN".
// A lesson names no file: it can lead only to what the studio has.

struct LessonText {
    std::string en;
    std::string zh_CN;  // empty: the English is shown
    // The text in `language` ("zh_CN", "zh", "en", ...), English when it has none.
    const std::string& in(const std::string& language) const;
};

struct LessonChoice {
    std::string key;  // one of the answer's keys (lessonAnswer(answer).keys)
    LessonText text;
};

struct LessonQuestion {
    LessonText text;
    LessonAnswerId answer =
        LessonAnswerId::SoftmaxTimes1000;  // a computation the studio knows (lessonAnswers)
    std::vector<LessonChoice> choices;
};

struct LessonStep {
    LessonText title;
    LessonText text;
    std::optional<LessonView> view;        // none: stay on the view shown
    std::optional<LessonControl> control;  // none: no control ringed; else one of the view's or the window's
    std::optional<LessonQuestion> question;
};

struct Lesson {
    LessonText title;
    std::vector<LessonStep> steps;
};

// The budgets of a lesson file, checked before what they bound is made.
struct LessonLimits {
    static constexpr std::size_t kMaxFileBytes = 256 * 1024;
    static constexpr std::size_t kMaxDepth = 7;  // lesson > steps > step > question > choices > choice > text
    static constexpr std::size_t kMaxValues = 20000;
    static constexpr std::size_t kMaxSteps = 100;
    static constexpr std::size_t kMaxChoices = 6;
    static constexpr std::size_t kMaxTextBytes = 4000;
    static constexpr std::size_t kMaxNameBytes = 60;  // a view, a control, an answer, a key
};

// Reads a lesson from its JSON bytes; throws chargpt::Error with one message
// saying what is wrong and where ("step 3: "view" must be a name such as
// "attention""). `name` names the source in messages. Nesting, counts and
// sizes are bounded (LessonLimits) and checked as the text is read, without
// recursion on its nesting. A view, a control or an answer the tables of
// model/lesson/LessonTables.h lack, or a control that is not on its step's
// view, is refused with the line that names it.
Lesson readLesson(const std::string& bytes, const std::string& name);
// Reads the file at `path` (at most LessonLimits::kMaxFileBytes, judged by its
// size before it is read, and never more read than that).
Lesson readLessonFile(const std::string& path);

}  // namespace chargpt
