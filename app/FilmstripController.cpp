// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/FilmstripController.h"
#include "app/WorkerThread.h"

#include "app/FilmstripWorker.h"
#include "widgets/FilmstripPage.h"
#include "widgets/FilmstripView.h"
#include "widgets/Timeline.h"

FilmstripController::FilmstripController(FilmstripPage* page, Timeline* timeline, QObject* parent)
    : QObject(parent), page_(page), timeline_(timeline) {
    FilmstripWorker::registerTypes();
    worker_ = new FilmstripWorker;
    startWorkerThread(thread_, worker_, QStringLiteral("filmstrip"), WorkerKind::Compute);

    connect(page_, &FilmstripPage::sampleRequested, this, &FilmstripController::request);
    connect(page_, &FilmstripPage::stopRequested, this, &FilmstripController::stop);
    // Only the answers to the request the page shows reach it.
    connect(worker_, &FilmstripWorker::started, page_,
            [this](const FilmstripSamples& heading, int steps, const QString& leftOut, quint64 request) {
                if (!shown(request)) return;
                page_->begin(heading, steps, leftOut);
                if (const auto step = timeline_->chosenStep()) page_->view()->setCurrentStep(*step);
            });
    connect(worker_, &FilmstripWorker::rowReady, page_, [this](const FilmstripRow& row, quint64 request) {
        if (shown(request)) page_->addRow(row);
    });
    connect(worker_, &FilmstripWorker::finished, page_, [this](bool stopped, quint64 request) {
        if (!strips_.answered(request) || !shown(request)) return;
        page_->finish(stopped);
        followTimeline();
    });
    connect(worker_, &FilmstripWorker::failed, page_, [this](const QString& message, quint64 request) {
        if (!strips_.answered(request) || !shown(request)) return;
        page_->fail(message);
        followTimeline();
    });

    // The run on the timeline is the run a strip samples; a row clicked is
    // the step every view shows, and the step chosen marks its row.
    connect(timeline_, &Timeline::stepsChanged, this, &FilmstripController::followTimeline);
    connect(timeline_, &Timeline::stepChosen, page_->view(), &FilmstripView::setCurrentStep);
    connect(page_->view(), &FilmstripView::stepActivated, timeline_, &Timeline::chooseStep);
    followTimeline();
}

FilmstripController::~FilmstripController() { shutdown(); }

void FilmstripController::shutdown() {
    if (!thread_.isRunning()) return;
    worker_->stopStrip();
    endWorkerThread(thread_);
}

void FilmstripController::request(const FilmstripAsk& ask) {
    const std::optional<qint64> run = timeline_->run();
    if (!run) {  // the run went from the timeline as the request was made
        page_->finish(false);
        followTimeline();
        return;
    }
    if (strips_.inFlight()) worker_->stopStrip();  // the strip in progress gives way; this one waits for it
    strips_.submit({*run, ask});
}

void FilmstripController::send(const Strip& strip, quint64 sequence) {
    worker_->prepareStrip();
    QMetaObject::invokeMethod(
        worker_, [worker = worker_, strip, sequence] { worker->make(strip.run, strip.ask, sequence); },
        Qt::QueuedConnection);
}

void FilmstripController::stop() {
    strips_.forgetWaiting();  // a strip asked for meanwhile is not begun
    worker_->stopStrip();
}

void FilmstripController::followTimeline() {
    if (!page_->isSampling()) page_->setRun(timeline_->run());  // the strip in progress keeps its run
}
