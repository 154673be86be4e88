// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Steps the GUI tests take on a MainWindow as a user would.

#include <QApplication>
#include <QComboBox>
#include <QMessageBox>
#include <QPushButton>
#include <QTimer>
#include <QSignalSpy>
#include <QSpinBox>
#include <QtTest>

#include "MainWindow.h"
#include "LossPlot.h"
#include "Runtime.h"
#include "SettingsPanel.h"
#include "TrainingPanel.h"

namespace window_driver {

// Two intra-op threads, or OMP_NUM_THREADS when it is set: the ThreadSanitizer run
// (scripts/setup.sh tsan) sets 1, so that no OpenMP team exists, and this fails
// the test if that is not the count in force.
inline void initTestThreads() {
    const int wanted = chargpt::environmentThreads();
    QCOMPARE(chargpt::initThreads(wanted > 0 ? 0 : 2), wanted > 0 ? wanted : 2);
}

// Waits for the window's built-in corpus.
inline bool waitForCorpus(MainWindow& window) {
    if (!window.corpusInfo().source.isEmpty())
        return true;
    QSignalSpy ready(&window, &MainWindow::corpusReady);
    return ready.wait(20000);
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
    QTest::mouseClick(start, Qt::LeftButton);
    QSignalSpy progress(&window, &MainWindow::trainingProgressed);
    while (window.lossPlot()->trainPointCount() < points)
        QVERIFY2(progress.wait(20000), "no training progress arrived");
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
