// SPDX-License-Identifier: GPL-3.0-or-later
// The controllers without a window: the training controller's run state,
// refusals and autosaves on a tiny corpus, the inspection controller feeding
// bare views, and "latest request wins" on its own.
#include <QApplication>
#include <QFile>
#include <QFileInfo>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include "AttentionPage.h"
#include "GenerationView.h"
#include "InspectionController.h"
#include "LatestRequest.h"
#include "LiveScoresView.h"
#include "ModelBridge.h"
#include "TrainingController.h"
#include "model/runtime/Runtime.h"

class TestControllers : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void latestRequestWins();
    void runStateFollowsTheRun();
    void refusesWhatTheStateForbids();
    void stopWhileStartingEndsTheRun();
    void autosavesDuringAndAtTheEndOfARun();
    void inspectionFeedsTheViews();

private:
    // Loads the tiny corpus into `training`.
    void loadCorpus(TrainingController& training);
    static StudioSettings tinySettings(qint64 steps);

    QTemporaryDir dir_;
    QString corpus_;
};

void TestControllers::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("CharGPT-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_controllers"));
    const int wanted = chargpt::environmentThreads();
    QCOMPARE(chargpt::initThreads(wanted > 0 ? 0 : 2), wanted > 0 ? wanted : 2);
    QVERIFY(dir_.isValid());
    corpus_ = dir_.filePath(QStringLiteral("tiny.txt"));
    QFile file(corpus_);
    QVERIFY(file.open(QIODevice::WriteOnly));
    for (int i = 0; i < 300; ++i)
        file.write(QStringLiteral("line %1: the quick brown fox jumps over the lazy dog.\n").arg(i % 17).toUtf8());
}

void TestControllers::loadCorpus(TrainingController& training) {
    QSignalSpy loaded(&training, &TrainingController::corpusLoaded);
    QVERIFY(training.loadCorpus(corpus_));
    QVERIFY(loaded.wait(20000));
    QVERIFY(training.hasCorpus());
    QCOMPARE(training.corpus().source, corpus_);
}

StudioSettings TestControllers::tinySettings(qint64 steps) {
    StudioSettings settings = presetSettings(QStringLiteral("tiny"));
    settings.maxSteps = steps;
    return settings;
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
    training.setAutosavePath(dir_.filePath(QStringLiteral("states.pt")));
    loadCorpus(training);
    QCOMPARE(training.state(), RunState::Idle);
    QSignalSpy states(&training, &TrainingController::stateChanged);
    QSignalSpy progress(&training, &TrainingController::progressed);
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
    QCOMPARE(ended.at(0).at(0).value<RunEnd>(), RunEnd::Stopped);

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
    StudioSettings wider = tinySettings(10);
    wider.embSize *= 2;
    QCOMPARE(training.startKind(wider), TrainingController::StartKind::DiscardArchitecture);
}

void TestControllers::refusesWhatTheStateForbids() {
    TrainingController training;
    training.setAutosavePath(dir_.filePath(QStringLiteral("refuses.pt")));
    QVERIFY(!training.pause());  // idle: nothing to pause, resume or stop
    QVERIFY(!training.resume());
    QVERIFY(!training.stop());
    QCOMPARE(training.state(), RunState::Idle);
    loadCorpus(training);
    QSignalSpy ended(&training, &TrainingController::trainingFinished);
    QSignalSpy progress(&training, &TrainingController::progressed);
    QVERIFY(training.start(tinySettings(1000000), true));
    QVERIFY(!training.pause());  // starting: nothing trains yet
    QVERIFY(progress.wait(20000));
    QCOMPARE(training.state(), RunState::Training);
    QVERIFY(!training.start(tinySettings(10), true));
    QVERIFY(!training.loadCorpus(corpus_));
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
    training.setAutosavePath(dir_.filePath(QStringLiteral("starting.pt")));
    loadCorpus(training);
    QSignalSpy ended(&training, &TrainingController::trainingFinished);
    QSignalSpy progress(&training, &TrainingController::progressed);

    QVERIFY(training.start(tinySettings(1000000), /*freshModel=*/true));
    QCOMPARE(training.state(), RunState::Starting);
    QVERIFY(training.stop());
    QCOMPARE(training.state(), RunState::Stopping);
    QVERIFY(ended.wait(30000));
    QCOMPARE(ended.at(0).at(0).value<RunEnd>(), RunEnd::Stopped);
    QCOMPARE(training.state(), RunState::Idle);
    QVERIFY2(training.model().step < 1000, "a million-step run went on after Stop");

    // The next run trains: the stop was that run's only.
    const qint64 before = training.model().step;
    QVERIFY(training.start(tinySettings(before + 20), /*freshModel=*/false));
    QVERIFY(ended.wait(60000));
    QCOMPARE(ended.at(1).at(0).value<RunEnd>(), RunEnd::Finished);
    QVERIFY(training.model().step >= before + 20);
}

void TestControllers::autosavesDuringAndAtTheEndOfARun() {
    TrainingController training;
    const QString autosave = dir_.filePath(QStringLiteral("autosave/auto.pt"));
    training.setAutosavePath(autosave);
    training.setAutosaveInterval(100);
    loadCorpus(training);
    QSignalSpy saved(&training, &TrainingController::saved);
    QSignalSpy ended(&training, &TrainingController::trainingFinished);

    // While a run goes: on the timer.
    QVERIFY(training.start(tinySettings(1000000), true));
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
    QCOMPARE(ended.at(0).at(0).value<RunEnd>(), RunEnd::Finished);
    QVERIFY(!saved.isEmpty());
    QCOMPARE(saved.constLast().at(0).toString(), autosave);
    QVERIFY(QFileInfo(autosave).size() > 0);
}

void TestControllers::inspectionFeedsTheViews() {
    AttentionPage attention;
    LiveScoresView scores;
    GenerationView generation;
    InspectionController inspection(&attention, &scores, &generation);
    TrainingController training;
    training.setAutosavePath(dir_.filePath(QStringLiteral("inspect.pt")));
    connect(&training, &TrainingController::snapshotReady, &inspection,
            [&](const ModelSnapshot& snapshot) { inspection.setSnapshot(snapshot, training.model().settings); });
    loadCorpus(training);
    inspection.setCorpusPreview(training.corpus().preview);
    QVERIFY(!attention.probeText().isEmpty());  // taken from the corpus

    QSignalSpy ended(&training, &TrainingController::trainingFinished);
    QSignalSpy shown(&inspection, &InspectionController::attentionShown);
    QSignalSpy scored(&inspection, &InspectionController::scoresShown);
    QVERIFY(training.start(tinySettings(40), true));
    QVERIFY(ended.wait(60000));
    while (shown.isEmpty() || scored.isEmpty())
        QVERIFY(shown.wait(20000) || scored.wait(20000));
    QVERIFY(inspection.hasSnapshot());
    QCOMPARE(attention.shownAttention().layers.size(), 2);
    QCOMPARE(scores.scores().size() > 0, true);

    // A reset model: the views forget it, and no answer still on its way shows.
    QSignalSpy snapshots(&training, &TrainingController::snapshotReady);
    inspection.requestAttention();
    QVERIFY(training.reset());
    QSignalSpy changed(&training, &TrainingController::modelChanged);
    QVERIFY(changed.wait(20000));
    training.requestSnapshot();
    QVERIFY(snapshots.wait(20000));
    QVERIFY(!inspection.hasSnapshot());
    shown.clear();
    QTest::qWait(300);
    QVERIFY(shown.isEmpty());
}

QTEST_MAIN(TestControllers)
#include "tst_controllers.moc"
