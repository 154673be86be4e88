// SPDX-License-Identifier: GPL-3.0-or-later
// The window's one timeline and its bar: the steps of the run on screen, the
// step chosen (the newest followed while the model trains, unless the user
// moved away), Play stepping through them and stopping at the newest, and the
// bar showing the timeline and handing it the user's moves.
#include <QComboBox>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QSlider>
#include <QTest>

#include "widgets/Timeline.h"
#include "widgets/TimelineControls.h"
#include "TestProgram.h"

namespace tst_timeline {

QVector<qint64> chosenSteps(const QSignalSpy& spy) {
    QVector<qint64> steps;
    for (const QList<QVariant>& arguments : spy)
        steps.append(arguments.first().toLongLong());
    return steps;
}

class TestTimeline : public QObject {
    Q_OBJECT

private slots:
    void followsTheNewestStepWhileTraining();
    void staysWhereTheUserMovedIt();
    void aPastRunChoosesItsNewestKeptStep();
    void playStepsToTheNewestAndStops();
    void theBarShowsAndMovesTheTimeline();
    void stepAIsAKeptStepOfTheRunOnScreen();
};

void TestTimeline::followsTheNewestStepWhileTraining() {
    Timeline timeline;
    QSignalSpy chosen(&timeline, &Timeline::stepChosen);
    QVERIFY(!timeline.chosenStep());
    timeline.setLiveStep(1);
    timeline.setKeptSteps(7, {0, 1});
    timeline.setLiveStep(3);
    timeline.setKeptSteps(7, {0, 1, 2});
    timeline.setLiveStep(5);
    QCOMPARE(timeline.steps(), (QVector<qint64>{0, 1, 2, 5}));  // the kept ones and the newest
    QCOMPARE(timeline.run(), qint64(7));
    QCOMPARE(chosenSteps(chosen), (QVector<qint64>{1, 3, 5}));
    QVERIFY(timeline.atLiveStep());
    QVERIFY(!timeline.chosenIsKept());
    QVERIFY(timeline.followsNewest());
    // A step the recorder kept before the model's snapshot of it arrived
    // waits for that snapshot: the newest step is the live model's.
    timeline.setKeptSteps(7, {0, 1, 2, 4, 8});
    QCOMPARE(timeline.steps(), (QVector<qint64>{0, 1, 2, 4, 5}));
    QCOMPARE(chosenSteps(chosen), (QVector<qint64>{1, 3, 5}));
    timeline.setLiveStep(8);
    QCOMPARE(timeline.steps(), (QVector<qint64>{0, 1, 2, 4, 8}));
    QCOMPARE(chosenSteps(chosen), (QVector<qint64>{1, 3, 5, 8}));
    QVERIFY(timeline.atLiveStep());
}

void TestTimeline::staysWhereTheUserMovedIt() {
    Timeline timeline;
    timeline.setKeptSteps(7, {0, 1, 2, 4});
    timeline.setLiveStep(6);
    QSignalSpy chosen(&timeline, &Timeline::stepChosen);
    timeline.chooseStep(3);  // the latest kept step at or before it
    QCOMPARE(timeline.chosenStep(), std::optional<qint64>(2));
    QVERIFY(timeline.chosenIsKept());
    QVERIFY(!timeline.atLiveStep());
    QVERIFY(!timeline.followsNewest());
    // Training goes on: the choice stays at step 2.
    timeline.setKeptSteps(7, {0, 1, 2, 4, 8});
    timeline.setLiveStep(9);
    QCOMPARE(timeline.chosenStep(), std::optional<qint64>(2));
    QCOMPARE(chosenSteps(chosen), (QVector<qint64>{2}));
    // Back at the end: it follows again.
    timeline.choose(int(timeline.steps().size()) - 1);
    timeline.setLiveStep(12);
    QCOMPARE(chosenSteps(chosen), (QVector<qint64>{2, 9, 12}));
    QVERIFY(timeline.followsNewest());
}

void TestTimeline::aPastRunChoosesItsNewestKeptStep() {
    Timeline timeline;
    timeline.setLiveStep(40);
    QSignalSpy chosen(&timeline, &Timeline::stepChosen);
    timeline.showRun(3, {0, 1, 2, 4, 8, 16});
    QVERIFY(!timeline.isLive());
    QCOMPARE(timeline.chosenStep(), std::optional<qint64>(16));
    QVERIFY(timeline.chosenIsKept());
    // The live model's steps do not reach a past run's timeline.
    timeline.setLiveStep(41);
    timeline.setKeptSteps(9, {0, 1});
    QCOMPARE(timeline.steps(), (QVector<qint64>{0, 1, 2, 4, 8, 16}));
    QCOMPARE(timeline.run(), qint64(3));
    QCOMPARE(chosenSteps(chosen), (QVector<qint64>{16}));
    // Until the live model is shown again.
    timeline.showLive();
    QVERIFY(timeline.isLive());
    QVERIFY(timeline.steps().isEmpty());
    timeline.setLiveStep(42);
    QCOMPARE(chosenSteps(chosen), (QVector<qint64>{16, 42}));
}

void TestTimeline::playStepsToTheNewestAndStops() {
    Timeline timeline;
    timeline.showRun(3, {0, 1, 2, 4});
    timeline.setSpeed(20.0);
    QSignalSpy chosen(&timeline, &Timeline::stepChosen);
    QSignalSpy playing(&timeline, &Timeline::playingChanged);
    timeline.setPlaying(true);  // from the newest: again from the oldest
    QVERIFY(timeline.isPlaying());
    QTRY_VERIFY(!timeline.isPlaying());
    QCOMPARE(chosenSteps(chosen), (QVector<qint64>{0, 1, 2, 4}));
    QCOMPARE(playing.count(), 2);
    QCOMPARE(timeline.chosenStep(), std::optional<qint64>(4));
    // Pause stops where it is.
    timeline.choose(0);
    timeline.setSpeed(0.25);
    timeline.setPlaying(true);
    timeline.setPlaying(false);
    QCOMPARE(timeline.chosenStep(), std::optional<qint64>(0));
}

void TestTimeline::theBarShowsAndMovesTheTimeline() {
    Timeline timeline;
    TimelineControls bar(&timeline);
    QCOMPARE(bar.stepLabel()->text(), QStringLiteral("no snapshot yet"));
    QVERIFY(!bar.slider()->isEnabled());
    QVERIFY(!bar.playButton()->isEnabled());
    timeline.setKeptSteps(5, {0, 1, 2});
    timeline.setLiveStep(3);
    QCOMPARE(bar.slider()->maximum(), 3);
    QCOMPARE(bar.slider()->value(), 3);
    QCOMPARE(bar.stepLabel()->text(), QStringLiteral("step 3 (4 of 4), newest"));
    bar.slider()->setValue(1);
    QCOMPARE(timeline.chosenStep(), std::optional<qint64>(1));
    QCOMPARE(bar.stepLabel()->text(), QStringLiteral("step 1 (2 of 4)"));
    timeline.showRun(8, {0, 4});
    QCOMPARE(bar.slider()->value(), 1);
    QCOMPARE(bar.stepLabel()->text(), QStringLiteral("run 8, step 4 (2 of 2)"));
    bar.speedBox()->setCurrentIndex(bar.speedBox()->count() - 1);
    QCOMPARE(timeline.speed(), 8.0);
    QTest::mouseClick(bar.playButton(), Qt::LeftButton);
    QVERIFY(timeline.isPlaying());
    QCOMPARE(bar.playButton()->text(), QStringLiteral("Pause"));
    QTRY_VERIFY(!timeline.isPlaying());
    QCOMPARE(bar.playButton()->text(), QStringLiteral("Play"));
    QVERIFY(!bar.playButton()->isChecked());
}

// Only a step whose weights are kept can be A; the bar's button marks and
// clears it; another run on screen forgets it.
void TestTimeline::stepAIsAKeptStepOfTheRunOnScreen() {
    Timeline timeline;
    TimelineControls bar(&timeline);
    QSignalSpy marked(&timeline, &Timeline::markChanged);
    QVERIFY(!bar.markButton()->isEnabled());
    timeline.setKeptSteps(5, {0, 1, 2});
    timeline.setLiveStep(3);  // the live model's newest: not kept
    QVERIFY(!timeline.markChosen());
    QVERIFY(!bar.markButton()->isEnabled());
    QCOMPARE(timeline.markedStep(), std::nullopt);
    timeline.choose(1);
    QVERIFY(bar.markButton()->isEnabled());
    QTest::mouseClick(bar.markButton(), Qt::LeftButton);
    QCOMPARE(timeline.markedStep(), std::optional<qint64>(1));
    QCOMPARE(marked.count(), 1);
    QVERIFY(bar.markButton()->isChecked());
    QCOMPARE(bar.markButton()->text(), QStringLiteral("A: step 1"));
    // Moving on keeps A, and A stays clickable (to clear it) at a step not kept.
    timeline.choose(3);
    QCOMPARE(timeline.markedStep(), std::optional<qint64>(1));
    QVERIFY(bar.markButton()->isEnabled());
    QTest::mouseClick(bar.markButton(), Qt::LeftButton);
    QCOMPARE(timeline.markedStep(), std::nullopt);
    QCOMPARE(marked.count(), 2);
    QVERIFY(!bar.markButton()->isChecked());
    QCOMPARE(bar.markButton()->text(), QStringLiteral("Mark A"));
    // Another run on screen.
    timeline.choose(2);
    QVERIFY(timeline.markChosen());
    timeline.showRun(8, {0, 4});
    QCOMPARE(timeline.markedStep(), std::nullopt);
    QCOMPARE(marked.count(), 4);
    QVERIFY(!bar.markButton()->isChecked());
    // Playing while the live model's steps shrink to one (a new run): Play
    // stops, and the bar reads a whole timeline when it hears so.
    timeline.showLive();
    timeline.setKeptSteps(9, {0, 1, 2});
    timeline.setLiveStep(3);
    timeline.choose(2);  // past the end of what comes next
    timeline.setPlaying(true);
    QVERIFY(timeline.isPlaying());
    timeline.setKeptSteps(9, {});
    timeline.setLiveStep(std::nullopt);
    timeline.setKeptSteps(10, {0});
    QVERIFY(!timeline.isPlaying());
    QCOMPARE(bar.stepLabel()->text(), QStringLiteral("step 0 (1 of 1)"));
}

CHARGPT_TEST_MAIN(TestTimeline)
}  // namespace tst_timeline
#include "tst_timeline.moc"
