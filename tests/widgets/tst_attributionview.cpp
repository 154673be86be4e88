// SPDX-License-Identifier: GPL-3.0-or-later
// The "why this character?" view (AttributionView) on hand-made values: the
// bars drawn are the parts of largest |logit|, at most kBars of them, named
// as the CLI names them; the characters read are escaped and coloured by the
// sign of their gradient x input; a problem is said instead of the chart;
// a click on a Surprise pane's character reaches the view's signal with
// its index; and the view exports as PNG, SVG, CSV and JSON, refusing other
// suffixes, an empty view and a folder in the file's place; across the kept
// steps, the parts of largest peak drawn and the one that grew most named,
// the parts that changed most between the timeline's marks A and B in a
// table, and Stop shown only while the steps are measured.
#include "TestProgram.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

#include <qcustomplot.h>

#include "widgets/AttributionExport.h"
#include "widgets/AttributionHistoryView.h"
#include "widgets/AttributionView.h"
#include "widgets/SurpriseTextWidget.h"

namespace tst_attributionview {

namespace {

CharacterAttribution handMade(int heads) {
    CharacterAttribution a;
    a.characters = {QStringLiteral("<"), QStringLiteral("b"), QStringLiteral("\n")};
    a.chosen = QStringLiteral("c");
    a.runnerUp = QStringLiteral("d");
    a.chosenIsTop = true;
    a.logit = 2.5;
    a.margin = 0.75;
    a.probability = 0.4;
    a.gap = 3e-7;
    a.step = 120;
    AttributionBar token;
    token.logit = -1.0;
    a.bars.append(token);
    for (int h = 0; h < heads; ++h) {
        AttributionBar head;
        head.kind = AttributionBar::Head;
        head.layer = h / 4;
        head.head = h % 4;
        head.logit = 0.01 * h;
        a.bars.append(head);
    }
    AttributionBar ff;
    ff.kind = AttributionBar::FeedForward;
    ff.layer = 1;
    ff.logit = 3.0;
    a.bars.append(ff);
    a.gradientTimesInput = {0.5, -0.25, 0.0};
    AttentionPath first;
    first.layer = 1;
    first.head = 3;
    first.logit = 0.07;
    first.weights = {0.1, 0.7, 0.2};
    AttentionPath second;
    second.layer = 0;
    second.head = 1;
    second.logit = 0.01;
    second.weights = {1.0, 0.0, 0.0};
    a.paths = {first, second};
    return a;
}

}  // namespace

class TestAttributionView : public QObject {
    Q_OBJECT

private slots:
    void largestPartsFirst();
    void charactersColouredAndEscaped();
    void problemInsteadOfBars();
    void attentionPathsOfTheTopHeads();
    void clickOnACharacter();
    void exports();
    void acrossTheKeptSteps();
};

void TestAttributionView::largestPartsFirst() {
    AttributionView view;
    view.setAttribution(handMade(24));
    const QVector<AttributionBar> bars = view.shownBars();
    QCOMPARE(bars.size(), AttributionView::kBars);
    QCOMPARE(bars[0].kind, AttributionBar::FeedForward);
    QCOMPARE(AttributionView::partName(bars[0]), QStringLiteral("L2 feed-forward"));
    QCOMPARE(AttributionView::partName(bars[1]), QStringLiteral("token embedding"));
    QCOMPARE(AttributionView::partName(bars[2]), QStringLiteral("L6 H4"));  // head 23: 0.23
    for (int i = 1; i < bars.size(); ++i) QVERIFY(std::abs(bars[i - 1].logit) >= std::abs(bars[i].logit));
    view.setAttribution(handMade(2));
    QCOMPARE(view.shownBars().size(), 4);  // fewer parts than kBars: all of them
    QVERIFY(view.summary().contains(QLatin1String("'c'")));
    QVERIFY(view.summary().contains(QLatin1String("'d'")));
    QVERIFY(view.summary().contains(QLatin1String("120")));
    // A line break or a space written is seen as one, not as a break in the sentence.
    CharacterAttribution newline = handMade(2);
    newline.chosen = QStringLiteral("\n");
    newline.runnerUp = QStringLiteral(" ");
    view.setAttribution(newline);
    QVERIFY2(view.summary().startsWith(QStringLiteral("Why '\u21B5'")), qPrintable(view.summary()));
    QVERIFY2(view.summary().contains(QStringLiteral("over '\u2423'")), qPrintable(view.summary()));
    QVERIFY(!view.summary().contains(QLatin1Char('\n')));
}

void TestAttributionView::charactersColouredAndEscaped() {
    AttributionView view;
    view.setAttribution(handMade(4));
    const QString html = view.colouredText();
    QVERIFY2(html.contains(QLatin1String("&lt;")), qPrintable(html));  // the text, never markup
    QVERIFY(!html.contains(QLatin1String(">\n<")));
    QCOMPARE(html.count(QLatin1String("<span")), 3);
    // Blue for the one that raises the logit most, red for the one that lowers it, white for none.
    QVERIFY(html.contains(QLatin1String("background-color:#5050ff")));
    QVERIFY(html.contains(QLatin1String("background-color:#ff8383")));
    QVERIFY(html.contains(QLatin1String("background-color:#ffffff")));
}

void TestAttributionView::attentionPathsOfTheTopHeads() {
    AttributionView view;
    view.setAttribution(handMade(8));
    const QString html = view.pathsText();
    const QStringList lines = html.split(QStringLiteral("<br>"));
    QCOMPARE(lines.size(), 4);  // two lines per head, in the order given: what it looked at most, the strip
    QCOMPARE(lines[0],
             QStringLiteral("<b>L2 H4</b> (adds 0.070): most on 'b' at 2 (70%), then '&#8629;' at 3 (20%)"));
    QCOMPARE(lines[2], QStringLiteral("<b>L1 H2</b> (adds 0.010): most on '&lt;' at 1 (100%)"));
    QCOMPARE(lines[1].count(QLatin1String("<span")), 3);
    QCOMPARE(lines[1].count(QLatin1String("&#8203;")), 3);  // where a long strip may wrap
    // The deepest green for all of a head's attention, white for none.
    QVERIFY(lines[3].contains(QLatin1String("background-color:#5ab45a")));
    QVERIFY(lines[3].contains(QLatin1String("background-color:#ffffff")));
    CharacterAttribution none = handMade(8);
    none.paths.clear();
    view.setAttribution(none);
    QCOMPARE(view.pathsText(), QString());
}

void TestAttributionView::problemInsteadOfBars() {
    AttributionView view;
    CharacterAttribution failed;
    failed.problem = QStringLiteral("the model read nothing before this character");
    view.setAttribution(failed);
    QVERIFY(view.summary().contains(failed.problem));
    QVERIFY(view.shownBars().isEmpty());
}

void TestAttributionView::clickOnACharacter() {
    SurpriseTextWidget pane;
    SurpriseText text;
    for (const char* c : {"a", "b", "c"}) {
        SurpriseChar ch;
        ch.character = QString::fromLatin1(c);
        text.characters.append(ch);
    }
    pane.setText(text);
    pane.resize(300, 100);
    pane.show();
    QVERIFY(QTest::qWaitForWindowExposed(&pane));
    QSignalSpy clicked(&pane, &SurpriseTextWidget::characterClicked);
    QTest::mouseClick(&pane, Qt::LeftButton, {}, pane.characterRect(1).center().toPoint());
    QCOMPARE(clicked.size(), 1);
    QCOMPARE(clicked[0][0].toInt(), 1);
    QTest::mouseClick(&pane, Qt::RightButton, {}, pane.characterRect(2).center().toPoint());
    QCOMPARE(clicked.size(), 1);  // only a left click asks
}

void TestAttributionView::exports() {
    AttributionView view;
    QVERIFY(!view.exportButton()->isEnabled());  // nothing to export yet
    QTemporaryDir dir;
    QString error;
    QVERIFY(!exportAttribution(dir.filePath(QStringLiteral("empty.csv")), &view, &error));
    QVERIFY(error.contains(QLatin1String("click a character")));
    view.setAttribution(handMade(4));
    QVERIFY(view.exportButton()->isEnabled());

    const QString csvPath = dir.filePath(QStringLiteral("why.csv"));
    QVERIFY2(exportAttribution(csvPath, &view, &error), qPrintable(error));
    QFile csvFile(csvPath);
    QVERIFY(csvFile.open(QIODevice::ReadOnly));
    const QString csv = QString::fromUtf8(csvFile.readAll());
    QVERIFY(csv.startsWith(QLatin1String("part,layer,head,position,character,value,margin\n")));
    QCOMPARE(csv.count(QLatin1String("\nL")), 4 + 1);  // the four heads and the feed-forward
    QVERIFY(csv.contains(QLatin1String("\nL2 feed-forward,2,,,,3,0\n")));
    QVERIFY(csv.contains(QLatin1String("\ntoken embedding,,,,,-1,0\n")));
    QVERIFY(csv.contains(QLatin1String("\ngradient x input,,,1,<,0.5,\n")));
    QVERIFY(csv.contains(QLatin1String("\ngradient x input,,,3,\"\n\",0,\n")));  // a line break, quoted
    QCOMPARE(csv.count(QLatin1String("\nattention L2 H4,2,4,")), 3);
    QVERIFY(csv.contains(QLatin1String("\nattention L1 H2,1,2,1,<,1,\n")));

    const QString jsonPath = dir.filePath(QStringLiteral("why.JSON"));
    QVERIFY2(exportAttribution(jsonPath, &view, &error), qPrintable(error));
    QFile jsonFile(jsonPath);
    QVERIFY(jsonFile.open(QIODevice::ReadOnly));
    const QJsonObject json = QJsonDocument::fromJson(jsonFile.readAll()).object();
    QCOMPARE(json[QStringLiteral("char")].toString(), QStringLiteral("c"));
    QCOMPARE(json[QStringLiteral("text")].toString(), QStringLiteral("<b\n"));
    QCOMPARE(json[QStringLiteral("step")].toInt(), 120);
    QCOMPARE(json[QStringLiteral("runner_up")].toObject()[QStringLiteral("logit")].toDouble(), 2.5 - 0.75);
    const QJsonArray parts = json[QStringLiteral("parts")].toArray();
    QCOMPARE(parts.size(), 6);
    QCOMPARE(parts[5].toObject()[QStringLiteral("part")].toString(), QStringLiteral("feed_forward"));
    QCOMPARE(parts[5].toObject()[QStringLiteral("layer")].toInt(), 2);
    QCOMPARE(parts[4].toObject()[QStringLiteral("head")].toInt(), 4);
    const QJsonArray paths = json[QStringLiteral("attention_paths")].toArray();
    QCOMPARE(paths.size(), 2);
    QCOMPARE(paths[0].toObject()[QStringLiteral("weights")].toArray().size(), 3);
    QCOMPARE(json[QStringLiteral("gradient_x_input")].toArray().size(), 3);

    const QString pngPath = dir.filePath(QStringLiteral("why.png"));
    QVERIFY2(exportAttribution(pngPath, &view, &error), qPrintable(error));
    const QImage picture(pngPath);
    QVERIFY(!picture.isNull());
    QVERIFY(picture.width() >= 300 && picture.height() >= 100);
    const QString svgPath = dir.filePath(QStringLiteral("why.svg"));
    QVERIFY2(exportAttribution(svgPath, &view, &error), qPrintable(error));
    QFile svg(svgPath);
    QVERIFY(svg.open(QIODevice::ReadOnly));
    QVERIFY(svg.readAll().contains("<svg"));

    // Another suffix is refused, and nothing is written; a folder is never replaced.
    QVERIFY(!exportAttribution(dir.filePath(QStringLiteral("why.txt")), &view, &error));
    QVERIFY2(error.contains(QLatin1String(".json")), qPrintable(error));
    QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("why.txt"))));
    QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("folder.json")));
    QVERIFY(!exportAttribution(dir.filePath(QStringLiteral("folder.json")), &view, &error));
    QVERIFY(QFileInfo(dir.filePath(QStringLiteral("folder.json"))).isDir());
}

void TestAttributionView::acrossTheKeptSteps() {
    AttributionHistoryView view;
    QVERIFY(view.summary().contains(QLatin1String("click a character")));
    AttributionHistory h;
    h.chosen = QStringLiteral("c");
    h.steps = {4, 8, 16};
    h.logits = {0.1, 1.0, 3.0};
    const CharacterAttribution parts = handMade(8);  // 10 parts: token, 8 heads, a feed-forward
    h.parts = parts.bars;
    for (int p = 0; p < h.parts.size(); ++p) h.values.append({0.01 * p, 0.0, -0.01 * p});
    h.values[3] = {0.0, 0.5, 2.5};     // L1 H3 switches on
    h.values[9] = {-1.0, -1.0, -1.5};  // the feed-forward: large, and falling
    view.setHistory(h);
    const QVector<int> shown = view.shownParts();
    QCOMPARE(shown.size(), AttributionHistoryView::kLines);
    QCOMPARE(shown[0], 3);
    QCOMPARE(shown[1], 9);
    QVERIFY2(view.summary().contains(QLatin1String("across 3 kept steps, 4 to 16")),
             qPrintable(view.summary()));
    QVERIFY2(view.summary().contains(QLatin1String("L1 H3's share grew most, from 0.00 to 2.50")),
             qPrintable(view.summary()));
    QCOMPARE(view.plot()->graphCount(), 1 + AttributionHistoryView::kLines);  // the logit and the parts

    // A and B: no table until both are marked.
    QVERIFY(view.changes().isEmpty());
    QVERIFY(view.changeTable()->isHidden());
    view.setMarks(std::nullopt, qint64(16));
    QVERIFY(view.changes().isEmpty());
    view.setMarks(qint64(4), qint64(16));
    QVector<AttributionHistoryView::Change> changes = view.changes();
    QCOMPARE(changes.size(), AttributionHistoryView::kChanges);
    QCOMPARE(changes[0].part, 3);  // L1 H3: +2.5
    QCOMPARE(changes[0].difference(), 2.5);
    QCOMPARE(changes[1].part, 9);  // the feed-forward: -0.5
    QCOMPARE(changes[1].a, -1.0);
    QCOMPARE(changes[1].b, -1.5);
    QVERIFY(!view.changeTable()->isHidden());
    QCOMPARE(view.changeTable()->rowCount(), AttributionHistoryView::kChanges);
    QCOMPARE(view.changeTable()->item(0, 3)->text(), QStringLiteral("+2.50"));
    QCOMPARE(view.changeTable()->item(1, 3)->text(), QStringLiteral("-0.50"));
    QVERIFY(view.changeTable()->horizontalHeaderItem(1)->text().contains(QLatin1String("4")));
    // Marks between measured steps: the nearest measured ones are compared, and said.
    view.setMarks(qint64(9), qint64(5));
    QCOMPARE(view.comparedSteps(), std::make_pair(qint64(8), qint64(4)));
    QCOMPARE(view.changes()[0].part, 3);  // B - A = 0.0 - 0.5
    QCOMPARE(view.changes()[0].difference(), -0.5);
    QVERIFY(view.changeTable()->horizontalHeaderItem(2)->text().contains(QLatin1String("4")));

    // While the steps are measured: Stop, and what it asks.
    QSignalSpy stop(&view, &AttributionHistoryView::stopRequested);
    QVERIFY(view.stopButton()->isHidden());
    view.setRunning(true);
    QVERIFY(!view.stopButton()->isHidden());
    QVERIFY(view.summary().contains(QLatin1String("Measuring")));
    QTest::mouseClick(view.stopButton(), Qt::LeftButton);
    QCOMPARE(stop.count(), 1);
    view.setRunning(false);
    QVERIFY(view.stopButton()->isHidden());
    h.steps = {4};
    view.setHistory(h);
    QVERIFY(!view.history().isValid());
    QCOMPARE(view.plot()->graphCount(), 0);
    QVERIFY(view.changeTable()->isHidden());
}

CHARGPT_TEST_MAIN(TestAttributionView)
}  // namespace tst_attributionview
#include "tst_attributionview.moc"
