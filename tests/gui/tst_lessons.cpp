// SPDX-License-Identifier: GPL-3.0-or-later
// The lessons in the window: every built-in lesson driven step by step from the
// Lessons menu, each step bringing its view to the front and ringing its
// control, each question answered (before a model: what is needed; after a
// short run: from the model); a teacher's file that is not a lesson, or names
// a view the studio lacks, gets one message and the lesson shown stays;
// Chinese; presentation mode (full screen, larger type, the steps on the
// arrow keys, Escape to leave).
#include <QAbstractButton>
#include <QDockWidget>
#include <QLabel>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QScrollArea>
#include <QScrollBar>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>

#include <functional>

#include "TestProgram.h"
#include "WindowDriver.h"
#include "app/InspectionController.h"
#include "app/LessonController.h"
#include "model/lesson/Lesson.h"
#include "widgets/AttentionPage.h"
#include "widgets/ControlHighlight.h"
#include "widgets/GenerationView.h"
#include "widgets/InsidePage.h"
#include "widgets/KnockoutView.h"
#include "widgets/LessonPane.h"
#include "widgets/LossPlot.h"
#include "widgets/SettingsPanel.h"

#include <qcustomplot.h>

namespace tst_lessons {

namespace {

// The tab widgets between `widget` and the window show it.
bool shownInItsTabs(QWidget* widget) {
    for (QWidget* w = widget; w; w = w->parentWidget()) {
        if (auto* tabs = qobject_cast<QTabWidget*>(w->parentWidget() ? w->parentWidget()->parentWidget() : nullptr)) {
            if (tabs->indexOf(w) >= 0 && tabs->currentWidget() != w) return false;
        }
    }
    return widget->isVisible();
}

QAction* builtinAction(MainWindow& window, const QString& path) {
    for (QAction* menu : window.menuBar()->actions()) {
        if (!menu->menu()) continue;
        for (QAction* action : menu->menu()->actions())
            if (action->data().toString() == path) return action;
    }
    return nullptr;
}

// Walks every step of the lesson shown; `answered` checks each answer's text.
void walk(MainWindow& window, const std::function<void(const QString& answer, const QString& text)>& answered) {
    LessonPane* pane = window.lessons()->pane();
    const chargpt::Lesson& lesson = pane->lesson();
    pane->showStep(0);
    for (size_t i = 0; i < lesson.steps.size(); ++i) {
        const auto& step = lesson.steps[i];
        QCOMPARE(pane->stepIndex(), int(i));
        // "Press {startButton}": each button named by its own label.
        QString expected = QString::fromStdString(step.text.en);
        const QRegularExpression placeholder(QStringLiteral("\\{(\\w+)\\}"));
        for (const QRegularExpressionMatch& m : placeholder.globalMatch(expected)) {
            auto* button = window.findChild<QAbstractButton*>(m.captured(1));
            QVERIFY2(button, qPrintable(m.captured(1)));
            expected.replace(m.captured(0), button->text().remove(QLatin1Char('&')));
        }
        QCOMPARE(pane->stepText(), expected);
        QWidget* ring = window.lessons()->highlight()->target();
        if (!step.control) {
            QVERIFY(!ring);
        } else {
            const std::string& name = chargpt::lessonControlEntry(*step.control).name;
            QVERIFY2(ring, name.c_str());
            QCOMPARE(ring->objectName(), QString::fromStdString(name));
            QVERIFY2(shownInItsTabs(ring), name.c_str());
            QVERIFY(window.lessons()->highlight()->isVisible());
        }
        if (step.question) {
            pane->choose(0);
            pane->reveal();
            const char* answer = chargpt::lessonAnswer(step.question->answer).name;
            QVERIFY2(!pane->answerText().isEmpty(), answer);
            answered(QString::fromUtf8(answer), pane->answerText());
        }
        pane->next();
    }
}

}  // namespace

class TestLessons : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { window_driver::initTestApplication(QStringLiteral("tst_lessons")); }
    void init() { window_driver::resetSettingsAndLanguage(languages_); }

    void everyBuiltinLessonStepByStep() {
        MainWindow window(&languages_);
        window.show();
        QVERIFY(window_driver::waitForCorpus(window));
        QVERIFY(!window.lessons()->dock()->isVisible());  // no lesson at a start
        const QStringList lessons = LessonController::builtinLessons();
        QVERIFY(!lessons.isEmpty());
        auto needsModel = [](const QString& answer, const QString& text) {
            if (answer.startsWith(QLatin1String("attention")) || answer.startsWith(QLatin1String("previous")))
                QVERIFY2(text.startsWith(QStringLiteral("Train a model or open one first")), qPrintable(text));
            if (answer == QLatin1String("feed-forward-knockout"))
                QVERIFY2(text.startsWith(QStringLiteral("Press Knock out")), qPrintable(text));
            if (answer == QLatin1String("loss-against-floors"))
                QVERIFY2(text.startsWith(QStringLiteral("Press Start")), qPrintable(text));
        };
        for (const QString& path : lessons) {
            QAction* action = builtinAction(window, path);
            QVERIFY2(action, qPrintable(path));
            QVERIFY(!action->text().isEmpty() && !action->text().endsWith(QLatin1String(".json")));
            action->trigger();
            QVERIFY(window.lessons()->pane()->hasLesson());
            QVERIFY(window.lessons()->dock()->isVisible());
            QVERIFY(window.messageText().isEmpty());
            walk(window, needsModel);
        }
        // With a model shown, the answers come from it.
        window_driver::trainTinyToEnd(window, 30);
        QVERIFY(QTest::qWaitFor([&] { return !window.attentionPage()->shownAttention().layers.isEmpty(); }, 30000));
        // The knock-out table, as the step about the feed-forward asks.
        auto* knockout = window.insidePage()->knockoutView();
        knockout->findChild<QPushButton*>(QStringLiteral("knockoutButton"))->click();
        QVERIFY(QTest::qWaitFor([&] { return !knockout->knockout().isEmpty(); }, 60000));
        // The answers read the inspection's results, the ones the views show.
        const lesson_answers::Inputs inputs = window.inspection()->lessonInputs();
        QVERIFY(inputs.attention && inputs.knockout);
        QCOMPARE(inputs.attentionStep, window.attentionPage()->shownStep());
        QCOMPARE(inputs.attention->layers.size(), window.attentionPage()->shownAttention().layers.size());
        QCOMPARE(inputs.knockout->rows.size(), knockout->knockout().rows.size());
        for (const QString& path : lessons) {
            builtinAction(window, path)->trigger();
            walk(window, [](const QString& answer, const QString& text) {
                QVERIFY2(!text.startsWith(QStringLiteral("Train a model")), qPrintable(answer + ": " + text));
                QVERIFY2(!text.startsWith(QStringLiteral("Press ")), qPrintable(answer + ": " + text));
                if (answer == QLatin1String("attention-to-future"))
                    QVERIFY2(text.contains(QStringLiteral("The answer: None at all")), qPrintable(text));
            });
        }
        // Views cleared (a new model): the answers have nothing of the model before.
        window.inspection()->clearViews();
        QVERIFY(window.attentionPage()->shownAttention().layers.isEmpty());
        QVERIFY(!window.inspection()->lessonInputs().attention);
        QVERIFY(window.inspection()->lessonInputs().knockout->isEmpty());
    }

    void aFileThatIsNotALessonKeepsTheLesson() {
        MainWindow window(&languages_);
        window.show();
        QVERIFY(window_driver::waitForCorpus(window));
        LessonController* lessons = window.lessons();
        QVERIFY(lessons->openLesson(LessonController::builtinLessons().first()));
        lessons->pane()->showStep(2);
        const QString shown = lessons->pane()->stepText();
        QTemporaryDir dir;
        const QString deep = dir.filePath(QStringLiteral("deep.json"));
        QFile f(deep);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray(100000, '['));
        f.close();
        QVERIFY(!lessons->openLesson(deep));
        QVERIFY2(window.messageText().contains(QStringLiteral("is not a lesson the studio can use: it is nested deeper")),
                 qPrintable(window.messageText()));
        QCOMPARE(lessons->pane()->stepText(), shown);
        QCOMPARE(lessons->pane()->stepIndex(), 2);
        // Well formed, but about a view or a control the studio does not have.
        const QByteArray elsewhere =
            "{\"format\": \"chargpt-lesson\", \"version\": 1, \"title\": \"T\", \"steps\": [{\"title\": \"a\", \"text\": \"b\", \"view\": \"oracle\"}]}";
        QVERIFY(!lessons->openLessonBytes(elsewhere, QStringLiteral("elsewhere.json")));
        QVERIFY2(window.messageText().contains(
                     QStringLiteral("line 1 (step 1): the view \"oracle\" is not one the studio has")),
                 qPrintable(window.messageText()));
        const QByteArray noControl =
            "{\"format\": \"chargpt-lesson\", \"version\": 1, \"title\": \"T\", \"steps\": [{\"title\": \"a\", \"text\": \"b\", \"view\": \"attention\", \"control\": \"selfDestruct\"}]}";
        QVERIFY(!lessons->openLessonBytes(noControl, QStringLiteral("control.json")));
        QVERIFY2(window.messageText().contains(QStringLiteral(
                     "line 1 (step 1): the control \"selfDestruct\" is not one the studio has")),
                 qPrintable(window.messageText()));
        QCOMPARE(lessons->pane()->stepText(), shown);
        QVERIFY(!lessons->openLesson(dir.filePath(QStringLiteral("missing.json"))));
        QVERIFY(window.messageText().startsWith(QStringLiteral("no such lesson file")));
    }

    // Every view a lesson file may name (the one table in model/lesson) is a
    // page of the window that a step brings to the front.
    void everyLessonViewIsInTheWindow() {
        MainWindow window(&languages_);
        window.show();
        QVERIFY(window_driver::waitForCorpus(window));
        LessonController* lessons = window.lessons();
        for (const auto& view : chargpt::lessonViews()) {
            const QByteArray json =
                "{\"format\": \"chargpt-lesson\", \"version\": 1, \"title\": \"T\", \"steps\": "
                "[{\"title\": \"a\", \"text\": \"b\", \"view\": \"" +
                QByteArray(view.name) + "\"}]}";
            QVERIFY2(lessons->openLessonBytes(json, QStringLiteral("view.json")), view.name);
            QVERIFY2(lessons->viewPage(view.id), view.name);
            QVERIFY2(lessons->viewPage(view.id)->isVisible(), view.name);
        }
    }

    // Every control a lesson file may name (the table in model/lesson) is one
    // widget of that name on its view's page (the side panel's and the
    // timeline's: in the window), which a step on that view rings, shown: a
    // renamed object fails here, not in a teacher's lesson.
    void everyLessonControlIsInTheWindow() {
        MainWindow window(&languages_);
        window.show();
        QVERIFY(window_driver::waitForCorpus(window));
        LessonController* lessons = window.lessons();
        const auto& controls = chargpt::lessonControls();
        for (std::size_t i = 0; i < controls.size(); ++i) {
            const auto& entry = controls[i];
            const QString name = QString::fromStdString(entry.name);
            QWidget* widget = lessons->control(chargpt::LessonControl{i});
            QVERIFY2(widget, qPrintable(name));
            QCOMPARE(widget->objectName(), name);
            QWidget* place = entry.view ? lessons->viewPage(*entry.view) : &window;
            QVERIFY2(place->findChildren<QWidget*>(name).size() == 1,
                     qPrintable(name));  // no other of its name
            const QByteArray view = entry.view ? QByteArray(chargpt::lessonViewName(*entry.view)) : "runs";
            const QByteArray json =
                "{\"format\": \"chargpt-lesson\", \"version\": 1, \"title\": \"T\", \"steps\": "
                "[{\"title\": \"a\", \"text\": \"b\", \"view\": \"" +
                view + "\", \"control\": \"" + QByteArray::fromStdString(entry.name) + "\"}]}";
            QVERIFY2(lessons->openLessonBytes(json, QStringLiteral("control.json")),
                     qPrintable(window.messageText()));
            QCOMPARE(lessons->highlight()->target(), widget);
            QVERIFY2(lessons->viewPage(entry.view ? *entry.view : chargpt::LessonView::Runs)->isVisible(),
                     qPrintable(name));
        }
    }

    // A control in the scrolled settings, out of sight: scrolled into sight and
    // ringed where it is shown, never over the panels around it.
    void ringsAControlScrolledIntoSight() {
        MainWindow window(&languages_);
        window.resize(1200, 700);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window_driver::waitForCorpus(window));
        QWidget* threads = window.settingsPanel()->findChild<QWidget*>(QStringLiteral("threads"));
        QVERIFY(threads);
        QScrollArea* scroll = nullptr;
        for (QWidget* w = threads->parentWidget(); w && !scroll; w = w->parentWidget())
            scroll = qobject_cast<QScrollArea*>(w);
        QVERIFY(scroll);
        auto rectIn = [&](QWidget* w) { return QRect(w->mapTo(&window, QPoint(0, 0)), w->size()); };
        QVERIFY(!rectIn(scroll->viewport()).contains(rectIn(threads)));  // below the panel's fold at this height
        const QByteArray lesson =
            "{\"format\": \"chargpt-lesson\", \"version\": 1, \"title\": \"T\", \"steps\": [{\"title\": \"a\", "
            "\"text\": \"b\", \"view\": \"training\", \"control\": \"threads\"}]}";
        QVERIFY(window.lessons()->openLessonBytes(lesson, QStringLiteral("threads.json")));
        ControlHighlight* ring = window.lessons()->highlight();
        QCOMPARE(ring->target(), threads);
        QVERIFY(QTest::qWaitFor([&] { return rectIn(scroll->viewport()).contains(rectIn(threads)); }, 2000));
        QVERIFY(ring->isVisible());
        QVERIFY(ring->geometry().contains(rectIn(threads)));
        // Scrolled away again by the reader: the ring shrinks to what is shown, then goes.
        scroll->verticalScrollBar()->setValue(0);
        QVERIFY(QTest::qWaitFor([&] { return !ring->isVisible(); }, 2000));
    }

    void speaksChinese() {
        MainWindow window(&languages_);
        window.show();
        QVERIFY(window_driver::waitForCorpus(window));
        const QString path = LessonController::builtinLessons().first();
        QVERIFY(window.lessons()->openLesson(path));
        languages_.setLanguage(QStringLiteral("zh_CN"), LanguageManager::Remember::No);
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const auto lesson = chargpt::readLesson(file.readAll().toStdString(), "lesson");
        const QString chinese = QString::fromStdString(lesson.steps[0].text.zh_CN);
        QVERIFY(QTest::qWaitFor([&] { return window.lessons()->pane()->stepText() == chinese; }, 5000));
        QCOMPARE(builtinAction(window, path)->text(), QString::fromStdString(lesson.title.zh_CN));
        QCOMPARE(window.lessons()->dock()->windowTitle(), QStringLiteral("课程"));
    }

    // A step that says which button to press names it as the button reads,
    // in either language ("Start", or "Continue" once a model is trained).
    void buttonNamesComeFromTheButton() {
        MainWindow window(&languages_);
        window.show();
        QVERIFY(window_driver::waitForCorpus(window));
        QString watching;
        for (const QString& path : LessonController::builtinLessons())
            if (path.contains(QLatin1String("watching"))) watching = path;
        QVERIFY(window.lessons()->openLesson(watching));
        auto* start = window.findChild<QAbstractButton*>(QStringLiteral("startButton"));
        QVERIFY(start);
        const QString english = window.lessons()->pane()->stepText();
        QVERIFY2(english.startsWith(QStringLiteral("Press %1.").arg(start->text())), qPrintable(english));
        languages_.setLanguage(QStringLiteral("zh_CN"), LanguageManager::Remember::No);
        // The button is reworded first, then the step reads its new label.
        QVERIFY2(QTest::qWaitFor(
                     [&] {
                         return start->text() != QStringLiteral("Start") &&
                                window.lessons()->pane()->stepText().startsWith(
                                    QStringLiteral("按“%1”。").arg(start->text()));
                     },
                     5000),
                 qPrintable(start->text() + QLatin1Char('|') + window.lessons()->pane()->stepText()));
        QVERIFY(!window.lessons()->pane()->stepText().contains(QLatin1Char('{')));
    }

    void presentationMode() {
        MainWindow window(&languages_);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window_driver::waitForCorpus(window));
        QVERIFY(window.lessons()->openLesson(LessonController::builtinLessons().first()));
        const qreal normalSize = QApplication::font().pointSizeF();
        auto* plot = window.lossPlot()->findChild<QCustomPlot*>();
        QVERIFY(plot);
        const qreal tickSize = plot->xAxis->tickLabelFont().pointSizeF();
        // Fonts set apart from the application's grow too: the Generate tab's
        // text and its chart's characters (sized in pixels: no point size to
        // scale, once logged as "Point size <= 0").
        QPlainTextEdit* output = window.generationView()->outputEdit();
        const qreal outputSize = output->font().pointSizeF();
        QCustomPlot* candidates = nullptr;
        for (QCustomPlot* p : window.generationView()->findChildren<QCustomPlot*>())
            if (p->xAxis->tickLabelFont().pixelSize() > 0) candidates = p;
        QVERIFY(candidates);
        const int candidatePixels = candidates->xAxis->tickLabelFont().pixelSize();
        QTest::failOnWarning(QRegularExpression(QStringLiteral("Point size")));
        LessonController::setPresentationScale(200);
        window.lessons()->presentationAction()->trigger();
        QCOMPARE(output->font().pointSizeF(), outputSize * 2.0);
        QCOMPARE(candidates->xAxis->tickLabelFont().pixelSize(), candidatePixels * 2);
        QVERIFY(window.lessons()->isPresenting());
        QVERIFY(QTest::qWaitFor([&] { return window.isFullScreen(); }, 5000));
        QVERIFY(window.menuBar()->isHidden());
        QVERIFY(window.statusBar()->isHidden());
        QCOMPARE(QApplication::font().pointSizeF(), normalSize * 2.0);
        QCOMPARE(plot->xAxis->tickLabelFont().pointSizeF(), tickSize * 2.0);
        // The lesson's titles grow with the type.
        auto* title = window.lessons()->pane()->findChild<QLabel*>(QStringLiteral("lessonTitle"));
        QVERIFY(QTest::qWaitFor([&] { return title->font().pointSizeF() == normalSize * 2.0; }, 2000));
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        window.tabs()->setFocus();
        QTest::keyClick(window.tabs(), Qt::Key_Right);
        QCOMPARE(window.lessons()->pane()->stepIndex(), 1);
        QTest::keyClick(window.tabs(), Qt::Key_PageDown);
        QCOMPARE(window.lessons()->pane()->stepIndex(), 2);
        QTest::keyClick(window.tabs(), Qt::Key_Left);
        QCOMPARE(window.lessons()->pane()->stepIndex(), 1);
        QTest::keyClick(window.tabs(), Qt::Key_Escape);
        QVERIFY(!window.lessons()->isPresenting());
        QVERIFY(QTest::qWaitFor([&] { return !window.isFullScreen(); }, 5000));
        QVERIFY(!window.menuBar()->isHidden());
        QVERIFY(!window.statusBar()->isHidden());
        QCOMPARE(QApplication::font().pointSizeF(), normalSize);
        QCOMPARE(plot->xAxis->tickLabelFont().pointSizeF(), tickSize);
        QCOMPARE(output->font().pointSizeF(), outputSize);
        QCOMPARE(candidates->xAxis->tickLabelFont().pixelSize(), candidatePixels);
        // The type size is a setting of the Lessons menu, kept for the next time.
        QAction* size250 = nullptr;
        for (QAction* a : window.findChildren<QAction*>())
            if (a->text() == QStringLiteral("250%")) size250 = a;
        QVERIFY(size250);
        size250->trigger();
        QCOMPARE(LessonController::presentationScale(), 250);
        window.lessons()->presentationAction()->trigger();
        QCOMPARE(QApplication::font().pointSizeF(), normalSize * 2.5);
        window.lessons()->presentationAction()->trigger();
        QCOMPARE(QApplication::font().pointSizeF(), normalSize);
        // Out of presentation mode the arrows are the views' own again.
        QTest::keyClick(window.tabs(), Qt::Key_Right);
        QCOMPARE(window.lessons()->pane()->stepIndex(), 1);
    }

private:
    LanguageManager languages_;
};

CHARGPT_TEST_MAIN(TestLessons)
}  // namespace tst_lessons
#include "tst_lessons.moc"
