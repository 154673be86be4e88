// SPDX-License-Identifier: GPL-3.0-or-later
// The Ladder tab from hand-made numbers: each finished rung a point at its
// best validation loss, the rung in training a hollow one at its current
// loss, the three floors as lines, a table row per rung, and the sentence
// that says which rung crossed which floor and where the biggest drop is; the
// n-gram floors of the ladder's text.
#include <QLocale>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>

#include <cmath>

#include "widgets/LadderText.h"
#include "widgets/LadderView.h"
#include "qcustomplot.h"
#include "TestProgram.h"

namespace tst_ladderview {

namespace {

LadderRungData rung(int number, double best, LadderRungData::State state = LadderRungData::State::Finished) {
    LadderRungData r;
    r.number = number;
    r.state = state;
    r.bestValLoss = best;
    r.currentValLoss = best;
    r.parameters = 1000 * number;
    r.step = 300;
    r.totalSteps = 300;
    r.seconds = 2.0 * number;
    return r;
}

const LadderFloors kFloors{4.0, 3.2, 2.5};

}  // namespace

class TestLadderView : public QObject {
    Q_OBJECT

private slots:
    void drawsRungsAndFloors();
    void liveRungBecomesAPoint();
    void saysWhatTheNumbersShow();
    void saysWhenNoRungCrossesAFloor();
    void saysWhenASimplerRungWins();
    void startButtonAsks();
    void ngramFloorsOfItsTextAreDrawn();
};

void TestLadderView::drawsRungsAndFloors() {
    LadderView view;
    view.start(kFloors);
    view.setRung(rung(2, 2.4));
    view.setRung(rung(1, 2.6));  // out of order: kept by number
    view.setRung(rung(3, 2.45));
    LadderRungData training = rung(4, 2.1, LadderRungData::State::Training);
    training.currentValLoss = 2.2;
    view.setRung(training);

    QCOMPARE(view.bestPoints(), (QVector<QPointF>{{1, 2.6}, {2, 2.4}, {3, 2.45}}));
    QCOMPARE(view.livePoints(), (QVector<QPointF>{{4, 2.2}}));
    QCOMPARE(view.floorLines(), (QVector<double>{4.0, 3.2, 2.5}));
    // Everything drawn is inside the y axis.
    const QCPRange y = view.chart()->yAxis->range();
    QVERIFY(y.contains(4.0) && y.contains(2.2) && y.contains(2.4));

    QTableWidget* table = view.table();
    QCOMPARE(table->rowCount(), 4);
    QCOMPARE(table->item(0, 0)->text(), QStringLiteral("1. bigram"));
    QCOMPARE(table->item(1, 0)->text(), QStringLiteral("2. one attention head"));
    QCOMPARE(table->item(0, 1)->text(), ladderRungAdds(1));
    QCOMPARE(table->item(1, 3)->text(), QStringLiteral("2.400"));
    QVERIFY(table->item(3, 3)->text().contains(QStringLiteral("training")));
    QVERIFY(table->item(3, 3)->text().contains(QStringLiteral("2.200")));
    QCOMPARE(table->item(2, 4)->text(), QStringLiteral("300 / 300"));

    // A new ladder forgets the old rungs.
    view.start(LadderFloors{});
    QVERIFY(view.bestPoints().isEmpty());
    QCOMPARE(view.table()->rowCount(), 0);
    QVERIFY(std::isnan(view.floorLines()[1]));
}

void TestLadderView::liveRungBecomesAPoint() {
    LadderView view;
    view.start(kFloors);
    view.setRung(rung(1, 2.6, LadderRungData::State::Training));
    QCOMPARE(view.livePoints().size(), 1);
    QVERIFY(view.bestPoints().isEmpty());
    LadderRungData stopped = rung(1, 2.7, LadderRungData::State::Stopped);
    view.setRung(stopped);
    QVERIFY(view.livePoints().isEmpty());
    QCOMPARE(view.bestPoints(), (QVector<QPointF>{{1, 2.7}}));
    QCOMPARE(view.table()->rowCount(), 1);
    QVERIFY(view.table()->item(0, 3)->text().contains(QStringLiteral("stopped")));
}

void TestLadderView::saysWhatTheNumbersShow() {
    LadderView view;
    view.start(kFloors);
    view.setRung(rung(1, 2.6));
    view.setRung(rung(2, 2.4));
    view.setRung(rung(3, 2.45));
    view.setRung(rung(4, 2.0));   // the biggest drop: 0.45 from rung 3
    view.setRung(rung(5, 1.85));
    const QString lesson = view.lesson();
    QVERIFY2(lesson.contains(QStringLiteral("Rung 2 (one attention head) is the first below the bigram floor: "
                                            "2.40 against 2.50")),
             qPrintable(lesson));
    QVERIFY2(lesson.contains(QStringLiteral("The biggest drop, 0.45 nats, comes at rung 4 (heads and projection)")),
             qPrintable(lesson));
    QVERIFY(lesson.contains(ladderRungAdds(4)));
    // A rung still training is not counted yet.
    view.setRung(rung(6, 1.0, LadderRungData::State::Training));
    QCOMPARE(view.lesson(), lesson);
}

void TestLadderView::saysWhenNoRungCrossesAFloor() {
    QCOMPARE(ladderLesson(kFloors, {}), QString());
    const QString none = ladderLesson(kFloors, {rung(1, 3.5)});
    QVERIFY2(none.contains(QStringLiteral("No rung is below the unigram floor (3.20 nats)")), qPrintable(none));
    const QString unigram = ladderLesson(kFloors, {rung(1, 3.5), rung(2, 3.0)});
    QVERIFY2(unigram.contains(QStringLiteral("Rung 2 (one attention head) is the first below the unigram floor")),
             qPrintable(unigram));
    QVERIFY(unigram.contains(QStringLiteral("The biggest drop, 0.50 nats, comes at rung 2")));
}

// The Tang poems' ladder (README): the bigram rung, 5.205, beats every later
// rung (5.487 to 5.645, shown 5.49 to 5.64), whose biggest drop (0.10 at rung 4) is no progress,
// and the bigram floor of the validation text's own pairs (1.453) is far out
// of reach, not "not yet".
void TestLadderView::saysWhenASimplerRungWins() {
    const LadderFloors tang{7.856, 5.593, 1.453};
    QVector<LadderRungData> rungs;
    const double best[] = {5.205, 5.626, 5.645, 5.557, 5.565, 5.487, 5.515};
    const qint64 parameters[] = {663060, 720404, 720404, 736916, 868628, 869140, 1067284};
    for (int i = 0; i < 7; ++i) {
        rungs << rung(i + 1, best[i]);
        rungs.last().parameters = parameters[i];
    }
    const QString lesson = ladderLesson(tang, rungs);
    QVERIFY2(lesson.startsWith(QStringLiteral("Rung 1 (bigram) has the lowest loss, 5.21 nats; every later rung, with "
                                              "more parts, does worse (5.49 to 5.64).")),
             qPrintable(lesson));
    QVERIFY2(lesson.contains(QStringLiteral("too little for their parameters (up to %1)")
                                 .arg(QLocale().toString(qint64(1067284)))),
             qPrintable(lesson));
    QVERIFY2(!lesson.contains(QStringLiteral("biggest drop")), qPrintable(lesson));
    QVERIFY2(!lesson.contains(QStringLiteral("yet")), qPrintable(lesson));
    QVERIFY2(lesson.contains(QStringLiteral("The bigram floor (1.45) counts the validation text's own pairs")),
             qPrintable(lesson));
    // Two rungs only, the later worse: said of that one rung.
    const QString two = ladderLesson(kFloors, {rung(1, 2.4), rung(2, 2.6)});
    QVERIFY2(two.startsWith(QStringLiteral("Rung 1 (bigram) has the lowest loss, 2.40 nats; the later rung, with more "
                                           "parts, does worse (2.60).")),
             qPrintable(two));
    // The best rung the last: no such word, and the biggest drop is said.
    const QString climbing = ladderLesson(kFloors, {rung(1, 3.5), rung(2, 3.0)});
    QVERIFY2(!climbing.contains(QStringLiteral("lowest loss")), qPrintable(climbing));
    QVERIFY2(climbing.contains(QStringLiteral("no rung beats the bigram floor (2.50) yet")), qPrintable(climbing));
}

void TestLadderView::startButtonAsks() {
    LadderView view;
    QSignalSpy asked(&view, &LadderView::startRequested);
    QCOMPARE(view.startButton()->objectName(), QStringLiteral("ladderStart"));
    QCOMPARE(view.chart()->objectName(), QStringLiteral("ladderChart"));
    QTest::mouseClick(view.startButton(), Qt::LeftButton);
    QCOMPARE(asked.size(), 1);
    view.setStartEnabled(false);
    QTest::mouseClick(view.startButton(), Qt::LeftButton);
    QCOMPARE(asked.size(), 1);
}

// The n-gram floors of the ladder's text and split: asked for once, drawn as
// lines n = 2 to 5 when they come, inside the chart; another text's not drawn;
// a ladder whose text is not known to be the one it trained on asks for none.
void TestLadderView::ngramFloorsOfItsTextAreDrawn() {
    LadderView view;
    QSignalSpy wanted(&view, &LadderView::ngramFloorsWanted);
    view.start(kFloors, QStringLiteral("builtin:tang300"), 64, 0.1);
    QCOMPARE(wanted.size(), 1);
    QCOMPARE(wanted.first().at(0).toString(), QStringLiteral("builtin:tang300"));
    QCOMPARE(wanted.first().at(1).toLongLong(), qint64(64));
    QCOMPARE(wanted.first().at(2).toDouble(), 0.1);
    for (const double line : view.ngramLines()) QVERIFY(std::isnan(line));
    view.setRung(rung(1, 2.6));
    view.setNgramFloors(QStringLiteral("builtin:python"), 64, 0.1, {3.3, 2.4, 2.0, 1.8, 1.7});
    for (const double line : view.ngramLines()) QVERIFY(std::isnan(line));  // another text's
    view.setNgramFloors(QStringLiteral("builtin:tang300"), 64, 0.1, {3.2, 2.45, 2.2, 1.6, 1.5});
    QCOMPARE(view.ngramLines(), (QVector<double>{2.45, 2.2, 1.6, 1.5}));
    const QCPRange y = view.chart()->yAxis->range();
    QVERIFY(y.contains(1.5) && y.contains(4.0));
    // The same text again: known, not asked again.
    view.start(kFloors, QStringLiteral("builtin:tang300"), 64, 0.1);
    QCOMPARE(wanted.size(), 1);
    QCOMPARE(view.ngramLines().front(), 2.45);
    // Without a text: none.
    view.start(kFloors);
    QCOMPARE(wanted.size(), 1);
    for (const double line : view.ngramLines()) QVERIFY(std::isnan(line));
}

CHARGPT_TEST_MAIN(TestLadderView)
}  // namespace tst_ladderview
#include "tst_ladderview.moc"
