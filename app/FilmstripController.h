// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Owns the filmstrip's maker (FilmstripWorker on a thread of its own) and
// feeds the Filmstrip tab: the run on the window's timeline is the run it
// samples; one strip is made at a time (LatestRequest): a newer request stops
// the one in progress and waits for it, and rows of a request that is no
// longer wanted are never shown. The tab's rows and the timeline
// point at each other: a click on a row chooses that step for every view,
// and the timeline's step marks its row (docs/ARCHITECTURE.md).

#include <QObject>
#include <QThread>

#include "app/LatestRequest.h"
#include "widgets/FilmstripData.h"

class FilmstripPage;
class FilmstripWorker;
class Timeline;

class FilmstripController : public QObject {
    Q_OBJECT

public:
    // The page and the timeline stay the caller's; they must outlive this controller.
    FilmstripController(FilmstripPage* page, Timeline* timeline, QObject* parent = nullptr);
    ~FilmstripController() override;

    // Stops the strip in progress and ends the thread (the destructor does it
    // when not done before).
    void shutdown();
    const FilmstripWorker* worker() const { return worker_; }

private:
    struct Strip {
        qint64 run = 0;  // sent only for a run on the timeline
        FilmstripAsk ask;
    };
    void request(const FilmstripAsk& ask);
    void send(const Strip& strip, quint64 sequence);
    void stop();
    void followTimeline();
    // Whether the answers of `request` are still wanted: the latest sent, no newer one waiting.
    bool shown(quint64 request) const { return request == strips_.lastSequence() && !strips_.hasWaiting(); }

    FilmstripPage* page_;
    Timeline* timeline_;
    QThread thread_;
    FilmstripWorker* worker_ = nullptr;  // lives on thread_
    LatestRequest<Strip> strips_{[this](const Strip& strip, quint64 sequence) { send(strip, sequence); }};
};
