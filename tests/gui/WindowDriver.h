// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Steps the GUI tests take on a MainWindow as a user would.

#include <QComboBox>
#include <QSignalSpy>
#include <QSpinBox>
#include <QtTest>

#include "MainWindow.h"
#include "SettingsPanel.h"

namespace window_driver {

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

}  // namespace window_driver
