// SPDX-License-Identifier: GPL-3.0-or-later
// The four views of the model's insides on hand-made data: the logit lens's
// cells and tooltips, the knock-out table's order and heatmap, the head roles'
// lines and the heatmap that follows the step, the characters' map's fixed
// axes and kinds (their exports are tst_insideexports').
#include <QComboBox>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QPainter>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QTableView>
#include <QTemporaryDir>
#include "TestProgram.h"
#include <cmath>
#include <functional>

#include "widgets/CharacterMapView.h"
#include "widgets/HeadRolesView.h"
#include "widgets/InsideData.h"
#include "InsideSamples.h"
#include "widgets/KnockoutView.h"
#include "widgets/LogitLensView.h"
#include "widgets/ValueGrid.h"
#include "qcustomplot.h"

namespace tst_insideviews {

using namespace inside_samples;

namespace {

double lightness(const QColor& c) { return 0.2126 * c.redF() + 0.7152 * c.greenF() + 0.0722 * c.blueF(); }

}  // namespace

class TestInsideViews : public QObject {
    Q_OBJECT

private slots:
    void characterKinds();
    void logitLensGrid();
    void knockoutTableAndHeatmap();
    void knockoutBusy();
    void headRolesPlotAndHeatmap();
    void headRolesChangeSinceStepA();
    void headRolesLegendNamesAFewHeadsOnly();
    void characterMapAxesAndTooltip();
    void characterMapLinesFromStepA();
};

void TestInsideViews::characterKinds() {
    QCOMPARE(characterKind(QStringLiteral("a")), CharacterKind::Letter);
    QCOMPARE(characterKind(QStringLiteral("É")), CharacterKind::Letter);
    QCOMPARE(characterKind(QStringLiteral("7")), CharacterKind::Digit);
    QCOMPARE(characterKind(QStringLiteral(",")), CharacterKind::Punctuation);
    QCOMPARE(characterKind(QStringLiteral("，")), CharacterKind::Punctuation);  // full-width comma
    QCOMPARE(characterKind(QStringLiteral("+")), CharacterKind::Punctuation);
    QCOMPARE(characterKind(QStringLiteral("中")), CharacterKind::Cjk);
    QCOMPARE(characterKind(QStringLiteral("か")), CharacterKind::Cjk);
    QCOMPARE(characterKind(QString::fromUcs4(U"\U00020000")), CharacterKind::Cjk);  // beyond the BMP
    QCOMPARE(characterKind(QStringLiteral(" ")), CharacterKind::Space);
    QCOMPARE(characterKind(QStringLiteral("\n")), CharacterKind::Space);
    QCOMPARE(characterKind(QStringLiteral("\x01")), CharacterKind::Other);
    QCOMPARE(characterKind(QString()), CharacterKind::Other);
    // Each kind has its own colour and name.
    QSet<QRgb> colours;
    QSet<QString> names;
    for (CharacterKind kind : allCharacterKinds()) {
        colours.insert(characterKindColor(kind).rgb());
        names.insert(characterKindName(kind));
    }
    QCOMPARE(colours.size(), allCharacterKinds().size());
    QCOMPARE(names.size(), allCharacterKinds().size());
}

void TestInsideViews::logitLensGrid() {
    LogitLensView view;
    view.resize(900, 500);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setLens(sampleLens());
    const ValueGridData& data = view.grid()->data();
    QCOMPARE(data.rows(), 3);
    QCOMPARE(data.columns(), 3);
    QCOMPARE(data.rowLabels, (QStringList{"embeddings", "block 1", "block 2"}));
    QCOMPARE(data.cellText(2, 1), QStringLiteral("d"));  // the model's own guess after "b"
    QCOMPARE(data.cellText(1, 2), QStringLiteral("中"));
    QCOMPARE(data.cellText(2, 2), QStringLiteral("\u21b5"));  // a newline, drawn visible
    // Brighter for a surer guess.
    QVERIFY(lightness(view.grid()->cellColor(2, 0)) > lightness(view.grid()->cellColor(0, 0)));

    const QString tip = view.toolTipText(2, 1);
    QVERIFY2(tip.contains(QStringLiteral("block 2")), qPrintable(tip));
    QVERIFY2(tip.contains(QStringLiteral("Top guess: “d”, 60.0%")), qPrintable(tip));
    QVERIFY2(tip.contains(QStringLiteral("True next character: “c”, rank 3, 12.5%")), qPrintable(tip));
    const QString last = view.toolTipText(0, 2);
    QVERIFY2(last.contains(QStringLiteral("No next character to compare with.")), qPrintable(last));
    QVERIFY(view.toolTipText(3, 0).isEmpty());
    // The grid shows the view's tooltip for the cell under the pointer.
    const QRect cell = view.grid()->cellRect(2, 1);
    QVERIFY(!cell.isEmpty());
    int row = -1, column = -1;
    QVERIFY(view.grid()->cellAt(cell.center(), &row, &column));
    QCOMPARE(row, 2);
    QCOMPARE(column, 1);
    QCOMPARE(view.grid()->toolTipText(row, column), tip);
    QVERIFY(view.statusLabel()->text().contains(QStringLiteral("40")));

    // A lens that knows the character after its last position (the probe's
    // last, or the one Step mode picked) compares with it there too.
    LogitLens known = view.lens();
    known.following = QStringLiteral("e");
    known.cells[2].trueRank = 4;  // layer 0, position 2
    known.cells[2].trueProbability = 0.05f;
    view.setLens(known);
    const QString end = view.toolTipText(0, 2);
    QVERIFY2(end.contains(QStringLiteral("True next character: “e”, rank 4, 5.00%")), qPrintable(end));
}

void TestInsideViews::knockoutTableAndHeatmap() {
    KnockoutView view;
    view.setKnockout(sampleKnockout());
    const QStandardItemModel* model = view.tableModel();
    QCOMPARE(model->rowCount(), 6);
    // Largest increase first, by number.
    QCOMPARE(model->item(0, KnockoutView::NameColumn)->text(), QStringLiteral("L1 attention"));
    QCOMPARE(model->item(1, KnockoutView::NameColumn)->text(), QStringLiteral("L1 H2"));
    for (int r = 1; r < model->rowCount(); ++r)
        QVERIFY(model->item(r - 1, KnockoutView::IncreaseColumn)->data(KnockoutView::SortRole).toDouble() >=
                model->item(r, KnockoutView::IncreaseColumn)->data(KnockoutView::SortRole).toDouble());
    QCOMPARE(model->item(model->rowCount() - 1, KnockoutView::NameColumn)->text(), QStringLiteral("L2 H1"));
    QVERIFY(model->item(model->rowCount() - 1, KnockoutView::IncreaseColumn)
                ->text()
                .startsWith(QLatin1Char('-')));

    // The user sorts by loss: numbers, not text (9.75 before 10.2).
    view.table()->sortByColumn(KnockoutView::LossColumn, Qt::AscendingOrder);
    QCOMPARE(model->item(0, KnockoutView::NameColumn)->text(), QStringLiteral("L2 H1"));
    QCOMPARE(model->item(model->rowCount() - 1, KnockoutView::NameColumn)->text(),
             QStringLiteral("L1 attention"));

    // Each head's heatmap cell holds its row's increase.
    const ValueGridData& data = view.heatmap()->data();
    QCOMPARE(data.rows(), 2);
    QCOMPARE(data.columns(), 2);
    for (const KnockoutRow& row : sampleKnockout().rows) {
        if (row.kind != KnockoutKind::Head) continue;
        QCOMPARE(data.value(row.layer, *row.head), row.increase);
        QVERIFY(view.toolTipText(row.layer, *row.head).contains(knockoutPartName(row)));
    }
    // The largest increase is the brightest cell.
    QVERIFY(lightness(view.heatmap()->cellColor(0, 1)) > lightness(view.heatmap()->cellColor(1, 0)));
    QVERIFY2(view.baselineLabel()->text().contains(QStringLiteral("9.8000")),
             qPrintable(view.baselineLabel()->text()));
}

void TestInsideViews::knockoutBusy() {
    KnockoutView view;
    QSignalSpy requested(&view, &KnockoutView::knockoutRequested);
    QVERIFY(!view.isBusy());
    view.knockoutButton()->click();
    QCOMPARE(requested.count(), 1);
    QVERIFY(view.isBusy());
    QVERIFY(!view.knockoutButton()->isEnabled());
    QVERIFY(!view.busyBar()->isHidden());
    view.setKnockout(sampleKnockout());
    QVERIFY(!view.isBusy());
    QVERIFY(view.knockoutButton()->isEnabled());
    QVERIFY(view.busyBar()->isHidden());
    view.knockoutButton()->click();
    view.showProblem(QStringLiteral("no evaluation batches"));
    QVERIFY(!view.isBusy());
    QCOMPARE(view.baselineLabel()->text(), QStringLiteral("no evaluation batches"));
}

// A few heads are named in a legend; the dozens of a deep model are not (the
// lines would be hidden), and their legend holds nothing.
void TestInsideViews::headRolesLegendNamesAFewHeadsOnly() {
    HeadRolesView view;
    view.setHeadRoles(sampleRoles());  // 2 layers of 3 heads
    QCOMPARE(view.plot()->graphCount(), 6);
    QVERIFY(view.plot()->legend->visible());
    QCOMPARE(view.plot()->legend->itemCount(), 6);
    QCOMPARE(view.plot()->legend->itemWithPlottable(view.plot()->graph(5))->plottable()->name(),
             view.plot()->graph(5)->name());

    HeadRoles deep;
    deep.layers = 12;
    deep.heads = 16;
    for (int f = 0; f < 2; ++f) {
        HeadRolesFrame frame;
        frame.step = 100 * f;
        for (int i = 0; i < deep.layers * deep.heads; ++i) {
            frame.previousToken << 0.001f * i;
            frame.induction << 0.0005f * i;
        }
        deep.frames << frame;
    }
    view.setHeadRoles(deep);
    QCOMPARE(view.plot()->graphCount(), 192);
    QVERIFY(!view.plot()->legend->visible());
    QCOMPARE(view.plot()->legend->itemCount(), 0);
    QCOMPARE(view.plot()->graph(191)->data()->size(), 2);

    view.setHeadRoles(sampleRoles());
    QCOMPARE(view.plot()->graphCount(), 6);
    QCOMPARE(view.plot()->legend->itemCount(), 6);
}

// With step A marked, the heatmap is each head's change of score from A to
// the step shown, on the diverging scale; a step A the lines lack compares
// nothing, and says so.
void TestInsideViews::headRolesChangeSinceStepA() {
    HeadRolesView view;
    const HeadRoles roles = sampleRoles();  // steps 0, 100, 200
    view.setHeadRoles(roles);
    view.setCurrentStep(200);
    view.setComparedStep(0);
    QCOMPARE(view.comparedFrame(), 0);
    const ValueGridData& data = view.heatmap()->data();
    QVERIFY(data.diverging);
    QCOMPARE(data.minimum, -1.0);
    QCOMPARE(data.maximum, 1.0);
    for (int l = 0; l < 2; ++l)
        for (int h = 0; h < 3; ++h)
            QCOMPARE(data.value(l, h), roles.score(HeadRole::PreviousToken, 2, l, h) -
                                           roles.score(HeadRole::PreviousToken, 0, l, h));
    const double rose = data.value(1, 1);
    QVERIFY(rose > 0.0);
    QVERIFY(data.cellText(1, 1).startsWith(QLatin1Char('+')));
    const QColor red = view.heatmap()->cellColor(1, 1);
    QVERIFY(red.redF() > red.blueF());
    QVERIFY2(view.statusLabel()->text().contains(QStringLiteral("since step 0 (A)")),
             qPrintable(view.statusLabel()->text()));
    QVERIFY(view.toolTipText(1, 1).contains(QStringLiteral("At step 0 (A)")));

    view.setComparedStep(50);  // not a step of the lines
    QCOMPARE(view.comparedFrame(), -1);
    QVERIFY(!view.heatmap()->data().diverging);
    QCOMPARE(view.heatmap()->data().value(1, 1), roles.score(HeadRole::PreviousToken, 2, 1, 1));
    QVERIFY2(view.statusLabel()->text().contains(QStringLiteral("not among the steps measured")),
             qPrintable(view.statusLabel()->text()));
    view.setComparedStep(std::nullopt);
    QVERIFY(!view.heatmap()->data().diverging);
    QVERIFY(!view.statusLabel()->text().contains(QStringLiteral("(A)")));
}

void TestInsideViews::headRolesPlotAndHeatmap() {
    HeadRolesView view;
    const HeadRoles roles = sampleRoles();
    view.setHeadRoles(roles);
    QCustomPlot* plot = view.plot();
    QCOMPARE(plot->graphCount(), 6);
    QCOMPARE(plot->graph(0)->name(), QStringLiteral("L1 H1"));
    QCOMPARE(plot->graph(5)->name(), QStringLiteral("L2 H3"));
    QCOMPARE(plot->graph(4)->data()->size(), 3);
    QCOMPARE(plot->graph(4)->data()->at(2)->key, 200.0);
    QCOMPARE(plot->graph(4)->data()->at(2)->value, roles.score(HeadRole::PreviousToken, 2, 1, 1));
    QVERIFY(view.chanceLine()->visible());
    QCOMPARE(view.chanceLine()->point1->coords().y(), 0.125);
    QCOMPARE(view.chanceLine()->pen().style(), Qt::DashLine);

    // No step set: the newest frame.
    QCOMPARE(view.currentFrame(), 2);
    auto heatmapIsFrame = [&](int frame, HeadRole role) {
        const ValueGridData& data = view.heatmap()->data();
        if (data.rows() != 2 || data.columns() != 3) return false;
        for (int l = 0; l < 2; ++l)
            for (int h = 0; h < 3; ++h)
                if (data.value(l, h) != roles.score(role, frame, l, h)) return false;
        return true;
    };
    QVERIFY(heatmapIsFrame(2, HeadRole::PreviousToken));
    view.setCurrentStep(100);
    QCOMPARE(view.currentFrame(), 1);
    QVERIFY(heatmapIsFrame(1, HeadRole::PreviousToken));
    view.setCurrentStep(150);  // between snapshots: the one before
    QVERIFY(heatmapIsFrame(1, HeadRole::PreviousToken));
    view.setCurrentStep(0);
    QVERIFY(heatmapIsFrame(0, HeadRole::PreviousToken));
    QVERIFY(view.toolTipText(1, 2).contains(QStringLiteral("L2 H3 at step 0")));

    // The combo chooses the score of the lines, the heatmap and the chance line.
    view.roleBox()->setCurrentIndex(view.roleBox()->findData(int(HeadRole::Induction)));
    QCOMPARE(view.role(), HeadRole::Induction);
    QCOMPARE(plot->graphCount(), 6);
    QCOMPARE(plot->graph(4)->data()->at(2)->value, roles.score(HeadRole::Induction, 2, 1, 1));
    QVERIFY(heatmapIsFrame(0, HeadRole::Induction));
    QCOMPARE(view.chanceLine()->point1->coords().y(), 0.05);
    // The y axis fits the scores (0 to 0.31 here), not the whole of 0..1.
    const QCPRange range = plot->yAxis->range();
    QVERIFY2(range.lower <= 0.0 && range.upper >= 0.31 && range.upper < 0.4,
             qPrintable(QStringLiteral("%1..%2").arg(range.lower).arg(range.upper)));
    QCOMPARE(plot->yAxis->label(), headRoleName(HeadRole::Induction));
}

// Where each character was at step A: its line is drawn, the range holds it,
// and the status says what the lines are.
void TestInsideViews::characterMapLinesFromStepA() {
    CharacterMapView view;
    view.resize(1000, 600);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    CharacterMap map = sampleMap();
    CharacterMapFrame& frame = map.frames.last();
    frame.comparedStep = 20;
    for (const QPointF& p : frame.points) frame.comparedPoints.append(p * 0.25);
    frame.comparedPoints[0] = QPointF(50.0, -40.0);  // far outside the points of every frame
    QVERIFY(map.bounds().contains(QPointF(50.0, -40.0)));
    view.setMap(map);
    view.setCurrentStep(frame.step);
    QVERIFY(view.axisRange().contains(QPointF(50.0, -40.0)));
    QVERIFY2(view.statusLabel()->text().contains(QStringLiteral("step 20 (A)")),
             qPrintable(view.statusLabel()->text()));
    // The line of character 0 starts where it was: the pixel there is not the background.
    QImage image(view.canvas()->size(), QImage::Format_ARGB32);
    image.fill(Qt::white);
    view.canvas()->render(&image);
    QImage plain(view.canvas()->size(), QImage::Format_ARGB32);
    plain.fill(Qt::white);
    CharacterMap without = sampleMap();
    view.setMap(without);
    view.setCurrentStep(frame.step);
    view.canvas()->render(&plain);
    QVERIFY(image != plain);
    QVERIFY(!view.statusLabel()->text().contains(QStringLiteral("(A)")));
}

void TestInsideViews::characterMapAxesAndTooltip() {
    CharacterMapView view;
    view.resize(1000, 600);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    const CharacterMap map = sampleMap();
    view.setMap(map);
    view.setCurrentStep(50);
    QCOMPARE(view.currentFrame(), 0);
    const QRectF first = view.axisRange();
    const QPointF firstPosition = view.canvas()->characterPosition(0);
    view.setCurrentStep(100);
    QCOMPARE(view.currentFrame(), 1);
    QCOMPARE(view.axisRange(), first);
    // The range holds every point of both frames.
    for (const CharacterMapFrame& frame : map.frames)
        for (const QPointF& p : frame.points) QVERIFY(first.contains(p));
    // The same point is drawn at the same place in either frame; a moved point moves.
    QVERIFY(view.canvas()->characterPosition(0).x() < firstPosition.x());
    QCOMPARE(view.canvas()->characterPosition(4), view.canvas()->characterPosition(4));

    // Hovering a character names its neighbours.
    const QPointF position = view.canvas()->characterPosition(3);
    QCOMPARE(view.canvas()->characterAt(position), 3);
    const QString tip = view.canvas()->toolTipText(3);
    QVERIFY2(tip.contains(QStringLiteral("“中” (CJK)")), qPrintable(tip));
    QVERIFY2(tip.contains(QStringLiteral("“\u2423”  0.875")) || tip.contains(QStringLiteral("0.875")),
             qPrintable(tip));
    QVERIFY(tip.contains(QStringLiteral("0.500")));

    // The position similarity of the shown frame.
    const ValueGridData& data = view.positionHeatmap()->data();
    QCOMPARE(data.rows(), 3);
    QCOMPARE(data.value(0, 2), -0.5);
    QCOMPARE(data.minimum, -1.0);
    QVERIFY(lightness(view.positionHeatmap()->cellColor(0, 0)) >
            lightness(view.positionHeatmap()->cellColor(0, 2)));
}

CHARGPT_TEST_MAIN(TestInsideViews)
}  // namespace tst_insideviews
#include "tst_insideviews.moc"
