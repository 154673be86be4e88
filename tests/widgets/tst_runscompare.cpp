// SPDX-License-Identifier: GPL-3.0-or-later
// The Runs tab's comparison: the runs that differ only in their seed drawn
// as one series, what differs in the user's words, the exports, and the
// Training tab's unit switch, log scale and reference lines.
#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QPushButton>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>

#include <QFontMetricsF>

#include "widgets/RunsCompare.h"
#include "widgets/RunsData.h"
#include "RunsFixtures.h"
#include "qcustomplot.h"
#include "TestProgram.h"

namespace tst_runscompare {

using namespace runs_fixtures;

class TestRunsCompare : public QObject {
    Q_OBJECT

private slots:
    void compareDrawsGroupsAndTheDiff();
    void compareExports_data();
    void compareExports();
    void compareHasUnitsLogScaleAndReferences();
    void aLowPlotsTitleFitsItsAxis();
    void diffShowsEveryRunSideBySide();
    void bigramRungHasNoLayerParts();
};

void TestRunsCompare::compareDrawsGroupsAndTheDiff() {
    RunsCompare compare;
    const QVector<RunRow> runs{makeRun(1, "0.003", "1"), makeRun(2, "0.003", "2"), makeRun(3, "0.002", "1")};
    compare.setRuns(runs, {makeCurve(1, 0.0), makeCurve(2, 0.2), makeCurve(3, 0.5)});
    // Runs 1 and 2 differ only in their seed: one series, their mean with a band.
    const QStringList names = compare.seriesNames();
    QCOMPARE(names.size(), 2);
    QVERIFY2(names[0].startsWith(QStringLiteral("runs 1, 2 ·")), qPrintable(names[0]));
    QVERIFY2(names[1].startsWith(QStringLiteral("run 3 ·")), qPrintable(names[1]));
    // The diff lists what differs and nothing else: one row per setting, a column per run.
    // Each setting by its label, its key in the tooltip; a switch as on or off,
    // a built-in corpus by its name.
    QCOMPARE(compare.diffTable()->rowCount(), 2);
    QCOMPARE(compare.diffTable()->verticalHeaderItem(0)->text(), QStringLiteral("Learning rate"));
    QCOMPARE(compare.diffTable()->verticalHeaderItem(0)->toolTip(), QStringLiteral("learning_rate"));
    QCOMPARE(compare.diffTable()->verticalHeaderItem(1)->text(), QStringLiteral("Seed"));
    QCOMPARE(compare.diffTable()->columnCount(), 3);
    QCOMPARE(compare.diffTable()->item(0, 2)->text(), QStringLiteral("0.002"));
    RunRow unscaled = makeRun(4, "0.003", "1");
    unscaled.settings.append({QStringLiteral("scaled_attention"), QStringLiteral("false")});
    unscaled.corpus = QStringLiteral("builtin:python");
    unscaled.corpusHash = QStringLiteral("0123456789abcdef");
    compare.setRuns({runs[0], unscaled}, {makeCurve(1, 0.0), makeCurve(4, 0.1)});
    QCOMPARE(compare.diffTable()->verticalHeaderItem(0)->text(), QStringLiteral("Corpus"));
    QCOMPARE(compare.diffTable()->item(0, 0)->text(), QStringLiteral("Tang poems (唐诗三百首)"));
    QCOMPARE(compare.diffTable()->item(0, 1)->text(), QStringLiteral("Python standard library"));
    QCOMPARE(compare.diffTable()->verticalHeaderItem(1)->text(), QStringLiteral("Scaled attention"));
    QCOMPARE(compare.diffTable()->item(1, 1)->text(), QStringLiteral("off"));
    compare.setRuns(runs, {makeCurve(1, 0.0), makeCurve(2, 0.2), makeCurve(3, 0.5)});

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

void TestRunsCompare::compareExports_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<QByteArray>("start");
    QTest::newRow("png") << "runs.png" << QByteArray("\x89PNG");
    QTest::newRow("svg") << "runs.svg" << QByteArray("<?xml");
    QTest::newRow("pdf") << "runs.pdf" << QByteArray("%PDF");
    QTest::newRow("csv") << "runs.csv" << QByteArray("series,runs,curve,step,loss\n");
}

void TestRunsCompare::compareExports() {
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

// A low comparison (the Runs tab's, over the table of what differs): the
// loss axis's turned title in words that fit it, not cut at both ends.
void TestRunsCompare::aLowPlotsTitleFitsItsAxis() {
    RunsCompare compare;
    compare.resize(900, 330);
    compare.setRuns({makeRun(1, "0.003", "1"), makeRun(3, "0.002", "1")},
                    {makeCurve(1, 0.0), makeCurve(3, 0.5)});
    compare.show();
    QVERIFY(QTest::qWaitForWindowExposed(&compare));
    QCPAxis* y = compare.plot()->yAxis;
    const auto longestLine = [&] {
        double longest = 0.0;
        for (const QString& line : y->label().split(QLatin1Char('\n')))
            longest = std::max(longest, QFontMetricsF(y->labelFont()).horizontalAdvance(line));
        return longest;
    };
    QTRY_VERIFY2(!y->label().isEmpty() && longestLine() <= y->axisRect()->height(),
                 qPrintable(QStringLiteral("'%1' (%2 px) on an axis of %3 px")
                                .arg(y->label())
                                .arg(longestLine())
                                .arg(y->axisRect()->height())));
    QVERIFY(y->label().startsWith(QStringLiteral("loss (nats)")));
}

// The comparison is the Training tab's plot: its unit switch, log scale,
// reference line and Export button, on several runs.
void TestRunsCompare::compareHasUnitsLogScaleAndReferences() {
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
    // On a log scale in bits the curves (3 to 5 bits) hold no power of ten:
    // round numbers between, each with its label.
    plot->setUnit(LossUnit::Bits);
    compare.plot()->replot();
    const QCPRange shown = compare.plot()->yAxis->range();
    QVERIFY2(shown.upper < 10.0, qPrintable(QString::number(shown.upper)));
    const QVector<double> ticks = compare.plot()->yAxis->tickVector();
    const QVector<QString> tickLabels = compare.plot()->yAxis->tickVectorLabels();
    int labelled = 0;
    for (int i = 0; i < ticks.size(); ++i)
        if (shown.contains(ticks[i]) && !tickLabels.value(i).isEmpty()) ++labelled;
    QVERIFY2(
        labelled >= 2,
        qPrintable(
            QStringLiteral("%1 labelled ticks in %2..%3").arg(labelled).arg(shown.lower).arg(shown.upper)));
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

// "What differs" with four runs: a column each, all in sight at once.
void TestRunsCompare::diffShowsEveryRunSideBySide() {
    RunsCompare compare;
    compare.resize(1000, 700);
    QVector<RunRow> runs;
    QVector<RunCurve> curves;
    for (int id = 1; id <= 4; ++id) {
        runs << makeRun(id, QStringLiteral("0.00%1").arg(id), QStringLiteral("%1").arg(id));
        curves << makeCurve(id, 0.1 * id);
    }
    compare.setRuns(runs, curves);
    compare.show();
    QVERIFY(QTest::qWaitForWindowExposed(&compare));
    QTableWidget* diff = compare.diffTable();
    QCOMPARE(diff->columnCount(), 4);
    const int width = diff->viewport()->width();
    for (int c = 0; c < 4; ++c) {
        const int left = diff->horizontalHeader()->sectionViewportPosition(c);
        const int right = left + diff->horizontalHeader()->sectionSize(c);
        QVERIFY2(
            left >= 0 && right <= width,
            qPrintable(QStringLiteral("column %1: %2..%3 of %4").arg(c).arg(left).arg(right).arg(width)));
        QVERIFY(diff->horizontalHeader()->sectionSize(c) >=
                diff->fontMetrics().horizontalAdvance(diff->item(0, c)->text()));
    }
}

// A bigram (the ladder's first rung, no layers) has no attention or
// feed-forward to switch on or off, and its shape is not "0 × 32".
void TestRunsCompare::bigramRungHasNoLayerParts() {
    RunRow bigram = makeRun(1, "0.003", "1");
    bigram.settings.append({QStringLiteral("n_layer"), QStringLiteral("0")});
    bigram.settings.append({QStringLiteral("positions"), QStringLiteral("false")});
    RunRow gpt = makeRun(2, "0.003", "1");
    gpt.settings.append({QStringLiteral("n_layer"), QStringLiteral("2")});
    for (const char* part : {"scaled_attention", "attention_projection", "feed_forward", "residual"}) {
        QCOMPARE(bigram.setting(QLatin1String(part)), QString());
        QCOMPARE(gpt.setting(QLatin1String(part)), QStringLiteral("true"));
    }
    QVERIFY2(!bigram.shape().contains(QStringLiteral("0 ×")), qPrintable(bigram.shape()));
    QVERIFY2(bigram.shape().startsWith(QStringLiteral("bigram, emb 32")), qPrintable(bigram.shape()));
    QVERIFY2(gpt.shape().startsWith(QStringLiteral("2 × 32")), qPrintable(gpt.shape()));
    RunsCompare compare;
    compare.setRuns({bigram, gpt}, {makeCurve(1, 0.0), makeCurve(2, 0.5)});
    QTableWidget* diff = compare.diffTable();
    for (int r = 0; r < diff->rowCount(); ++r) {
        const QString key = diff->verticalHeaderItem(r)->toolTip();
        if (key == QLatin1String("attention_projection") || key == QLatin1String("feed_forward") ||
            key == QLatin1String("residual") || key == QLatin1String("scaled_attention"))
            QCOMPARE(diff->item(r, 0)->text(), QStringLiteral("–"));
    }
}

CHARGPT_TEST_MAIN(TestRunsCompare)
}  // namespace tst_runscompare
#include "tst_runscompare.moc"
