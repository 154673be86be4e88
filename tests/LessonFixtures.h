// SPDX-License-Identifier: GPL-3.0-or-later
// Lesson files for tests/tst_lesson.cpp: a good one, and files that are not lessons
// with what their message must say.
#pragma once

#include <string>
#include <vector>

namespace lesson_fixtures {

inline const std::string kGood = "{\"format\": \"chargpt-lesson\", \"version\": 1,\n"
    "  \"title\": {\"en\": \"Masks\", \"zh_CN\": \"掩码\"},\n"
    "  \"steps\": [\n"
    "    {\"title\": \"One\", \"text\": {\"en\": \"First idea.\", \"zh_CN\": \"第一个想法。\"}, \"view\": \"softmax/mask\",\n"
    "     \"control\": \"softmaxMaskCheck\"},\n"
    "    {\"title\": \"Two\", \"text\": \"Second idea.\",\n"
    "     \"question\": {\"text\": \"Predict?\", \"answer\": \"softmax-times-1000\",\n"
    "                  \"choices\": [{\"key\": \"one-hot\", \"text\": \"All on one\"}, {\"key\": \"spread\", \"text\": \"Spread\"}]}}\n"
    "  ]}";

inline std::string withStep(const std::string& step) {
    return "{\"format\": \"chargpt-lesson\", \"version\": 1, \"title\": \"T\", \"steps\": [" + step + "]}";
}

struct NotALesson {
    const char* name;
    std::string json;
    const char* says;
};

inline std::vector<NotALesson> notLessons() {
    return {
        {"not JSON", "{\"format\": ", "not valid JSON"},
        {"not an object", "[1, 2]", "not a JSON object"},
        {"another format",
         "{\"format\": \"chargpt-config\", \"version\": 1, \"title\": \"T\", \"steps\": []}", "\"format\""},
        {"a later version",
         "{\"format\": \"chargpt-lesson\", \"version\": 2, \"title\": \"T\", \"steps\": []}", "version"},
        {"no steps", "{\"format\": \"chargpt-lesson\", \"version\": 1, \"title\": \"T\", \"steps\": []}",
         "1 to 100 steps"},
        {"an unknown field", withStep("{\"title\": \"a\", \"text\": \"b\", \"image\": \"/etc/passwd\"}"),
         "\"image\" is not a field"},
        {"a step without text", withStep("{\"title\": \"a\"}"), "step 1: \"text\" is missing"},
        {"a number for a text", withStep("{\"title\": \"a\", \"text\": 5}"), "a text must be"},
        {"an empty text", withStep("{\"title\": \"a\", \"text\": \"\"}"), "a text is empty"},
        {"another language", withStep("{\"title\": \"a\", \"text\": {\"en\": \"b\", \"fr\": \"c\"}}"),
         "\"fr\" is not a field"},
        {"a control character", withStep("{\"title\": \"a\", \"text\": \"b\\u001b[2Jc\"}"),
         "control character"},
        {"an unknown control",
         withStep("{\"title\": \"a\", \"text\": \"b\", \"view\": \"runs\", \"control\": \"rmButton\"}"),
         "line 1 (step 1): the control \"rmButton\" is not one the studio has"},
        {"a control of another view",
         withStep("{\"title\": \"a\", \"text\": \"b\", \"view\": \"runs\", \"control\": \"probe\"}"),
         "line 1 (step 1): the control \"probe\" is on the view \"attention\", not on \"runs\""},
        {"a path for a view", withStep("{\"title\": \"a\", \"text\": \"b\", \"view\": \"C:\\\\x y\"}"),
         "\"view\" must be a name"},
        {"an answer the studio does not compute",
         withStep(
             "{\"title\": \"a\", \"text\": \"b\", \"question\": {\"text\": \"q\", \"answer\": \"rm -rf\",\n"
             "                 \"choices\": [{\"key\": \"a\", \"text\": \"a\"}, {\"key\": \"b\", \"text\": "
             "\"b\"}]}}"),
         "\"answer\" must be a name"},
        {"an unknown answer",
         withStep(
             "{\"title\": \"a\", \"text\": \"b\", \"question\": {\"text\": \"q\", \"answer\": \"oracle\",\n"
             "                 \"choices\": [{\"key\": \"a\", \"text\": \"a\"}, {\"key\": \"b\", \"text\": "
             "\"b\"}]}}"),
         "no answer called \"oracle\""},
        {"a key the answer never gives",
         withStep("{\"title\": \"a\", \"text\": \"b\", \"question\": {\"text\": \"q\",\n"
                  "                 \"answer\": \"unscaled-spread\", \"choices\": [{\"key\": \"grows\", "
                  "\"text\": \"a\"}, {\"key\": \"shrinks\",\n"
                  "                 \"text\": \"b\"}]}}"),
         "step 1, choice 2: \"unscaled-spread\" answers grows, stays, not \"shrinks\""},
        {"one choice",
         withStep("{\"title\": \"a\", \"text\": \"b\", \"question\": {\"text\": \"q\",\n"
                  "                 \"answer\": \"unscaled-spread\", \"choices\": [{\"key\": \"grows\", "
                  "\"text\": \"a\"}]}}"),
         "2 to 6"},
        {"invalid UTF-8", withStep("{\"title\": \"a\xff\", \"text\": \"b\"}"), "not valid JSON"},
    };
}

}  // namespace lesson_fixtures
