// SPDX-License-Identifier: GPL-3.0-or-later
// The controllers without a window: the training controller's run state,
// refusals and autosaves on a tiny corpus, the inspection controller feeding
// bare views, and "latest request wins" on its own.
#include <QApplication>
#include <QFile>
#include <QFileInfo>
#include <QPushButton>
#include <QSemaphore>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include "widgets/AttentionPage.h"
#include "widgets/GenerationView.h"
#include "app/InspectionController.h"
#include "app/InspectionPace.h"
#include "app/LatestRequest.h"
#include "widgets/LiveScoresView.h"
#include "app/ModelBridge.h"
#include "app/TrainingController.h"
#include "WindowDriver.h"
#include "model/runtime/Runtime.h"
#include "TestProgram.h"

namespace tst_controllers {

class TestControllers : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void latestRequestWins();
    void paceKeepsTheViewsToTheirShare();
    void runStateFollowsTheRun();
    void refusesWhatTheStateForbids();
    void stopWhileStartingEndsTheRun();
    void autosavesDuringAndAtTheEndOfARun();
    void eachRunAutosavesItsOwnModel();
    void openingARunChecksItsFile();
    void inspectionFeedsTheViews();
    void stopBeforeTheGenerationBegins();

private:
    // Loads the tiny corpus into `training`.
    void loadCorpus(TrainingController& training);
    static chargpt::RunConfig tinySettings(qint64 steps);

    QTemporaryDir dir_;
    QString corpus_;
};

void TestControllers::initTestCase() {
    window_driver::initTestApplication(QStringLiteral("tst_controllers"));
    QVERIFY(dir_.isValid());
    corpus_ = dir_.filePath(QStringLiteral("tiny.txt"));
    QFile file(corpus_);
    QVERIFY(file.open(QIODevice::WriteOnly));
    for (int i = 0; i < 300; ++i)
        file.write(QStringLiteral("line %1: the quick brown fox jumps over the lazy dog.\n").arg(i % 17).toUtf8());
}

void TestControllers::loadCorpus(TrainingController& training) {
    window_driver::WorkerSpy loaded(training.worker(), &TrainingWorker::corpusLoaded);
    QVERIFY(training.loadCorpus(corpus_, TrainingController::OnNewCorpus::KeepModel));
    QVERIFY(loaded.wait(20000));
    QVERIFY(training.hasCorpus());
    QCOMPARE(training.corpus().source, corpus_);
}

// The views, the inspection controller that feeds them, and a training
// controller whose snapshots it inspects: the studio's inspection without a window.
struct InspectedTraining {
    AttentionPage attention;
    LiveScoresView scores;
    GenerationView generation;
    InspectionController inspection{&attention, &scores, &generation};
    TrainingController training;

    InspectedTraining() {
        QObject::connect(training.worker(), &TrainingWorker::modelFrozen, &inspection,
                         &InspectionController::setFrozenModel);
    }
};

// The tiny preset as the window passes it on (SidePanel::settings): about as
// many evaluations whatever the steps.
chargpt::RunConfig TestControllers::tinySettings(qint64 steps) {
    chargpt::RunConfig settings = presetSettings(QStringLiteral("tiny"));
    settings.max_steps = steps;
    settings.fitEvaluations();
    return settings;
}

void TestControllers::paceKeepsTheViewsToTheirShare() {
    using namespace std::chrono_literals;
    using Clock = InspectionPace::Clock;
    InspectionPace pace(0.05);
    const Clock::time_point t0 = Clock::now();
    QVERIFY(pace.nextRound(0ns) <= t0);  // the first round goes at once
    pace.roundStarted(t0, 100ms);
    QVERIFY(pace.nextRound(100ms) <= t0);  // no work done: nothing to wait for
    // 30 ms of work at 5% of the time: the next round 600 ms after this one began.
    QVERIFY(pace.nextRound(130ms) == t0 + 600ms);
    // A long round waits kLongestWait at most: a large model still moves.
    QVERIFY(pace.nextRound(100ms + 10s) == t0 + InspectionPace::kLongestWait);
    pace.roundStarted(t0 + 600ms, 130ms);
    QVERIFY(pace.nextRound(140ms) == t0 + 800ms);
}

void TestControllers::latestRequestWins() {
    QList<QPair<QString, quint64>> sent;
    LatestRequest<QString> latest([&](const QString& request, quint64 sequence) { sent.append({request, sequence}); });

    latest.submit(QStringLiteral("a"));
    latest.submit(QStringLiteral("b"));  // waits
    latest.submit(QStringLiteral("c"));  // replaces b
    QCOMPARE(sent.size(), 1);
    QCOMPARE(sent[0].first, QStringLiteral("a"));
    QVERIFY(latest.inFlight());
    QVERIFY(latest.hasWaiting());

    QVERIFY(!latest.answered(sent[0].second + 7));  // an answer to nothing in flight
    QCOMPARE(sent.size(), 1);
    QVERIFY(latest.answered(sent[0].second));  // a's answer: shown, and c goes out
    QCOMPARE(sent.size(), 2);
    QCOMPARE(sent[1].first, QStringLiteral("c"));
    QVERIFY(sent[1].second > sent[0].second);
    QVERIFY(!latest.answered(sent[0].second));  // a's answer again: stale

    latest.drop();  // what c runs on is gone
    QVERIFY(!latest.answered(sent[1].second));  // dropped, but no longer in flight
    QVERIFY(!latest.inFlight());
    latest.submit(QStringLiteral("d"));
    QCOMPARE(sent.size(), 3);
    QVERIFY(latest.answered(sent[2].second));
    QVERIFY(!latest.inFlight());
    QVERIFY(!latest.hasWaiting());
}

void TestControllers::runStateFollowsTheRun() {
    TrainingController training;
    training.setAutosaveFolder(dir_.filePath(QStringLiteral("states")));
    loadCorpus(training);
    QCOMPARE(training.state(), RunState::Idle);
    QSignalSpy states(&training, &TrainingController::stateChanged);
    window_driver::WorkerSpy progress(training.worker(), &TrainingWorker::progress);
    QSignalSpy ended(&training, &TrainingController::trainingFinished);

    QVERIFY(training.start(tinySettings(1000000), /*freshModel=*/true));
    QCOMPARE(training.state(), RunState::Starting);
    QVERIFY(training.isTraining());
    while (training.state() != RunState::Training)
        QVERIFY(states.wait(20000));
    QVERIFY(progress.wait(20000));

    QVERIFY(training.pause());
    QCOMPARE(training.state(), RunState::Paused);
    QVERIFY(training.resume());
    QCOMPARE(training.state(), RunState::Training);
    QVERIFY(progress.wait(20000));  // it trains again
    QVERIFY(training.stop());
    QCOMPARE(training.state(), RunState::Stopping);
    QVERIFY(ended.wait(20000));
    QCOMPARE(training.state(), RunState::Idle);
    QCOMPARE(runEndName(ended.at(0).at(0).value<EndReason>()), runEndName(EndReason::Stopped));

    QList<RunState> seen;
    for (const QList<QVariant>& arguments : states)
        seen.append(arguments.at(0).value<RunState>());
    const QList<RunState> expected{RunState::Starting, RunState::Training, RunState::Paused,
                                   RunState::Training, RunState::Stopping, RunState::Idle};
    QCOMPARE(seen, expected);
    QVERIFY(training.model().exists);
    QVERIFY(training.model().step > 0);
    // The model trained here continues unless the architecture changes.
    QCOMPARE(training.startKind(tinySettings(10)), TrainingController::StartKind::Continue);
    chargpt::RunConfig wider = tinySettings(10);
    wider.emb_size *= 2;
    QCOMPARE(training.startKind(wider), TrainingController::StartKind::DiscardArchitecture);
    // Which start() follows, as the worker says when the run begins: the same
    // model further, then a new one.
    window_driver::WorkerSpy started(training.worker(), &TrainingWorker::trainingStarted);
    QVERIFY(training.start(tinySettings(training.model().step + 5)));
    QVERIFY(ended.wait(60000));
    QVERIFY(training.start(wider));
    QVERIFY(training.stop());
    QVERIFY(ended.wait(30000));
    QCOMPARE(started.size(), 2);
    QCOMPARE(started.at(0).at(1).toBool(), false);
    QCOMPARE(started.at(1).at(1).toBool(), true);
    QCOMPARE(training.model().settings.emb_size, wider.emb_size);
}

void TestControllers::refusesWhatTheStateForbids() {
    TrainingController training;
    training.setAutosaveFolder(dir_.filePath(QStringLiteral("refuses")));
    QVERIFY(!training.pause());  // idle: nothing to pause, resume or stop
    QVERIFY(!training.resume());
    QVERIFY(!training.stop());
    QCOMPARE(training.state(), RunState::Idle);
    loadCorpus(training);
    QSignalSpy ended(&training, &TrainingController::trainingFinished);
    window_driver::WorkerSpy progress(training.worker(), &TrainingWorker::progress);
    QVERIFY(training.start(tinySettings(1000000), true));
    QVERIFY(!training.pause());  // starting: nothing trains yet
    QVERIFY(progress.wait(20000));
    QCOMPARE(training.state(), RunState::Training);
    QVERIFY(!training.start(tinySettings(10), true));
    QVERIFY(!training.loadCorpus(corpus_, TrainingController::OnNewCorpus::KeepModel));
    QVERIFY(!training.openCheckpoint(dir_.filePath(QStringLiteral("none.pt"))));
    QVERIFY(!training.reset());
    QVERIFY(!training.resume());  // not paused
    QVERIFY(training.stop());
    QVERIFY(!training.stop());  // already stopping
    QVERIFY(ended.wait(20000));
    QCOMPARE(training.state(), RunState::Idle);
}

// Stop pressed before the worker has set the run up (state Starting) ends that
// run as soon as it begins, and the next run is not stopped by it.
void TestControllers::stopWhileStartingEndsTheRun() {
    TrainingController training;
    training.setAutosaveFolder(dir_.filePath(QStringLiteral("starting")));
    loadCorpus(training);
    QSignalSpy ended(&training, &TrainingController::trainingFinished);
    window_driver::WorkerSpy progress(training.worker(), &TrainingWorker::progress);

    QVERIFY(training.start(tinySettings(1000000), /*freshModel=*/true));
    QCOMPARE(training.state(), RunState::Starting);
    QVERIFY(training.stop());
    QCOMPARE(training.state(), RunState::Stopping);
    QVERIFY(ended.wait(30000));
    QCOMPARE(runEndName(ended.at(0).at(0).value<EndReason>()), runEndName(EndReason::Stopped));
    QCOMPARE(training.state(), RunState::Idle);
    QVERIFY2(training.model().step < 1000, "a million-step run went on after Stop");

    // The next run trains: the stop was that run's only.
    const qint64 before = training.model().step;
    QVERIFY(training.start(tinySettings(before + 20), /*freshModel=*/false));
    QVERIFY(ended.wait(60000));
    QCOMPARE(runEndName(ended.at(1).at(0).value<EndReason>()), runEndName(EndReason::Finished));
    QVERIFY(training.model().step >= before + 20);
}

void TestControllers::autosavesDuringAndAtTheEndOfARun() {
    TrainingController training;
    const QString folder = dir_.filePath(QStringLiteral("autosave"));
    training.setAutosaveFolder(folder);
    training.setAutosaveInterval(100);
    loadCorpus(training);
    window_driver::WorkerSpy saved(training.worker(), &TrainingWorker::saved);
    window_driver::WorkerSpy started(training.worker(), &TrainingWorker::trainingStarted);
    QSignalSpy ended(&training, &TrainingController::trainingFinished);

    // While a run goes: on the timer, to the run's own file in the folder.
    QVERIFY(training.start(tinySettings(1000000), true));
    QVERIFY(started.wait(20000));
    const QString autosave = training.autosavePath();
    QCOMPARE(QFileInfo(autosave).absolutePath(), QFileInfo(folder).absoluteFilePath());
    QVERIFY(saved.wait(20000));
    QCOMPARE(saved.at(0).at(0).toString(), autosave);
    QCOMPARE(saved.at(0).at(1).toBool(), true);
    QVERIFY(QFileInfo(autosave).size() > 0);
    QVERIFY(training.stop());
    QVERIFY(ended.wait(20000));

    // At the end of a run, written before the run counts as ended.
    QVERIFY(QFile::remove(autosave));
    saved.clear();
    ended.clear();
    training.setAutosaveInterval(60 * 60 * 1000);
    QVERIFY(training.start(tinySettings(training.model().step + 20), false));
    QVERIFY(ended.wait(60000));
    QCOMPARE(runEndName(ended.at(0).at(0).value<EndReason>()), runEndName(EndReason::Finished));
    QVERIFY(QFileInfo(training.autosavePath()).size() > 0);  // written before the run ended
    // The worker's saved reaches this spy in its turn, after the controller's
    // (it may come after the run's end: about one run in three did), and
    // after the first run's last one on the timer.
    while (saved.isEmpty() || saved.constLast().at(0).toString() != training.autosavePath())
        QVERIFY(saved.wait(10000));
}

// Each run autosaves to a file of its own: a second model's run never
// replaces the first's, which still opens at its own step.
void TestControllers::eachRunAutosavesItsOwnModel() {
    TrainingController training;
    training.setAutosaveFolder(dir_.filePath(QStringLiteral("own")));
    loadCorpus(training);
    QSignalSpy ended(&training, &TrainingController::trainingFinished);
    QVERIFY(training.start(tinySettings(30), true));
    QVERIFY(ended.wait(60000));
    const QString first = training.autosavePath();
    QVERIFY(QFileInfo(first).size() > 0);
    chargpt::RunConfig second = tinySettings(12);
    second.seed += 1;
    QVERIFY(training.start(second, true));
    QVERIFY(ended.wait(60000));
    const QString other = training.autosavePath();
    QVERIFY(QFileInfo(other).size() > 0);
    QVERIFY2(other != first, qPrintable(other));
    QCOMPARE(training.model().step, 12);

    window_driver::WorkerSpy opened(training.worker(), &TrainingWorker::checkpointOpened);
    QVERIFY(training.openCheckpoint(first));
    QVERIFY(opened.wait(20000));
    QCOMPARE(training.model().step, 30);  // the first run's model, not the second's
}

// Runs > Open opens a run's last checkpoint only while it still holds that
// run's model: a file gone, or holding another step or settings, is refused
// with a sentence that says which, and the model stays.
void TestControllers::openingARunChecksItsFile() {
    TrainingController training;
    training.setAutosaveFolder(dir_.filePath(QStringLiteral("check")));
    loadCorpus(training);
    QSignalSpy ended(&training, &TrainingController::trainingFinished);
    const chargpt::RunConfig settings = tinySettings(16);
    QVERIFY(training.start(settings, true));
    QVERIFY(ended.wait(60000));
    const QString file = training.autosavePath();

    RunRow run;
    run.id = 7;
    run.lastCheckpoint = file;
    run.lastCheckpointStep = 16;
    run.settings = {{QStringLiteral("seed"), QString::number(settings.seed)},
                    {QStringLiteral("emb_size"), QString::number(settings.emb_size)}};
    window_driver::WorkerSpy opened(training.worker(), &TrainingWorker::checkpointOpened);
    window_driver::WorkerSpy failed(training.worker(), &TrainingWorker::checkpointFailed);
    QVERIFY(training.openCheckpoint(file, run));
    QVERIFY(opened.wait(20000));
    QCOMPARE(training.model().step, 16);

    RunRow later = run;
    later.lastCheckpointStep = 842;  // the run saved another step there
    QVERIFY(training.openCheckpoint(file, later));
    QVERIFY(failed.wait(20000));
    QString message = failed.constLast().at(1).toString();
    QVERIFY2(message.contains(QStringLiteral("no longer holds the model of run 7")) && message.contains(QStringLiteral("842")) &&
                 message.contains(QStringLiteral("step 16")),
             qPrintable(message));

    RunRow otherSeed = run;
    otherSeed.settings[0].second = QString::number(settings.seed + 1);
    QVERIFY(training.openCheckpoint(file, otherSeed));
    QVERIFY(failed.wait(20000));
    message = failed.constLast().at(1).toString();
    QVERIFY2(message.contains(QStringLiteral("with other settings (seed)")), qPrintable(message));

    RunRow gone = run;
    gone.lastCheckpoint = dir_.filePath(QStringLiteral("check/run-gone.pt"));
    QVERIFY(training.openCheckpoint(gone.lastCheckpoint, gone));
    QVERIFY(failed.wait(20000));
    message = failed.constLast().at(1).toString();
    QVERIFY2(message.contains(QStringLiteral("is gone")), qPrintable(message));
    QCOMPARE(opened.size(), 1);  // only the file that held the run's model opened
    QCOMPARE(training.model().step, 16);
}

void TestControllers::inspectionFeedsTheViews() {
    InspectedTraining studio;
    InspectionController& inspection = studio.inspection;
    TrainingController& training = studio.training;
    training.setAutosaveFolder(dir_.filePath(QStringLiteral("inspect")));
    connect(&training, &TrainingController::stateChanged, &inspection,
            [&](RunState state) { inspection.setTraining(state == RunState::Training); });
    loadCorpus(training);
    inspection.setCorpusPreview(training.corpus().preview);
    QVERIFY(!studio.attention.probeText().isEmpty());  // taken from the corpus

    QSignalSpy ended(&training, &TrainingController::trainingFinished);
    QSignalSpy shown(&inspection, &InspectionController::attentionShown);
    QSignalSpy scored(&inspection, &InspectionController::scoresShown);
    QSignalSpy snapshotsShown(&inspection, &InspectionController::frozenModelArrived);
    QVERIFY(training.start(tinySettings(40), true));
    QVERIFY(ended.wait(60000));
    // While the model trained the views followed it at their pace; once it
    // ends, they show its last step (a snapshot is taken at the end of a run).
    QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty() && shown.constLast().at(0).toLongLong() == 40, 20000);
    QTRY_VERIFY_WITH_TIMEOUT(!scored.isEmpty() && scored.constLast().at(0).toLongLong() == 40, 20000);
    QVERIFY(snapshotsShown.size() >= shown.size());
    QVERIFY(inspection.hasFrozenModel());
    QCOMPARE(studio.attention.shownAttention().layers.size(), 2);
    QVERIFY(studio.scores.scores().size() > 0);

    // A reset model: the views forget it, and no answer still on its way shows.
    inspection.requestAttention();
    QVERIFY(training.reset());
    QSignalSpy changed(&training, &TrainingController::modelChanged);
    QVERIFY(changed.wait(20000));
    training.requestFrozenModel();
    QTRY_VERIFY_WITH_TIMEOUT(!inspection.hasFrozenModel(), 20000);
    shown.clear();
    QTest::qWait(300);
    QVERIFY(shown.isEmpty());
}

// Stop pressed while the inspector is still busy with earlier work (the
// generation queued, not begun) stops that generation: it used to be lost, and
// the generation ran to its length.
void TestControllers::stopBeforeTheGenerationBegins() {
    InspectedTraining studio;
    GenerationView& generation = studio.generation;
    InspectionController& inspection = studio.inspection;
    TrainingController& training = studio.training;
    loadCorpus(training);
    QSignalSpy ended(&training, &TrainingController::trainingFinished);
    QVERIFY(training.start(tinySettings(5), true));
    QVERIFY(ended.wait(60000));
    QTRY_VERIFY_WITH_TIMEOUT(inspection.hasFrozenModel(), 20000);

    // Hold the inspector's thread until Generate and Stop are both pressed.
    QSemaphore release;
    QObject onInspector;
    onInspector.moveToThread(inspection.inspectorThread());
    QMetaObject::invokeMethod(&onInspector, [&release] { release.acquire(); }, Qt::QueuedConnection);
    GenerationOptions options = generation.options();
    options.length = 100000000;
    generation.setOptions(options);
    QSignalSpy finished(&inspection, &InspectionController::generationEnded);
    QTest::mouseClick(generation.generateButton(), Qt::LeftButton);
    QTest::mouseClick(generation.stopButton(), Qt::LeftButton);
    release.release();
    QVERIFY2(finished.wait(20000), "Stop before the generation began was lost");
    QCOMPARE(finished.constFirst().constFirst().value<GenerationEnd>(), GenerationEnd::Stopped);
    onInspector.moveToThread(QThread::currentThread());
}

CHARGPT_TEST_MAIN(TestControllers)
}  // namespace tst_controllers
#include "tst_controllers.moc"
