// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Owns the filmstrip's maker (FilmstripWorker on a thread of its own) and
// feeds the Filmstrip tab: the run on the window's timeline is the run it
// samples; a newer request stops the one in progress, and rows of a request
// that is no longer wanted are never shown. The tab's rows and the timeline
// point at each other: a click on a row chooses that step for every view,
// and the timeline's step marks its row (docs/ARCHITECTURE.md).

#include <QObject>
#include <QThread>

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
    void request(const FilmstripAsk& ask);
    void stop();
    void followTimeline();

    FilmstripPage* page_;
    Timeline* timeline_;
    QThread thread_;
    FilmstripWorker* worker_ = nullptr;  // lives on thread_
    quint64 sequence_ = 0;               // the request the page shows
};
