// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDockWidget>
#include <QFont>
#include <QObject>
#include <QString>
#include <QStringList>

#include <functional>
#include <map>
#include <optional>
#include <vector>

#include "model/lesson/LessonTables.h"
#include "widgets/LessonAnswers.h"
#include "widgets/PresentationReflow.h"
#include "widgets/PresentationScale.h"

class ControlHighlight;
class LessonPane;
class QAction;
class QMainWindow;
class QMenu;
class QScreen;
class QShortcut;
class QWidget;

namespace chargpt {
struct Lesson;
}

// The Lessons menu and what a lesson does in the window: the pane in a dock
// beside the views, each step's view brought to the front and its control
// ringed, each question's answer computed from what the views show (the
// learner's model), and presentation mode (full screen, larger type, the
// lesson's steps on the arrow keys, the lesson pane in the side panel's place,
// and the window as it was on leaving). The views and controls a lesson may
// name are model/lesson/LessonTables.h's; the window gives the page of each
// view, and each control is the widget of its name on its view's page (or,
// for the side panel's and the timeline's, in the window).
class LessonController : public QObject {
    Q_OBJECT

public:
    struct View {
        QWidget* page = nullptr;    // shown in the window's tabs
        QWidget* subPage = nullptr;  // and, inside it, this sub-tab (or null)
    };
    // Where the answers' inputs come from, asked as a question is revealed;
    // set by the window, from the controllers that own them.
    using Sources = std::function<lesson_answers::Inputs()>;

    // `views` gives the page of every view of chargpt::lessonViews().
    LessonController(QMainWindow* window, const std::function<View(chargpt::LessonView)>& views,
                     Sources sources);

    void fillMenu(QMenu* menu);
    // The menu's words and the lesson's language ("en", "zh_CN").
    void retranslate(const QString& language);

    // The built-in lessons, as resource paths (":/lessons/....json").
    static QStringList builtinLessons();
    // Opens a lesson (a built-in one's resource path or a file): false, and
    // `problem` with the one message saying why, when it cannot be used; then
    // the lesson shown before stays.
    bool openLesson(const QString& path);
    // Opens a lesson from its bytes; `name` names it in messages.
    bool openLessonBytes(const QByteArray& bytes, const QString& name);

    // The page a step naming `view` brings to the front: its sub-page where it has one.
    QWidget* viewPage(chargpt::LessonView view) const;
    // The widget a step naming `control` rings: the one of its name on its
    // view's page, or in the window for the side panel's and the timeline's;
    // null when there is none (a test checks there is one for each).
    QWidget* control(chargpt::LessonControl control) const;

    LessonPane* pane() const { return pane_; }
    QDockWidget* dock() const { return dock_; }
    Qt::DockWidgetArea dockArea() const;
    ControlHighlight* highlight() const { return highlight_; }
    QAction* presentationAction() const { return presentation_; }
    bool isPresenting() const;
    void setPresenting(bool on);
    // The window's side panel: while presenting a lesson, the lesson pane takes
    // its place, and it shows only for a step whose control it holds.
    void setSidePanel(QWidget* panel) { sidePanel_ = panel; }
    // Type size in presentation mode, in percent of the usual (one setting);
    // 0: chosen from the screen (presentationScaleOn).
    static int presentationScale();
    static void setPresentationScale(int percent);
    // The type size on `screen`: the one chosen, else 150% on a screen of 1080
    // lines, in proportion on others in steps of 25%, at least 125% (on 720).
    static int presentationScaleOn(const QScreen* screen);

signals:
    void problem(const QString& message);

protected:
    // While presenting: the row of views asked more width (its tabs measured
    // at the larger type), and the pane gives it.
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    // Shows `lesson` (what it names was checked as it was read).
    void use(const chargpt::Lesson& lesson);
    void showStep(int index);
    void answer(chargpt::LessonAnswerId id);
    void chooseFile();
    void showDock();
    // While presenting: the lesson pane on the left, in the side panel's place;
    // the side panel only for a step whose control (`target`) it holds.
    void arrangeForPresenting(QWidget* target = nullptr);
    void refitSplitters();
    // On a screen too narrow for a page at the larger type: its splitters
    // stacked and its rows of controls wrapped (widgets/PresentationReflow).
    void reflowPages();

    QMainWindow* window_;
    std::map<chargpt::LessonView, View> views_;
    Sources sources_;
    LessonPane* pane_ = nullptr;
    QDockWidget* dock_ = nullptr;
    ControlHighlight* highlight_ = nullptr;
    QMenu* menu_ = nullptr;
    QMenu* scaleMenu_ = nullptr;
    QAction* fitScreen_ = nullptr;  // the type size chosen from the screen
    QAction* openFile_ = nullptr;
    QAction* presentation_ = nullptr;
    QList<QAction*> builtinActions_;
    QList<QShortcut*> stepKeys_;
    PresentationScale scale_;  // the type and the plots' type while presenting
    PresentationReflow reflow_;
    QWidget* sidePanel_ = nullptr;
    // The window's geometry and docks before presenting, given back on leaving.
    QByteArray geometryBefore_;
    QByteArray stateBefore_;
    QDockWidget::DockWidgetFeatures featuresBefore_;
    QList<QMetaObject::Connection> tabTurns_;  // while presenting: each page shown refits its splitters
    QString language_ = QStringLiteral("en");
};
