// SPDX-License-Identifier: GPL-3.0-or-later
// The timeline bar the Attention page and the Surprise view replay their
// snapshots with: where it stands, when it follows the newest frame, and that
// only a move of the slider asks for a frame.
#include <QLabel>
#include <QSignalSpy>
#include <QSlider>
#include <QTest>

#include "widgets/TimelineBar.h"
#include "TestProgram.h"

namespace tst_timelinebar {

class TestTimelineBar : public QObject {
    Q_OBJECT

private slots:
    void emptyUntilTheFirstFrame();
    void followsTheNewestFrameFromTheEnd();
    void staysOnAnEarlierFrame();
    void clearsToNoSnapshot();
};

void TestTimelineBar::emptyUntilTheFirstFrame() {
    TimelineBar bar;
    QCOMPARE(bar.frameCount(), 0);
    QVERIFY(bar.atEnd());
    QVERIFY(!bar.slider()->isEnabled());
    QCOMPARE(bar.frameLabel()->text(), QStringLiteral("no snapshot yet"));
    // One frame: nothing to move through yet.
    bar.setSteps({10}, bar.atEnd());
    QCOMPARE(bar.frameLabel()->text(), QStringLiteral("step 10 (1 of 1)"));
    QVERIFY(!bar.slider()->isEnabled());
    QVERIFY(bar.atEnd());
}

void TestTimelineBar::followsTheNewestFrameFromTheEnd() {
    TimelineBar bar;
    QSignalSpy chosen(&bar, &TimelineBar::frameChosen);
    bar.setSteps({0, 50}, true);
    bar.setSteps({0, 50, 100}, bar.atEnd());
    QVERIFY(bar.slider()->isEnabled());
    QCOMPARE(bar.slider()->maximum(), 2);
    QCOMPARE(bar.slider()->value(), 2);
    QVERIFY(bar.atEnd());
    QCOMPARE(bar.frameLabel()->text(), QStringLiteral("step 100 (3 of 3)"));
    QCOMPARE(chosen.count(), 0);  // the view shows a new frame itself
}

void TestTimelineBar::staysOnAnEarlierFrame() {
    TimelineBar bar;
    QSignalSpy chosen(&bar, &TimelineBar::frameChosen);
    bar.setSteps({0, 50, 100}, true);
    bar.slider()->setValue(1);
    QCOMPARE(chosen.count(), 1);
    QCOMPARE(chosen.first().first().toInt(), 1);
    QCOMPARE(bar.frameLabel()->text(), QStringLiteral("step 50 (2 of 3)"));
    QVERIFY(!bar.atEnd());
    // A new frame while the user looks at an earlier one: the slider stays.
    bar.setSteps({0, 50, 100, 150}, bar.atEnd());
    QCOMPARE(bar.slider()->value(), 1);
    QCOMPARE(bar.frameLabel()->text(), QStringLiteral("step 50 (2 of 4)"));
    QCOMPARE(chosen.count(), 1);
}

void TestTimelineBar::clearsToNoSnapshot() {
    TimelineBar bar;
    QSignalSpy chosen(&bar, &TimelineBar::frameChosen);
    bar.setSteps({0, 50, 100}, true);
    bar.setSteps({}, false);
    QCOMPARE(bar.frameCount(), 0);
    QCOMPARE(bar.slider()->value(), 0);
    QVERIFY(!bar.slider()->isEnabled());
    QVERIFY(bar.atEnd());
    QCOMPARE(bar.frameLabel()->text(), QStringLiteral("no snapshot yet"));
    QCOMPARE(chosen.count(), 0);
}

CHARGPT_TEST_MAIN(TestTimelineBar)
}  // namespace tst_timelinebar
#include "tst_timelinebar.moc"
