// SPDX-License-Identifier: GPL-3.0-or-later
// The training health panel (widgets/HealthView): a line per layer in each
// panel with the figures given, the 1e-3 guide, a marker per collapsed head,
// every figure in its CSV and a picture exported; the learning-rate finder's
// window (widgets/LearningRateView): the suggestion marked and "Use this rate"
// giving it; the message bar's link that a health warning carries; and a
// past run's warnings listed under its plot; the timeline's step showing the
// measurement nearest it; and the Runs tab's health of the ticked runs.
#include <QFileInfo>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

#include <cmath>

#include "TestProgram.h"
#include "widgets/HealthView.h"
#include "widgets/LearningRateView.h"
#include "widgets/MessageBar.h"
#include "widgets/Plot.h"
#include "widgets/RunsHealthCompare.h"

namespace tst_healthview {

using chargpt::HealthFigures;

namespace {

HealthFigures figuresAt(int64_t step, int layers, int heads, double collapsedEntropy) {
    HealthFigures f;
    f.step = step;
    f.loss = 3.0;
    f.gradNorm = 1.0;
    for (int l = 0; l < layers; ++l) {
        f.layerGradNorm.push_back(0.5 * (l + 1));
        f.updateRatio.push_back(1e-3 * (l + 1));
        f.deadShare.push_back(0.1 * l);
        std::vector<double> entropy(std::size_t(heads), 1.5), previous(std::size_t(heads), 0.2);
        if (l == layers - 1) entropy[0] = collapsedEntropy;  // the last layer's first head
        f.headEntropy.push_back(entropy);
        f.previousShare.push_back(previous);
    }
    return f;
}

}  // namespace

class TestHealthView : public QObject {
    Q_OBJECT

private slots:
    void aLinePerLayerWithTheGuide();
    void collapsedHeadsAreMarked();
    void exportsEveryFigure();
    void findersSuggestionIsMarkedAndUsed();
    void messageBarLinkIsOffered();
    void aPastRunsWarningsAreListed();
    void theTimelineStepShowsTheNearestMeasurement();
    void comparedRunsHealthSideBySide();
};

void TestHealthView::aLinePerLayerWithTheGuide() {
    HealthView view;
    view.append({figuresAt(1, 3, 2, 1.0), figuresAt(25, 3, 2, 1.0)});
    for (HealthView::Panel p : {HealthView::Panel::GradNorm, HealthView::Panel::UpdateRatio,
                                HealthView::Panel::DeadUnits, HealthView::Panel::Entropy}) {
        QCOMPARE(int(view.graphs(p).size()), 3);
        for (QCPGraph* g : view.graphs(p)) QCOMPARE(g->dataCount(), 2);
    }
    // Layer 2's update ratio, on a log axis that shows the guide.
    const auto& ratio = view.graphs(HealthView::Panel::UpdateRatio);
    QCOMPARE(ratio[1]->data()->at(1)->key, 25.0);
    QCOMPARE(ratio[1]->data()->at(1)->value, 2e-3);
    QCPAxis* y = view.panel(HealthView::Panel::UpdateRatio)->axis(QCPAxis::atLeft);
    QCOMPARE(y->scaleType(), QCPAxis::stLogarithmic);
    QCOMPARE(view.guideLine()->point1->coords().y(), chargpt::kHealthyUpdateRatio);
    QVERIFY(y->range().contains(chargpt::kHealthyUpdateRatio));
    // A model of another size starts the lines afresh; a past run's replaces them.
    view.append({figuresAt(1, 2, 2, 1.0)});
    QCOMPARE(int(view.graphs(HealthView::Panel::GradNorm).size()), 2);
    QCOMPARE(int(view.figures().size()), 1);
    view.clear();
    QVERIFY(view.figures().empty());
    QVERIFY(view.graphs(HealthView::Panel::GradNorm).empty());
}

void TestHealthView::collapsedHeadsAreMarked() {
    HealthView view;
    view.setFigures({figuresAt(1, 2, 4, 1.2), figuresAt(25, 2, 4, 0.02), figuresAt(50, 2, 4, 0.01)});
    QCOMPARE(view.collapseMarkers()->dataCount(), 2);
    QCOMPARE(view.collapseMarkers()->data()->at(0)->key, 25.0);
    view.markStep(25);
    QCOMPARE(view.markedStep(), 25.0);
}

void TestHealthView::exportsEveryFigure() {
    HealthView view;
    view.resize(900, 600);
    view.setFigures({figuresAt(1, 2, 2, 1.0), figuresAt(25, 2, 2, 0.05)});
    const QStringList lines = view.csvText().split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 3);
    QVERIFY(lines[0].startsWith(QLatin1String("step,loss,grad_norm,layer1_grad_norm,layer1_update_ratio")));
    QVERIFY(lines[0].contains(QLatin1String("layer2_head2_previous_share")));
    QVERIFY(lines[2].startsWith(QLatin1String("25,3,1,0.5,0.001,0,")));
    QTemporaryDir dir;
    QString error;
    QVERIFY2(view.exportTo(dir.filePath("health.png"), &error), qPrintable(error));
    QVERIFY(QFileInfo(dir.filePath("health.png")).size() > 1000);
    QVERIFY(view.exportTo(dir.filePath("health.csv"), &error));
    QVERIFY(!view.exportTo(dir.filePath("health.doc"), &error));
    QVERIFY(error.contains(QLatin1String("doc")));
}

void TestHealthView::findersSuggestionIsMarkedAndUsed() {
    LearningRateView view;
    QSignalSpy find(&view, &LearningRateView::findRequested);
    QSignalSpy chosen(&view, &LearningRateView::rateChosen);
    QVERIFY(!view.useButton()->isEnabled());
    view.findButton()->click();
    QCOMPARE(find.size(), 1);
    view.setRunning(true);
    QSignalSpy stop(&view, &LearningRateView::stopRequested);
    view.findButton()->click();
    QCOMPARE(stop.size(), 1);
    chargpt::LearningRateFinding finding;
    for (int i = 0; i < 50; ++i) {
        finding.rates.push_back(1e-5 * std::pow(10.0, i / 10.0));
        finding.losses.push_back(3.0 - 0.02 * i);
        finding.smoothed.push_back(3.0 - 0.02 * i);
    }
    finding.steepest = 3e-3;
    finding.lowest = 5e-2;
    finding.suggested = 5e-3;
    view.setRunning(false);
    view.showFinding(finding);
    QCOMPARE(view.smoothedGraph()->dataCount(), 50);
    QVERIFY(view.suggestionLine()->visible());
    QCOMPARE(view.suggestionLine()->point1->coords().x(), 5e-3);
    QVERIFY(view.summaryText().contains(QLatin1String("0.005")));
    QVERIFY(view.useButton()->isEnabled());
    view.useButton()->click();
    QCOMPARE(chosen.size(), 1);
    QCOMPARE(chosen.front().front().toDouble(), 5e-3);
    QCOMPARE(view.csvText().split('\n', Qt::SkipEmptyParts).size(), 51);
    view.clear();
    QVERIFY(!view.useButton()->isEnabled());
}

void TestHealthView::messageBarLinkIsOffered() {
    MessageBar bar;
    QSignalSpy triggered(&bar, &MessageBar::actionTriggered);
    bar.showMessage(QStringLiteral("plain"), MessageBar::Level::Info);
    QVERIFY(bar.action().isEmpty());
    bar.showMessage(HealthView::warningText({chargpt::HealthWarning::Kind::LossSpike, 812, -1, 40.0, 0, 0}),
                    MessageBar::Level::Error, QStringLiteral("Show the health plot"));
    QVERIFY(bar.text().contains(QLatin1String("812")));
    QVERIFY(bar.text().contains(QLatin1String("40x")));
    QCOMPARE(bar.action(), QStringLiteral("Show the health plot"));
    bar.findChild<QToolButton*>(QStringLiteral("messageAction"))->click();
    QCOMPARE(triggered.size(), 1);
}

// A past run's warnings under its plot, in the words the message bar used,
// the latest few of many; gone with the run when another is shown.
void TestHealthView::aPastRunsWarningsAreListed() {
    HealthView view;
    view.show();
    auto* list = view.findChild<QLabel*>(QStringLiteral("healthWarnings"));
    QVERIFY(list);
    QVERIFY(!list->isVisible());
    chargpt::RunHealth past;
    past.figures = {figuresAt(1, 2, 2, 1.0), figuresAt(25, 2, 2, 1.0)};
    chargpt::HealthWarning spike{chargpt::HealthWarning::Kind::LossSpike, 25, -1, 40.0, 0, 0};
    chargpt::HealthWarning layer{chargpt::HealthWarning::Kind::LayerUpdates, 1, 1, 31.0, 0, 0};
    past.warnings = {layer, spike};
    view.setHealth(past);
    QCOMPARE(view.figures().size(), std::size_t(2));
    QVERIFY(list->isVisible());
    QCOMPARE(list->text(), QStringLiteral("• ") + HealthView::warningText(layer) + QStringLiteral("\n• ") +
                               HealthView::warningText(spike));
    QVERIFY(list->text().contains(QStringLiteral("Loss spike at step 25")));
    for (int i = 0; i < 10; ++i) {
        spike.step = 50 + i;
        view.addWarnings({spike});
    }
    QCOMPARE(view.warnings().size(), std::size_t(12));
    QVERIFY2(list->text().startsWith(QStringLiteral("The latest 3 of 12 warnings:\n")),
             qPrintable(list->text()));
    QVERIFY(list->text().endsWith(QStringLiteral("step 59: the gradient norm is 40x its median.")));
    view.setHealth({});
    QVERIFY(view.warnings().empty());
    QVERIFY(!list->isVisible());
}

void TestHealthView::theTimelineStepShowsTheNearestMeasurement() {
    HealthView view;
    view.show();
    auto* readout = view.findChild<QLabel*>(QStringLiteral("healthReadout"));
    QVERIFY(readout);
    view.setStepCursor(40.0);  // nothing measured yet
    QVERIFY(std::isnan(view.cursorStep()));
    QVERIFY(!readout->isVisible());
    HealthFigures first = figuresAt(1, 2, 2, 1.0), second = figuresAt(25, 2, 2, 0.05),
                  third = figuresAt(50, 2, 2, 1.0);
    second.gradNorm = 0.75;
    view.setFigures({first, second, third});
    QCOMPARE(view.cursorStep(), 50.0);  // 40 is nearer 50 than 25
    view.setStepCursor(30.0);
    QCOMPARE(view.cursorStep(), 25.0);
    QVERIFY(readout->isVisible());
    const QString said = view.readoutText();
    QVERIFY2(said.startsWith(QStringLiteral("Measured at step 25, the nearest to step 30:")),
             qPrintable(said));
    QVERIFY2(said.contains(QStringLiteral("gradient norm 0.75")), qPrintable(said));
    QVERIFY2(said.contains(QStringLiteral("update / weight 0.0015")),
             qPrintable(said));  // median of 1e-3, 2e-3
    QVERIFY2(said.contains(QStringLiteral("lowest head entropy 0.05")), qPrintable(said));
    view.setStepCursor(0.0);
    QCOMPARE(view.cursorStep(), 1.0);
    view.setStepCursor(std::nan(""));
    QVERIFY(std::isnan(view.cursorStep()));
    QVERIFY(!readout->isVisible());
}

// The Runs tab's health of the ticked runs: a line per run that kept some in
// each panel (its gradient norm; its layers' median update ratio), the others named.
void TestHealthView::comparedRunsHealthSideBySide() {
    RunsHealthCompare compare;
    RunRow a, b, c;
    a.id = 3;
    a.name = QStringLiteral("small");
    b.id = 5;
    c.id = 8;
    QVERIFY(compare.isHidden());  // nothing ticked
    compare.setRuns({a, b, c});
    QVERIFY(!compare.isHidden());
    QVERIFY(compare.graphs(RunsHealthCompare::Panel::GradNorm).isEmpty());  // nothing read yet
    QVERIFY(compare.plot()->isHidden());
    chargpt::RunHealth kept;
    kept.figures = {figuresAt(1, 3, 2, 1.0), figuresAt(25, 3, 2, 1.0)};
    kept.figures[1].gradNorm = 2.0;
    compare.setHealth({3, 5, 8}, {kept, chargpt::RunHealth{}, kept});
    const auto& norms = compare.graphs(RunsHealthCompare::Panel::GradNorm);
    const auto& ratios = compare.graphs(RunsHealthCompare::Panel::UpdateRatio);
    QCOMPARE(norms.size(), 2);
    QCOMPARE(ratios.size(), 2);
    QCOMPARE(norms[0]->name(), QStringLiteral("run 3 · small"));
    QCOMPARE(norms[1]->name(), QStringLiteral("run 8"));
    QCOMPARE(norms[0]->data()->size(), 2);
    QCOMPARE((norms[0]->data()->constBegin() + 1)->value, 2.0);
    QCOMPARE(ratios[0]->data()->constBegin()->value, 2e-3);  // the median of 1e-3, 2e-3, 3e-3
    QVERIFY2(compare.noteText().contains(QStringLiteral("run 5")), qPrintable(compare.noteText()));
    QVERIFY(!compare.plot()->isHidden());
    // Unticked: gone; the run left kept none, so only the note is shown.
    compare.setRuns({b});
    QVERIFY(compare.graphs(RunsHealthCompare::Panel::GradNorm).isEmpty());
    QVERIFY(compare.plot()->isHidden());
    QVERIFY2(compare.noteText().contains(QStringLiteral("run 5")), qPrintable(compare.noteText()));
    compare.setRuns({});
    QVERIFY(compare.isHidden());
}

CHARGPT_TEST_MAIN(TestHealthView)
}  // namespace tst_healthview
#include "tst_healthview.moc"
