// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Steps the GUI tests take on a MainWindow as a user would.

#include <QApplication>
#include <QComboBox>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTimer>
#include <QtTest>

#include <type_traits>

#include "app/InspectionController.h"
#include "app/LanguageManager.h"
#include "app/MainWindow.h"
#include "app/TrainingController.h"
#include "app/TrainingWorker.h"
#include "widgets/CorpusPanel.h"
#include "widgets/LossPlot.h"
#include "model/runtime/Runtime.h"
#include "widgets/SettingsPanel.h"
#include "widgets/TrainingPanel.h"

#if defined(__SANITIZE_THREAD__)
// ThreadSanitizer (scripts/setup.sh tsan) cannot see QtCore's event queue (its
// QMutex is a futex): a value handed to another thread by a queued signal would
// be reported as a race. These hooks tell it what QtCore guarantees. A signal's
// emission happens before the events it posted are delivered; and on the worker
// threads, whose signals all go to the window, what QtCore does inside the
// emission (copying the arguments into the posted event) is not checked.
// docs/RELIABILITY.md says what this leaves unchecked.
extern "C" void __tsan_acquire(void* address);
extern "C" void __tsan_release(void* address);
extern "C" void __tsan_ignore_thread_begin();
extern "C" void __tsan_ignore_thread_end();
struct QSignalSpyCallbackSet {  // as in QtCore's private qobject_p.h
    void (*signal_begin_callback)(QObject*, int, void**);
    void (*slot_begin_callback)(QObject*, int, void**);
    void (*signal_end_callback)(QObject*, int);
    void (*slot_end_callback)(QObject*, int);
};
void qt_register_signal_spy_callbacks(QSignalSpyCallbackSet* callbacks);  // exported by QtCore
#endif

namespace window_driver {

#if defined(__SANITIZE_THREAD__)
inline char eventQueueToken;  // stands for every thread's event queue
inline bool onWorkerThread() { return QThread::currentThread() != QCoreApplication::instance()->thread(); }
inline void signalBegins(QObject*, int, void**) {
    __tsan_release(&eventQueueToken);
    if (onWorkerThread())
        __tsan_ignore_thread_begin();
}
inline void signalEnds(QObject*, int) {
    if (onWorkerThread())
        __tsan_ignore_thread_end();
}
inline bool eventDelivered(void**) {
    __tsan_acquire(&eventQueueToken);
    return false;  // deliver it as usual
}
inline void teachThreadSanitizerTheEventQueue() {
    static QSignalSpyCallbackSet callbacks{signalBegins, nullptr, signalEnds, nullptr};
    qt_register_signal_spy_callbacks(&callbacks);
    QInternal::registerCallback(QInternal::EventNotifyCallback, eventDelivered);
}
#endif

// A QSignalSpy of a signal of the training worker (TrainingController::worker()),
// recorded on the GUI thread, queued as the window's own connections to it are:
// after the controller has taken the news in, so that what the test reads of
// the controller then is up to date. A QSignalSpy would record the signal on
// the worker's thread as it is emitted, beside the test's reads. Its records
// and wait() are QSignalSpy's; it hears only what is emitted after it exists.
class WorkerSpy : public QObject, public QList<QList<QVariant>> {
public:
    template <typename Sender, typename... Args>
    WorkerSpy(const Sender* sender, void (Sender::*signal)(Args...)) {
        QObject::connect(
            sender, signal, this,
            [this](Args... arguments) { append(QList<QVariant>{QVariant::fromValue(std::decay_t<Args>(arguments))...}); },
            Qt::QueuedConnection);
    }
    // Whether another record arrives within `timeout` ms.
    bool wait(int timeout = 5000) {
        const qsizetype before = size();
        return QTest::qWaitFor([&] { return size() > before; }, timeout);
    }
};

// Two intra-op threads, or OMP_NUM_THREADS when it is set: the ThreadSanitizer run
// (scripts/setup.sh tsan) sets 1, so that no OpenMP team exists, and this fails
// the test if that is not the count in force.
inline void initTestThreads() {
#if defined(__SANITIZE_THREAD__)
    teachThreadSanitizerTheEventQueue();
#endif
    const int wanted = chargpt::environmentThreads();
    QCOMPARE(chargpt::initThreads(wanted > 0 ? 0 : 2), wanted > 0 ? wanted : 2);
}

// What a window test sets up once (its initTestCase): settings and files in
// Qt's test folders, under the test's own application name, and the threads.
inline void initTestApplication(const QString& applicationName) {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("CharGPT-tests"));
    QCoreApplication::setApplicationName(applicationName);
    initTestThreads();
}

// Forgets the studio's settings, and opens the window on the Tang poems
// (29,577 characters) instead of the default corpus (the Python library, 4.7
// MB): the tests train small models fast, and opensWithDefaultCorpus checks
// the default itself.
inline void clearSettings() {
    QSettings settings;
    settings.clear();
    settings.setValue(QStringLiteral("corpus/source"), QStringLiteral("builtin:tang300"));
}

// What a window test sets up before each test function (its init): no stored
// settings (clearSettings) and the window in English.
inline void resetSettingsAndLanguage(LanguageManager& languages) {
    clearSettings();
    languages.setLanguage(QStringLiteral("en"), LanguageManager::Remember::No);
}

// Waits for the window's built-in corpus (the controller's corpus, which it
// has once the worker's corpusLoaded reached it).
// Until the loaded corpus reached the window's controller and its side panel
// alike: the worker's corpusLoaded reaches each receiver as its own queued
// call, and the panel's (which shows the corpus and enables Start) may come
// one event loop pass after the controller's.
inline bool waitForCorpus(MainWindow& window) {
    return QTest::qWaitFor(
        [&] {
            const QString& source = window.corpusInfo().source;
            return !source.isEmpty() && window.corpusPanel()->corpus().source == source;
        },
        20000);
}

inline void choosePreset(MainWindow& window, const QString& name) {
    auto* preset = window.settingsPanel()->findChild<QComboBox*>(QStringLiteral("preset"));
    QVERIFY(preset);
    const int index = preset->findData(name);
    QVERIFY(index >= 0);
    preset->setCurrentIndex(index);
    emit preset->activated(index);
}

inline void setSpin(MainWindow& window, const QString& field, int value) {
    auto* spin = qobject_cast<QSpinBox*>(window.settingsPanel()->field(field));
    QVERIFY2(spin, qPrintable(field));
    spin->setValue(value);
}

// Starts the tiny preset for `steps` steps and waits until `points` arrived.
inline void startTiny(MainWindow& window, int steps, int points) {
    choosePreset(window, QStringLiteral("tiny"));
    setSpin(window, QStringLiteral("max_steps"), steps);
    QPushButton* start = window.trainingPanel()->startButton();
    QVERIFY2(start->isEnabled(), qPrintable(window.trainingPanel()->startBlockedText()));
    WorkerSpy progress(window.training()->worker(), &TrainingWorker::progress);
    QTest::mouseClick(start, Qt::LeftButton);
    while (window.lossPlot()->trainPointCount() < points)
        QVERIFY2(progress.wait(20000), "no training progress arrived");
}

// Trains the tiny preset up to `maxSteps` steps in all and waits for the end
// of the run, which must be a finished one.
inline void trainTinyToEnd(MainWindow& window, int maxSteps) {
    choosePreset(window, QStringLiteral("tiny"));
    setSpin(window, QStringLiteral("max_steps"), maxSteps);
    QSignalSpy ended(window.training(), &TrainingController::trainingFinished);
    QPushButton* start = window.trainingPanel()->startButton();
    QVERIFY2(start->isEnabled(), qPrintable(window.trainingPanel()->startBlockedText()));
    QTest::mouseClick(start, Qt::LeftButton);
    QVERIFY2(ended.wait(120000), "training did not end");
    QCOMPARE(runEndName(ended.first().first().value<EndReason>()), runEndName(EndReason::Finished));
}

// Clicks `button` of the first modal message box that appears.
inline void answerNextMessageBox(QMessageBox::StandardButton button) {
    auto* timer = new QTimer;
    timer->setInterval(10);
    QObject::connect(timer, &QTimer::timeout, timer, [timer, button] {
        if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
            timer->stop();
            timer->deleteLater();
            box->button(button)->click();
        }
    });
    timer->start();
}

}  // namespace window_driver
