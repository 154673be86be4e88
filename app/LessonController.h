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

#include "widgets/LessonAnswers.h"
#include "widgets/PresentationReflow.h"
#include "widgets/PresentationScale.h"

class ControlHighlight;
struct Knockout;
struct ModelAttention;
struct PatchingResult;
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
// and the window as it was on leaving). Which views a lesson may name is this
// table: a view is a page of the window's tabs, or a sub-tab of one.
class LessonController : public QObject {
    Q_OBJECT

public:
    struct View {
        QWidget* page = nullptr;    // shown in the window's tabs
        QWidget* subPage = nullptr;  // and, inside it, this sub-tab (or null)
    };
    // Where the answers' inputs come from; set by the window.
    struct Sources {
        std::function<std::vector<double>()> softmaxVector;
        std::function<const ModelAttention*()> attention;  // null when none is shown
        std::function<const Knockout*()> knockout;          // the Inside tab's knock-out table
        std::function<const CharacterAttribution*()> attribution;  // the why window's
        std::function<const PatchingResult*()> patching;           // the why window's patching lab
        std::function<lesson_answers::LossLevels()> loss;    // the run shown and its reference levels
        // The step the Attention tab shows, the run on screen and its newest step.
        std::function<lesson_answers::Measured()> shown;
    };

    LessonController(QMainWindow* window, std::map<QString, View> views, Sources sources);

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

    // The page a step naming `view` (one of chargpt::lessonViewNames()) brings
    // to the front: its sub-page where it has one; null for a name the window lacks.
    QWidget* viewPage(const QString& view) const;

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
    // Shows `lesson` when the window has what it names; else says why.
    bool use(const chargpt::Lesson& lesson, const QString& name);
    void showStep(int index);
    void answer(const QString& name);
    void chooseFile();
    void showDock();
    // While presenting: the lesson pane on the left, in the side panel's place;
    // the side panel only for a step whose control (`target`) it holds.
    void arrangeForPresenting(QWidget* target = nullptr);
    void refitSplitters();
    // On a screen too narrow for a page at the larger type: its splitters
    // stacked and its rows of controls wrapped (widgets/PresentationReflow).
    void reflowPages();
    // Which control a lesson names that the window lacks; empty when none. (Its
    // views were checked as the file was read.)
    QString missingPart(const chargpt::Lesson& lesson) const;
    QWidget* control(const QString& view, const QString& name) const;

    QMainWindow* window_;
    std::map<QString, View> views_;
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
