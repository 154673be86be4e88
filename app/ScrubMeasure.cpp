// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/ScrubMeasure.h"

#include <QCoreApplication>
#include <QEvent>
#include <QPushButton>
#include <QSlider>
#include <QTabWidget>
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "app/InspectionController.h"
#include "app/MainWindow.h"
#include "app/RunsController.h"
#include "app/TrainingController.h"
#include "app/TrainingWorker.h"
#include "widgets/AttentionPage.h"
#include "widgets/InsidePage.h"
#include "widgets/RunsList.h"
#include "widgets/RunsPage.h"
#include "widgets/Timeline.h"
#include "widgets/TimelineControls.h"

namespace {

// The value at fraction `q` of the sorted `v` (nearest rank; the median
// averages the two middle values of an even count).
double quantile(QVector<double> v, double q) {
    if (v.isEmpty()) return std::nan("");
    std::sort(v.begin(), v.end());
    if (q == 0.5 && v.size() % 2 == 0) return (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2.0;
    const qsizetype rank =
        std::clamp<qsizetype>(qsizetype(std::ceil(q * double(v.size()))) - 1, 0, v.size() - 1);
    return v[rank];
}

}  // namespace

ScrubMeasure::ScrubMeasure(MainWindow& window) : window_(window) {
    heartbeat_.setTimerType(Qt::PreciseTimer);
    heartbeat_.setInterval(10);
    connect(&heartbeat_, &QTimer::timeout, this, &ScrubMeasure::beat);
    guard_.setSingleShot(true);
    connect(&guard_, &QTimer::timeout, this, [this] {
        switch (phase_) {
            case Phase::Listing:
                fail(QStringLiteral("the run library did not answer within %1 s.").arg(kOpenLimitMs / 1000));
                break;
            case Phase::Opening:
                fail(QStringLiteral("run %1 was not on the timeline within %2 s of Open.")
                         .arg(*run_)
                         .arg(kOpenLimitMs / 1000));
                break;
            case Phase::Moving:
            case Phase::Drawing:
            case Phase::Painting:
                fail(QStringLiteral("step %1 was not shown within %2 s.")
                         .arg(*target_)
                         .arg(kMoveLimitMs / 1000));
                break;
            case Phase::Settling:
                settled();  // the other views are slow or failed: the visible one was timed
                break;
            default:
                break;
        }
    });
    poll_.setInterval(20);
    connect(&poll_, &QTimer::timeout, this, &ScrubMeasure::checkOpened);
    pause_.setSingleShot(true);
    pause_.setTimerType(Qt::PreciseTimer);
    connect(&pause_, &QTimer::timeout, this, &ScrubMeasure::nextMove);

    TrainingController* training = window_.training();
    const TrainingWorker* worker = training->worker();
    connect(window_.runs(), &RunsController::listed, this, &ScrubMeasure::listed);
    connect(window_.runs(), &RunsController::problem, this, [this](const QString& text) {
        if (phase_ == Phase::Listing || phase_ == Phase::Opening)
            fail(QStringLiteral("the run library: %1").arg(text));
    });
    connect(
        window_.runs()->worker(), &RunsWorker::keptStepsListed, this,
        [this](qint64 run, const QVector<qint64>& steps) {
            if (phase_ == Phase::Opening && run == run_ && steps.size() < 2)
                fail(QStringLiteral("run %1 keeps the weights of %2 step(s); moving between steps needs two.")
                         .arg(run)
                         .arg(steps.size()));
        });
    connect(worker, &TrainingWorker::checkpointOpened, this, [this] {
        if (phase_ == Phase::Opening) checkpointOpened_ = true;
    });
    connect(training, &TrainingController::problem, this, [this](const QString& text) {
        if (phase_ == Phase::Opening)
            fail(QStringLiteral("the run's checkpoint could not be opened: %1").arg(text));
    });
    connect(window_.inspection(), &InspectionController::replayFailed, this, [this](const QString& text) {
        if (phase_ != Phase::Ended) fail(QStringLiteral("a kept step could not be shown: %1").arg(text));
    });
    connect(window_.inspection(), &InspectionController::attentionShown, this, &ScrubMeasure::attentionShown);
    connect(window_.inspection(), &InspectionController::insideShown, this, [this](qint64 step) {
        if (phase_ == Phase::Settling && step == target_) settled();
    });
    // Begins once a corpus is loaded (the probe is taken from it): one the
    // worker loads from now on, or one the controller has taken in already.
    auto beginOnce = [this] {
        if (phase_ == Phase::WaitingForCorpus && window_.training()->hasCorpus()) begin();
    };
    connect(worker, &TrainingWorker::corpusLoaded, this, beginOnce, Qt::QueuedConnection);
    QMetaObject::invokeMethod(this, beginOnce, Qt::QueuedConnection);
}

// The Runs tab shown and its list asked for.
void ScrubMeasure::begin() {
    phase_ = Phase::Listing;
    guard_.start(kOpenLimitMs);
    window_.tabs()->setCurrentWidget(window_.runsPage());
    window_.runs()->refresh();
}

// The newest run with a checkpoint, selected and opened with the tab's Open.
void ScrubMeasure::listed() {
    if (phase_ != Phase::Listing) return;
    RunsList* list = window_.runsPage()->list();
    if (list->runs().isEmpty()) {
        fail(QStringLiteral("the run library holds no run."));
        return;
    }
    for (const RunRow& row : list->runs()) {
        if (!row.lastCheckpoint.isEmpty()) {
            run_ = row.id;
            break;
        }
    }
    if (!run_) {
        fail(QStringLiteral("no run of the run library wrote a checkpoint."));
        return;
    }
    list->selectRun(*run_);
    QPushButton* open = list->findChild<QPushButton*>(QStringLiteral("runsOpen"));
    if (!open || !open->isEnabled()) {
        fail(QStringLiteral("the Runs tab cannot open run %1.").arg(*run_));
        return;
    }
    phase_ = Phase::Opening;
    guard_.start(kOpenLimitMs);
    open->click();
    window_.tabs()->setCurrentWidget(window_.attentionPage());
    poll_.start();
}

// The run is ready once its checkpoint is the model, its kept steps are on
// the timeline and the Attention tab shows the step chosen on opening.
void ScrubMeasure::checkOpened() {
    if (phase_ != Phase::Opening) return;
    const Timeline* timeline = window_.timeline();
    if (!checkpointOpened_ || timeline->isLive() || timeline->run() != run_ ||
        !window_.inspection()->isReplaying() || !timeline->chosenStep() ||
        window_.attentionPage()->shownStep() != *timeline->chosenStep())
        return;
    poll_.stop();
    guard_.stop();
    const int count = int(timeline->steps().size());
    if (count < 2) {
        fail(QStringLiteral("run %1 keeps the weights of %2 step(s); moving between steps needs two.")
                 .arg(*run_)
                 .arg(count));
        return;
    }
    int at = timeline->chosenIndex().value_or(0);  // two steps or more: one is chosen
    for (int pass = 0; pass < kPasses; ++pass) {
        for (int i = 0; i < count; ++i) {
            const int index = pass % 2 == 0 ? i : count - 1 - i;
            if (index != at) moves_ << index;
            at = index;
        }
    }
    AttentionPage* page = window_.attentionPage();
    page->installEventFilter(this);
    for (QWidget* child : page->findChildren<QWidget*>()) child->installEventFilter(this);
    phase_ = Phase::Pausing;
    clock_.start();
    heartbeat_.start();
    nextMove();
}

// The slider moved to the next step, as a user drags it.
void ScrubMeasure::nextMove() {
    if (phase_ != Phase::Pausing) return;
    if (nextMove_ >= moves_.size()) {
        finish();
        return;
    }
    const int index = moves_[nextMove_++];
    const QVector<qint64>& steps = window_.timeline()->steps();
    if (index >= steps.size()) {
        fail(
            QStringLiteral("the timeline holds %1 steps: step %2 is gone.").arg(steps.size()).arg(index + 1));
        return;
    }
    target_ = steps[index];
    phase_ = Phase::Moving;
    guard_.start(kMoveLimitMs);
    movedAtNs_ = clock_.nsecsElapsed();
    window_.timelineControls()->slider()->setValue(index);
}

// The step's attention is on the page; it is drawn at the window's next paint.
void ScrubMeasure::attentionShown(qint64 step) {
    if (phase_ != Phase::Moving || step != target_ || window_.attentionPage()->shownStep() != target_) return;
    arrivedMs_ << double(clock_.nsecsElapsed() - movedAtNs_) / 1e6;
    phase_ = Phase::Drawing;
}

// A widget of the Attention tab is about to paint the step: the move ends when
// the event loop turns again, once the paint and its flush are done.
bool ScrubMeasure::eventFilter(QObject* watched, QEvent* event) {
    if (phase_ == Phase::Drawing && event->type() == QEvent::Paint) {
        phase_ = Phase::Painting;
        QMetaObject::invokeMethod(this, &ScrubMeasure::drawn, Qt::QueuedConnection);
    }
    return QObject::eventFilter(watched, event);
}

void ScrubMeasure::drawn() {
    if (phase_ != Phase::Painting) return;
    redrawMs_ << double(clock_.nsecsElapsed() - movedAtNs_) / 1e6;
    phase_ = Phase::Settling;
    if (window_.insidePage()->shownStep() == target_)
        settled();
    else
        guard_.start(kSettleLimitMs);
}

void ScrubMeasure::settled() {
    if (phase_ != Phase::Settling) return;
    guard_.stop();
    phase_ = Phase::Pausing;
    pause_.start(kPauseMs);
}

void ScrubMeasure::beat() {
    const qint64 now = clock_.elapsed();
    if (lastBeatMs_) longestGapMs_ = std::max(longestGapMs_, now - *lastBeatMs_);
    lastBeatMs_ = now;
}

void ScrubMeasure::finish() {
    phase_ = Phase::Ended;
    heartbeat_.stop();
    guard_.stop();
    beat();  // the gap up to now counts too
    // A stall is the time a tick came late: the gap beyond the 10 ms interval.
    const long long stall = std::max<qint64>(0, longestGapMs_ - heartbeat_.interval());
    std::printf(
        "{\"moves\": %lld, \"median_ms\": %.1f, \"p90_ms\": %.1f, \"max_ms\": %.1f, \"min_ms\": %.1f, "
        "\"arrived_median_ms\": %.1f, \"longest_stall_ms\": %lld, \"kept_steps\": %lld, \"passes\": %d, "
        "\"run\": %lld, \"seconds\": %.3f}\n",
        static_cast<long long>(redrawMs_.size()), quantile(redrawMs_, 0.5), quantile(redrawMs_, 0.9),
        quantile(redrawMs_, 1.0), quantile(redrawMs_, 0.0), quantile(arrivedMs_, 0.5), stall,
        static_cast<long long>(window_.timeline()->steps().size()), kPasses, static_cast<long long>(*run_),
        clock_.elapsed() / 1000.0);
    std::fflush(stdout);
    QCoreApplication::exit(0);
}

void ScrubMeasure::fail(const QString& message) {
    if (phase_ == Phase::Ended) return;
    phase_ = Phase::Ended;
    heartbeat_.stop();
    guard_.stop();
    poll_.stop();
    pause_.stop();
    std::fprintf(stderr, "chargpt-studio: cannot measure: %s\n", qPrintable(message));
    std::fflush(stderr);
    QCoreApplication::exit(1);
}
