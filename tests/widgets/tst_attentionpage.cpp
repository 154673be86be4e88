// SPDX-License-Identifier: GPL-3.0-or-later
// The Attention tab and the softmax lab's live scores on hand-made values: no
// model, no LibTorch.
#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QGridLayout>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include "widgets/AttentionGrid.h"
#include "widgets/AttentionPage.h"
#include "widgets/LiveScoresView.h"
#include "widgets/ViewExport.h"
#include "TestProgram.h"

namespace tst_attentionpage {

namespace {

// What a live scores table shows in a cell, as its view reads it.
QVariant cellData(const QTableView* table, int row, int column, int role) {
    return table->model()->index(row, column).data(role);
}
QString cell(const QTableView* table, int row, int column) { return cellData(table, row, column, Qt::DisplayRole).toString(); }

AttentionMatrix head(const QStringList& characters, int lookBack) {
    const int n = int(characters.size());
    QVector<float> weights(n * n, 0.0f);
    for (int i = 0; i < n; ++i)
        weights[i * n + std::max(0, i - lookBack)] = 1.0f;
    return AttentionMatrix::causal(characters, weights);
}

// `layers` layers of `heads` heads; head h looks h characters back.
AttentionProbe probe(const QString& text, int layers, int heads) {
    AttentionProbe p;
    p.text = text;
    p.modelLayers = layers;
    const QStringList characters = splitCharacters(text);
    for (int l = 0; l < layers; ++l) {
        LayerAttention layer;
        for (int h = 0; h < heads; ++h)
            layer.heads.append(head(characters, h));
        p.attention.layers.append(layer);
    }
    return p;
}

HeadScores scores(int layer, int head, int size) {
    HeadScores s;
    s.layer = layer;
    s.head = head;
    s.headSize = 16;
    for (int i = 0; i < size; ++i)
        s.characters << QString(QChar(u'a' + i));
    for (int i = 0; i < size * size; ++i) {
        s.scaled << float(i) / 4.0f;
        s.masked << (i % size > i / size ? -std::numeric_limits<float>::infinity() : float(i) / 4.0f);
    }
    s.scaledStd = 1.25;
    s.maskedStd = 0.75;
    s.unscaledStd = 5.0;
    return s;
}

}  // namespace

class TestAttentionPage : public QObject {
    Q_OBJECT

private slots:
    void gridShowsEveryHeadOfTheLayer();
    void layerPicturesPastTheirSideAreRefused();
    void sortingByAFigureReordersTheHeads();
    void showsTheStepTheWindowsTimelineChose();
    void eachHeadSaysHowFarItMovedSinceStepA();
    void statusNamesLeftOutAndCroppedCharacters();
    void probeEditsAreAnnouncedAfterTypingPauses();
    void liveScoresShowTheHeadAndAskForAnother();
    void liveScoresShowTheLatestValues();
};

void TestAttentionPage::gridShowsEveryHeadOfTheLayer() {
    AttentionPage page;
    page.showAttention(probe(QStringLiteral("春眠不觉晓处处闻啼鸟"), 2, 4), 10, 1.5);
    QCOMPARE(page.shownStep(), 10);
    QCOMPARE(page.shownAttention().layers.size(), 2);
    QCOMPARE(page.grid()->layer().heads.size(), 4);
    QCOMPARE(page.grid()->displayedHeadOrder().size(), 4);
    QCOMPARE(page.overview()->modelAttention().headCount(), 4);
    page.setLayer(1);
    QCOMPARE(page.grid()->layerIndex(), 1);

    page.clear();
    QVERIFY(!page.shownStep());
    QCOMPARE(page.grid()->layer().heads.size(), 0);
}

// The window's export of a layer keeps the command-line tool's budget: a
// model of 441 heads over 100 characters would be a PNG of 16,816 x 18,024
// pixels (1.2 GB to paint); refused with its size, nothing written. A small
// layer still draws.
void TestAttentionPage::layerPicturesPastTheirSideAreRefused() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString text = QString(QStringLiteral("abcdefghij")).repeated(10);
    AttentionGrid grid;
    grid.setLayer(0, probe(text, 1, 441).attention.layers.first());
    const QSize size = AttentionGrid::exportSize(grid.layer());
    QVERIFY2(size.width() > ViewExport::kMaxPictureSide || size.height() > ViewExport::kMaxPictureSide,
             qPrintable(QStringLiteral("%1 x %2").arg(size.width()).arg(size.height())));
    const QString path = dir.filePath(QStringLiteral("layer.png"));
    QString error;
    QVERIFY(!grid.exportTo(path, &error));
    QVERIFY2(error.contains(QStringLiteral("%1 x %2 pixels").arg(size.width()).arg(size.height())), qPrintable(error));
    QVERIFY2(error.contains(QStringLiteral("at most 16384 pixels a side")), qPrintable(error));
    QVERIFY(!QFileInfo::exists(path));
    QCOMPARE(QDir(dir.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries), QStringList());

    grid.setLayer(0, probe(text.left(10), 1, 2).attention.layers.first());
    QVERIFY2(grid.exportTo(path, &error), qPrintable(error));
    QVERIFY(QFileInfo(path).size() > 0);
}

void TestAttentionPage::sortingByAFigureReordersTheHeads() {
    AttentionPage page;
    page.showAttention(probe(QStringLiteral("the quick brown fox"), 1, 3), 1, 1.0);
    AttentionGrid* grid = page.grid();
    QCOMPARE(grid->displayedHeadOrder(), (QVector<int>{0, 1, 2}));
    // Head 1 looks one character back: first by that share, last ascending.
    grid->sortBy(SummaryFigure::PreviousTokenShare, true);
    QCOMPARE(grid->displayedHeadOrder().first(), 1);
    grid->sortBy(SummaryFigure::PreviousTokenShare, false);
    QCOMPARE(grid->displayedHeadOrder().last(), 1);
    // Mean distance grows with how far back a head looks.
    grid->sortBy(SummaryFigure::MeanDistance, true);
    QCOMPARE(grid->displayedHeadOrder(), (QVector<int>{2, 1, 0}));
    grid->sortBy(std::nullopt);
    QCOMPARE(grid->displayedHeadOrder(), (QVector<int>{0, 1, 2}));

    // The next step, sorted by mean distance: the heads changed their ways
    // (head 0 now looks two back, head 2 none), and the tiles follow them.
    grid->sortBy(SummaryFigure::MeanDistance, true);
    AttentionProbe next = probe(QStringLiteral("the quick brown fox"), 1, 3);
    const QStringList characters = splitCharacters(next.text);
    next.attention.layers[0].heads[0] = head(characters, 2);
    next.attention.layers[0].heads[2] = head(characters, 0);
    page.showAttention(next, 2, 1.0);
    QCOMPARE(grid->displayedHeadOrder(), (QVector<int>{0, 1, 2}));
    const int n = int(characters.size());
    QCOMPARE(grid->heatmapOfHead(0)->matrix().weights[5 * n + 3], 1.0f);  // head 0: two back
    QCOMPARE(grid->heatmapOfHead(2)->matrix().weights[5 * n + 5], 1.0f);  // head 2: itself
    // The first place in the grid holds head 0's tile, the last head 2's.
    auto* layout = grid->findChild<QGridLayout*>();
    QVERIFY(layout);
    QCOMPARE(layout->itemAtPosition(0, 0)->widget(), grid->heatmapOfHead(0)->parentWidget());
    // A step that keeps the order keeps the tiles where they are.
    page.showAttention(next, 3, 1.0);
    QCOMPARE(grid->displayedHeadOrder(), (QVector<int>{0, 1, 2}));
    QCOMPARE(layout->itemAtPosition(0, 0)->widget(), grid->heatmapOfHead(0)->parentWidget());
}

// The page has no timeline of its own (the window's is under the tabs): it
// shows the step it is given, an earlier one as well as a later one, with the
// weights as computed, and says which step it shows.
// With the probe's attention at step A beside it, each head's tile says how
// far its attention moved since then, for the layer shown; without, nothing.
void TestAttentionPage::eachHeadSaysHowFarItMovedSinceStepA() {
    AttentionPage page;
    AttentionProbe now = probe(QStringLiteral("abcdef"), 2, 2);  // head h looks h back
    AttentionProbe then = probe(QStringLiteral("abcdef"), 2, 2);
    then.attention.layers[1].heads[0] = head(splitCharacters(now.text), 1);  // layer 2, head 0 changed
    for (qsizetype l = 0; l < now.attention.layers.size(); ++l) {  // as the inspector sends them
        QVector<double> layer;
        for (qsizetype h = 0; h < now.attention.layers[l].heads.size(); ++h)
            layer.append(attentionChange(now.attention.layers[l].heads[h], then.attention.layers[l].heads[h]));
        now.changes.append(layer);
    }
    now.comparedStep = 64;
    page.showAttention(now, 800, 1.0);
    AttentionGrid* grid = page.findChild<AttentionGrid*>();
    QVERIFY(grid);
    QCOMPARE(grid->changes(), (QVector<double>{0.0, 0.0}));  // layer 1 is the same
    page.setLayer(1);
    QCOMPARE(grid->changes().size(), 2);
    QVERIFY(grid->changes()[0] > 0.5);
    QCOMPARE(grid->changes()[1], 0.0);
    bool said = false;
    for (QLabel* label : grid->findChildren<QLabel*>())
        said = said || (label->text().contains(QStringLiteral("moved")) &&
                        label->text().contains(QStringLiteral("step 64")));
    QVERIFY(said);
    page.showAttention(probe(QStringLiteral("abcdef"), 2, 2), 900, 1.0);  // nothing compared
    QVERIFY(grid->changes().isEmpty());
    for (QLabel* label : grid->findChildren<QLabel*>())
        QVERIFY(!label->text().contains(QStringLiteral("moved")));
}

void TestAttentionPage::showsTheStepTheWindowsTimelineChose() {
    AttentionPage page;
    QVERIFY(page.findChildren<QSlider*>().isEmpty());
    // Snapshots of one model: head h of step s looks (s / 10 + h) % 4 back.
    auto at = [](int step) {
        AttentionProbe p = probe(QStringLiteral("abcdef"), 1, 2);
        for (int h = 0; h < 2; ++h)
            p.attention.layers[0].heads[h] = head(splitCharacters(p.text), (step / 10 + h) % 4);
        return p;
    };
    auto status = [&page] {
        QString text;
        for (QLabel* label : page.findChildren<QLabel*>())
            if (label->text().startsWith(QStringLiteral("Step ")))
                text = label->text();
        return text;
    };
    for (int step = 10; step <= 50; step += 10)
        page.showAttention(at(step), step, 1.0);
    QCOMPARE(page.shownStep(), 50);
    QVERIFY2(status().startsWith(QStringLiteral("Step 50:")), qPrintable(status()));
    // Back to step 20: its heads, exactly, and the status says so.
    page.showAttention(at(20), 20, 1.0);
    QCOMPARE(page.shownStep(), 20);
    QVERIFY2(status().startsWith(QStringLiteral("Step 20:")), qPrintable(status()));
    // Position 5 of the head of step 20 looks 2 back.
    QCOMPARE(page.shownAttention().layers[0].heads[0].weight(5, 3), 1.0f);
    QCOMPARE(page.shownAttention().layers[0].heads[0].weight(5, 5), 0.0f);
    QCOMPARE(page.grid()->layer().heads.size(), 2);
}

void TestAttentionPage::statusNamesLeftOutAndCroppedCharacters() {
    AttentionPage page;
    AttentionProbe p = probe(QStringLiteral("abc"), 1, 1);
    p.unknownCharacters = {QStringLiteral("€")};
    p.unknownPositions = {1};
    p.croppedCharacters = 2;
    page.showAttention(p, 7, 2.5);
    QString status;
    for (QLabel* label : page.findChildren<QLabel*>())
        if (label->text().contains(QStringLiteral("Step 7")))
            status = label->text();
    QVERIFY2(status.contains(QStringLiteral("3 characters")), qPrintable(status));
    QVERIFY2(status.contains(QStringLiteral("€")), qPrintable(status));
    QVERIFY2(status.contains(QStringLiteral("2 character")), qPrintable(status));

    page.showProblem(QStringLiteral("no model"));
    bool shown = false;
    for (QLabel* label : page.findChildren<QLabel*>())
        shown = shown || label->text() == QStringLiteral("no model");
    QVERIFY(shown);
}

void TestAttentionPage::probeEditsAreAnnouncedAfterTypingPauses() {
    AttentionPage page;
    QSignalSpy changed(&page, &AttentionPage::probeChanged);
    QSignalSpy refresh(&page, &AttentionPage::refreshRequested);
    page.setProbeText(QStringLiteral("abc"));
    QCOMPARE(changed.size(), 1);  // set by code: at once
    page.setProbeText(QStringLiteral("abc"));
    QCOMPARE(changed.size(), 1);  // unchanged: nothing to announce
    page.probeEdit()->setPlainText(QStringLiteral("abcd"));
    QCOMPARE(changed.size(), 1);  // typed: after a pause
    QVERIFY(changed.wait(2000));
    QCOMPARE(changed.constLast().at(0).toString(), QStringLiteral("abcd"));
    for (QPushButton* button : page.findChildren<QPushButton*>())
        if (button->isEnabled() && refresh.isEmpty() && button->text().contains(QStringLiteral("Refresh")))
            button->click();
    QCOMPARE(refresh.size(), 1);
}

void TestAttentionPage::liveScoresShowTheHeadAndAskForAnother() {
    LiveScoresView view;
    QSignalSpy requested(&view, &LiveScoresView::scoresRequested);
    view.setModelShape(3, 4);
    QCOMPARE(requested.size(), 0);  // a new shape asks for nothing
    view.setScores(scores(1, 2, 5), 42);
    QCOMPARE(view.scores().size(), 5);
    QCOMPARE(view.scaledTable()->model()->rowCount(), 5);
    QCOMPARE(view.scaledTable()->model()->columnCount(), 5);
    QCOMPARE(view.maskedTable()->model()->rowCount(), 5);

    view.setHead(2, 3);
    QCOMPARE(requested.size(), 1);
    QCOMPARE(requested.constLast().at(0).toInt(), 2);
    QCOMPARE(requested.constLast().at(1).toInt(), 3);
    // The spin boxes stop at the model's shape.
    auto spins = view.findChildren<QSpinBox*>();
    QCOMPARE(spins.size(), 2);
    for (QSpinBox* spin : spins)
        spin->setValue(99);
    QCOMPARE(view.layer(), 2);
    QCOMPARE(view.head(), 3);
}

void TestAttentionPage::liveScoresShowTheLatestValues() {
    LiveScoresView view;
    view.setScores(scores(1, 2, 5), 42);
    QCOMPARE(cell(view.scaledTable(), 1, 2), QStringLiteral("1.8"));  // 7 / 4
    QCOMPARE(cell(view.maskedTable(), 1, 2), QStringLiteral("-inf"));
    // The next step of the same probe: every cell shows the new value, and
    // its tooltip names the cell with it.
    HeadScores later = scores(1, 2, 5);
    for (float& v : later.scaled)
        v = -v;
    later.masked[1 * 5 + 0] = 9.0f;
    view.setScores(later, 43);
    QCOMPARE(cell(view.scaledTable(), 1, 2), QStringLiteral("-1.8"));
    QCOMPARE(cell(view.maskedTable(), 1, 0), QStringLiteral("9.0"));
    QCOMPARE(cell(view.maskedTable(), 1, 2), QStringLiteral("-inf"));
    // Negative scores are blue, positive red.
    const QColor negative = cellData(view.scaledTable(), 4, 4, Qt::BackgroundRole).value<QBrush>().color();
    QVERIFY(negative.blue() > negative.red());
    const QColor positive = cellData(view.maskedTable(), 1, 0, Qt::BackgroundRole).value<QBrush>().color();
    QVERIFY(positive.red() > positive.blue());
    const QString tip = cellData(view.scaledTable(), 1, 2, Qt::ToolTipRole).toString();
    QVERIFY2(tip.contains(QStringLiteral("query b (row 1)")) && tip.contains(QStringLiteral("key c (column 2)")) &&
                 tip.contains(QStringLiteral("-1.8")),
             qPrintable(tip));
    // Another probe: the table takes its characters.
    HeadScores other = scores(1, 2, 3);
    other.characters = {QStringLiteral("x"), QStringLiteral("y"), QStringLiteral("z")};
    view.setScores(other, 44);
    QCOMPARE(view.scaledTable()->model()->rowCount(), 3);
    QCOMPARE(view.scaledTable()->model()->headerData(2, Qt::Horizontal).toString(), QStringLiteral("z"));
    QVERIFY(cellData(view.scaledTable(), 2, 1, Qt::ToolTipRole).toString().contains(QStringLiteral("query z (row 2)")));
}

CHARGPT_TEST_MAIN(TestAttentionPage)
}  // namespace tst_attentionpage
#include "tst_attentionpage.moc"
