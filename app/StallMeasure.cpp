// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/StallMeasure.h"

#include <QCoreApplication>
#include <QPushButton>
#include <QTabWidget>

#include <algorithm>
#include <cstdio>

#include "app/InspectionController.h"
#include "app/MainWindow.h"
#include "widgets/RunsList.h"
#include "widgets/RunsPage.h"
#include "app/TrainingController.h"
#include "widgets/TrainingPanel.h"
#include "app/TrainingWorker.h"

StallMeasure::StallMeasure(MainWindow& window, double seconds, bool viewsFollow) : window_(window), seconds_(seconds) {
    window_.inspection()->setFollowingTraining(viewsFollow);
    heartbeat_.setTimerType(Qt::PreciseTimer);
    heartbeat_.setInterval(10);
    connect(&heartbeat_, &QTimer::timeout, this, &StallMeasure::beat);
    tabTimer_.setInterval(1000);
    connect(&tabTimer_, &QTimer::timeout, this, [this] {
        QTabWidget* tabs = window_.tabs();
        lastTabChangeMs_ = clock_.elapsed();
        tabs->setCurrentIndex((tabs->currentIndex() + 1) % tabs->count());
        // On the Runs tab, the first three runs of the library compared, as a
        // first look would (the bench fills a library of 100 runs for this).
        RunsList* runs = window_.runsPage()->list();
        if (tabs->currentWidget() == window_.runsPage() && runs->compared().isEmpty() && !runs->runs().isEmpty()) {
            QVector<qint64> first;
            for (int i = 0; i < std::min<int>(3, runs->runs().size()); ++i)
                first << runs->runs()[i].id;
            runs->setCompared(first);
        }
    });
    stopTimer_.setSingleShot(true);
    stopTimer_.setTimerType(Qt::PreciseTimer);  // a coarse timer may fire 5% early: the run would be short
    connect(&stopTimer_, &QTimer::timeout, this, [this] {
        stopped_ = true;
        window_.trainingPanel()->stopButton()->click();
    });
    // A run that never begins training (its set-up stuck) ends the measurement.
    startTimer_.setSingleShot(true);
    connect(&startTimer_, &QTimer::timeout, this, [this] {
        fail(QStringLiteral("training did not begin within %1 s of Start.").arg(kStartLimitMs / 1000));
    });

    auto start = [this] {
        if (ended_)
            return;
        // Stored settings that cannot train (invalid, or too big for this
        // machine's memory) leave Start disabled: clicking it did nothing and
        // the measurement waited for ever.
        const QString blocked = window_.trainingPanel()->startBlockedText();
        if (!blocked.isEmpty() || !window_.trainingPanel()->startButton()->isEnabled()) {
            fail(QStringLiteral("the stored settings cannot train: %1")
                     .arg(blocked.isEmpty() ? QStringLiteral("Start is disabled.") : blocked));
            return;
        }
        clock_.start();
        heartbeat_.start();
        training_ = true;
        window_.trainingPanel()->startButton()->click();
        if (!window_.isTraining()) {
            fail(QStringLiteral("training did not start."));
            return;
        }
        startTimer_.start(kStartLimitMs);
        tabTimer_.start();
        stopTimer_.start(int(seconds_ * 1000.0));
    };
    TrainingController* training = window_.training();
    const TrainingWorker* worker = training->worker();
    connect(worker, &TrainingWorker::trainingStarted, this, [this] {
        started_ = true;
        startTimer_.stop();
    });
    connect(worker, &TrainingWorker::progress, this, [this](const TrainingProgress& progress) {
        lastStep_ = progress.step;
        tokensPerSecond_ = progress.tokensPerSecond;
    });
    connect(training, &TrainingController::trainingFinished, this,
            [this](EndReason reason, const QString& message) {
                endMessage_ = message;
                // Stop pressed by the measurement while the run was still being set up
                // ends it as any other (no steps); only a run that ended by itself
                // before training began could not run.
                if (!started_ && !stopped_) {
                    fail(QStringLiteral("training could not start: %1")
                             .arg(message.isEmpty() ? runEndName(reason) : message));
                    return;
                }
                finish(reason);
            });
    // The window then opens the built-in corpus instead; a measurement of the
    // stored one ends here, with the reason.
    connect(window_.training(), &TrainingController::corpusFailed, this, [this](const QString&, const QString& message) {
        if (!clock_.isValid())
            fail(QStringLiteral("the corpus could not be loaded: %1").arg(message));
    });
    // Starts once a corpus is loaded: one the worker loads from now on, or
    // one it loaded before this connection, which the controller has taken in
    // by the time the queued check below runs (its event came first).
    auto startOnce = [this, start] {
        if (!begun_ && window_.training()->hasCorpus()) {
            begun_ = true;
            start();
        }
    };
    connect(worker, &TrainingWorker::corpusLoaded, this, startOnce);
    QMetaObject::invokeMethod(this, startOnce, Qt::QueuedConnection);
}

void StallMeasure::fail(const QString& message) {
    if (ended_)
        return;
    ended_ = true;
    training_ = false;
    heartbeat_.stop();
    tabTimer_.stop();
    stopTimer_.stop();
    startTimer_.stop();
    std::fprintf(stderr, "chargpt-studio: cannot measure: %s\n", qPrintable(message));
    std::fflush(stderr);
    QCoreApplication::exit(1);
}

StallMeasure::StallMeasure(MainWindow& window, Watch) : window_(window), seconds_(0.0) {
    driving_ = false;
    heartbeat_.setInterval(10);
    connect(&heartbeat_, &QTimer::timeout, this, &StallMeasure::beat);
    TrainingController* training = window_.training();
    const TrainingWorker* worker = training->worker();
    connect(worker, &TrainingWorker::trainingStarted, this, [this] {
        training_ = true;
        lastBeatMs_.reset();
        longestMs_ = 0;
    });
    connect(worker, &TrainingWorker::progress, this, [this](const TrainingProgress& progress) {
        lastStep_ = progress.step;
        tokensPerSecond_ = progress.tokensPerSecond;
    });
    connect(training, &TrainingController::trainingFinished, this, &StallMeasure::report);
    clock_.start();
    heartbeat_.start();
}

void StallMeasure::report() {
    training_ = false;
    std::printf("chargpt-studio: step %lld, %.0f tokens/s, longest GUI-thread stall %lld ms\n",
                static_cast<long long>(window_.modelInfo().step), tokensPerSecond_,
                static_cast<long long>(longestMs_));
    std::fflush(stdout);
}

void StallMeasure::beat() {
    const qint64 now = clock_.elapsed();
    if (training_ && lastBeatMs_) {
        const qint64 gap = now - *lastBeatMs_;
        if (gap > longestMs_) {
            longestMs_ = gap;
            worstTab_ = window_.tabs()->tabText(window_.tabs()->currentIndex());
        }
        if (!driving_) {
            lastBeatMs_ = now;
            return;
        }
        const bool afterTabChange = lastTabChangeMs_ && *lastBeatMs_ - *lastTabChangeMs_ < 300;
        qint64& longest = afterTabChange ? longestAfterTabMs_ : longestSteadyMs_;
        longest = std::max(longest, gap);
    }
    lastBeatMs_ = now;
    ++beats_;
}

void StallMeasure::finish(EndReason end) {
    const QString reason = runEndName(end);
    if (ended_)
        return;
    ended_ = true;
    training_ = false;
    startTimer_.stop();
    heartbeat_.stop();
    tabTimer_.stop();
    // A stall is the time a tick came late: the gap beyond the 10 ms interval.
    auto late = [this](qint64 gap) { return static_cast<long long>(std::max<qint64>(0, gap - heartbeat_.interval())); };
    std::printf("{\"longest_stall_ms\": %lld, \"longest_gap_ms\": %lld, \"stall_after_tab_change_ms\": %lld, "
                "\"stall_otherwise_ms\": %lld, \"worst_tab\": \"%s\", \"beats\": %lld, \"seconds\": %.3f, "
                "\"steps\": %lld, \"tokens_per_s\": %.0f, \"ended\": \"%s\"}\n",
                static_cast<long long>(std::max<qint64>(0, longestMs_ - heartbeat_.interval())),
                static_cast<long long>(longestMs_), late(longestAfterTabMs_), late(longestSteadyMs_),
                qPrintable(worstTab_), static_cast<long long>(beats_), clock_.elapsed() / 1000.0,
                static_cast<long long>(lastStep_), tokensPerSecond_, qPrintable(reason));
    std::fflush(stdout);
    const bool failed = end == EndReason::Error || end == EndReason::NonFiniteLoss;
    if (failed)
        std::fprintf(stderr, "chargpt-studio: training ended early (%s)%s%s\n", qPrintable(reason),
                     endMessage_.isEmpty() ? "" : ": ", qPrintable(endMessage_));
    std::fflush(stderr);
    QCoreApplication::exit(failed ? 1 : 0);
}
