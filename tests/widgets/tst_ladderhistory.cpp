// SPDX-License-Identifier: GPL-3.0-or-later
// The ladders the run library keeps, from hand-made rows of the Runs tab: the
// rung runs gathered into ladders by the documented rule, newest first;
// hostile values read as unknown and names made plain; and the Ladder tab
// showing them: the newest, an earlier one picked from the list, its floors
// asked for once and drawn when they arrive, or a line saying why there are
// none; a ladder trained in the window staying until another is picked.
#include <QComboBox>
#include <QLabel>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>

#include <cmath>

#include "widgets/LadderHistory.h"
#include "widgets/LadderView.h"
#include "TestProgram.h"

namespace tst_ladderhistory {

namespace {

const char* const kRungNames[] = {"ladder-1-bigram",      "ladder-2-attention", "ladder-3-unscaled", "ladder-4-heads",
                                  "ladder-5-feedforward", "ladder-6-block",     "ladder-7-gpt"};

RunRow rungRun(qint64 id, int number, const QString& corpus, double best = 2.0) {
    RunRow run;
    run.id = id;
    run.preset = QString::fromLatin1(kRungNames[number - 1]);
    run.corpus = corpus;
    run.corpusHash = QStringLiteral("hash of ") + corpus;
    run.started = QDateTime(QDate(2026, 12, 1), QTime(9, 0), Qt::UTC).addSecs(60 * id);
    run.ended = run.started.addSecs(30);
    run.endReason = chargpt::EndReason::Finished;
    run.parameters = 1000 * number;
    run.step = 300;
    run.elapsedSeconds = 2.5 * number;
    run.bestValLoss = best;
    run.lastValLoss = best + 0.1;
    run.settings = {{QStringLiteral("sequence_len"), QStringLiteral("64")},
                    {QStringLiteral("max_steps"), QStringLiteral("300")},
                    {QStringLiteral("val_fraction"), QStringLiteral("0.1")}};
    return run;
}

QVector<int> numbers(const LadderRecord& ladder) {
    QVector<int> n;
    for (const LadderRungData& rung : ladder.rungs) n.append(rung.number);
    return n;
}

// Two ladders on one corpus, the newer of three rungs.
QVector<LadderRecord> twoLadders() {
    return laddersOf({rungRun(1, 1, "builtin:tang300", 5.2), rungRun(2, 2, "builtin:tang300", 5.6),
                      rungRun(3, 1, "builtin:tang300", 5.1), rungRun(4, 2, "builtin:tang300", 4.0),
                      rungRun(5, 3, "builtin:tang300", 3.9)});
}

bool drawnFloors(const LadderView& view) {
    for (const double floor : view.floorLines())
        if (!std::isfinite(floor)) return false;
    return true;
}

}  // namespace

class TestLadderHistory : public QObject {
    Q_OBJECT

private slots:
    void gathersRungRunsIntoLadders();
    void readsHostileRowsAsUnknown();
    void showsTheNewestAndAnEarlierOne();
    void saysWhyThereAreNoFloors();
    void ladderTrainedHereStays();
    void emptyLibrarySaysSo();
};

void TestLadderHistory::gathersRungRunsIntoLadders() {
    RunRow other = rungRun(3, 1, "builtin:tang300");
    other.preset = QStringLiteral("fast");  // not a rung: left out
    RunRow further = rungRun(5, 2, "builtin:tang300");
    further.firstStep = 300;  // a rung trained further: not a ladder's
    // Given newest first, as the library lists them, with two corpora
    // interleaved and `--rungs 1,6-7` on the second.
    const QVector<RunRow> rows = {rungRun(10, 2, "builtin:tang300"), rungRun(9, 1, "builtin:tang300"),
                                  rungRun(8, 7, "b.txt"), rungRun(7, 3, "builtin:tang300"),
                                  rungRun(6, 6, "b.txt"), further, rungRun(4, 2, "builtin:tang300"),
                                  other, rungRun(2, 1, "b.txt"), rungRun(1, 1, "builtin:tang300")};
    const QVector<LadderRecord> ladders = laddersOf(rows);
    QCOMPARE(ladders.size(), 3);
    QCOMPARE(ladders[0].corpus, QStringLiteral("builtin:tang300"));
    QCOMPARE(numbers(ladders[0]), QVector<int>({1, 2}));
    QCOMPARE(ladders[0].runIds(), QVector<qint64>({9, 10}));
    QCOMPARE(ladders[1].corpus, QStringLiteral("b.txt"));
    QCOMPARE(numbers(ladders[1]), QVector<int>({1, 6, 7}));
    QCOMPARE(numbers(ladders[2]), QVector<int>({1, 2, 3}));
    QCOMPARE(ladders[2].started, rows.last().started);
    QCOMPARE(ladders[2].sequenceLen, qint64(64));
    QCOMPARE(ladders[2].valFraction, 0.1);
    QCOMPARE(ladders[2].rungs[2].totalSteps, qint64(300));
    QCOMPARE(ladders[2].rungs[2].state, LadderRungData::State::Finished);
    // Same text and split, same floors; another text, other floors.
    QCOMPARE(ladders[0].floorsKey(), ladders[2].floorsKey());
    QVERIFY(ladders[0].floorsKey() != ladders[1].floorsKey());
}

void TestLadderHistory::readsHostileRowsAsUnknown() {
    RunRow run = rungRun(1, 1, QStringLiteral("<b>bold</b>\nsecond line") + QString(100000, QChar(u'x')));
    run.bestValLoss = 1e300;
    run.lastValLoss = -3.0;
    run.parameters = -5;
    run.step = -1;
    run.elapsedSeconds = std::nan("");
    run.endReason.reset();  // killed
    run.settings = {{QStringLiteral("sequence_len"), QStringLiteral("-4")},
                    {QStringLiteral("max_steps"), QStringLiteral("{\"a\":1}")}};
    RunRow nan = rungRun(2, 2, run.corpus);
    nan.corpusHash = run.corpusHash;
    nan.bestValLoss = std::nan("");
    nan.endReason = chargpt::EndReason::Other;
    const QVector<LadderRecord> ladders = laddersOf({run, nan});
    QCOMPARE(ladders.size(), 1);
    const LadderRungData& first = ladders[0].rungs[0];
    QVERIFY(std::isnan(first.bestValLoss) && std::isnan(first.currentValLoss));
    QCOMPARE(first.parameters, qint64(0));
    QCOMPARE(first.step, qint64(0));
    QCOMPARE(first.seconds, 0.0);
    QCOMPARE(first.totalSteps, qint64(0));
    QCOMPARE(first.state, LadderRungData::State::Unended);
    QCOMPARE(ladders[0].rungs[1].state, LadderRungData::State::Failed);
    QCOMPARE(ladders[0].sequenceLen, qint64(0));

    const QString name = plainCorpusName(run.corpus);
    QCOMPARE(name.size(), 80);
    QVERIFY(!name.contains(QChar(u'\n')));
    LadderView view;
    view.resize(900, 700);
    view.setHistory(ladders);
    QCOMPARE(view.table()->rowCount(), 2);
    QVERIFY(view.heading().contains(QStringLiteral("<b>bold</b> second")));
    QVERIFY(view.heading().size() < 300);
    auto* heading = view.findChild<QLabel*>(QStringLiteral("ladderHeading"));
    QCOMPARE(heading->textFormat(), Qt::PlainText);
    QVERIFY(view.table()->item(0, 3)->text().contains(QStringLiteral("no end recorded")));
    QVERIFY(view.bestPoints().isEmpty());  // no loss worth drawing
    QVERIFY(view.lesson().isEmpty());
    view.grab();  // paints without failing
}

void TestLadderHistory::showsTheNewestAndAnEarlierOne() {
    LadderView view;
    QSignalSpy wanted(&view, &LadderView::floorsWanted);
    const QVector<LadderRecord> ladders = twoLadders();
    QCOMPARE(ladders.size(), 2);
    view.setHistory(ladders);
    QCOMPARE(view.shownRecord(), 0);
    QCOMPARE(view.rungs().size(), 3);
    QCOMPARE(view.table()->rowCount(), 3);
    QVERIFY2(view.heading().contains(QStringLiteral("builtin:tang300")), qPrintable(view.heading()));
    QCOMPARE(view.historyBox()->count(), 2);
    QVERIFY(!view.historyBox()->isHidden());
    QVERIFY(view.historyBox()->isEnabled());
    QVERIFY(view.historyBox()->itemText(0).contains(QStringLiteral("3 rung")));
    // Its floors asked for once, drawn when they come.
    QCOMPARE(wanted.size(), 1);
    QCOMPARE(wanted.first().first().value<LadderRecord>().runIds(), QVector<qint64>({3, 4, 5}));
    QVERIFY(!view.floorsNote().isEmpty());
    QVERIFY(!drawnFloors(view));
    view.setHistory(ladders);  // read again meanwhile: not asked again
    QCOMPARE(wanted.size(), 1);
    QSignalSpy ngramWanted(&view, &LadderView::ngramFloorsWanted);
    view.setRecordedFloors(ladders[0].floorsKey(), LadderFloors{7.8, 5.6, 1.4}, QString());
    QVERIFY(drawnFloors(view));
    // Its text is the one it trained on: its n-gram floors are wanted, split as it was.
    QCOMPARE(ngramWanted.size(), 1);
    QCOMPARE(ngramWanted.first().at(0).toString(), QStringLiteral("builtin:tang300"));
    QCOMPARE(ngramWanted.first().at(1).toLongLong(), qint64(64));
    QCOMPARE(view.floorLines()[1], 5.6);
    QVERIFY(view.floorsNote().isEmpty());
    QCOMPARE(view.bestPoints().size(), 3);
    QVERIFY2(view.lesson().contains(QStringLiteral("unigram floor")), qPrintable(view.lesson()));

    // The earlier one, picked: same text and split, so its floors are known.
    view.historyBox()->setFocus();
    QTest::keyClick(view.historyBox(), Qt::Key_Down);
    QCOMPARE(view.shownRecord(), 1);
    QCOMPARE(view.rungs().size(), 2);
    QCOMPARE(view.rungs()[1].bestValLoss, 5.6);
    QCOMPARE(wanted.size(), 1);
    QVERIFY(drawnFloors(view));
    // A new reading with a newer ladder keeps the one picked.
    QVector<LadderRecord> more = laddersOf({rungRun(1, 1, "builtin:tang300"), rungRun(2, 2, "builtin:tang300"),
                                            rungRun(3, 1, "builtin:tang300"), rungRun(4, 2, "builtin:tang300"),
                                            rungRun(5, 3, "builtin:tang300"), rungRun(6, 1, "builtin:tang300")});
    view.setHistory(more);
    QCOMPARE(view.shownRecord(), 2);
    QCOMPARE(view.rungs()[0].runId, qint64(1));
    QCOMPARE(view.historyBox()->currentIndex(), 2);
}

void TestLadderHistory::saysWhyThereAreNoFloors() {
    LadderView view;
    view.setHistory(laddersOf({rungRun(1, 1, "/gone/text.txt", 2.5), rungRun(2, 2, "/gone/text.txt", 2.2)}));
    const QString why = QStringLiteral("the corpus /gone/text.txt is no longer there.");
    QSignalSpy ngramWanted(&view, &LadderView::ngramFloorsWanted);
    view.setRecordedFloors(view.history()[0].floorsKey(), LadderFloors(), why);
    QVERIFY2(view.floorsNote().contains(why), qPrintable(view.floorsNote()));
    QCOMPARE(ngramWanted.size(), 0);  // no text to measure them on
    QVERIFY(!view.findChild<QLabel*>(QStringLiteral("ladderFloorsNote"))->isHidden());
    QVERIFY(!drawnFloors(view));
    QCOMPARE(view.bestPoints().size(), 2);
    // Only what the numbers show without floors: the drop, no "nan".
    QVERIFY2(view.lesson().contains(QStringLiteral("biggest drop")), qPrintable(view.lesson()));
    QVERIFY2(!view.lesson().contains(QStringLiteral("nan"), Qt::CaseInsensitive), qPrintable(view.lesson()));
    QVERIFY(view.historyBox()->isHidden());  // one ladder: nothing to pick
}

void TestLadderHistory::ladderTrainedHereStays() {
    LadderView view;
    QSignalSpy wanted(&view, &LadderView::floorsWanted);
    view.setHistory(twoLadders());
    const LadderFloors floors{4.0, 3.2, 2.5};
    view.start(floors);
    view.setLadderTraining(true);
    LadderRungData first;
    first.number = 1;
    first.state = LadderRungData::State::Finished;
    first.bestValLoss = 2.6;
    first.runId = 6;
    view.setRung(first);
    LadderRungData second;
    second.number = 2;
    second.currentValLoss = 2.4;
    view.setRung(second);
    QCOMPARE(view.heading(), QStringLiteral("The ladder training now."));
    QVERIFY(!view.historyBox()->isEnabled());
    // The library lists its first rung: the view keeps what it draws.
    view.setHistory(laddersOf({rungRun(1, 1, "builtin:tang300"), rungRun(2, 2, "builtin:tang300"),
                               rungRun(6, 1, "a.txt", 2.6)}));
    QCOMPARE(view.shownRecord(), 0);
    QCOMPARE(view.rungs().size(), 2);
    QCOMPARE(view.livePoints().size(), 1);
    QVERIFY(view.heading().contains(QStringLiteral("a.txt")));
    QVERIFY(!view.historyBox()->isEnabled());
    view.setLadderTraining(false);
    QVERIFY(view.historyBox()->isEnabled());
    // Picked again from the list, it has the floors it trained with.
    const int before = int(wanted.size());
    emit view.historyBox()->activated(0);
    QCOMPARE(wanted.size(), before);
    QCOMPARE(view.floorLines()[2], 2.5);
    QCOMPARE(view.rungs().size(), 1);
}

void TestLadderHistory::emptyLibrarySaysSo() {
    LadderView view;
    view.setHistory({});
    QCOMPARE(view.shownRecord(), -1);
    QVERIFY(view.heading().contains(QStringLiteral("No ladder")));
    QVERIFY(view.historyBox()->isHidden());
    QCOMPARE(view.table()->rowCount(), 0);
    // A library that cannot be read: the sentence why, as plain text.
    view.setHistory({}, QStringLiteral("The run library cannot be used: <i>disk</i> is gone."));
    QVERIFY2(view.heading().contains(QStringLiteral("cannot be used: <i>disk</i> is gone.")), qPrintable(view.heading()));
    QCOMPARE(view.findChild<QLabel*>(QStringLiteral("ladderHeading"))->textFormat(), Qt::PlainText);
}

CHARGPT_TEST_MAIN(TestLadderHistory)
}  // namespace tst_ladderhistory
#include "tst_ladderhistory.moc"
