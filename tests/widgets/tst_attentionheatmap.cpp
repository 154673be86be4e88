// SPDX-License-Identifier: GPL-3.0-or-later
// The attention heatmap, the grid of heads and the softmax lab on hand-made data:
// masked cells look masked, cells tell their weight, exports write real files.
#include "widgets/AttentionGrid.h"
#include "widgets/AttentionHeatmap.h"
#include "widgets/PlainToolTip.h"
#include "widgets/SoftmaxLab.h"

#include <QApplication>
#include <QFile>
#include <QHelpEvent>
#include <QTextDocument>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QToolTip>
#include "TestProgram.h"

namespace tst_attentionheatmap {

namespace {

// Rows of "ab\n月": row 0 all on itself, row 1 all on key 0 (so key 1 weighs 0),
// rows 2 and 3 uniform.
AttentionMatrix handMadeMatrix() {
    const QStringList characters{QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("\n"),
                                 QStringLiteral("月")};
    const QVector<float> weights{1.0f, 0.0f, 0.0f, 0.0f,                   //
                                 1.0f, 0.0f, 0.0f, 0.0f,                   //
                                 1.0f / 3, 1.0f / 3, 1.0f / 3, 0.0f,       //
                                 0.25f, 0.25f, 0.25f, 0.25f};
    return AttentionMatrix::causal(characters, weights);
}

AttentionMatrix previousTokenHead(const QStringList& characters) {
    const int n = int(characters.size());
    QVector<float> weights(n * n, 0.0f);
    for (int i = 0; i < n; ++i)
        weights[i * n + std::max(0, i - 1)] = 1.0f;
    return AttentionMatrix::causal(characters, weights);
}

AttentionMatrix selfHead(const QStringList& characters) {
    const int n = int(characters.size());
    QVector<float> weights(n * n, 0.0f);
    for (int i = 0; i < n; ++i)
        weights[i * n + i] = 1.0f;
    return AttentionMatrix::causal(characters, weights);
}

QColor pixelAtCentre(const QImage& image, const QRect& cell) {
    return image.pixelColor(cell.center());
}

}  // namespace

class TestAttentionHeatmap : public QObject {
    Q_OBJECT

private slots:
    void maskedCellsAreNotDrawnAsZero();
    void weightsMapToTheColourScale();
    void toolTipNamesQueryKeyAndWeight();
    void hoverAndClickFindTheCell();
    void exportsPngAndSvg();
    void gridSortsHeadsAndReportsClicks();
    void gridExportsTheLayer();
    void overviewShowsEveryHead();
    void softmaxLabShowsTheSeedsNumbers();
};

void TestAttentionHeatmap::maskedCellsAreNotDrawnAsZero() {
    AttentionHeatmap heatmap;
    heatmap.setMatrix(handMadeMatrix());
    heatmap.resize(320, 320);
    const QImage image = heatmap.renderImage();

    const QColor zero = AttentionHeatmap::colorForWeight(0.0);
    const QColor masked = pixelAtCentre(image, heatmap.cellRect(0, 3));
    QVERIFY(masked == AttentionHeatmap::maskedColor() || masked == AttentionHeatmap::maskedHatchColor());
    QVERIFY(masked != zero);
    QCOMPARE(masked.red(), masked.green());
    QCOMPARE(masked.green(), masked.blue());

    // A real weight of 0 (row 1, key 1 is allowed but unused) is drawn as 0.
    QCOMPARE(pixelAtCentre(image, heatmap.cellRect(1, 1)), zero);

    // Every masked cell shows the masked grey somewhere and no colour of the scale.
    for (int row = 0; row < 4; ++row)
        for (int key = row + 1; key < 4; ++key) {
            const QRect cell = heatmap.cellRect(row, key).adjusted(1, 1, -1, -1);
            bool sawMaskedColor = false;
            for (int y = cell.top(); y <= cell.bottom(); ++y)
                for (int x = cell.left(); x <= cell.right(); ++x) {
                    const QColor pixel = image.pixelColor(x, y);
                    QVERIFY(pixel == AttentionHeatmap::maskedColor() ||
                            pixel == AttentionHeatmap::maskedHatchColor());
                    sawMaskedColor |= pixel == AttentionHeatmap::maskedColor();
                }
            QVERIFY(sawMaskedColor);
        }
}

void TestAttentionHeatmap::weightsMapToTheColourScale() {
    AttentionHeatmap heatmap;
    heatmap.setMatrix(handMadeMatrix());
    heatmap.resize(320, 320);
    const QImage image = heatmap.renderImage();
    QCOMPARE(pixelAtCentre(image, heatmap.cellRect(0, 0)), AttentionHeatmap::colorForWeight(1.0));
    QCOMPARE(pixelAtCentre(image, heatmap.cellRect(3, 2)), AttentionHeatmap::colorForWeight(0.25));
    // The scale is sequential: brighter for more weight.
    QVERIFY(AttentionHeatmap::colorForWeight(1.0).lightness() >
            AttentionHeatmap::colorForWeight(0.5).lightness());
    QVERIFY(AttentionHeatmap::colorForWeight(0.5).lightness() >
            AttentionHeatmap::colorForWeight(0.0).lightness());
    // Cells are square and do not overlap.
    const QRect first = heatmap.cellRect(0, 0), second = heatmap.cellRect(0, 1);
    QCOMPARE(first.width(), first.height());
    QVERIFY(!first.intersects(second));
}

void TestAttentionHeatmap::toolTipNamesQueryKeyAndWeight() {
    AttentionHeatmap heatmap;
    heatmap.setMatrix(handMadeMatrix());
    QCOMPARE(heatmap.toolTipText(3, 1),
             QStringLiteral("query '月' (pos 3) \u2192 key 'b' (pos 1): weight 0.2500"));
    QCOMPARE(heatmap.toolTipText(2, 0),
             QStringLiteral("query '\u21B5' (pos 2) \u2192 key 'a' (pos 0): weight 0.3333"));
    QVERIFY(heatmap.toolTipText(1, 3).contains(QStringLiteral("masked")));
    QVERIFY(heatmap.toolTipText(4, 0).isEmpty());
}

void TestAttentionHeatmap::hoverAndClickFindTheCell() {
    AttentionHeatmap heatmap;
    heatmap.setMatrix(handMadeMatrix());
    heatmap.resize(320, 320);
    heatmap.show();
    QVERIFY(QTest::qWaitForWindowExposed(&heatmap));

    const QRect cell = heatmap.cellRect(2, 1);
    int row = -1, key = -1;
    QVERIFY(heatmap.cellAt(cell.center(), &row, &key));
    QCOMPARE(row, 2);
    QCOMPARE(key, 1);
    QVERIFY(!heatmap.cellAt(QPoint(1, 1), &row, &key));

    QSignalSpy hovered(&heatmap, &AttentionHeatmap::cellHovered);
    QTest::mouseMove(&heatmap, cell.center());
    QTRY_VERIFY(!hovered.isEmpty());
    QCOMPARE(hovered.last().at(0).toInt(), 2);
    QCOMPARE(hovered.last().at(1).toInt(), 1);

    QHelpEvent help(QEvent::ToolTip, cell.center(), heatmap.mapToGlobal(cell.center()));
    QApplication::sendEvent(&heatmap, &help);
    QTRY_COMPARE(QToolTip::text(), plainToolTip(heatmap.toolTipText(2, 1)));

    QSignalSpy clicked(&heatmap, &AttentionHeatmap::cellClicked);
    QTest::mouseClick(&heatmap, Qt::LeftButton, {}, cell.center());
    QCOMPARE(clicked.size(), 1);
    QCOMPARE(clicked.first().at(0).toInt(), 2);

    // The probe's characters are text, never markup: '<' and "<b>x</b>" as
    // characters once started a tag in the tooltip.
    heatmap.setMatrix(AttentionMatrix::causal({QStringLiteral("<"), QStringLiteral("<b>x</b>")},
                                              {1.0f, 0.0f, 0.5f, 0.5f}));
    const QRect markup = heatmap.cellRect(1, 0);
    QHelpEvent overMarkup(QEvent::ToolTip, markup.center(), heatmap.mapToGlobal(markup.center()));
    QApplication::sendEvent(&heatmap, &overMarkup);
    QTRY_VERIFY(QToolTip::text().contains(QStringLiteral("&lt;b&gt;")));
    QTextDocument shown;
    shown.setHtml(QToolTip::text());
    QVERIFY2(shown.toPlainText().startsWith(QStringLiteral("query '<b>x</b>' (pos 1)")), qPrintable(shown.toPlainText()));
    QVERIFY2(shown.toPlainText().contains(QStringLiteral("key '<' (pos 0)")), qPrintable(shown.toPlainText()));
}

void TestAttentionHeatmap::exportsPngAndSvg() {
    QTemporaryDir directory;
    QVERIFY(directory.isValid());
    AttentionHeatmap heatmap;
    HeatmapStyle style;
    style.showColorScale = true;
    heatmap.setHeatmapStyle(style);
    heatmap.setMatrix(handMadeMatrix());

    const QString svgPath = directory.filePath(QStringLiteral("head.svg"));
    QString error;
    QVERIFY2(heatmap.exportTo(svgPath, QSize(), &error), qPrintable(error));
    QFile svg(svgPath);
    QVERIFY(svg.open(QIODevice::ReadOnly));
    const QByteArray content = svg.readAll();
    QVERIFY(!content.isEmpty());
    QVERIFY(content.contains("<svg"));

    const QString pngPath = directory.filePath(QStringLiteral("head.png"));
    QVERIFY2(heatmap.exportTo(pngPath, QSize(400, 360), &error), qPrintable(error));
    const QImage png(pngPath);
    QCOMPARE(png.size(), QSize(400, 360));

    QVERIFY(!heatmap.exportTo(directory.filePath(QStringLiteral("head.txt")), QSize(), &error));
    QVERIFY(!error.isEmpty());
}

void TestAttentionHeatmap::gridSortsHeadsAndReportsClicks() {
    const QStringList text = splitCharacters(QStringLiteral("春眠不觉晓\n处处闻啼鸟"));
    LayerAttention layer;
    layer.heads = {selfHead(text), previousTokenHead(text), selfHead(text)};
    AttentionGrid grid;
    grid.setEnlargeOnClick(false);
    grid.setLayer(2, layer);
    QCOMPARE(grid.summaries().size(), 3);
    QCOMPARE(grid.displayedHeadOrder(), (QVector<int>{0, 1, 2}));

    grid.sortBy(SummaryFigure::PreviousTokenShare, true);
    QCOMPARE(grid.displayedHeadOrder().first(), 1);
    grid.sortBy(SummaryFigure::PreviousTokenShare, false);
    QCOMPARE(grid.displayedHeadOrder().last(), 1);

    grid.resize(900, 700);
    grid.show();
    QVERIFY(QTest::qWaitForWindowExposed(&grid));
    QSignalSpy clicked(&grid, &AttentionGrid::headClicked);
    AttentionHeatmap* heatmap = grid.heatmapOfHead(1);
    QVERIFY(heatmap);
    QTest::mouseClick(heatmap, Qt::LeftButton, {}, heatmap->rect().center());
    QCOMPARE(clicked.size(), 1);
    QCOMPARE(clicked.first().at(0).toInt(), 2);
    QCOMPARE(clicked.first().at(1).toInt(), 1);

    // A refresh with the same number of heads keeps the tiles.
    grid.setLayer(2, layer);
    QCOMPARE(grid.heatmapOfHead(1), heatmap);
}

void TestAttentionHeatmap::gridExportsTheLayer() {
    const QStringList text = splitCharacters(QStringLiteral("to be\nor not"));
    LayerAttention layer;
    layer.heads = {selfHead(text), previousTokenHead(text)};
    AttentionGrid grid;
    grid.setLayer(0, layer);
    QTemporaryDir directory;
    const QString svgPath = directory.filePath(QStringLiteral("layer.svg"));
    const QString pngPath = directory.filePath(QStringLiteral("layer.png"));
    QVERIFY(grid.exportTo(svgPath));
    QVERIFY(grid.exportTo(pngPath));
    QFile svg(svgPath);
    QVERIFY(svg.open(QIODevice::ReadOnly));
    QVERIFY(svg.readAll().contains("<svg"));
    QVERIFY(!QImage(pngPath).isNull());
}

void TestAttentionHeatmap::overviewShowsEveryHead() {
    const QStringList text = splitCharacters(QStringLiteral("abc\ndef"));
    ModelAttention attention;
    for (int layer = 0; layer < 3; ++layer) {
        LayerAttention heads;
        heads.heads = {selfHead(text), previousTokenHead(text)};
        attention.layers.append(heads);
    }
    AttentionOverview overview;
    overview.setModelAttention(attention);
    QCOMPARE(overview.summaries().size(), 3);
    QCOMPARE(overview.summaries()[1][1].previousTokenShare, 1.0);
    QVERIFY(overview.toolTipText(2, 1).contains(QStringLiteral("2")));
    overview.resize(400, 400);
    overview.show();
    QVERIFY(QTest::qWaitForWindowExposed(&overview));
    int layer = -1, head = -1;
    bool found = false;
    for (int y = 0; y < 400 && !found; y += 4)
        for (int x = 0; x < 400 && !found; x += 4)
            found = overview.headAt(QPoint(x, y), &layer, &head) && layer == 2 && head == 1;
    QVERIFY(found);
}

void TestAttentionHeatmap::softmaxLabShowsTheSeedsNumbers() {
    SoftmaxLab lab;
    QCOMPARE(lab.exampleText(), QStringLiteral("softmax([1, 2, -inf]) = [0.2689, 0.7311, 0.0000]"));
    const softmax_math::Matrix weights = lab.shownWeights();
    QCOMPARE(weights.rows, 4);
    QCOMPARE(weights.at(0, 3), 0.0);
    lab.setMaskEnabled(false);
    QVERIFY(lab.shownWeights().at(0, 3) > 0.0);
    QVERIFY(std::abs(lab.spread().unscaledStd - std::sqrt(10.0)) < 0.05 * std::sqrt(10.0));
    QVERIFY(std::abs(lab.spread().scaledStd - 1.0) < 0.05);
    lab.setMultiplier(1000.0);
    const std::vector<double> sharp = lab.multipliedSoftmax();
    QVERIFY(*std::max_element(sharp.begin(), sharp.end()) > 0.999);
}

CHARGPT_TEST_MAIN(TestAttentionHeatmap)
}  // namespace tst_attentionheatmap
#include "tst_attentionheatmap.moc"
