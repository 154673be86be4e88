// SPDX-License-Identifier: GPL-3.0-or-later
// Presentation mode as a projector shows it: the window full screen on a
// 1280x720 and on a 1920x1080 screen (presentation-screens.json), in English
// and in Chinese, a lesson open in the side panel's place; on every tab and
// sub-tab and at every step of the lesson, no widget shown is cut off by its
// parent or squeezed below the least size it asks for. On leaving, the window
// has its place, exact size and panels back, and every plot (each a Plot) its
// fonts exactly as they were. With CHARGPT_PRESENTATION_SHOTS
// set to a folder, each page seen is saved there as a PNG to look at.
#include <QAbstractScrollArea>
#include <QDir>
#include <QDockWidget>
#include <QLabel>
#include <QLayout>
#include <QMenuBar>
#include <QRegularExpression>
#include <QScreen>
#include <QSplitter>
#include <QTabWidget>
#include <QWindow>

#include "PlotFonts.h"
#include "TestProgram.h"
#include "WindowDriver.h"
#include "app/LessonController.h"
#include "app/SidePanel.h"
#include "widgets/LessonPane.h"
#include "widgets/Plot.h"

namespace tst_presentation {

namespace {

// Whether `widget` sits in a scroll area's viewport (between it and `top`): its
// contents scroll, and a part of them out of sight is not cut off.
bool scrolled(const QWidget* widget, const QWidget* top) {
    for (const QWidget* w = widget->parentWidget(); w && w != top; w = w->parentWidget()) {
        const auto* area = qobject_cast<const QAbstractScrollArea*>(w->parentWidget());
        if (area && area->viewport() == w) return true;
    }
    return false;
}

bool inLayout(const QLayout* layout, const QWidget* widget) {
    for (int i = 0; layout && i < layout->count(); ++i) {
        QLayoutItem* item = layout->itemAt(i);
        if (item->widget() == widget || inLayout(item->layout(), widget)) return true;
    }
    return false;
}

// Whether `widget`'s place is given by a layout, a splitter or a tab widget
// (whose sizes honour what it asks), not by the widget it is part of (a spin
// box's line edit, a table's header, a scroll bar).
bool laidOut(const QWidget* widget) {
    const QWidget* parent = widget->parentWidget();
    return inLayout(parent->layout(), widget) || qobject_cast<const QSplitter*>(parent) ||
           qobject_cast<const QTabWidget*>(parent);
}

// The least size `widget` asks of its layout: its minimum size where one is
// set, else its minimum size hint (a wrapped text's height at its width), in
// the directions its size policy does not let the layout ignore.
QSize least(const QWidget* widget) {
    const QSize hint = widget->minimumSizeHint();
    const QSizePolicy policy = widget->sizePolicy();
    int width = policy.horizontalPolicy() == QSizePolicy::Ignored ? 0 : std::max(0, hint.width());
    int height = policy.verticalPolicy() == QSizePolicy::Ignored ? 0 : std::max(0, hint.height());
    if (widget->hasHeightForWidth() && policy.verticalPolicy() != QSizePolicy::Ignored)
        height = std::max(0, widget->heightForWidth(widget->width()));
    if (widget->minimumWidth() > 0) width = widget->minimumWidth();
    if (widget->minimumHeight() > 0) height = widget->minimumHeight();
    return {width, height};
}

QString describe(const QWidget* widget) {
    QString name = QString::fromLatin1(widget->metaObject()->className());
    if (!widget->objectName().isEmpty()) name += QLatin1Char('#') + widget->objectName();
    const QWidget* named = widget->parentWidget();
    while (named && named->objectName().isEmpty()) named = named->parentWidget();
    if (named) name += QStringLiteral(" in ") + named->objectName();
    return name;
}

// Every widget shown in `window` that is cut off or squeezed, one line each.
QStringList layoutProblems(QWidget* window) {
    QStringList problems;
    for (QWidget* widget : window->findChildren<QWidget*>()) {
        if (!widget->isVisible() || widget->isWindow() || scrolled(widget, window) || !laidOut(widget))
            continue;
        const QWidget* parent = widget->parentWidget();
        const QRect geometry = widget->geometry();
        if (!parent->rect().contains(geometry))
            problems << QStringLiteral("%1 cut off: %2,%3 %4x%5 in %6x%7")
                            .arg(describe(widget))
                            .arg(geometry.x())
                            .arg(geometry.y())
                            .arg(geometry.width())
                            .arg(geometry.height())
                            .arg(parent->width())
                            .arg(parent->height());
        const QSize smallest = least(widget);
        if (widget->width() < smallest.width() || widget->height() < smallest.height())
            problems << QStringLiteral("%1 squeezed: %2x%3, asks at least %4x%5")
                            .arg(describe(widget))
                            .arg(widget->width())
                            .arg(widget->height())
                            .arg(smallest.width())
                            .arg(smallest.height());
    }
    return problems;
}

void settle() {
    for (int i = 0; i < 4; ++i) {
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        QTest::qWait(10);
    }
}

// Shows each page of `tabs` in turn, and each page of the tab widgets on it,
// and gathers what is wrong on each as "tab: problem".
// Saves what `window` shows as `name`.png in CHARGPT_PRESENTATION_SHOTS, when set.
void shoot(QWidget* window, const QString& name) {
    const QString folder = qEnvironmentVariable("CHARGPT_PRESENTATION_SHOTS");
    if (folder.isEmpty()) return;
    QString file = name;
    file.replace(QRegularExpression(QStringLiteral("[^\\w]+")), QStringLiteral("_"));
    window->grab().save(QDir(folder).filePath(file + QStringLiteral(".png")));
}

void visit(QTabWidget* tabs, QWidget* window, const QString& where, QStringList& problems) {
    for (int i = 0; i < tabs->count(); ++i) {
        tabs->setCurrentIndex(i);
        settle();
        const QString here = where + QLatin1Char('/') + tabs->tabText(i).remove(QLatin1Char('&'));
        for (const QString& problem : layoutProblems(window)) {
            const QString line = here + QStringLiteral(": ") + problem;
            if (!problems.contains(line)) {
                qWarning().noquote() << line;
                problems << line;
            }
        }
        shoot(window, here);  // after: a picture lays out what it paints, as no user action does
        for (QTabWidget* inner : tabs->widget(i)->findChildren<QTabWidget*>())
            if (inner->isVisible()) visit(inner, window, here, problems);
    }
}

}  // namespace

class TestPresentation : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { window_driver::initTestApplication(QStringLiteral("tst_presentation")); }
    void init() { window_driver::resetSettingsAndLanguage(languages_); }

    void fitsTheScreen_data() {
        QTest::addColumn<QString>("language");
        QTest::addColumn<QSize>("screen");
        for (const char* language : {"en", "zh_CN"})
            for (const QSize size : {QSize(1280, 720), QSize(1920, 1080)})
                QTest::addRow("%s %dx%d", language, size.width(), size.height())
                    << QString::fromLatin1(language) << size;
    }

    void fitsTheScreen() {
        QFETCH(QString, language);
        QFETCH(QSize, screen);
        QTest::failOnWarning(
            QRegularExpression(QStringLiteral("Point size")));  // no font scaled to 0 or less
        languages_.setLanguage(language, LanguageManager::Remember::No);
        // The projector: one of the two screens of presentation-screens.json.
        QScreen* projector = nullptr;
        for (QScreen* s : QGuiApplication::screens())
            if (s->geometry().size() == screen) projector = s;
        QVERIFY2(projector,
                 "no screen of that size: run with QT_QPA_PLATFORM=offscreen:configfile="
                 "tests/gui/presentation-screens.json, as ctest does");
        MainWindow window(&languages_);
        window.showNormal();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.windowHandle()->setScreen(projector);
        window.setGeometry(QRect(projector->geometry().topLeft() + QPoint(40, 30), QSize(1000, 640)));
        QVERIFY(QTest::qWaitFor([&] { return window.screen() == projector; }, 2000));
        QVERIFY(window_driver::waitForCorpus(window));
        auto* side = window.findChild<SidePanel*>();
        QVERIFY(side);
        QVERIFY(window.lessons()->openLesson(LessonController::builtinLessons().first()));
        QCOMPARE(window.lessons()->dockArea(), Qt::BottomDockWidgetArea);
        // The pane below the views makes the window as large as they need together.
        QVERIFY(QTest::qWaitFor(
            [&] {
                settle();
                const QSize least = window.minimumSizeHint();
                return window.width() >= least.width() && window.height() >= least.height();
            },
            5000));

        const QRect before = window.geometry();
        // Every plot is a Plot, whose type presentation mode scales; each
        // plot's fonts as they are, to compare on leaving.
        const QList<QCustomPlot*> plots = window.findChildren<QCustomPlot*>();
        QVERIFY(plots.size() >= 8);
        QList<QList<std::pair<QString, QFont>>> plotFonts;
        for (QCustomPlot* plot : plots) {
            QVERIFY2(dynamic_cast<Plot*>(plot), qPrintable(describe(plot)));
            plotFonts << plot_fonts::fontsOf(plot);
        }
        window.lessons()->presentationAction()->trigger();
        QVERIFY(QTest::qWaitFor([&] { return window.isFullScreen(); }, 5000));
        const bool fills = QTest::qWaitFor([&] { return window.geometry() == projector->geometry(); }, 5000);
        QStringList widest;  // what asks for more than the screen, when something does
        for (int i = 0; !fills && i < window.tabs()->count(); ++i)
            widest << QStringLiteral("%1 %2x%3")
                          .arg(window.tabs()->tabText(i))
                          .arg(window.tabs()->widget(i)->minimumSizeHint().width())
                          .arg(window.tabs()->widget(i)->minimumSizeHint().height());
        QVERIFY2(fills, qPrintable(QStringLiteral("%1x%2, least %3x%4; pages: %5")
                                       .arg(window.width())
                                       .arg(window.height())
                                       .arg(window.minimumSizeHint().width())
                                       .arg(window.minimumSizeHint().height())
                                       .arg(widest.join(QStringLiteral(", ")))));
        settle();
        QCOMPARE(window.size(), screen);  // nothing asks for more than the screen
        // The pane gives the views the width their row of tabs asks at the
        // larger type, once the reflowed pages have measured it.
        QVERIFY(QTest::qWaitFor(
            [&] {
                settle();
                return window.tabs()->width() >= window.tabs()->minimumSizeHint().width();
            },
            5000));
        // The lesson pane in the side panel's place.
        QVERIFY(window.lessons()->dock()->isVisible());
        QCOMPARE(window.lessons()->dockArea(), Qt::LeftDockWidgetArea);
        QVERIFY(!side->isVisible());
        QStringList problems;
        const QString where =
            QStringLiteral("%1 %2x%3").arg(language).arg(screen.width()).arg(screen.height());
        visit(window.tabs(), &window, where, problems);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
        // Each step of the lesson, on its view, with the pane beside it.
        LessonPane* pane = window.lessons()->pane();
        for (int step = 0; step < pane->lesson().steps.size(); ++step) {
            pane->showStep(step);
            settle();
            for (const QString& problem : layoutProblems(&window))
                problems << QStringLiteral("step %1: %2").arg(step + 1).arg(problem);
            shoot(&window, where + QStringLiteral(" step %1").arg(step + 1));
        }
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));

        window.lessons()->presentationAction()->trigger();
        QVERIFY(QTest::qWaitFor([&] { return !window.isFullScreen(); }, 5000));
        // Where it was, exactly as large as it was.
        const QRect expected = before;
        QVERIFY2(QTest::qWaitFor([&] { return window.geometry() == expected; }, 5000),
                 qPrintable(QStringLiteral("%1,%2 %3x%4, expected %5,%6 %7x%8")
                                .arg(window.x())
                                .arg(window.y())
                                .arg(window.width())
                                .arg(window.height())
                                .arg(expected.x())
                                .arg(expected.y())
                                .arg(expected.width())
                                .arg(expected.height())));
        QVERIFY(side->isVisible());
        QCOMPARE(window.lessons()->dockArea(), Qt::BottomDockWidgetArea);
        QVERIFY(!window.menuBar()->isHidden());
        // Each plot's type exactly as it was (a text item a view made while
        // presenting, such as a lesson step's, is new: those before are compared).
        for (int i = 0; i < plots.size(); ++i) {
            const auto after = plot_fonts::fontsOf(plots[i]);
            for (const auto& [name, font] : plotFonts[i]) {
                const auto same =
                    std::find_if(after.begin(), after.end(), [&](const auto& f) { return f.first == name; });
                QVERIFY2(same != after.end(), qPrintable(describe(plots[i]) + QLatin1Char(' ') + name));
                QVERIFY2(
                    same->second == font && same->second.toString() == font.toString(),
                    qPrintable(QStringLiteral("%1 %2: %3, was %4")
                                   .arg(describe(plots[i]), name, same->second.toString(), font.toString())));
            }
        }
    }

private:
    LanguageManager languages_;
};

CHARGPT_TEST_MAIN(TestPresentation)
}  // namespace tst_presentation
#include "tst_presentation.moc"
