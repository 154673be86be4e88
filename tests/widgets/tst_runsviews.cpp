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
#include "qcustomplot.h"
#include "TestProgram.h"

namespace tst_runsviews {

namespace {

RunRow makeRun(qint64 id, const QString& lr, const QString& seed, const QString& checkpoint = QString()) {
    RunRow run;
    run.id = id;
    run.name = QStringLiteral("run on tang");
    run.origin = chargpt::RunOrigin::Cli;
    run.preset = QStringLiteral("tiny");
    run.corpus = QStringLiteral("builtin:tang300");
    run.corpusHash = QStringLiteral("abad951f6b65173f");
    run.started = QDateTime(QDate(2026, 12, 2), QTime(9, 0, int(id)), Qt::UTC);
    run.ended = run.started.addSecs(60);
    run.endReason = chargpt::EndReason::Finished;
    run.steps = 100;
    run.seconds = 60;
    run.tokensPerSecond = 1000.0 * double(id);
    run.bestStep = 100;
    run.bestValLoss = 2.0 + 0.1 * double(id);
    run.lastCheckpoint = checkpoint;
    run.settings = {{QStringLiteral("emb_size"), QStringLiteral("32")},
                    {QStringLiteral("learning_rate"), lr},
                    {QStringLiteral("seed"), seed}};
    return run;
}

// 100 steps of 512 tokens, 0.5 s each; validation every 25 steps.
RunCurve makeCurve(qint64 id, double offset) {
    RunCurve c;
    c.id = id;
    for (int step = 1; step <= 100; ++step)
        c.losses.addStep(step, 512 * step, 0.5 * step, 3.0 - 0.01 * step + offset, 1e-3);
    for (int step = 0; step <= 100; step += 25)
        c.losses.addEvaluation(step, 512 * step, 0.5 * step, 3.1 - 0.01 * step + offset, 3.2 - 0.01 * step + offset);
    return c;
}

}  // namespace

class TestRunsViews : public QObject {
    Q_OBJECT
private slots:
    void whatDiffersAndSeedGroups();
    void seedMeanByHand();
    void listFiltersTicksRenamesAndAsksBeforeDeleting();
    void listReadAgainShowsTheNewFiguresAndKeepsTheChoices();
    void compareDrawsGroupsAndTheDiff();
    void compareExports_data();
    void compareExports();
    void compareHasUnitsLogScaleAndReferences();
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
    going.steps = 100;
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

    going.steps = 250;
    going.bestValLoss = 1.75;
    going.bestStep = 250;
    going.name = QStringLiteral("renamed elsewhere");
    page.setRuns({done, going});
    // The row shows what the library says now...
    QVERIFY2(list->table()->item(rowOf(1), 8)->text().contains(QStringLiteral("250 steps")),
             qPrintable(list->table()->item(rowOf(1), 8)->text()));
    QVERIFY(list->table()->item(rowOf(1), 5)->text().startsWith(QStringLiteral("1.7500")));
    QCOMPARE(list->table()->item(rowOf(1), 1)->text(), QStringLiteral("renamed elsewhere"));
    QCOMPARE(list->runs()[1].steps, qint64(250));
    // ...sorted as before (newest first), with the ticks and the selection kept.
    QCOMPARE(list->table()->item(0, 1)->data(Qt::UserRole).toLongLong(), qint64(2));
    QCOMPARE(list->compared(), (QVector<qint64>{2, 1}));
    QCOMPARE(list->selectedRun(), qint64(2));
    QVERIFY(compared.isEmpty());
    // The comparison shows the compared runs as they are now, with the curve it had.
    QCOMPARE(page.compare()->runs().size(), 2);
    QCOMPARE(page.compare()->runs()[1].steps, qint64(250));
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

void TestRunsViews::compareDrawsGroupsAndTheDiff() {
    RunsCompare compare;
    const QVector<RunRow> runs{makeRun(1, "0.003", "1"), makeRun(2, "0.003", "2"), makeRun(3, "0.002", "1")};
    compare.setRuns(runs, {makeCurve(1, 0.0), makeCurve(2, 0.2), makeCurve(3, 0.5)});
    // Runs 1 and 2 differ only in their seed: one series, their mean with a band.
    const QStringList names = compare.seriesNames();
    QCOMPARE(names.size(), 2);
    QVERIFY2(names[0].startsWith(QStringLiteral("runs 1, 2 ·")), qPrintable(names[0]));
    QVERIFY2(names[1].startsWith(QStringLiteral("run 3 ·")), qPrintable(names[1]));
    // The diff lists what differs and nothing else: one row per setting, a column per run.
    QCOMPARE(compare.diffTable()->rowCount(), 2);
    QCOMPARE(compare.diffTable()->verticalHeaderItem(0)->text(), QStringLiteral("learning_rate"));
    QCOMPARE(compare.diffTable()->verticalHeaderItem(1)->text(), QStringLiteral("seed"));
    QCOMPARE(compare.diffTable()->columnCount(), 3);
    QCOMPARE(compare.diffTable()->item(0, 2)->text(), QStringLiteral("0.002"));

    // The group's validation: mean of 3.2 and 3.4 at step 0, band 3.2 to 3.4.
    QCustomPlot* plot = compare.plot();
    QCPGraph* mean = nullptr;
    for (int i = 0; i < plot->graphCount(); ++i)
        if (plot->graph(i)->name() == names[0])
            mean = plot->graph(i);
    QVERIFY(mean);
    QCOMPARE(mean->data()->size(), 5);
    QCOMPARE(mean->data()->at(0)->value, 3.3);
    QVERIFY(plot->graphCount() >= 2 + 2 + 2);  // band (2), means and training lines

    // Against tokens seen: the same points, at 512 tokens a step.
    compare.setXAxis(RunsCompare::XAxis::Tokens);
    for (int i = 0; i < plot->graphCount(); ++i)
        if (plot->graph(i)->name() == names[1]) {
            QCOMPARE(plot->graph(i)->data()->at(4)->key, 512.0 * 100);
            QCOMPARE(plot->graph(i)->data()->at(4)->value, 3.2 - 1.0 + 0.5);
        }
    QVERIFY(compare.csv().startsWith(QStringLiteral("series,runs,curve,tokens,loss\n")));

    // Same settings everywhere: said so, and no table rows.
    compare.setRuns({runs[0]}, {makeCurve(1, 0.0)});
    QCOMPARE(compare.diffTable()->rowCount(), 0);
    QCOMPARE(compare.seriesNames().size(), 1);
}

void TestRunsViews::compareExports_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<QByteArray>("start");
    QTest::newRow("png") << "runs.png" << QByteArray("\x89PNG");
    QTest::newRow("svg") << "runs.svg" << QByteArray("<?xml");
    QTest::newRow("pdf") << "runs.pdf" << QByteArray("%PDF");
    QTest::newRow("csv") << "runs.csv" << QByteArray("series,runs,curve,step,loss\n");
}

void TestRunsViews::compareExports() {
    QFETCH(QString, name);
    QFETCH(QByteArray, start);
    RunsCompare compare;
    compare.resize(900, 500);
    compare.setRuns({makeRun(1, "0.003", "1"), makeRun(3, "0.002", "1")}, {makeCurve(1, 0.0), makeCurve(3, 0.5)});
    QTemporaryDir dir;
    const QString path = dir.filePath(name);
    QString error;
    QVERIFY2(compare.exportTo(path, &error), qPrintable(error));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray content = file.readAll();
    QVERIFY2(content.startsWith(start), content.left(40).constData());
    if (name.endsWith(QStringLiteral(".csv"))) {
        // Both runs' validation points (5 each) and training points (100 each).
        QCOMPARE(content.count("validation,"), 10);
        QCOMPARE(content.count("training smoothed,"), 200);
    }
    // A name without a known suffix writes nothing.
    QVERIFY(!compare.exportTo(dir.filePath(QStringLiteral("runs.txt")), &error));
    QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("runs.txt"))));
}

// The comparison is the Training tab's plot: its unit switch, log scale,
// reference line and Export button, on several runs.
void TestRunsViews::compareHasUnitsLogScaleAndReferences() {
    RunsCompare compare;
    compare.resize(900, 500);
    QVector<RunRow> runs{makeRun(1, "0.003", "1"), makeRun(3, "0.002", "1")};
    for (RunRow& run : runs)
        run.settings.append({QStringLiteral("vocab_size"), QStringLiteral("40")});
    compare.setRuns(runs, {makeCurve(1, 0.0), makeCurve(3, 0.5)});
    LossPlot* plot = compare.lossPlot();
    QCOMPARE(plot->layoutKind(), LossPlot::Layout::Runs);
    QCOMPARE(plot->seriesCount(), 2);
    auto graphNamed = [&](const QString& name) -> QCPGraph* {
        for (int i = 0; i < compare.plot()->graphCount(); ++i)
            if (compare.plot()->graph(i)->name() == name)
                return compare.plot()->graph(i);
        return nullptr;
    };
    const QString second = compare.seriesNames().at(1);
    QVERIFY(graphNamed(second));
    QCOMPARE(graphNamed(second)->data()->at(4)->value, 3.2 - 1.0 + 0.5);
    // A colour each, and a legend that names them.
    QVERIFY(graphNamed(compare.seriesNames().at(0))->pen().color() != graphNamed(second)->pen().color());
    QVERIFY(compare.plot()->legend->visible());
    QVERIFY(compare.plot()->legend->hasItemWithPlottable(graphNamed(second)));

    // Units: the unit box converts every curve and names the unit; the CSV keeps nats beside it.
    auto* unitBox = plot->findChild<QComboBox*>(QStringLiteral("lossUnit"));
    QVERIFY(unitBox && unitBox->isVisibleTo(&compare));
    unitBox->setCurrentIndex(int(LossUnit::Bits));
    emit unitBox->activated(int(LossUnit::Bits));
    QCOMPARE(plot->unit(), LossUnit::Bits);
    QCOMPARE(graphNamed(second)->data()->at(4)->value, (3.2 - 1.0 + 0.5) / std::log(2.0));
    QVERIFY2(compare.plot()->yAxis->label().contains(QStringLiteral("bits")), qPrintable(compare.plot()->yAxis->label()));
    const QStringList lines = compare.csv().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.first(), QStringLiteral("series,runs,curve,step,loss,loss_bits"));
    const QStringList row = lines[1].split(QLatin1Char(','));
    QCOMPARE(row.size(), 6);
    QCOMPARE(row[1], QStringLiteral("1"));
    QCOMPARE(row[4].toDouble(), 3.2);
    QCOMPARE(float(row[5].toDouble()), float(3.2 / std::log(2.0)));
    // Perplexity turns the log scale on, as on the Training tab; the box turns it off.
    plot->setUnit(LossUnit::Perplexity);
    QCOMPARE(compare.plot()->yAxis->scaleType(), QCPAxis::stLogarithmic);
    QCOMPARE(graphNamed(second)->data()->at(4)->value, std::exp(3.2 - 1.0 + 0.5));
    auto* logBox = plot->findChild<QCheckBox*>(QStringLiteral("logScale"));
    QVERIFY(logBox && logBox->isVisibleTo(&compare) && logBox->isChecked());
    logBox->setChecked(false);
    QCOMPARE(compare.plot()->yAxis->scaleType(), QCPAxis::stLinear);
    logBox->setChecked(true);
    QCOMPARE(compare.plot()->yAxis->scaleType(), QCPAxis::stLogarithmic);
    plot->setUnit(LossUnit::Nats);

    // The uniform guess over their shared vocabulary; none when the vocabularies differ.
    QVERIFY(plot->referenceLine(LossPlot::Reference::Uniform)->visible());
    QCOMPARE(plot->referenceLine(LossPlot::Reference::Uniform)->point1->coords().y(), std::log(40.0));
    QVERIFY(!plot->referenceLine(LossPlot::Reference::Unigram)->visible());
    const int graphs = compare.plot()->graphCount();
    runs[1].settings.last().second = QStringLiteral("41");
    compare.setRuns(runs, {makeCurve(1, 0.0), makeCurve(3, 0.5)});
    QVERIFY(!plot->referenceLine(LossPlot::Reference::Uniform)->visible());
    // Drawn again, each series once: its lines replace the old ones, one legend entry each.
    QCOMPARE(compare.plot()->graphCount(), graphs);
    QCOMPARE(compare.plot()->legend->itemCount(), 2);

    // Export: the plot's button, in the plot's row, exports the comparison.
    auto* exportButton = plot->findChild<QPushButton*>(QStringLiteral("exportButton"));
    QVERIFY(exportButton && exportButton->isVisibleTo(&compare));
    QVERIFY(!plot->findChild<QCheckBox*>(QStringLiteral("showLearningRate"))->isVisibleTo(&compare));
    QVERIFY(plot->isAncestorOf(compare.findChild<QComboBox*>(QStringLiteral("compareAxis"))));
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
        if (list.table()->item(0, c) && list.table()->item(0, c)->text() == run.corpus) corpus = list.table()->item(0, c);
    QVERIFY(corpus);
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
