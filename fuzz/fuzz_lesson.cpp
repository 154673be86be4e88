// SPDX-License-Identifier: GPL-3.0-or-later
// Lesson files (chargpt::readLesson) from raw bytes. Checked for every input:
//  - it reads, or throws chargpt::Error with a message naming the file; nothing
//    else escapes, and no nesting crashes it;
//  - what reads keeps the budgets: 1 to kMaxSteps steps, 2 to kMaxChoices
//    choices of a known answer whose keys that answer gives, texts within
//    kMaxTextBytes with no control character but line breaks and tabs, keys
//    of letters, digits and - _ . / only, a control only on its step's view;
//  - reading it again gives the same lesson.
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <string>

#include "fuzz/FuzzCheck.h"
#include "model/lesson/Lesson.h"
#include "model/runtime/Error.h"

namespace {

using chargpt::LessonLimits;

void checkText(const chargpt::LessonText& t) {
    FUZZ_CHECK(!t.en.empty());
    for (const std::string* s : {&t.en, &t.zh_CN}) {
        FUZZ_CHECK(s->size() <= LessonLimits::kMaxTextBytes);
        for (unsigned char c : *s) FUZZ_CHECK(c >= 0x20 ? c != 0x7f : (c == '\n' || c == '\t'));
    }
}

void checkName(const std::string& name) {
    FUZZ_CHECK(!name.empty());
    FUZZ_CHECK(name.size() <= LessonLimits::kMaxNameBytes);
    for (unsigned char c : name) FUZZ_CHECK(std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '/');
}

bool sameText(const chargpt::LessonText& a, const chargpt::LessonText& b) { return a.en == b.en && a.zh_CN == b.zh_CN; }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    chargpt::Lesson lesson;
    try {
        lesson = chargpt::readLesson(bytes, "fuzz.json");
    } catch (const chargpt::Error& e) {
        FUZZ_CHECK(std::string(e.what()).rfind("fuzz.json is not a lesson the studio can use: ", 0) == 0);
        return 0;
    }
    checkText(lesson.title);
    FUZZ_CHECK(!lesson.steps.empty() && lesson.steps.size() <= LessonLimits::kMaxSteps);
    for (const auto& step : lesson.steps) {
        checkText(step.title);
        checkText(step.text);
        if (step.control) {
            FUZZ_CHECK(step.control->index < chargpt::lessonControls().size());
            FUZZ_CHECK(chargpt::lessonControlOnView(*step.control, step.view));
        }
        if (!step.question) continue;
        checkText(step.question->text);
        const auto& keys = chargpt::lessonAnswer(step.question->answer).keys;
        FUZZ_CHECK(step.question->choices.size() >= 2 && step.question->choices.size() <= LessonLimits::kMaxChoices);
        for (const auto& choice : step.question->choices) {
            checkName(choice.key);
            FUZZ_CHECK(std::find(keys.begin(), keys.end(), choice.key) != keys.end());
            checkText(choice.text);
        }
    }
    const chargpt::Lesson again = chargpt::readLesson(bytes, "fuzz.json");
    FUZZ_CHECK(again.steps.size() == lesson.steps.size() && sameText(again.title, lesson.title));
    for (std::size_t i = 0; i < lesson.steps.size(); ++i) {
        FUZZ_CHECK(sameText(again.steps[i].text, lesson.steps[i].text));
        FUZZ_CHECK(again.steps[i].view == lesson.steps[i].view &&
                   again.steps[i].control == lesson.steps[i].control);
    }
    return 0;
}
