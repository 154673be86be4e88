// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <optional>

#include "widgets/StudioValues.h"

class MainWindow;

// `chargpt-studio --measure-stall SECONDS`: trains the corpus the window opens
// with its settings (the fast preset unless changed) for SECONDS, moving to
// the next tab every second as someone watching would (on the Runs tab, the
// library's first three runs are compared), while a 10 ms timer on
// the GUI thread records the longest gap between its ticks. Prints one JSON
// object, {"longest_stall_ms": ..., "tokens_per_s": ..., "steps": ...}, and
// quits. `chargpt bench` runs it for the GUI figure. When no measurement can
// run (a corpus refused, stored settings that cannot train, a run that fails
// to begin), it prints "chargpt-studio: cannot measure: <why>" on stderr, no
// figures, and exits 1.
//
// With CHARGPT_MEASURE=1 the app keeps a passive one (Watch): it measures every
// run the user starts and prints "chargpt-studio: step N, T tokens/s, longest
// GUI-thread stall S ms" when the run ends. This is the app's only stall meter.
class StallMeasure : public QObject {
    Q_OBJECT
public:
    // With `viewsFollow` false the views do not follow the training model
    // (InspectionController::setFollowingTraining): the baseline of what they cost.
    StallMeasure(MainWindow& window, double seconds, bool viewsFollow = true);
    struct Watch {};
    StallMeasure(MainWindow& window, Watch);

private:
    void beat();
    void finish(EndReason reason);
    void fail(const QString& message);
    static constexpr int kStartLimitMs = 60000;
    void report();

    bool driving_ = true;  // --measure-stall; false: watching the user's runs
    double tokensPerSecond_ = 0.0;

    MainWindow& window_;
    double seconds_;
    QTimer heartbeat_, tabTimer_, stopTimer_, startTimer_;
    QElapsedTimer clock_;
    std::optional<qint64> lastBeatMs_;  // none before the first beat of a run
    qint64 longestMs_ = 0, beats_ = 0, lastStep_ = 0;
    // The same split by cause: ticks within 300 ms of a tab change (painting a
    // page for the first time) and all others (training updates arriving).
    std::optional<qint64> lastTabChangeMs_;
    qint64 longestAfterTabMs_ = 0, longestSteadyMs_ = 0;
    QString worstTab_;
    bool training_ = false;
    bool begun_ = false;    // the measurement started on a loaded corpus
    bool started_ = false;  // the run began training (trainingStarted)
    bool stopped_ = false;  // the measurement pressed Stop
    bool ended_ = false;    // finish() or fail() ran: nothing more is printed
    QString endMessage_;    // what the run ended with, when it failed
};
