// SPDX-License-Identifier: GPL-3.0-or-later
// The feed-forward and residual-stream views of the Inside tab on hand-made
// data: the heatmaps' cells, the layer chooser, a neuron's examples and the
// same-input line; the stream's sizes, each part's share and its knock-out
// loss; the knock-out asked for from the residual view goes through the page's
// one measurement; the characters' map lists a chosen character's nearest
// characters at the step shown.
#include <QComboBox>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include "TestProgram.h"

#include "widgets/CharacterMapView.h"
#include "widgets/CharacterNeighbours.h"
#include "widgets/FeedForwardView.h"
#include "widgets/InsideData.h"
#include "InsideSamples.h"
#include "widgets/InsidePage.h"
#include "widgets/KnockoutView.h"
#include "widgets/ResidualStreamView.h"
#include "widgets/ValueGrid.h"

namespace tst_insidelayersviews {

using namespace inside_samples;

class TestInsideLayersViews : public QObject {
    Q_OBJECT

private slots:
    void feedForwardHeatmapByLayer();
    void feedForwardExamplesAndCheck();
    void feedForwardProblem();
    void residualSizesAndShares();
    void residualKnockoutLosses();
    void pageShowsBothAndSharesTheKnockout();
    void chosenCharactersNeighboursFollowTheStep();
    void exportsHoldTheNumbersShown();
};

void TestInsideLayersViews::feedForwardHeatmapByLayer() {
    FeedForwardView view;
    view.resize(900, 600);
    view.setProbe(sampleProbe());
    QCOMPARE(view.layerBox()->count(), 2);
    QCOMPARE(view.layer(), 0);
    const ValueGridData& data = view.grid()->data();
    QVERIFY(data.isValid());
    QCOMPARE(data.rows(), 4);  // characters
    QCOMPARE(data.columnLabels, (QStringList{"7", "1", "4"}));  // neurons, numbered from 1
    QCOMPARE(data.value(1, 0), double(float(3 + 1) / 10.0f));
    QCOMPARE(data.maximum, double(float(3 + 3) / 10.0f));
    QVERIFY(view.toolTipText(2, 0).contains(QStringLiteral("Neuron 7")));
    QVERIFY(view.toolTipText(2, 0).contains(QStringLiteral("“a”")));
    view.setLayer(1);
    QCOMPARE(view.grid()->data().columnLabels, (QStringList{"2", "3", "8"}));
    QCOMPARE(view.grid()->data().value(0, 0), double(float(2 * 3) / 10.0f));
    // A new frame keeps the layer chosen.
    view.setProbe(sampleProbe());
    QCOMPARE(view.layer(), 1);
    QVERIFY(view.statusLabel()->text().contains(QStringLiteral("3 of 8")));
}

void TestInsideLayersViews::feedForwardExamplesAndCheck() {
    FeedForwardView view;
    view.setProbe(sampleProbe());
    // The first neuron's examples, newline and space as the grids show them, the character bracketed.
    const QString examples = view.examplesLabel()->text();
    QVERIFY2(examples.contains(QStringLiteral("Neuron 7")), qPrintable(examples));
    QVERIFY2(examples.contains(QStringLiteral("the↵ca[t]")), qPrintable(examples));
    QVERIFY2(examples.contains(QStringLiteral("4,096")) || examples.contains(QStringLiteral("4096")), qPrintable(examples));
    view.showNeuron(1);  // no examples for neuron 1
    QVERIFY(view.examplesLabel()->text().contains(QStringLiteral("no validation text")));
    const QString check = view.checkLabel()->text();
    // Positions counted from 1, as the why window and the patching lab count them.
    QVERIFY2(check.contains(QStringLiteral("positions 1 and 3")), qPrintable(check));
    QVERIFY2(check.contains(QStringLiteral("Given position 1's input")), qPrintable(check));
    QVERIFY2(check.contains(QStringLiteral("1.234")) && check.contains(QStringLiteral("0.567")), qPrintable(check));
    view.setLayer(1);  // no character repeats
    QVERIFY(view.checkLabel()->text().contains(QStringLiteral("No character repeats")));
}

void TestInsideLayersViews::feedForwardProblem() {
    FeedForwardView view;
    view.setProbe(sampleProbe());
    view.showProblem(QStringLiteral("<b>no</b> probe"));
    QCOMPARE(view.statusLabel()->text(), QStringLiteral("<b>no</b> probe"));
    QCOMPARE(view.statusLabel()->textFormat(), Qt::PlainText);
    QVERIFY(!view.grid()->data().isValid());
    QCOMPARE(view.layerBox()->count(), 0);
    QVERIFY(view.examplesLabel()->text().isEmpty());
    FeedForwardProbeData broken = sampleProbe();
    broken.layers[0].activations.removeLast();
    QVERIFY(!broken.isValid());
}

void TestInsideLayersViews::residualSizesAndShares() {
    ResidualStreamView view;
    view.resize(900, 700);
    view.setStream(sampleStream());
    const ValueGridData& norms = view.normGrid()->data();
    QVERIFY(norms.isValid());
    QCOMPARE(norms.rows(), 3);  // embeddings, block 1, block 2
    QCOMPARE(norms.value(2, 1), 6.0);
    QCOMPARE(norms.maximum, 6.0);
    const ValueGridData& writes = view.writeGrid()->data();
    QCOMPARE(writes.rows(), 4);  // L1 attention, L1 feed-forward, L2 attention, L2 feed-forward
    QCOMPARE(writes.value(0, 1), 3.0);
    QCOMPARE(writes.value(3, 0), 2.0);
    QCOMPARE(sampleStream().attentionShare(0), 4.0 / 6.0);
    QVERIFY2(writes.rowLabels[0].startsWith(QStringLiteral("L1 attention (66.7%")), qPrintable(writes.rowLabels[0]));
    QVERIFY2(writes.rowLabels[1].startsWith(QStringLiteral("L1 feed-forward (33.3%")), qPrintable(writes.rowLabels[1]));
    QVERIFY2(writes.rowLabels[2].startsWith(QStringLiteral("L2 attention (0")), qPrintable(writes.rowLabels[2]));
    QVERIFY(view.normToolTip(1, 1).contains(QStringLiteral("after block 1")));
    QVERIFY(view.writeToolTip(1, 0).contains(QStringLiteral("1.00")));
    QVERIFY(view.knockoutButton()->isEnabled());
}

void TestInsideLayersViews::residualKnockoutLosses() {
    ResidualStreamView view;
    view.setStream(sampleStream());
    QSignalSpy asked(&view, &ResidualStreamView::knockoutRequested);
    view.knockoutButton()->click();
    QCOMPARE(asked.count(), 1);
    QVERIFY(!view.knockoutButton()->isEnabled());  // busy until the table comes
    view.setKnockout(sampleKnockout());  // L1 attention +1.7, L2 feed-forward +0.05
    QVERIFY(view.knockoutButton()->isEnabled());
    const QStringList rows = view.writeGrid()->data().rowLabels;
    QVERIFY2(rows[0].contains(QStringLiteral("+1.700")), qPrintable(rows[0]));
    QVERIFY2(rows[3].contains(QStringLiteral("+0.050")), qPrintable(rows[3]));
    QVERIFY2(!rows[1].contains(QStringLiteral("loss")), qPrintable(rows[1]));  // not measured
}

void TestInsideLayersViews::pageShowsBothAndSharesTheKnockout() {
    InsidePage page;
    InsideFrame frame;
    frame.step = 40;
    frame.feedForward = sampleProbe();
    frame.residual = sampleStream();
    page.showFrame(frame);
    QCOMPARE(page.tabs()->tabText(page.tabs()->indexOf(page.feedForwardView())), QStringLiteral("Feed-forward"));
    QCOMPARE(page.tabs()->tabText(page.tabs()->indexOf(page.residualView())), QStringLiteral("Residual stream"));
    QVERIFY(page.feedForwardView()->grid()->data().isValid());
    QVERIFY(page.residualView()->normGrid()->data().isValid());
    QSignalSpy asked(&page, &InsidePage::knockoutRequested);
    page.residualView()->knockoutButton()->click();
    QCOMPARE(asked.count(), 1);
    QVERIFY(page.knockoutView()->isBusy());  // the Knock-out tab shows the same measurement running
    QVERIFY(!page.residualView()->knockoutButton()->isEnabled());
    page.setKnockout(sampleKnockout());
    QVERIFY(!page.knockoutView()->isBusy());
    QVERIFY(page.residualView()->knockoutButton()->isEnabled());
    QVERIFY(page.residualView()->writeGrid()->data().rowLabels[0].contains(QStringLiteral("+1.700")));
    // A frame without a probe: both views say why.
    page.showFrame(InsideFrame());
    QVERIFY(page.feedForwardView()->statusLabel()->text().contains(QStringLiteral("probe")));
    QVERIFY(!page.residualView()->normGrid()->data().isValid());
}

// The characters' map: a chosen character's nearest characters, from the
// frame of the step shown.
void TestInsideLayersViews::chosenCharactersNeighboursFollowTheStep() {
    CharacterMapView view;
    CharacterMap map = sampleMap();
    map.frames[1].neighbours[2] = {{QStringLiteral("a"), -0.25f}};  // "," at step 100
    view.setMap(map);
    view.setCurrentStep(50);
    CharacterNeighbours* near = view.neighbours();
    QCOMPARE(near->characterBox()->count(), 5);
    QCOMPARE(near->chosen(), QStringLiteral("a"));  // no "e": the first character
    near->choose(QStringLiteral(","));
    QString text = near->neighboursLabel()->text();
    QVERIFY2(text.contains(QStringLiteral("step 50")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("“中” 0.8")) && text.contains(QStringLiteral("“␣” 0.50")), qPrintable(text));
    view.setCurrentStep(100);  // the timeline moves: the same character, that step's neighbours
    QCOMPARE(near->chosen(), QStringLiteral(","));
    text = near->neighboursLabel()->text();
    QVERIFY2(text.contains(QStringLiteral("step 100")) && text.contains(QStringLiteral("“a” -0.25")), qPrintable(text));
    view.setMap(CharacterMap());
    QVERIFY(near->neighboursLabel()->text().isEmpty());
    QVERIFY(!near->characterBox()->isEnabled());
}

// The CSV of each view holds what its cells and labels say: the residual
// stream's sizes, writes, shares and knock-out losses, every layer's neurons
// (not only the layer shown); the buttons export only what is there.
void TestInsideLayersViews::exportsHoldTheNumbersShown() {
    ResidualStreamView stream;
    QVERIFY(!stream.exportButton()->isEnabled());
    stream.setStream(sampleStream());
    QVERIFY(stream.exportButton()->isEnabled());
    QStringList lines = csvRecords(stream.csv());
    QCOMPARE(lines.first(), QStringLiteral("quantity,layer,position,character,value"));
    QVERIFY(lines.contains(QStringLiteral("stream_size,0,1,b,2")));  // after the embeddings, at "b"
    QVERIFY(lines.contains(QStringLiteral("stream_size,2,0,a,5")));  // after block 2
    QVERIFY(lines.contains(QStringLiteral("attention_write,1,1,b,3")));
    QVERIFY(lines.contains(QStringLiteral("feed_forward_write,2,0,a,2")));
    QVERIFY(lines.contains(QStringLiteral("attention_share,1,,,0.666667")));
    QVERIFY(lines.contains(QStringLiteral("attention_share,2,,,0")));
    Knockout knockout;
    knockout.layers = 2;
    knockout.rows = {knockoutRow(KnockoutKind::Attention, 0, std::nullopt, 2.5, 2.25),
                     knockoutRow(KnockoutKind::FeedForward, 1, std::nullopt, 2.9, 2.25)};
    stream.setKnockout(knockout);
    lines = csvRecords(stream.csv());
    QVERIFY(lines.contains(QStringLiteral("loss_increase_without_attention,1,,,0.25")));
    QVERIFY(lines.contains(QStringLiteral("loss_increase_without_feed_forward,2,,,0.65")));

    FeedForwardView feedForward;
    QVERIFY(!feedForward.exportButton()->isEnabled());
    feedForward.setProbe(sampleProbe());
    QVERIFY(feedForward.exportButton()->isEnabled());
    lines = csvRecords(feedForward.csv());
    QCOMPARE(lines.first(), QStringLiteral("layer,neuron,position,character,activation"));
    // Layer 1's first neuron shown is neuron 7 (index 6): (0 + 1) * 3 / 10 at
    // position 0; layer 2's third, neuron 8, at position 3: (2 * 1 + 3) / 10.
    QVERIFY(lines.contains(QStringLiteral("1,7,0,a,0.3")));
    QVERIFY(lines.contains(QStringLiteral("2,8,3, ,0.5")));
    feedForward.showProblem(QStringLiteral("no model"));
    QVERIFY(!feedForward.exportButton()->isEnabled());
}

CHARGPT_TEST_MAIN(TestInsideLayersViews)
}  // namespace tst_insidelayersviews
#include "tst_insidelayersviews.moc"
