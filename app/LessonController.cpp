// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/LessonController.h"

#include <QAbstractButton>
#include <QActionGroup>
#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QPointer>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QShortcut>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>

#include <algorithm>

#include <qcustomplot.h>

#include "model/lesson/Lesson.h"
#include "model/runtime/Error.h"
#include "widgets/ControlHighlight.h"
#include "widgets/LessonAnswers.h"
#include "widgets/LessonPane.h"

namespace {

const char* kScaleKey = "presentation/scale";

// The tab widget that holds `page` directly, and so can bring it to the front.
QTabWidget* tabsOf(QWidget* page) {
    for (QWidget* w = page ? page->parentWidget() : nullptr; w; w = w->parentWidget()) {
        if (auto* tabs = qobject_cast<QTabWidget*>(w)) return tabs;
        if (!qobject_cast<QStackedWidget*>(w)) return nullptr;  // a tab's page sits in the tab widget's stack
    }
    return nullptr;
}

void bringToFront(QWidget* page) {
    if (auto* tabs = tabsOf(page)) tabs->setCurrentWidget(page);
}

}  // namespace

LessonController::LessonController(QMainWindow* window, const std::function<View(chargpt::LessonView)>& views,
                                   Sources sources)
    : QObject(window), window_(window), sources_(std::move(sources)) {
    for (const auto& entry : chargpt::lessonViews()) views_[entry.id] = views(entry.id);
    pane_ = new LessonPane;
    dock_ = new QDockWidget(window);
    dock_->setObjectName(QStringLiteral("lessonDock"));
    dock_->setWidget(pane_);
    window->addDockWidget(Qt::BottomDockWidgetArea, dock_);
    dock_->hide();
    highlight_ = new ControlHighlight(window);
    connect(pane_, &LessonPane::stepShown, this, &LessonController::showStep);
    // "Press {startButton}" reads the button's own label, "Start" or "Continue".
    pane_->setControlLabels([this](const QString& name) {
        const auto id = chargpt::findLessonControl(name.toStdString());
        const auto* button = qobject_cast<const QAbstractButton*>(id ? control(*id) : nullptr);
        return button ? QString(button->text()).remove(QLatin1Char('&')) : QString();
    });
    connect(pane_, &LessonPane::answerRequested, this, &LessonController::answer);
    connect(dock_, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (!visible && !dock_->isVisible()) highlight_->setTarget(nullptr);
    });

    presentation_ = new QAction(this);
    presentation_->setCheckable(true);
    presentation_->setShortcut(QKeySequence(Qt::Key_F5));
    connect(presentation_, &QAction::toggled, this, &LessonController::setPresenting);
    window->addAction(presentation_);  // its key works while the menu bar is hidden
    // The lesson's steps on the arrow keys and page keys while presenting
    // (a spin box or a text field with focus keeps its own arrows).
    for (const auto& [key, forward] : {std::pair{Qt::Key_Right, true}, {Qt::Key_PageDown, true},
                                       {Qt::Key_Left, false}, {Qt::Key_PageUp, false}}) {
        auto* shortcut = new QShortcut(QKeySequence(key), window);
        shortcut->setEnabled(false);
        connect(shortcut, &QShortcut::activated, pane_, forward ? &LessonPane::next : &LessonPane::back);
        stepKeys_ << shortcut;
    }
    auto* leave = new QShortcut(QKeySequence(Qt::Key_Escape), window);
    connect(leave, &QShortcut::activated, this, [this] {
        if (isPresenting()) presentation_->setChecked(false);
    });
}

QStringList LessonController::builtinLessons() {
    QStringList paths;
    const QDir dir(QStringLiteral(":/lessons"));
    for (const QString& name : dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name))
        paths << dir.filePath(name);
    return paths;
}

void LessonController::fillMenu(QMenu* menu) {
    menu_ = menu;
    for (const QString& path : builtinLessons()) {
        auto* action = menu->addAction(QString());
        action->setData(path);
        connect(action, &QAction::triggered, this, [this, path] { openLesson(path); });
        builtinActions_ << action;
    }
    menu->addSeparator();
    openFile_ = menu->addAction(QString());
    connect(openFile_, &QAction::triggered, this, &LessonController::chooseFile);
    menu->addSeparator();
    menu->addAction(presentation_);
    // The one setting of presentation mode: how much larger the type is.
    scaleMenu_ = menu->addMenu(QString());
    auto* scales = new QActionGroup(this);
    for (int percent : {0, 125, 150, 200, 250, 300}) {  // 0: from the screen
        auto* action = scaleMenu_->addAction(percent > 0 ? QStringLiteral("%1%").arg(percent) : QString());
        if (percent == 0) fitScreen_ = action;
        action->setCheckable(true);
        action->setChecked(percent == presentationScale());
        scales->addAction(action);
        connect(action, &QAction::triggered, this, [this, percent] {
            const bool presenting = isPresenting();
            if (presenting) setPresenting(false);  // back to the usual type, then at the new size
            setPresentationScale(percent);
            if (presenting) setPresenting(true);
        });
    }
}

void LessonController::retranslate(const QString& language) {
    language_ = language;
    pane_->setLanguage(language);
    // Once every widget has its new words: the buttons the lesson names.
    QTimer::singleShot(0, pane_, &LessonPane::refreshTexts);
    dock_->setWindowTitle(tr("Lesson"));
    if (menu_) menu_->setTitle(tr("L&essons"));
    if (openFile_) openFile_->setText(tr("Open a Lesson File…"));
    presentation_->setText(tr("Presentation Mode"));
    if (scaleMenu_) scaleMenu_->setTitle(tr("Presentation Type Size"));
    if (fitScreen_) fitScreen_->setText(tr("To Fit the Screen"));
    for (auto* action : builtinActions_) {
        // A built-in lesson's title, read from the lesson itself.
        QFile file(action->data().toString());
        QString title = QFileInfo(file).baseName();
        if (file.open(QIODevice::ReadOnly)) {
            try {
                const auto lesson = chargpt::readLesson(file.readAll().toStdString(), title.toStdString());
                title = QString::fromStdString(lesson.title.in(language.toStdString()));
            } catch (const chargpt::Error&) {
            }
        }
        title.replace(QLatin1Char('&'), QStringLiteral("&&"));
        action->setText(title);
    }
}

bool LessonController::openLesson(const QString& path) {
    if (path.startsWith(QLatin1String(":/"))) {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly)) {
            emit problem(tr("The built-in lesson %1 is missing.").arg(path));
            return false;
        }
        return openLessonBytes(file.readAll(), QFileInfo(path).fileName());
    }
    try {
        use(chargpt::readLessonFile(QFile::encodeName(path).toStdString()));
        return true;
    } catch (const chargpt::Error& e) {
        emit problem(QString::fromStdString(e.what()));
        return false;
    }
}

bool LessonController::openLessonBytes(const QByteArray& bytes, const QString& name) {
    try {
        use(chargpt::readLesson(bytes.toStdString(), name.toStdString()));
        return true;
    } catch (const chargpt::Error& e) {
        emit problem(QString::fromStdString(e.what()));
        return false;
    }
}

void LessonController::use(const chargpt::Lesson& lesson) {
    // First: the dock takes room from the views the step then scrolls in.
    if (isPresenting())
        arrangeForPresenting();
    else
        showDock();
    pane_->setLesson(lesson);
}

QWidget* LessonController::viewPage(chargpt::LessonView view) const {
    const auto it = views_.find(view);
    if (it == views_.end()) return nullptr;
    return it->second.subPage ? it->second.subPage : it->second.page;
}

QWidget* LessonController::control(chargpt::LessonControl control) const {
    const auto& entry = chargpt::lessonControlEntry(control);
    QWidget* place = entry.view ? viewPage(*entry.view) : window_;
    const QString name = QString::fromStdString(entry.name);
    if (!place) return nullptr;
    if (place->objectName() == name) return place;
    return place->findChild<QWidget*>(name);
}

void LessonController::showStep(int index) {
    const auto& lesson = pane_->lesson();
    if (index < 0 || size_t(index) >= lesson.steps.size()) return;
    const auto& step = lesson.steps[size_t(index)];
    if (const auto it = step.view ? views_.find(*step.view) : views_.end(); it != views_.end()) {
        bringToFront(it->second.page);
        if (it->second.subPage) bringToFront(it->second.subPage);
        // A page of a window of its own (the why window's patching lab): that window, shown.
        if (QWidget* own = it->second.page->window(); own != window_) {
            own->show();
            own->raise();
        }
    }
    QWidget* target = step.control ? control(*step.control) : nullptr;
    if (isPresenting()) arrangeForPresenting(target);
    highlight_->setTarget(target);
    // A control in a scrolled panel (the settings) is scrolled into sight, once
    // the layouts have settled (a dock just shown takes room from the views).
    QTimer::singleShot(0, this, [target = QPointer<QWidget>(target)] {
        for (QWidget* w = target ? target->parentWidget() : nullptr; w; w = w->parentWidget()) {
            if (auto* scroll = qobject_cast<QScrollArea*>(w)) scroll->ensureWidgetVisible(target);
        }
    });
}

void LessonController::answer(chargpt::LessonAnswerId id) {
    pane_->showAnswer(lesson_answers::compute(id, sources_ ? sources_() : lesson_answers::Inputs()));
}

void LessonController::chooseFile() {
    QSettings settings;
    const QString folder = settings.value(QStringLiteral("lessons/folder")).toString();
    const QString path = QFileDialog::getOpenFileName(window_, tr("Open a Lesson"), folder,
                                                      tr("Lessons (*.json);;All files (*)"));
    if (path.isEmpty()) return;
    settings.setValue(QStringLiteral("lessons/folder"), QFileInfo(path).absolutePath());
    openLesson(path);
}

void LessonController::showDock() {
    if (dock_->isVisible()) return;
    dock_->show();
    window_->resizeDocks({dock_}, {290}, Qt::Vertical);
}

Qt::DockWidgetArea LessonController::dockArea() const { return window_->dockWidgetArea(dock_); }

bool LessonController::isPresenting() const { return presentation_->isChecked(); }

int LessonController::presentationScale() {
    const int percent = QSettings().value(QLatin1String(kScaleKey), 0).toInt();
    return percent <= 0 ? 0 : std::clamp(percent, 100, 300);
}

void LessonController::setPresentationScale(int percent) {
    QSettings().setValue(QLatin1String(kScaleKey), percent <= 0 ? 0 : std::clamp(percent, 100, 300));
}

int LessonController::presentationScaleOn(const QScreen* screen) {
    if (const int chosen = presentationScale(); chosen > 0) return chosen;
    const double lines = screen ? screen->geometry().height() : 1080.0;
    return std::clamp(int(std::lround(150.0 * lines / 1080.0 / 25.0)) * 25, 125, 300);
}

void LessonController::setPresenting(bool on) {
    if (presentation_->isChecked() != on) {
        presentation_->setChecked(on);  // comes back here through toggled
        return;
    }
    for (auto* shortcut : stepKeys_) shortcut->setEnabled(on);
    if (on) {
        geometryBefore_ = window_->saveGeometry();
        stateBefore_ = window_->saveState();
        featuresBefore_ = dock_->features();
        dock_->setFeatures(QDockWidget::NoDockWidgetFeatures);  // in place: no float or close buttons
        // The splitters' parts ask more room at the larger type: given it
        // once every widget has its new type and the layouts their new sizes,
        // and on each page shown.
        QTimer::singleShot(0, this, [this] {
            if (!isPresenting()) return;
            measureAgain(window_);
            reflowPages();
            refitSplitters();
            arrangeForPresenting(highlight_->target());  // the pane as wide as the reflowed views leave
        });
        if (auto* tabs = window_->findChild<QTabWidget*>(QStringLiteral("tabs")))
            tabs->installEventFilter(this);
        for (QTabWidget* tabs : window_->findChildren<QTabWidget*>())
            tabTurns_ << connect(tabs, &QTabWidget::currentChanged, this,
                                 [this] { QTimer::singleShot(0, this, &LessonController::refitSplitters); });
        window_->menuBar()->hide();
        if (window_->statusBar()) window_->statusBar()->hide();
        window_->showFullScreen();
        // Then the larger type: grown first, the window would have been
        // larger than before when the window system gives it back.
        scale_.apply(window_, presentationScaleOn(window_->screen()) / 100.0);
        arrangeForPresenting(highlight_->target());
    } else {
        if (auto* tabs = window_->findChild<QTabWidget*>(QStringLiteral("tabs")))
            tabs->removeEventFilter(this);
        reflow_.restore();
        scale_.restore();
        for (const QMetaObject::Connection& turn : std::as_const(tabTurns_)) disconnect(turn);
        tabTurns_.clear();
        dock_->setFeatures(featuresBefore_);
        window_->menuBar()->show();
        if (window_->statusBar()) window_->statusBar()->show();
        if (sidePanel_) sidePanel_->show();
        window_->setWindowState(window_->windowState() & ~Qt::WindowFullScreen);
        // The lesson pane below the views at its height, and the layouts'
        // least sizes at the usual type, first: else the pane on the left and
        // the larger type would hold the window larger than it was.
        window_->restoreState(stateBefore_);
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        // The size and place it had, maximised or not.
        if (!window_->restoreGeometry(geometryBefore_)) window_->showNormal();
        // Once the window system has taken it out of full screen, which may
        // put back the size it had when it went in.
        QTimer::singleShot(0, this, [this, geometry = geometryBefore_] {
            if (isPresenting()) return;
            measureAgain(window_);  // once every widget has its usual type back
            QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
            window_->restoreGeometry(geometry);
        });
        if (pane_->hasLesson()) showDock();
    }
}

void LessonController::reflowPages() {
    auto* tabs = window_->findChild<QTabWidget*>(QStringLiteral("tabs"));
    const QScreen* screen = window_->screen();
    if (!tabs || !screen) return;
    QList<QWidget*> pages;
    for (int i = 0; i < tabs->count(); ++i) pages << tabs->widget(i);
    // The width the screen leaves the views beside what else the window
    // shows at its least, and beside a lesson pane of about a third of it.
    const QSize size = screen->geometry().size();
    const QSize besides = window_->minimumSizeHint() - tabs->minimumSizeHint();
    reflow_.apply(pages, QSize(std::min(size.width() - besides.width(), size.width() * 7 / 10 - 40),
                               size.height() - besides.height()));
    measureAgain(window_);
}

void LessonController::refitSplitters() {
    if (!isPresenting()) return;
    // A splitter keeps its parts' sizes until it is resized: set again, each
    // part gets at least what it asks (a hidden page's sizes are not known yet).
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    for (QSplitter* splitter : window_->findChildren<QSplitter*>()) {  // the outer ones first
        if (!splitter->isVisible()) continue;
        const bool vertical = splitter->orientation() == Qt::Vertical;
        QList<int> sizes = splitter->sizes();
        // What each part needs: its least size, and a wrapped text's height
        // at its width (a splitter knows only the former).
        QList<int> needs;
        for (int i = 0; i < splitter->count(); ++i) {
            const QWidget* part = splitter->widget(i);
            const QSize least = part->minimumSizeHint().expandedTo(part->minimumSize());
            int need = vertical ? least.height() : least.width();
            if (vertical && part->hasHeightForWidth())
                need = std::max(need, part->heightForWidth(part->width()));
            needs << (sizes[i] == 0 ? 0 : need);  // a part the user collapsed stays so
        }
        for (int i = 0; i < sizes.size(); ++i)
            while (sizes[i] < needs[i]) {  // from the part with the most to spare
                int donor = -1;
                for (int j = 0; j < sizes.size(); ++j)
                    if (j != i && sizes[j] > needs[j] &&
                        (donor < 0 || sizes[j] - needs[j] > sizes[donor] - needs[donor]))
                        donor = j;
                if (donor < 0) break;
                const int moved = std::min(needs[i] - sizes[i], sizes[donor] - needs[donor]);
                sizes[i] += moved;
                sizes[donor] -= moved;
            }
        if (sizes != splitter->sizes()) splitter->setSizes(sizes);
    }
}

bool LessonController::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::LayoutRequest && isPresenting() && pane_->hasLesson()) {
        const auto* tabs = qobject_cast<QWidget*>(watched);
        if (tabs && tabs->width() < tabs->minimumSizeHint().width())
            arrangeForPresenting(highlight_->target());
    }
    return QObject::eventFilter(watched, event);
}

void LessonController::arrangeForPresenting(QWidget* target) {
    const bool lesson = pane_->hasLesson();
    if (lesson) {
        if (window_->dockWidgetArea(dock_) != Qt::LeftDockWidgetArea)
            window_->addDockWidget(Qt::LeftDockWidgetArea, dock_);
        dock_->show();
        // About a third of the screen: the lesson's text at the larger type,
        // the views beside it; at most what the views leave at their least.
        const QRect screen = window_->screen() ? window_->screen()->geometry() : window_->geometry();
        const QWidget* views = window_->centralWidget();
        const auto* tabs = window_->findChild<QTabWidget*>(QStringLiteral("tabs"));
        const int least = std::max(views ? views->minimumSizeHint().width() : 0,
                                   tabs ? tabs->minimumSizeHint().width() : 0);  // its row of tabs, whole
        const int left = screen.width() - least - 8;
        const int width = std::max(dock_->minimumSizeHint().width(), std::min(screen.width() * 3 / 10, left));
        window_->resizeDocks({dock_}, {width}, Qt::Horizontal);
    }
    if (sidePanel_) sidePanel_->setVisible(!lesson || (target && sidePanel_->isAncestorOf(target)));
}
