// SPDX-License-Identifier: GPL-3.0-or-later
// The training health panel (widgets/HealthView): a line per layer in each
// panel with the figures given, the 1e-3 guide, a marker per collapsed head,
// every figure in its CSV and a picture exported; the learning-rate finder's
// window (widgets/LearningRateView): the suggestion marked and "Use this rate"
// giving it; and the message bar's link that a health warning carries.
#include <QFileInfo>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

#include <cmath>

#include "widgets/HealthView.h"
#include "widgets/LearningRateView.h"
#include "widgets/MessageBar.h"
#include "widgets/Plot.h"
#include "TestProgram.h"

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

CHARGPT_TEST_MAIN(TestHealthView)
}  // namespace tst_healthview
#include "tst_healthview.moc"
