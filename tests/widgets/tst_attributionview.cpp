// SPDX-License-Identifier: GPL-3.0-or-later
// The "why this character?" view (AttributionView) on hand-made values: the
// bars drawn are the parts of largest |logit|, at most kBars of them, named
// as the CLI names them; the characters read are escaped and coloured by the
// sign of their gradient x input; a problem is said instead of the chart;
// and a click on a Surprise pane's character reaches the view's signal with
// its index.
#include "TestProgram.h"

#include <QLabel>
#include <QSignalSpy>
#include <QTest>

#include <cmath>

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
    return a;
}

}  // namespace

class TestAttributionView : public QObject {
    Q_OBJECT

private slots:
    void largestPartsFirst();
    void charactersColouredAndEscaped();
    void problemInsteadOfBars();
    void clickOnACharacter();
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

CHARGPT_TEST_MAIN(TestAttributionView)
}  // namespace tst_attributionview
#include "tst_attributionview.moc"
