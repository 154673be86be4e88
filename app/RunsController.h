// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Feeds the Runs tab from the run library (model/record/RunLibrary.h): a
// RunsWorker on a thread of its own, with its own connection to the library,
// lists the runs and reads the curves of those compared, and renames and
// deletes; the GUI thread never waits for the database. A LadderFloorsWorker
// on a second thread reads the corpora of recorded ladders.

#include <QObject>
#include <QThread>
#include <QTimer>
#include <QVector>
#include <memory>
#include <string>
#include <vector>

#include "model/train/HealthFigures.h"
#include "widgets/LadderHistory.h"
#include "widgets/RunsData.h"

class RunsPage;

namespace chargpt {
class RunLibrary;
}

// Runs on the runs thread; each request is answered by a signal.
class RunsWorker : public QObject {
    Q_OBJECT

public:
    RunsWorker();
    ~RunsWorker() override;

    // Plain standard values, copied into each request: an implicitly shared
    // Qt container or string handed over would share its buffer with the
    // window's copies, freed by whichever thread lets go last.
    void list();
    void loadCurves(const std::vector<qint64>& ids);
    void rename(qint64 id, const std::string& name);
    void remove(qint64 id);
    // The steps at which run `id` keeps its weights (keptStepsListed).
    void listKeptSteps(qint64 id);
    // Run `id`'s training health at its measured steps and its warnings (healthLoaded).
    void loadHealth(qint64 id);
    // The training health of the compared runs `ids` (comparedHealthLoaded).
    void loadComparedHealth(const std::vector<qint64>& ids);

signals:
    // `note`: where the library is, or why there is none (`readable` false:
    // no data folder, or the library cannot be opened).
    void listed(const QVector<RunRow>& runs, const LibraryNote& note, bool readable);
    void curvesLoaded(const QVector<RunCurve>& curves);
    // Oldest first; empty when the run keeps none (or the library cannot say).
    void keptStepsListed(qint64 id, const QVector<qint64>& steps);
    // Oldest first; empty when the run kept none (or the library cannot say).
    void healthLoaded(qint64 id, const chargpt::RunHealth& health);
    void comparedHealthLoaded(const QVector<qint64>& ids, const std::vector<chargpt::RunHealth>& health);
    void failed(const QString& message);

private:
    bool open();

    std::unique_ptr<chargpt::RunLibrary> library_;
    // Where the library is, or why there is none. The detail is kept as
    // std::string and made a QString afresh for each answer: a QString kept
    // here would share its buffer with the label that shows it, and the last
    // of the two to let go would free it on either thread.
    LibraryNote::Kind noteKind_ = LibraryNote::Kept;
    std::string noteDetail_;
};

// The floors of the ladders the library keeps, which it keeps no floors of,
// on a thread of its own: a corpus file (up to 256 MiB) read and split there
// never holds up the list of runs, nor the window.
class LadderFloorsWorker : public QObject {
    Q_OBJECT

public:
    // Measured again from the ladder's corpus when that is a built-in one or
    // a file still there with the same text, split with `sequenceLen` and
    // `valFraction` (0: the ladder's own); else why not (measured).
    void measure(const std::string& key, const std::string& corpus, const std::string& corpusHash,
                 qint64 sequenceLen, double valFraction);

signals:
    // `why` empty: the floors; else why there are none, in a sentence.
    void measured(const QString& key, const LadderFloors& floors, const QString& why);
};

class RunsController : public QObject {
    Q_OBJECT

public:
    // The page stays the caller's and must outlive this controller.
    explicit RunsController(RunsPage* page, QObject* parent = nullptr);
    ~RunsController() override;

    // Asks for the list again (and the curves of compared runs still going).
    void refresh();
    // While a run trains and the page is shown, the list follows it every few seconds.
    void setFollowing(bool on);
    void shutdown();
    // Asks the worker for the steps at which run `id` keeps its weights.
    void listKeptSteps(qint64 id);
    // Asks the worker for run `id`'s training health.
    void loadHealth(qint64 id);
    // Asks for the floors of `ladder` (LadderFloorsWorker::measure).
    void measureLadderFloors(const LadderRecord& ladder);
    // The workers, on the runs thread and the floors thread: the sources of
    // what this controller does not change (the list as read, a run's kept
    // steps; a ladder's floors), to be connected to directly (queued).
    const RunsWorker* worker() const { return worker_; }
    const LadderFloorsWorker* floorsWorker() const { return floorsWorker_; }

    // The list's Open and Continue are the page's own (RunsList), connected
    // to by the window.
signals:
    void problem(const QString& text);
    // The list arrived (tests wait for it).
    void listed();

private:
    RunsPage* page_;
    QThread thread_, floorsThread_;
    RunsWorker* worker_ = nullptr;
    LadderFloorsWorker* floorsWorker_ = nullptr;
    QTimer follow_;
};
