// SPDX-License-Identifier: GPL-3.0-or-later
// The Runs tab's list and comparison, on hand-made runs: what differs, seed
// groups drawn as a mean with its band, the x axis, filter, ticks, rename,
// delete (asked), and the exports.
#include <QApplication>
#include <QFile>
#include <QMap>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextDocument>

#include <QCheckBox>
#include <QComboBox>
#include <QPushButton>

#include <cmath>

#include "widgets/RunsCompare.h"
#include "widgets/RunsData.h"
#include "widgets/RunsList.h"
#include "widgets/RunsPage.h"
#include "RunsFixtures.h"
#include "qcustomplot.h"
#include "TestProgram.h"

namespace tst_runsviews {

using namespace runs_fixtures;

class TestRunsViews : public QObject {
    Q_OBJECT
private slots:
    void whatDiffersAndSeedGroups();
    void seedMeanByHand();
    void listFiltersTicksRenamesAndAsksBeforeDeleting();
    void listReadAgainShowsTheNewFiguresAndKeepsTheChoices();
    void toolTipsShowTheLibrarysTextAsIs();
    void endsShowTheirWordOrTheLibrarysText();
};

void TestRunsViews::whatDiffersAndSeedGroups() {
    const QVector<RunRow> runs{makeRun(1, "0.003", "1"), makeRun(2, "0.003", "2"), makeRun(3, "0.002", "1"),
                               makeRun(4, "0.003", "3")};
    QCOMPARE(differingSettings(runs), (QStringList{"learning_rate", "seed"}));
    QCOMPARE(differingSettings({runs[0], runs[1]}), QStringList{"seed"});
    QVERIFY(differingSettings({runs[0]}).isEmpty());
    // Runs 1, 2 and 4 differ only in their seed; run 3 is alone.
    QCOMPARE(seedGroups(runs), (QVector<QVector<int>>{{0, 1, 3}}));
    // Another corpus is another group, whatever the settings.
    RunRow other = makeRun(5, "0.003", "9");
    other.corpusHash = QStringLiteral("0000000000000000");
    QCOMPARE(seedGroups({runs[0], other}), QVector<QVector<int>>{});
    QCOMPARE(runs[0].setting(QStringLiteral("learning_rate")), QStringLiteral("0.003"));
    QVERIFY(runs[0].setting(QStringLiteral("none")).isEmpty());
    // A rung of the ladder keeps the parts it lacks ("positions": false); the
    // whole model's settings leave them out, and they read as there.
    RunRow rung = makeRun(6, "0.003", "1");
    rung.settings.append({QStringLiteral("positions"), QStringLiteral("false")});
    QCOMPARE(runs[0].setting(QStringLiteral("positions")), QStringLiteral("true"));
    QCOMPARE(rung.setting(QStringLiteral("positions")), QStringLiteral("false"));
    QCOMPARE(differingSettings({runs[0], rung}), QStringList{"positions"});
    QVERIFY(RunRow().setting(QStringLiteral("positions")).isEmpty());  // no settings known
}

void TestRunsViews::seedMeanByHand() {
    // Three seeds; the steps all three have are 2 (losses 1, 3, 2) and 3 (2, 5, 6).
    const QVector<QVector<int64_t>> steps = {{1, 2, 3}, {2, 3, 4}, {0, 2, 3}};
    const QVector<QVector<double>> losses = {{9, 1, 2}, {3, 5, 7}, {0, 2, 6}};
    std::vector<chargpt::LossCurve> curves(3);
    for (int c = 0; c < 3; ++c)
        for (int i = 0; i < 3; ++i) {
            const int64_t step = steps[c][i];
            curves[c].addStep(step, step * 100 + 30 * c, double(step), losses[c][i], 1e-3 * (c + 1));
            curves[c].addEvaluation(step, step * 100 + 30 * c, double(step), 2 * losses[c][i], losses[c][i]);
        }
    QVector<const chargpt::LossCurve*> seeds;
    for (const chargpt::LossCurve& curve : curves)
        seeds << &curve;
    SeedMean mean = seedMean(seeds);
    QCOMPARE(mean.mean.steps.size(), std::size_t(2));
    QCOMPARE(mean.mean.steps[0].step, int64_t(2));
    QCOMPARE(mean.mean.steps[1].step, int64_t(3));
    QCOMPARE(mean.mean.steps[0].loss, 2.0);
    QCOMPARE(mean.mean.steps[1].loss, 13.0 / 3);
    QCOMPARE(mean.mean.steps[1].tokens, int64_t(330));  // 300, 330, 360
    QCOMPARE(mean.mean.steps[1].learningRate, 2e-3);
    QCOMPARE(mean.mean.evaluations.size(), std::size_t(2));
    QCOMPARE(mean.mean.evaluations[1].valLoss, 13.0 / 3);
    QCOMPARE(mean.mean.evaluations[1].trainLoss, 26.0 / 3);
    QCOMPARE(mean.valLow, (QVector<double>{1, 2}));
    QCOMPARE(mean.valHigh, (QVector<double>{3, 6}));

    // A loss that is not a number leaves its step out of the mean.
    curves[2] = chargpt::LossCurve();
    for (int i = 0; i < 3; ++i) {
        const double loss = steps[2][i] == 3 ? std::nan("") : losses[2][i];
        curves[2].addStep(steps[2][i], -1, 0.0, loss, 1e-3);
        curves[2].addEvaluation(steps[2][i], -1, 0.0, loss, loss);
    }
    mean = seedMean(seeds);
    QCOMPARE(mean.mean.steps.size(), std::size_t(1));
    QCOMPARE(mean.mean.steps[0].step, int64_t(2));
    QCOMPARE(mean.valHigh, (QVector<double>{3}));
    QVERIFY(seedMean({}).mean.steps.empty());
}

void TestRunsViews::listFiltersTicksRenamesAndAsksBeforeDeleting() {
    RunsList list;
    RunRow tang = makeRun(1, "0.003", "1", QStringLiteral("/tmp/one.pt"));
    RunRow python = makeRun(2, "0.002", "1");
    python.corpus = QStringLiteral("builtin:python");
    list.setRuns({python, tang});
    QCOMPARE(list.table()->rowCount(), 2);
    QCOMPARE(list.visibleRows(), 2);
    list.setFilter(QStringLiteral("PYTHON"));
    QCOMPARE(list.visibleRows(), 1);
    list.setFilter(QString());

    // Ticks stay across a new list, and go with their run.
    QSignalSpy compared(&list, &RunsList::comparedChanged);
    list.setCompared({1});
    QCOMPARE(list.compared(), QVector<qint64>{1});
    QCOMPARE(compared.size(), 1);
    list.setRuns({python, tang, makeRun(3, "0.003", "2")});
    QCOMPARE(list.compared(), QVector<qint64>{1});
    QCOMPARE(compared.size(), 1);
    list.setRuns({python});
    QCOMPARE(list.compared(), QVector<qint64>{});
    QCOMPARE(compared.size(), 2);
    list.setRuns({python, tang});

    // Renaming in the table asks the library; an empty name is refused.
    QSignalSpy renamed(&list, &RunsList::renameRequested);
    QTableWidgetItem* name = nullptr;
    for (int row = 0; row < 2; ++row)
        if (list.table()->item(row, 1)->data(Qt::UserRole).toLongLong() == 1)
            name = list.table()->item(row, 1);
    QVERIFY(name);
    name->setText(QStringLiteral("   "));
    QVERIFY(renamed.isEmpty());
    QCOMPARE(name->text(), tang.name);
    name->setText(QStringLiteral("lr 0.003, seed 1"));
    QCOMPARE(renamed.size(), 1);
    QCOMPARE(renamed[0][0].toLongLong(), qint64(1));
    QCOMPARE(renamed[0][1].toString(), QStringLiteral("lr 0.003, seed 1"));

    // Delete asks first, and only a yes deletes.
    QSignalSpy deleted(&list, &RunsList::deleteRequested);
    QStringList asked;
    bool answer = false;
    list.setConfirmation([&](const QString& question) {
        asked << question;
        return answer;
    });
    list.selectRun(1);
    QCOMPARE(list.selectedRun(), qint64(1));
    list.deleteSelected();
    QCOMPARE(asked.size(), 1);
    QVERIFY(asked[0].contains(QStringLiteral("lr 0.003, seed 1")));
    QVERIFY(deleted.isEmpty());
    answer = true;
    list.deleteSelected();
    QCOMPARE(deleted.size(), 1);
    QCOMPARE(deleted[0][0].toLongLong(), qint64(1));

    // A list that arrives while a name is being typed waits for the editor to close.
    list.show();
    QVERIFY(QTest::qWaitForWindowExposed(&list));
    list.setRuns({python, tang});
    list.table()->editItem(list.table()->item(0, 1));
    QVERIFY(QApplication::focusWidget() && list.table()->isAncestorOf(QApplication::focusWidget()));
    list.setRuns({python, tang, makeRun(3, "0.003", "2")});
    QCOMPARE(list.runs().size(), 2);
    QVERIFY(QApplication::focusWidget());
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Escape);
    QTRY_COMPARE(list.runs().size(), 3);
    list.setRuns({python, tang});

    // Open and Continue need a checkpoint.
    auto* open = list.findChild<QPushButton*>(QStringLiteral("runsOpen"));
    QVERIFY(open && open->isEnabled());
    QSignalSpy opened(&list, &RunsList::openRequested);
    open->click();
    QCOMPARE(opened.size(), 1);
    QCOMPARE(opened[0][0].value<RunRow>().id, 1);
    QCOMPARE(opened[0][0].value<RunRow>().lastCheckpoint, QStringLiteral("/tmp/one.pt"));
    list.selectRun(2);
    QVERIFY(!open->isEnabled());
    QVERIFY(!list.findChild<QPushButton*>(QStringLiteral("runsContinue"))->isEnabled());
}

void TestRunsViews::listReadAgainShowsTheNewFiguresAndKeepsTheChoices() {
    // The Runs tab reads the library again every few seconds while a run
    // trains: the same runs, one of them further on.
    RunsPage page;
    RunRow going = makeRun(1, "0.003", "1");
    going.ended = QDateTime();
    going.endReason.reset();
    going.step = 100;
    RunRow done = makeRun(2, "0.002", "1", QStringLiteral("/tmp/two.pt"));
    page.setRuns({done, going});
    RunsList* list = page.list();
    list->setCompared({1, 2});
    list->selectRun(2);
    page.setCurves({makeCurve(2, 0.0)});
    QSignalSpy compared(list, &RunsList::comparedChanged);
    auto rowOf = [list](qint64 id) {
        for (int row = 0; row < list->table()->rowCount(); ++row)
            if (list->table()->item(row, 1)->data(Qt::UserRole).toLongLong() == id)
                return row;
        return -1;
    };
    const QString before = list->table()->item(rowOf(1), 8)->text();
    QVERIFY2(before.contains(QStringLiteral("100 steps")), qPrintable(before));

    going.step = 250;
    going.bestValLoss = 1.75;
    going.bestStep = 250;
    going.name = QStringLiteral("renamed elsewhere");
    page.setRuns({done, going});
    // The row shows what the library says now...
    QVERIFY2(list->table()->item(rowOf(1), 8)->text().contains(QStringLiteral("250 steps")),
             qPrintable(list->table()->item(rowOf(1), 8)->text()));
    QVERIFY(list->table()->item(rowOf(1), 5)->text().startsWith(QStringLiteral("1.7500")));
    QCOMPARE(list->table()->item(rowOf(1), 1)->text(), QStringLiteral("renamed elsewhere"));
    QCOMPARE(list->runs()[1].step, qint64(250));
    // ...sorted as before (newest first), with the ticks and the selection kept.
    QCOMPARE(list->table()->item(0, 1)->data(Qt::UserRole).toLongLong(), qint64(2));
    QCOMPARE(list->compared(), (QVector<qint64>{2, 1}));
    QCOMPARE(list->selectedRun(), qint64(2));
    QVERIFY(compared.isEmpty());
    // The comparison shows the compared runs as they are now, with the curve it had.
    QCOMPARE(page.compare()->runs().size(), 2);
    QCOMPARE(page.compare()->runs()[1].step, qint64(250));
    const QStringList names = page.compare()->seriesNames();
    QCOMPARE(names.size(), 2);
    QVERIFY2(names[1].contains(QStringLiteral("renamed elsewhere")), qPrintable(names[1]));
    QCPGraph* two = nullptr;
    for (int i = 0; i < page.compare()->plot()->graphCount(); ++i)
        if (page.compare()->plot()->graph(i)->name() == names[0])
            two = page.compare()->plot()->graph(i);
    QVERIFY(two);
    QCOMPARE(two->data()->size(), 5);  // run 2's five evaluations

    // The same list again changes nothing; another list is shown as it is.
    page.setRuns({done, going});
    QCOMPARE(list->table()->rowCount(), 2);
    QCOMPARE(list->compared(), (QVector<qint64>{2, 1}));
    page.setRuns({done, going, makeRun(3, "0.001", "1")});
    QCOMPARE(list->table()->rowCount(), 3);
    QCOMPARE(list->compared(), (QVector<qint64>{2, 1}));
    QCOMPARE(list->table()->item(0, 1)->data(Qt::UserRole).toLongLong(), qint64(3));
}


// What a tooltip shows: Qt renders one that looks like markup as rich text.
QString shownAs(const QString& tip) {
    if (!Qt::mightBeRichText(tip)) return tip;
    QTextDocument document;
    document.setHtml(tip);
    return document.toPlainText();
}

void TestRunsViews::toolTipsShowTheLibrarysTextAsIs() {
    // A run library is a file anyone may hand over: a checkpoint path with
    // markup made the Open button's tooltip a live link and a picture.
    const QString checkpoint = QStringLiteral("/tmp/<img src=\"/etc/x.png\"><a href=\"https://x\">m</a>.pt");
    RunRow run = makeRun(1, "0.003", "1", checkpoint);
    run.corpusHash = QStringLiteral("<b>abad</b>&amp;");
    RunsList list;
    list.setRuns({run});
    list.selectRun(1);
    auto* open = list.findChild<QPushButton*>(QStringLiteral("runsOpen"));
    auto* resume = list.findChild<QPushButton*>(QStringLiteral("runsContinue"));
    QVERIFY(open && resume);
    QCOMPARE(shownAs(open->toolTip()), checkpoint);
    QVERIFY2(shownAs(resume->toolTip()).contains(checkpoint), qPrintable(resume->toolTip()));
    QTableWidgetItem* corpus = nullptr;
    for (int c = 0; c < list.table()->columnCount(); ++c)
        if (list.table()->item(0, c) && list.table()->item(0, c)->text() == QStringLiteral("Tang poems (唐诗三百首)"))
            corpus = list.table()->item(0, c);
    QVERIFY(corpus);  // a built-in corpus by its name, not its key
    QVERIFY2(shownAs(corpus->toolTip()).contains(QStringLiteral("<b>abad</b>&amp;")), qPrintable(corpus->toolTip()));
}

// Each end reason in the window's words; one of another program's (Other) as
// the library holds it; none for a run without an end.
void TestRunsViews::endsShowTheirWordOrTheLibrarysText() {
    QVector<RunRow> runs{makeRun(1, "0.003", "1"), makeRun(2, "0.003", "2"), makeRun(3, "0.003", "3"),
                         makeRun(4, "0.003", "4")};
    runs[1].endReason = chargpt::EndReason::NonFiniteLoss;
    runs[2].endReason = chargpt::EndReason::Other;
    runs[2].endReasonText = QStringLiteral("<b>exploded</b>");
    runs[3].ended = QDateTime();
    runs[3].endReason.reset();
    RunsList list;
    list.setRuns(runs);
    QMap<qint64, QString> ends;
    const int endColumn = list.table()->columnCount() - 1;
    for (int row = 0; row < list.table()->rowCount(); ++row)
        ends[list.table()->item(row, 1)->data(Qt::UserRole).toLongLong()] = list.table()->item(row, endColumn)->text();
    QCOMPARE(ends.value(1), QStringLiteral("finished"));
    QCOMPARE(ends.value(2), QStringLiteral("diverged"));
    QCOMPARE(ends.value(3), QStringLiteral("<b>exploded</b>"));
    QCOMPARE(ends.value(4), QStringLiteral("no end (training, or killed)"));
}

CHARGPT_TEST_MAIN(TestRunsViews)
}  // namespace tst_runsviews
#include "tst_runsviews.moc"
