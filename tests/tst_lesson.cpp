// SPDX-License-Identifier: GPL-3.0-or-later
// Lesson files: the built-in lessons read, every text in English and Chinese;
// a teacher's file is read as the schema says; and every file that is not a
// lesson (not JSON, too deep, too large, too many, wrong types, unknown fields
// or answers, control characters, no file at all) gets one message saying
// what is wrong, and nothing else happens.
#include <QDir>
#include <QFile>
#include <QSet>
#include <QTemporaryDir>

#include "LessonFixtures.h"
#include "TestProgram.h"

#include <set>
#include <string>

#include "model/lesson/Lesson.h"
#include "model/runtime/Error.h"

namespace tst_lesson {

using chargpt::Lesson;
using chargpt::LessonLimits;
using chargpt::readLesson;

namespace {



// The message readLesson throws for `json`; empty when it reads.
QString problemOf(const std::string& json) {
    try {
        readLesson(json, "lesson.json");
    } catch (const chargpt::Error& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}


}  // namespace

class TestLesson : public QObject {
    Q_OBJECT

private slots:
    void readsALesson() {
        const Lesson lesson = readLesson(lesson_fixtures::kGood, "good.json");
        QCOMPARE(lesson.title.en, std::string("Masks"));
        QCOMPARE(lesson.title.in("zh_CN"), std::string("掩码"));
        QCOMPARE(lesson.steps.size(), size_t(2));
        QVERIFY(lesson.steps[0].view == chargpt::LessonView::SoftmaxMask);
        QVERIFY(lesson.steps[0].control &&
                lesson.steps[0].control == chargpt::findLessonControl("softmaxMaskCheck"));
        QVERIFY(!lesson.steps[0].question);
        // A plain string is English, and stands in for the Chinese it lacks.
        QCOMPARE(lesson.steps[1].text.in("zh_CN"), std::string("Second idea."));
        QVERIFY(!lesson.steps[1].view && !lesson.steps[1].control);
        const auto& q = *lesson.steps[1].question;
        QVERIFY(q.answer == chargpt::LessonAnswerId::SoftmaxTimes1000);
        QCOMPARE(q.choices.size(), size_t(2));
        QCOMPARE(q.choices[0].key, std::string("one-hot"));
        QCOMPARE(q.choices[1].text.en, std::string("Spread"));
    }

    // What ships: every built-in lesson reads, and says everything in both languages.
    void builtinLessonsReadInBothLanguages() {
        const QDir dir(QStringLiteral(CHARGPT_SOURCE_DIR "/resources/lessons"));
        const QStringList files = dir.entryList({QStringLiteral("*.json")}, QDir::Files);
        QVERIFY(!files.isEmpty());
        for (const QString& name : files) {
            const Lesson lesson = chargpt::readLessonFile(QFile::encodeName(dir.filePath(name)).toStdString());
            QVERIFY2(!lesson.steps.empty(), qPrintable(name));
            auto bilingual = [&](const chargpt::LessonText& t, const QString& where) {
                QVERIFY2(!t.en.empty() && !t.zh_CN.empty(), qPrintable(name + ": " + where));
            };
            bilingual(lesson.title, QStringLiteral("title"));
            for (size_t i = 0; i < lesson.steps.size(); ++i) {
                const auto& step = lesson.steps[i];
                const QString at = QStringLiteral("step %1").arg(i + 1);
                bilingual(step.title, at);
                bilingual(step.text, at);
                QVERIFY2(step.view, qPrintable(at + " names no view"));
                if (step.question) {
                    bilingual(step.question->text, at);
                    for (const auto& c : step.question->choices) bilingual(c.text, at);
                }
            }
        }
    }

    // A view the studio lacks is refused as the file is read, with the line
    // that names it; a text that says "view" is not taken for the key.
    void anUnknownViewIsRefusedWithItsLine() {
        const std::string json =
            "{\"format\": \"chargpt-lesson\", \"version\": 1,\n"
            " \"title\": \"T\",\n"
            " \"steps\": [\n"
            "  {\"title\": \"a\", \"text\": \"b \\\" {[\", \"view\": \"attention\"},\n"
            "  {\"title\": \"view\",\n"
            "   \"text\": {\"en\": \"c\", \"zh_CN\": \"view\"},\n"
            "   \"view\":\n"
            "     \"oracle\"}\n"
            "]}";
        const QString problem = problemOf(json);
        QVERIFY2(
            problem.contains(QStringLiteral("line 8 (step 2): the view \"oracle\" is not one the studio has "
                                            "(it has training, attention")),
            qPrintable(problem));
        for (const auto& view : chargpt::lessonViews()) {
            const std::string one = lesson_fixtures::withStep(
                "{\"title\": \"a\", \"text\": \"b\", \"view\": \"" + std::string(view.name) + "\"}");
            QVERIFY2(problemOf(one).isEmpty(), qPrintable(problemOf(one)));
            QVERIFY(readLesson(one, "one.json").steps[0].view == view.id);
        }
    }

    // A control the studio lacks, or one of another view than its step's, is
    // refused as the file is read, with the line that names it.
    void controlsAreCheckedWithTheirLine() {
        auto lesson = [](const std::string& steps) {
            return "{\"format\": \"chargpt-lesson\", \"version\": 1,\n \"title\": \"T\",\n \"steps\": [\n" +
                   steps + "]}";
        };
        const std::string first =
            "  {\"title\": \"a\", \"text\": \"b\", \"view\": \"attention\", \"control\": \"probe\"},\n";
        const QString unknown = problemOf(lesson(first + "  {\"title\": \"control\", \"text\": \"b\",\n"
                                                         "   \"view\": \"attention\",\n"
                                                         "   \"control\": \"selfDestruct\"}\n"));
        QVERIFY2(
            unknown.contains(QStringLiteral("line 7 (step 2): the control \"selfDestruct\" is not one the "
                                            "studio has (on \"attention\" it has probe, layer; beside every "
                                            "view it has startButton")),
            qPrintable(unknown));
        const QString elsewhere =
            problemOf(lesson(first + "  {\"title\": \"a\", \"text\": \"b\", \"view\": \"attention\",\n"
                                     "   \"control\": \"knockoutButton\"}\n"));
        QVERIFY2(elsewhere.contains(
                     QStringLiteral("line 6 (step 2): the control \"knockoutButton\" is on the view "
                                    "\"inside/knockout\", not on \"attention\", the step's view.")),
                 qPrintable(elsewhere));
        const QString noView =
            problemOf(lesson("  {\"title\": \"a\",\n   \"text\": \"b\", \"control\": \"knockoutButton\"}\n"));
        QVERIFY2(
            noView.contains(QStringLiteral("line 5 (step 1): the control \"knockoutButton\" is on the view "
                                           "\"inside/knockout\": the step must name that view.")),
            qPrintable(noView));
        // Every control of the table reads on its own view, and the side
        // panel's and the timeline's on any view or none.
        for (std::size_t i = 0; i < chargpt::lessonControls().size(); ++i) {
            const auto& entry = chargpt::lessonControls()[i];
            const std::string view = entry.view ? chargpt::lessonViewName(*entry.view) : "runs";
            const std::string own =
                lesson_fixtures::withStep("{\"title\": \"a\", \"text\": \"b\", \"view\": \"" + view +
                                          "\", \"control\": \"" + entry.name + "\"}");
            QVERIFY2(problemOf(own).isEmpty(), qPrintable(problemOf(own)));
            QVERIFY(readLesson(own, "own.json").steps[0].control == chargpt::LessonControl{i});
            const std::string bare = lesson_fixtures::withStep(
                "{\"title\": \"a\", \"text\": \"b\", \"control\": \"" + entry.name + "\"}");
            QCOMPARE(problemOf(bare).isEmpty(), !entry.view);
        }
        QVERIFY(chargpt::findLessonControl("threads"));      // the settings' rows, by their keys
        QVERIFY(!chargpt::findLessonControl("vocab_size"));  // a setting the panel does not show
    }

    // An answer the studio does not compute is refused with its line.
    void anUnknownAnswerIsRefusedWithItsLine() {
        const std::string json = lesson_fixtures::withStep(
            "{\"title\": \"a\", \"text\": \"b\", \"question\": {\"text\": \"answer\",\n\"choices\": [], "
            "\"answer\":\n"
            "\"oracle\"}}");
        QVERIFY2(
            problemOf(json).contains(QStringLiteral("line 3 (step 1): the studio computes no answer called "
                                                    "\"oracle\" (it knows softmax-times-1000,")),
            qPrintable(problemOf(json)));
    }

    // Each table names each id once, and each name once.
    void tablesNameEachIdOnce() {
        QSet<QString> names;
        for (const auto& view : chargpt::lessonViews()) {
            QVERIFY2(!names.contains(QString::fromUtf8(view.name)), view.name);
            names.insert(QString::fromUtf8(view.name));
            QCOMPARE(chargpt::findLessonView(view.name), std::optional(view.id));
            QCOMPARE(std::string(chargpt::lessonViewName(view.id)), std::string(view.name));
        }
        names.clear();
        for (const auto& control : chargpt::lessonControls()) {
            QVERIFY2(!names.contains(QString::fromStdString(control.name)), control.name.c_str());
            names.insert(QString::fromStdString(control.name));
        }
        names.clear();
        for (const auto& answer : chargpt::lessonAnswers()) {
            QVERIFY2(!names.contains(QString::fromUtf8(answer.name)), answer.name);
            names.insert(QString::fromUtf8(answer.name));
            QCOMPARE(chargpt::findLessonAnswer(answer.name), &chargpt::lessonAnswer(answer.id));
            QVERIFY(answer.keys.size() >= 2);
            QCOMPARE(std::set<std::string>(answer.keys.begin(), answer.keys.end()).size(),
                     answer.keys.size());
        }
    }

    void refusesWhatIsNotALesson_data() {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("says");
        for (const auto& row : lesson_fixtures::notLessons())
            QTest::newRow(row.name) << QByteArray::fromStdString(row.json) << QString::fromUtf8(row.says);
    }
    void refusesWhatIsNotALesson() {
        QFETCH(QByteArray, json);
        QFETCH(QString, says);
        const QString problem = problemOf(json.toStdString());
        QVERIFY2(problem.startsWith(QStringLiteral("lesson.json is not a lesson the studio can use: ")),
                 qPrintable(problem));
        QVERIFY2(problem.contains(says), qPrintable(problem));
    }

    // Budgets: what the file claims is refused before it is built.
    void boundsNestingCountsAndSizes() {
        // 200,000 brackets: refused at the eighth level, without recursion.
        QVERIFY(problemOf(std::string(200000, '[')).contains("nested deeper"));
        const std::string deep = lesson_fixtures::withStep("{\"title\": \"a\", \"text\": {\"en\": [[[[[\"x\"]]]]]}}");
        QVERIFY(problemOf(deep).contains("nested deeper"));
        // More values than any lesson has.
        std::string values = "[";
        for (size_t i = 0; i <= LessonLimits::kMaxValues; ++i) values += i ? ",0" : "0";
        values += "]";
        QVERIFY(problemOf(lesson_fixtures::withStep("{\"title\": \"a\", \"text\": \"b\", \"view\": " + values + "}")).contains("more than"));
        // A text longer than any step needs.
        const std::string longText(LessonLimits::kMaxTextBytes + 1, 'x');
        QVERIFY(problemOf(lesson_fixtures::withStep("{\"title\": \"a\", \"text\": \"" + longText + "\"}")).contains("longer than"));
        // Too many steps.
        std::string steps;
        for (size_t i = 0; i <= LessonLimits::kMaxSteps; ++i) steps += std::string(i ? "," : "") + "{\"title\": \"a\", \"text\": \"b\"}";
        QVERIFY(problemOf(lesson_fixtures::withStep(steps)).contains("1 to 100 steps"));
        // Bytes past the file's budget, whatever they hold.
        QVERIFY(problemOf(std::string(LessonLimits::kMaxFileBytes + 1, ' ')).contains("larger than 256 KiB"));
    }

    void filesTooLargeOrMissing() {
        QTemporaryDir dir;
        const QString big = dir.filePath(QStringLiteral("big.json"));
        {
            QFile f(big);
            QVERIFY(f.open(QIODevice::WriteOnly));
            QVERIFY(f.resize(qint64(LessonLimits::kMaxFileBytes) + 1));  // sparse: judged by its size
        }
        auto messageOf = [](const QString& path) {
            try {
                chargpt::readLessonFile(QFile::encodeName(path).toStdString());
            } catch (const chargpt::Error& e) {
                return QString::fromStdString(e.what());
            }
            return QString();
        };
        QVERIFY(messageOf(big).contains(QStringLiteral("larger than 256 KiB")));
        QVERIFY(messageOf(dir.filePath(QStringLiteral("none.json"))).startsWith(QStringLiteral("no such lesson file")));
        QVERIFY(messageOf(dir.path()).startsWith(QStringLiteral("no such lesson file")));
        const QString good = dir.filePath(QStringLiteral("good.json"));
        {
            QFile f(good);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("\xEF\xBB\xBF");  // a byte-order mark, as some editors write
            f.write(lesson_fixtures::kGood.data(), qint64(lesson_fixtures::kGood.size()));
        }
        QVERIFY(messageOf(good).isEmpty());
    }
};

CHARGPT_TEST_GUILESS_MAIN(TestLesson)
}  // namespace tst_lesson
#include "tst_lesson.moc"
