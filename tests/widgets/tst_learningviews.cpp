// SPDX-License-Identifier: GPL-3.0-or-later
// What shows memorising, on hand-made data: the loss plot's reference lines,
// units and markers, the passes line of the settings panel and its warning,
// and Restore best in the training panel.
#include <QComboBox>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>
#include <qcustomplot.h>

#include <cmath>
#include <limits>

#include "widgets/LossPlot.h"
#include "widgets/SettingsPanel.h"
#include "widgets/TrainingPanel.h"
#include "TestProgram.h"

Q_DECLARE_METATYPE(LossUnit)

namespace tst_learningviews {

namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kUniform = std::log(2580.0);  // ln V for the Tang poems' 2,580 characters
const double kUnigram = 6.5;

// A run that memorises: training falls to 0.2, validation falls to 6.7 at step
// 250 and rises to 12; the first evaluation is at step 0.
struct MemorisingRun {
    QVector<double> steps, losses, evalSteps, evalLosses;
    MemorisingRun() {
        for (int i = 1; i <= 1000; ++i) {
            steps << i;
            losses << 0.2 + 7.7 * std::exp(-i / 120.0) + 0.05 * (i % 3);
        }
        evalSteps = {0, 250, 500, 750, 1000};
        evalLosses = {7.9, 6.7, 9.8, 11.2, 12.0};
    }
    void loadInto(LossPlot& plot) const { plot.setHistory(steps, losses, evalSteps, evalLosses); }
};

// Lays the plot out so pixels and coordinates agree.
void layOut(LossPlot& plot) {
    plot.resize(900, 500);
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    plot.resetView();
    plot.plot()->replot(QCustomPlot::rpImmediateRefresh);
}

QVector<double> values(const QCPGraph* graph) {
    QVector<double> result;
    for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it)
        result << it->value;
    return result;
}

QVector<double> keys(const QCPGraph* graph) {
    QVector<double> result;
    for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it)
        result << it->key;
    return result;
}

}  // namespace

class TestLearningViews : public QObject {
    Q_OBJECT

private slots:
    void unitConversions();
    void referenceLinesInEachUnit_data();
    void referenceLinesInEachUnit();
    void referenceLineHidesOnNaN();
    void unitSwitchConvertsEveryCurveExactly();
    void unitBoxSwitchesAndPerplexityKeepsLogToggle();
    void tooltipsSpeakTheShownUnit();
    void overfittingMarkerSetAndCleared();
    void markersSurviveHistoryClearAndReset();
    void passesLineFollowsTheWindow();
    void passesWarningOnlyAboveTheThreshold();
    void restoreBestOnlyWhenTheBestIsElsewhere();
    void restoreBestFollowsTheRunState();
    void progressShowsEpochs();
};

void TestLearningViews::unitConversions() {
    QCOMPARE(lossInUnit(1.5, LossUnit::Nats), 1.5);
    QCOMPARE(lossInUnit(std::log(2.0), LossUnit::Bits), 1.0);
    QCOMPARE(lossInUnit(3.0, LossUnit::Bits), 3.0 / std::log(2.0));
    QCOMPARE(lossInUnit(std::log(2580.0), LossUnit::Perplexity), std::exp(std::log(2580.0)));
    QVERIFY(std::abs(lossInUnit(std::log(2580.0), LossUnit::Perplexity) - 2580.0) < 1e-9);
    QVERIFY(std::isnan(lossInUnit(kNaN, LossUnit::Perplexity)));
}

void TestLearningViews::referenceLinesInEachUnit_data() {
    QTest::addColumn<LossUnit>("unit");
    QTest::addColumn<double>("uniform");
    QTest::addColumn<double>("unigram");
    QTest::addColumn<QString>("uniformText");
    QTest::addColumn<QString>("unigramText");
    QTest::newRow("nats") << LossUnit::Nats << kUniform << kUnigram << QStringLiteral("ln V = 7.86")
                          << QStringLiteral("unigram entropy = 6.50");
    QTest::newRow("bits") << LossUnit::Bits << kUniform / std::log(2.0) << kUnigram / std::log(2.0)
                          << QStringLiteral("log₂ V = 11.33") << QStringLiteral("unigram entropy = 9.38");
    QTest::newRow("perplexity") << LossUnit::Perplexity << std::exp(kUniform) << std::exp(kUnigram)
                                << QStringLiteral("V = 2580") << QStringLiteral("unigram perplexity = 665");
}

void TestLearningViews::referenceLinesInEachUnit() {
    QFETCH(LossUnit, unit);
    QFETCH(double, uniform);
    QFETCH(double, unigram);
    QFETCH(QString, uniformText);
    QFETCH(QString, unigramText);
    LossPlot plot;
    MemorisingRun().loadInto(plot);
    plot.setReferenceLevels(kUniform, kUnigram);
    plot.setUnit(unit);
    QCOMPARE(plot.unit(), unit);

    QCPItemStraightLine* uniformLine = plot.referenceLine(LossPlot::Reference::Uniform);
    QCPItemStraightLine* unigramLine = plot.referenceLine(LossPlot::Reference::Unigram);
    QVERIFY(uniformLine->visible() && unigramLine->visible());
    // Horizontal: both ends at the level, in the shown unit.
    QCOMPARE(uniformLine->point1->coords().y(), uniform);
    QCOMPARE(uniformLine->point2->coords().y(), uniform);
    QCOMPARE(unigramLine->point1->coords().y(), unigram);
    QCOMPARE(unigramLine->point2->coords().y(), unigram);
    QCOMPARE(uniformLine->pen().style(), Qt::DashLine);

    const QString uniformLabel = plot.referenceLabel(LossPlot::Reference::Uniform)->text();
    const QString unigramLabel = plot.referenceLabel(LossPlot::Reference::Unigram)->text();
    QVERIFY2(uniformLabel.contains(QStringLiteral("uniform guess")) && uniformLabel.contains(uniformText),
             qPrintable(uniformLabel));
    QVERIFY2(unigramLabel.contains(QStringLiteral("no context")) && unigramLabel.contains(unigramText),
             qPrintable(unigramLabel));

    // Fitting the view keeps both lines in sight.
    plot.resetView();
    QVERIFY(plot.plot()->yAxis->range().contains(uniform));
    QVERIFY(plot.plot()->yAxis->range().contains(unigram));
}

void TestLearningViews::referenceLineHidesOnNaN() {
    LossPlot plot;
    plot.setReferenceLevels(kUniform, kNaN);
    QVERIFY(plot.referenceLine(LossPlot::Reference::Uniform)->visible());
    QVERIFY(plot.referenceLabel(LossPlot::Reference::Uniform)->visible());
    QVERIFY(!plot.referenceLine(LossPlot::Reference::Unigram)->visible());
    QVERIFY(!plot.referenceLabel(LossPlot::Reference::Unigram)->visible());
    plot.setReferenceLevels(kNaN, kUnigram);
    QVERIFY(!plot.referenceLine(LossPlot::Reference::Uniform)->visible());
    QVERIFY(!plot.referenceLabel(LossPlot::Reference::Uniform)->visible());
    QVERIFY(plot.referenceLine(LossPlot::Reference::Unigram)->visible());
    // Even with no curve yet, the empty view shows the line.
    plot.resetView();
    QVERIFY(plot.plot()->yAxis->range().contains(kUnigram));
}

void TestLearningViews::unitSwitchConvertsEveryCurveExactly() {
    const MemorisingRun run;
    LossPlot plot;
    run.loadInto(plot);
    plot.appendSteps({1001, 1002}, {0.21, 0.19}, {});
    plot.appendEval(1002, 12.1);
    const QVector<double> trainNats = values(plot.trainGraph());
    const QVector<double> smoothedNats = values(plot.smoothedGraph());
    const QVector<double> valNats = values(plot.validationGraph());
    QCOMPARE(trainNats.size(), 1002);
    QCOMPARE(valNats, QVector<double>({7.9, 6.7, 9.8, 11.2, 12.0, 12.1}));
    const QString natsTitle = plot.plot()->yAxis->label();

    QSignalSpy changed(&plot, &LossPlot::unitChanged);
    for (const LossUnit unit : {LossUnit::Bits, LossUnit::Perplexity, LossUnit::Nats, LossUnit::Bits}) {
        plot.setUnit(unit);
        const auto expect = [unit](const QVector<double>& nats) {
            QVector<double> shown;
            for (double v : nats)
                shown << (unit == LossUnit::Bits         ? v / std::log(2.0)
                          : unit == LossUnit::Perplexity ? std::exp(v)
                                                         : v);
            return shown;
        };
        QCOMPARE(values(plot.trainGraph()), expect(trainNats));
        QCOMPARE(values(plot.smoothedGraph()), expect(smoothedNats));
        QCOMPARE(values(plot.validationGraph()), expect(valNats));
        // Points appended in a unit other than nats are converted too.
        QCOMPARE(plot.trainPointCount(), 1002);
    }
    QCOMPARE(changed.size(), 4);
    QVERIFY(plot.plot()->yAxis->label().contains(QStringLiteral("bits")));
    plot.setUnit(LossUnit::Perplexity);
    QVERIFY(plot.plot()->yAxis->label().contains(QStringLiteral("perplexity")));
    plot.setUnit(LossUnit::Nats);
    QCOMPARE(plot.plot()->yAxis->label(), natsTitle);

    // New points arrive in nats and are shown in the chosen unit.
    plot.setUnit(LossUnit::Bits);
    plot.appendSteps({1003}, {0.5}, {});
    plot.appendEval(1003, 2.0);
    QCOMPARE(values(plot.trainGraph()).last(), 0.5 / std::log(2.0));
    QCOMPARE(values(plot.validationGraph()).last(), 2.0 / std::log(2.0));
    plot.setUnit(LossUnit::Nats);
    QCOMPARE(values(plot.trainGraph()).last(), 0.5);
    QCOMPARE(values(plot.validationGraph()).last(), 2.0);
}

void TestLearningViews::unitBoxSwitchesAndPerplexityKeepsLogToggle() {
    LossPlot plot;
    MemorisingRun().loadInto(plot);
    auto* box = plot.findChild<QComboBox*>(QStringLiteral("lossUnit"));
    QVERIFY(box);
    QCOMPARE(box->count(), 3);
    QCOMPARE(box->currentIndex(), int(LossUnit::Nats));
    // Choosing in the box switches the unit, as the user would.
    box->setCurrentIndex(int(LossUnit::Bits));
    emit box->activated(int(LossUnit::Bits));
    QCOMPARE(plot.unit(), LossUnit::Bits);
    QCOMPARE(values(plot.validationGraph()).first(), 7.9 / std::log(2.0));

    // Perplexity spans orders of magnitude: the log scale comes on, can be
    // turned off again, and leaving perplexity restores what it was.
    QCOMPARE(plot.plot()->yAxis->scaleType(), QCPAxis::stLinear);
    plot.setUnit(LossUnit::Perplexity);
    QCOMPARE(box->currentIndex(), int(LossUnit::Perplexity));
    QCOMPARE(plot.plot()->yAxis->scaleType(), QCPAxis::stLogarithmic);
    plot.setLogScale(false);
    QCOMPARE(plot.plot()->yAxis->scaleType(), QCPAxis::stLinear);
    plot.setLogScale(true);
    plot.setUnit(LossUnit::Nats);
    QCOMPARE(plot.plot()->yAxis->scaleType(), QCPAxis::stLinear);
    plot.setLogScale(true);
    plot.setUnit(LossUnit::Perplexity);
    plot.setUnit(LossUnit::Bits);
    QCOMPARE(plot.plot()->yAxis->scaleType(), QCPAxis::stLogarithmic);
}

void TestLearningViews::tooltipsSpeakTheShownUnit() {
    LossPlot plot;
    MemorisingRun().loadInto(plot);
    plot.setReferenceLevels(kUniform, kUnigram);
    plot.setOverfittingFrom(250);
    plot.setBestPoint(250, 6.7);
    layOut(plot);
    const auto pixelOf = [&](double step, double shown) {
        return QPointF(plot.plot()->xAxis->coordToPixel(step), plot.plot()->yAxis->coordToPixel(shown));
    };

    // The validation point at step 1000 in each unit.
    QString tip = plot.toolTipAt(pixelOf(1000, 12.0));
    QVERIFY2(tip.contains(QStringLiteral("validation loss 12.0000 nats (step 1000)")), qPrintable(tip));
    plot.setUnit(LossUnit::Bits);
    layOut(plot);
    tip = plot.toolTipAt(pixelOf(1000, 12.0 / std::log(2.0)));
    QVERIFY2(tip.contains(QStringLiteral("validation loss %1 bits").arg(12.0 / std::log(2.0), 0, 'f', 4)),
             qPrintable(tip));
    plot.setUnit(LossUnit::Perplexity);
    layOut(plot);
    tip = plot.toolTipAt(pixelOf(1000, std::exp(12.0)));
    QVERIFY2(tip.contains(QStringLiteral("validation loss perplexity %1").arg(std::exp(12.0), 0, 'f', 0)),
             qPrintable(tip));

    // On a reference line, what it means, in the unit.
    tip = plot.toolTipAt(pixelOf(600, std::exp(kUniform)));
    QVERIFY2(tip.contains(QStringLiteral("Uniform guess (perplexity 2580)")) &&
                 tip.contains(QStringLiteral("worse than guessing")),
             qPrintable(tip));
    plot.setUnit(LossUnit::Nats);
    layOut(plot);
    tip = plot.toolTipAt(pixelOf(600, kUnigram));
    QVERIFY2(tip.contains(QStringLiteral("No context (6.5000 nats)")) && tip.contains(QStringLiteral("ignores")),
             qPrintable(tip));
    QVERIFY2(!tip.contains(QStringLiteral("Uniform guess")), qPrintable(tip));
    // On the marker and on the ring.
    tip = plot.toolTipAt(pixelOf(250, 3.0));
    QVERIFY2(tip.contains(QStringLiteral("From step 250 validation loss rose")), qPrintable(tip));
    tip = plot.toolTipAt(pixelOf(250, 6.7));
    QVERIFY2(tip.contains(QStringLiteral("Lowest validation loss: 6.7000 nats at step 250")), qPrintable(tip));
    // Away from every marker, none of them is explained.
    tip = plot.toolTipAt(pixelOf(900, 3.0));
    QVERIFY2(!tip.contains(QStringLiteral("From step")) && !tip.contains(QStringLiteral("Uniform")) &&
                 !tip.contains(QStringLiteral("No context")) && tip.contains(QStringLiteral("train loss")),
             qPrintable(tip));
}

void TestLearningViews::overfittingMarkerSetAndCleared() {
    LossPlot plot;
    MemorisingRun().loadInto(plot);
    QVERIFY(!plot.overfittingLine()->visible());
    QVERIFY(!plot.overfittingRegion()->visible());
    QVERIFY(!plot.bestGraph()->visible());
    const int legendItems = plot.plot()->legend->itemCount();

    plot.setOverfittingFrom(250);
    QVERIFY(plot.overfittingLine()->visible());
    QVERIFY(plot.overfittingRegion()->visible());
    QVERIFY(plot.overfittingLabel()->visible());
    QCOMPARE(plot.overfittingLabel()->text(), QStringLiteral("memorising from here"));
    // Vertical at the step; the shaded region starts there.
    QCOMPARE(plot.overfittingLine()->point1->coords().x(), 250.0);
    QCOMPARE(plot.overfittingLine()->point2->coords().x(), 250.0);
    QCOMPARE(plot.overfittingRegion()->topLeft->coords().x(), 250.0);

    plot.setBestPoint(250, 6.7);
    QVERIFY(plot.bestGraph()->visible());
    QCOMPARE(keys(plot.bestGraph()), QVector<double>({250.0}));
    QCOMPARE(values(plot.bestGraph()), QVector<double>({6.7}));
    QCOMPARE(plot.plot()->legend->itemCount(), legendItems + 1);
    plot.setUnit(LossUnit::Perplexity);
    QCOMPARE(values(plot.bestGraph()), QVector<double>({std::exp(6.7)}));
    plot.setUnit(LossUnit::Nats);

    // Other switches leave one of each marker.
    const int items = plot.plot()->itemCount(), graphs = plot.plot()->graphCount();
    plot.setLearningRateVisible(true);
    plot.setLearningRateVisible(false);
    plot.setLogScale(true);
    plot.setSmoothing(0.3);
    QCOMPARE(plot.plot()->itemCount(), items);
    QCOMPARE(plot.plot()->graphCount(), graphs);

    plot.setOverfittingFrom(kNaN);
    QVERIFY(!plot.overfittingLine()->visible());
    QVERIFY(!plot.overfittingRegion()->visible());
    QVERIFY(!plot.overfittingLabel()->visible());
    plot.setBestPoint(kNaN, kNaN);
    QVERIFY(!plot.bestGraph()->visible());
    QCOMPARE(plot.plot()->legend->itemCount(), legendItems);
}

void TestLearningViews::markersSurviveHistoryClearAndReset() {
    const MemorisingRun run;
    LossPlot plot;
    plot.setReferenceLevels(kUniform, kUnigram);
    plot.setOverfittingFrom(250);
    plot.setBestPoint(250, 6.7);
    const auto allShown = [&] {
        return plot.overfittingLine()->visible() && plot.overfittingRegion()->visible() &&
               plot.bestGraph()->visible() && plot.bestGraph()->data()->size() == 1 &&
               plot.referenceLine(LossPlot::Reference::Uniform)->visible() &&
               plot.referenceLine(LossPlot::Reference::Unigram)->visible();
    };
    QVERIFY(allShown());
    run.loadInto(plot);
    QVERIFY(allShown());
    plot.resetView();
    QVERIFY(allShown());
    plot.clear();
    QVERIFY(allShown());
    QCOMPARE(plot.trainPointCount(), 0);
    plot.setSmoothing(0.5);
    QVERIFY(allShown());
    QCOMPARE(plot.overfittingLine()->point1->coords().x(), 250.0);
}

void TestLearningViews::passesLineFollowsTheWindow() {
    SettingsPanel panel;
    QVERIFY(panel.passesText().isEmpty());
    QVERIFY(panel.passesWarningText().isEmpty());

    // No corpus: nothing to say however many passes are planned.
    panel.setPlannedPasses(3.4, 20.0);
    QVERIFY(panel.passesText().isEmpty());

    panel.setTrainingTokens(26619);
    QCOMPARE(panel.passesText(),
             QStringLiteral("≈ %1 passes over the training text").arg(QLocale().toString(3.4, 'f', 1)));
    QVERIFY(panel.passesWarningText().isEmpty());
    auto* label = panel.findChild<QLabel*>(QStringLiteral("plannedPasses"));
    QVERIFY(label && label->toolTip().contains(QLocale().toString(qint64(26619))));

    // Editing the steps asks the window to recompute: the panel only emits.
    QSignalSpy edited(&panel, &SettingsPanel::settingsEdited);
    qobject_cast<QSpinBox*>(panel.field(QStringLiteral("max_steps")))->setValue(6000);
    qobject_cast<QSpinBox*>(panel.field(QStringLiteral("batch_size")))->setValue(64);
    qobject_cast<QSpinBox*>(panel.field(QStringLiteral("sequence_len")))->setValue(128);
    QCOMPARE(edited.size(), 3);
    QVERIFY(panel.passesText().contains(QLocale().toString(3.4, 'f', 1)));  // until told otherwise
    panel.setPlannedPasses(13.6, 20.0);
    QCOMPARE(panel.passesText(), QStringLiteral("≈ 14 passes over the training text"));

    // Only a time limit: the window cannot say, and the line goes.
    panel.setPlannedPasses(std::numeric_limits<double>::quiet_NaN(), 20.0);
    QVERIFY(panel.passesText().isEmpty());
    panel.setPlannedPasses(2.0, 20.0);
    QVERIFY(!panel.passesText().isEmpty());
    panel.setTrainingTokens(0);
    QVERIFY(panel.passesText().isEmpty());
    QVERIFY(panel.passesWarningText().isEmpty());
}

void TestLearningViews::passesWarningOnlyAboveTheThreshold() {
    SettingsPanel panel;
    panel.setTrainingTokens(26619);
    panel.setPlannedPasses(19.9, 20.0);
    QVERIFY(panel.passesWarningText().isEmpty());
    panel.setPlannedPasses(20.0, 20.0);
    QVERIFY(panel.passesWarningText().isEmpty());
    panel.setPlannedPasses(213.4, 20.0);
    const QString warning = panel.passesWarningText();
    QVERIFY2(warning.contains(QStringLiteral("about 213 times")) && warning.contains(QStringLiteral("memorise")) &&
                 warning.contains(QStringLiteral("fewer steps")) && warning.contains(QStringLiteral("larger text")),
             qPrintable(warning));
    QVERIFY(panel.passesText().contains(QStringLiteral("213")));
    // The threshold is the window's: the same passes under a higher one are fine.
    panel.setPlannedPasses(213.4, 500.0);
    QVERIFY(panel.passesWarningText().isEmpty());
    panel.setPlannedPasses(213.4, 20.0);
    QVERIFY(!panel.passesWarningText().isEmpty());
    panel.setTrainingTokens(0);  // the corpus is gone
    QVERIFY(panel.passesWarningText().isEmpty());
}

void TestLearningViews::restoreBestOnlyWhenTheBestIsElsewhere() {
    TrainingPanel panel;
    QPushButton* restore = panel.restoreBestButton();
    QVERIFY(restore);
    QVERIFY(!restore->isEnabled());
    panel.setHasModel(true, 1000);
    QVERIFY(!restore->isEnabled());  // no evaluation yet

    panel.setBest(250, 6.7, 1000);
    QVERIFY(restore->isEnabled());
    const QString tip = restore->toolTip();
    QVERIFY2(tip.contains(QStringLiteral("step 250")) && tip.contains(QLocale().toString(6.7, 'f', 2)),
             qPrintable(tip));
    QSignalSpy clicked(&panel, &TrainingPanel::restoreBestClicked);
    QTest::mouseClick(restore, Qt::LeftButton);
    QCOMPARE(clicked.size(), 1);

    // Restored: the weights are the best ones, nothing more to put back.
    panel.setBest(250, 6.7, 250);
    QVERIFY(!restore->isEnabled());
    QTest::mouseClick(restore, Qt::LeftButton);
    QCOMPARE(clicked.size(), 1);
    panel.setBest(std::nullopt, kNaN, 1000);  // no evaluation: none
    QVERIFY(!restore->isEnabled());
    // The evaluation before the first step counts as any other.
    panel.setBest(0, 7.9, 1000);
    QVERIFY(restore->isEnabled());
    panel.setHasModel(false, 0);
    QVERIFY(!restore->isEnabled());
}

void TestLearningViews::restoreBestFollowsTheRunState() {
    TrainingPanel panel;
    panel.setHasModel(true, 500);
    panel.setBest(250, 6.7, 500);
    const QList<QPair<RunState, bool>> states = {{RunState::Idle, true},
                                                 {RunState::Starting, false},
                                                 {RunState::Training, true},
                                                 {RunState::Paused, true},
                                                 {RunState::Stopping, false}};
    for (const auto& [state, enabled] : states) {
        panel.setState(state);
        QVERIFY2(panel.restoreBestButton()->isEnabled() == enabled, qPrintable(QString::number(int(state))));
    }
}

void TestLearningViews::progressShowsEpochs() {
    TrainingPanel panel;
    panel.setHasModel(true, 0);
    panel.setState(RunState::Training);
    TrainingProgress progress;
    progress.step = 400;
    progress.totalSteps = 3000;
    panel.showProgress(progress);
    QVERIFY2(!panel.progressBar()->format().contains(QStringLiteral("epoch")),
             qPrintable(panel.progressBar()->format()));
    progress.passes = 3.24;
    panel.showProgress(progress);
    QVERIFY2(panel.progressBar()->format().contains(QStringLiteral("epoch %1").arg(QLocale().toString(3.2, 'f', 1))),
             qPrintable(panel.progressBar()->format()));
    QVERIFY(panel.progressBar()->format().contains(QLocale().toString(qint64(3000))));
    // A run with only a time limit shows them too.
    progress.totalSteps = 0;
    progress.passes = 12.06;
    panel.showProgress(progress);
    QVERIFY2(panel.progressBar()->format().contains(QStringLiteral("epoch %1").arg(QLocale().toString(12.1, 'f', 1))),
             qPrintable(panel.progressBar()->format()));
}

CHARGPT_TEST_MAIN(TestLearningViews)
}  // namespace tst_learningviews
#include "tst_learningviews.moc"
