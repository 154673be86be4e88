// SPDX-License-Identifier: GPL-3.0-or-later
// How the Surprise tab lays its scored text out (SurpriseTextWidget): wide
// characters, newlines and tabs, wrapping to the width, and a layout that
// follows a new text and a new font.
#include "TestProgram.h"

#include <QFont>
#include <QTest>

#include "widgets/AttentionData.h"
#include "widgets/SurpriseTextWidget.h"

namespace tst_surprisetext {

namespace {

// `text` as characters the model knows, none scored: the layout does not
// depend on the bits.
SurpriseText textOf(const QString& text) {
    SurpriseText result;
    result.vocabularySize = 256;
    for (const QString& character : splitCharacters(text)) {
        SurpriseChar c;
        c.character = character;
        result.characters.append(c);
    }
    return result;
}

}  // namespace

class TestSurpriseText : public QObject {
    Q_OBJECT

private slots:
    void layoutWideCharactersAndNewlines();
    void heightFollowsTheTextAndTheFont();
};

void TestSurpriseText::layoutWideCharactersAndNewlines() {
    const SurpriseText text = textOf(QStringLiteral("a<&>\n春b"));
    const QFont font;
    const QVector<QRectF> cells = SurpriseTextWidget::layoutCharacters(text, font, 1000);
    QCOMPARE(cells.size(), text.size());
    // The newline (4) ends its line: 春 (5) starts the next one.
    QCOMPARE(cells[5].left(), 0.0);
    QVERIFY(cells[5].top() > cells[4].top());
    // A CJK character is wider than a Latin one, and no cells overlap on a line.
    QVERIFY(cells[5].width() > cells[6].width());
    for (int i = 1; i < cells.size(); ++i)
        if (cells[i].top() == cells[i - 1].top())
            QVERIFY(cells[i].left() >= cells[i - 1].right() - 1e-9);
    // A narrow width wraps: every cell stays inside it.
    const QVector<QRectF> narrow = SurpriseTextWidget::layoutCharacters(text, font, 40);
    for (const QRectF& cell : narrow)
        QVERIFY(cell.right() <= 40.0 + 1e-9 || cell.left() == 0.0);
    QVERIFY(narrow.constLast().top() > cells.constLast().top());
    // A tab takes the room of several spaces.
    const QVector<QRectF> tabCells = SurpriseTextWidget::layoutCharacters(textOf(QStringLiteral("a\t ")), font, 1000);
    QVERIFY(tabCells[1].width() > 3 * tabCells[2].width() - 1);
}

void TestSurpriseText::heightFollowsTheTextAndTheFont() {
    SurpriseTextWidget widget;
    widget.resize(200, 100);
    const SurpriseText one = textOf(QStringLiteral("a<&>\n春b"));
    widget.setText(one);
    const int short1 = widget.heightForWidth(200);
    QCOMPARE(widget.heightForWidth(200), short1);  // asked again: the same answer
    QVERIFY(widget.heightForWidth(60) > short1);   // narrower: more lines
    // A longer text at the same width takes more lines.
    SurpriseText longer = one;
    for (int i = 0; i < 6; ++i)
        longer.characters += one.characters;
    widget.setText(longer);
    const int long1 = widget.heightForWidth(200);
    QVERIFY(long1 > short1);
    QCOMPARE(widget.characterRect(longer.size() - 1),
             SurpriseTextWidget::layoutCharacters(longer, widget.font(), 200).constLast());
    // A larger font: larger cells, laid out again.
    QFont big = widget.font();
    big.setPointSizeF(big.pointSizeF() * 2);
    widget.setFont(big);
    QVERIFY(widget.heightForWidth(200) > long1);
    QCOMPARE(widget.characterRect(0).height(), SurpriseTextWidget::layoutCharacters(longer, big, 200).constFirst().height());
}

CHARGPT_TEST_MAIN(TestSurpriseText)
}  // namespace tst_surprisetext
#include "tst_surprisetext.moc"
