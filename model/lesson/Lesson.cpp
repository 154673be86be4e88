// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/lesson/Lesson.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <string_view>

#include <nlohmann/json.hpp>

#include "model/runtime/Error.h"

namespace chargpt {

using Json = nlohmann::json;

const std::string& LessonText::in(const std::string& language) const {
    if (language.rfind("zh", 0) == 0 && !zh_CN.empty()) return zh_CN;
    return en;
}

namespace {

// Where each step names its view, its control and its question's answer in
// the file: the line of each value (0: none). One pass over the text, which
// BudgetCheck has already read as bounded JSON, with a counter for the depth
// and no recursion: the steps are the objects at depth 3 (the lesson, its
// "steps", a step), the only array of the lesson's own fields; a question is
// the only object at depth 4 with an "answer".
struct StepLines {
    std::size_t view = 0;
    std::size_t control = 0;
    std::size_t answer = 0;
};

std::vector<StepLines> stepLines(std::string_view text) {
    std::vector<StepLines> lines;
    std::size_t line = 1, depth = 0;
    bool inString = false, escaped = false;
    bool keyNext = false;  // the next string is a key ('{', or ',' in an object, came last)
    bool isKey = false;    // the string being read is such a key
    std::string key, lastKey;
    std::vector<bool> inObject;  // for each depth: an object, or an array
    for (char c : text) {
        if (c == '\n') ++line;
        if (inString) {
            if (escaped) {
                escaped = false;
            } else if (c == '\\') {
                escaped = true;
            } else if (c == '"') {
                inString = false;
                if (isKey) lastKey = key;
            } else if (isKey && key.size() < 8) {
                key += c;
            }
            continue;
        }
        switch (c) {
            case '"':
                inString = true;
                isKey = keyNext;
                key.clear();
                if (!isKey && !lines.empty()) {
                    if (depth == 3 && lastKey == "view") lines.back().view = line;
                    if (depth == 3 && lastKey == "control") lines.back().control = line;
                    if (depth == 4 && lastKey == "answer") lines.back().answer = line;
                }
                break;
            case '{':
            case '[':
                if (++depth == 3 && c == '{') lines.emplace_back();
                inObject.push_back(c == '{');
                keyNext = c == '{';
                lastKey.clear();
                break;
            case '}':
            case ']':
                --depth;
                if (!inObject.empty()) inObject.pop_back();
                break;
            case ',':
                keyNext = !inObject.empty() && inObject.back();
                break;
            case ':':
                keyNext = false;
                break;
            default:
                break;
        }
    }
    return lines;
}

// Budgets checked on nlohmann-json's SAX events, before the document is built:
// its parser keeps its own stack, and this refuses what is too deep, too many
// or too long.
class BudgetCheck : public nlohmann::json_sax<Json> {
public:
    std::string error;

    bool null() override { return value(); }
    bool boolean(bool) override { return value(); }
    bool number_integer(number_integer_t) override { return value(); }
    bool number_unsigned(number_unsigned_t) override { return value(); }
    bool number_float(number_float_t, const string_t&) override { return value(); }
    bool string(string_t& v) override { return text(v) && value(); }
    bool binary(binary_t&) override { return value(); }
    bool key(string_t& v) override { return text(v); }
    bool start_object(std::size_t) override { return open(); }
    bool start_array(std::size_t) override { return open(); }
    bool end_object() override { return close(); }
    bool end_array() override { return close(); }
    bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception&) override {
        if (error.empty()) error = "it is not valid JSON (at byte " + std::to_string(position) + ").";
        return false;
    }

private:
    bool value() {
        if (++values_ > LessonLimits::kMaxValues) {
            error = "it holds more than " + std::to_string(LessonLimits::kMaxValues) + " values.";
            return false;
        }
        return true;
    }
    bool text(const std::string& v) {
        if (v.size() > LessonLimits::kMaxTextBytes) {
            error = "it has a text longer than " + std::to_string(LessonLimits::kMaxTextBytes) + " bytes.";
            return false;
        }
        return true;
    }
    bool open() {
        if (++depth_ > LessonLimits::kMaxDepth) {
            error = "it is nested deeper than a lesson is (" + std::to_string(LessonLimits::kMaxDepth) + " levels).";
            return false;
        }
        return value();
    }
    bool close() {
        --depth_;
        return true;
    }
    std::size_t depth_ = 0;
    std::size_t values_ = 0;
};

// Reads one part of the lesson; `where` says which in messages ("step 3").
class Reader {
public:
    Reader(std::string name, std::vector<StepLines> lines)
        : name_(std::move(name)), lines_(std::move(lines)) {}

    [[noreturn]] void fail(const std::string& where, const std::string& what) const {
        throw Error(name_ + " is not a lesson the studio can use: " + (where.empty() ? "" : where + ": ") + what);
    }

    const Json& field(const Json& object, const char* key, const std::string& where) const {
        const auto it = object.find(key);
        if (it == object.end()) fail(where, std::string("\"") + key + "\" is missing.");
        return *it;
    }

    void onlyKeys(const Json& object, std::initializer_list<const char*> keys, const std::string& where) const {
        for (const auto& item : object.items()) {
            if (std::none_of(keys.begin(), keys.end(), [&](const char* k) { return item.key() == k; }))
                fail(where, "\"" + printable(item.key()) + "\" is not a field a lesson has.");
        }
    }

    // Plain text: no control characters but line breaks and tabs.
    std::string plain(const Json& value, const std::string& where) const {
        if (!value.is_string()) fail(where, "a text must be a string.");
        const auto& s = value.get_ref<const std::string&>();
        for (unsigned char c : s) {
            if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) fail(where, "a text holds a control character.");
        }
        return s;
    }

    LessonText text(const Json& value, const std::string& where) const {
        LessonText t;
        if (value.is_string()) {
            t.en = plain(value, where);
        } else if (value.is_object()) {
            onlyKeys(value, {"en", "zh_CN"}, where);
            t.en = plain(field(value, "en", where), where);
            if (value.contains("zh_CN")) t.zh_CN = plain(value.at("zh_CN"), where);
        } else {
            fail(where, "a text must be a string or {\"en\": ..., \"zh_CN\": ...}.");
        }
        if (t.en.empty()) fail(where, "a text is empty.");
        return t;
    }

    // A name: letters, digits and - _ . /, at most kMaxNameBytes.
    std::string name(const Json& value, const std::string& where, const char* what) const {
        if (!value.is_string()) fail(where, std::string("\"") + what + "\" must be a name.");
        const auto& s = value.get_ref<const std::string&>();
        const bool ok = !s.empty() && s.size() <= LessonLimits::kMaxNameBytes &&
                        std::all_of(s.begin(), s.end(), [](unsigned char c) {
                            return std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '/';
                        });
        if (!ok)
            fail(where, std::string("\"") + what + "\" must be a name of letters, digits and - _ . / (at most " +
                            std::to_string(LessonLimits::kMaxNameBytes) + ").");
        return s;
    }

    LessonQuestion question(const Json& value, std::size_t index, const std::string& where) const {
        if (!value.is_object()) fail(where, "\"question\" must be an object.");
        onlyKeys(value, {"text", "answer", "choices"}, where);
        LessonQuestion q;
        q.text = text(field(value, "text", where), where);
        const std::string answer = name(field(value, "answer", where), where, "answer");
        const LessonAnswerEntry* entry = findLessonAnswer(answer);
        if (!entry) {
            std::string known;
            for (const auto& a : lessonAnswers()) known += (known.empty() ? "" : ", ") + std::string(a.name);
            fail(lineOf(index, &StepLines::answer, where),
                 "the studio computes no answer called \"" + answer + "\" (it knows " + known + ").");
        }
        q.answer = entry->id;
        const auto& choices = field(value, "choices", where);
        if (!choices.is_array() || choices.size() < 2 || choices.size() > LessonLimits::kMaxChoices)
            fail(where, "\"choices\" must be a list of 2 to " + std::to_string(LessonLimits::kMaxChoices) + ".");
        const auto& keys = entry->keys;
        for (std::size_t i = 0; i < choices.size(); ++i) {
            const std::string at = where + ", choice " + std::to_string(i + 1);
            if (!choices[i].is_object()) fail(at, "a choice must be an object.");
            onlyKeys(choices[i], {"key", "text"}, at);
            LessonChoice c;
            c.key = name(field(choices[i], "key", at), at, "key");
            if (std::find(keys.begin(), keys.end(), c.key) == keys.end()) {
                std::string known;
                for (const auto& k : keys) known += (known.empty() ? "" : ", ") + k;
                fail(at, "\"" + answer + "\" answers " + known + ", not \"" + c.key + "\".");
            }
            c.text = text(field(choices[i], "text", at), at);
            q.choices.push_back(std::move(c));
        }
        return q;
    }

    // "line 12 (step 3)" for the line of a step's value (`which`), else "step 3".
    std::string lineOf(std::size_t index, std::size_t StepLines::*which, const std::string& where) const {
        const std::size_t line = index < lines_.size() ? lines_[index].*which : 0;
        return line ? "line " + std::to_string(line) + " (" + where + ")" : where;
    }

    // A view the studio has (lessonViews), or a message with the line that names it.
    LessonView view(const std::string& name, std::size_t index, const std::string& where) const {
        if (const auto found = findLessonView(name)) return *found;
        std::string known;
        for (const auto& v : lessonViews()) known += (known.empty() ? "" : ", ") + std::string(v.name);
        fail(lineOf(index, &StepLines::view, where),
             "the view \"" + printable(name) + "\" is not one the studio has (it has " + known + ").");
    }

    // A control the studio has on the step's view or beside every view
    // (lessonControls), or a message with the line that names it.
    LessonControl control(const std::string& name, std::optional<LessonView> view, std::size_t index,
                          const std::string& where) const {
        const std::string line = lineOf(index, &StepLines::control, where);
        const auto found = findLessonControl(name);
        if (!found) {
            std::string own, everywhere;
            for (const auto& c : lessonControls()) {
                if (c.view && c.view == view) own += (own.empty() ? "" : ", ") + c.name;
                if (!c.view) everywhere += (everywhere.empty() ? "" : ", ") + c.name;
            }
            const std::string onView = view && !own.empty() ? "on \"" + std::string(lessonViewName(*view)) +
                                                                  "\" it has " + own + "; "
                                                            : "";
            fail(line, "the control \"" + printable(name) + "\" is not one the studio has (" + onView +
                           "beside every view it has " + everywhere + ").");
        }
        if (!lessonControlOnView(*found, view)) {
            const std::string home = lessonViewName(*lessonControlEntry(*found).view);
            fail(line, view ? "the control \"" + name + "\" is on the view \"" + home + "\", not on \"" +
                                  lessonViewName(*view) + "\", the step's view."
                            : "the control \"" + name + "\" is on the view \"" + home +
                                  "\": the step must name that view.");
        }
        return *found;
    }

    LessonStep step(const Json& value, std::size_t index) const {
        const std::string where = "step " + std::to_string(index + 1);
        if (!value.is_object()) fail(where, "a step must be an object.");
        onlyKeys(value, {"title", "text", "view", "control", "question"}, where);
        LessonStep s;
        s.title = text(field(value, "title", where), where);
        s.text = text(field(value, "text", where), where);
        if (value.contains("view")) s.view = view(name(value.at("view"), where, "view"), index, where);
        if (value.contains("control"))
            s.control = control(name(value.at("control"), where, "control"), s.view, index, where);
        if (value.contains("question")) s.question = question(value.at("question"), index, where);
        return s;
    }

    Lesson lesson(const Json& root) const {
        if (!root.is_object()) fail("", "it is not a JSON object.");
        const auto format = root.find("format");
        if (format == root.end() || *format != "chargpt-lesson")
            fail("", "its \"format\" is not \"chargpt-lesson\".");
        const auto version = root.find("version");
        if (version == root.end() || !version->is_number_integer() || *version != 1)
            fail("", "its \"version\" is not 1, the one this studio reads.");
        onlyKeys(root, {"format", "version", "title", "steps"}, "");
        Lesson l;
        l.title = text(field(root, "title", ""), "the title");
        const auto& steps = field(root, "steps", "");
        if (!steps.is_array() || steps.empty() || steps.size() > LessonLimits::kMaxSteps)
            fail("", "\"steps\" must be a list of 1 to " + std::to_string(LessonLimits::kMaxSteps) + " steps.");
        for (std::size_t i = 0; i < steps.size(); ++i) l.steps.push_back(step(steps[i], i));
        return l;
    }

    // A key as it may be shown: printable ASCII, the rest as '?'.
    static std::string printable(const std::string& s) {
        std::string out = s.substr(0, 40);
        for (auto& c : out) {
            if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f) c = '?';
        }
        return out;
    }

private:
    std::string name_;
    std::vector<StepLines> lines_;  // stepLines() of the file
};

}  // namespace

Lesson readLesson(const std::string& bytes, const std::string& name) {
    if (bytes.size() > LessonLimits::kMaxFileBytes)
        Reader(name, {}).fail(
            "", "it is larger than " + std::to_string(LessonLimits::kMaxFileBytes / 1024) + " KiB.");
    std::string_view text(bytes);
    if (text.rfind("\xEF\xBB\xBF", 0) == 0) text.remove_prefix(3);
    BudgetCheck budget;
    const bool ok = Json::sax_parse(text, &budget, Json::input_format_t::json, true);
    const Reader reader(name, ok && budget.error.empty() ? stepLines(text) : std::vector<StepLines>{});
    if (!ok || !budget.error.empty()) reader.fail("", budget.error.empty() ? "it is not valid JSON." : budget.error);
    Json root;
    try {
        root = Json::parse(text);
    } catch (const Json::exception&) {
        reader.fail("", "it is not valid JSON.");
    }
    return reader.lesson(root);
}

Lesson readLessonFile(const std::string& path) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) throw Error("no such lesson file: " + path + ".");
    const auto size = std::filesystem::file_size(path, ec);
    const std::string tooLarge = path + " is not a lesson the studio can use: it is larger than " +
                                 std::to_string(LessonLimits::kMaxFileBytes / 1024) + " KiB.";
    if (!ec && size > LessonLimits::kMaxFileBytes) throw Error(tooLarge);
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error("cannot read " + path + ".");
    std::string bytes(LessonLimits::kMaxFileBytes + 1, '\0');
    in.read(bytes.data(), std::streamsize(bytes.size()));
    if (in.bad()) throw Error("cannot read " + path + ".");
    bytes.resize(std::size_t(in.gcount()));
    if (bytes.size() > LessonLimits::kMaxFileBytes) throw Error(tooLarge);
    return readLesson(bytes, path);
}

}  // namespace chargpt
