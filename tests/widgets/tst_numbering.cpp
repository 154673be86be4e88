// SPDX-License-Identifier: GPL-3.0-or-later
// One numbering for layers and heads: every text a person reads counts them
// from 1 (the code, the spin boxes' values and the JSON count from 0). Walks
// the labels of the Attention tab, its large view of a head, its exported
// picture, the softmax lab's live scores, the Generate tab's attention strips
// and the lessons' answers, on hand-made values.
#include <QFile>
#include <QLabel>
#include <QRegularExpression>
#include <QLineEdit>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

#include "widgets/AttentionGrid.h"
#include "widgets/AttentionHeadText.h"
#include "widgets/AttentionPage.h"
#include "widgets/GenerationView.h"
#include "widgets/InsideData.h"
#include "widgets/LessonAnswers.h"
#include "widgets/LiveScoresView.h"
#include "TestProgram.h"

namespace tst_numbering {

namespace {

AttentionMatrix lookingBack(const QStringList& characters, int back) {
    const int n = int(characters.size());
    QVector<float> weights(n * n, 0.0f);
    for (int i = 0; i < n; ++i) weights[i * n + std::max(0, i - back)] = 1.0f;
    return AttentionMatrix::causal(characters, weights);
}

// `layers` layers of `heads` heads; head h looks h characters back.
AttentionProbe probe(int layers, int heads) {
    AttentionProbe p;
    p.text = QStringLiteral("abcdefgh");
    p.modelLayers = layers;
    const QStringList characters = splitCharacters(p.text);
    for (int l = 0; l < layers; ++l) {
        LayerAttention layer;
        for (int h = 0; h < heads; ++h) layer.heads.append(lookingBack(characters, h));
        p.attention.layers.append(layer);
    }
    return p;
}

// A layer or head numbered 0 as a person reads it: "layer 0", "Head 0",
// "L0", "H0", "层 0", "头 0".
const QRegularExpression kCountedFromZero(
    QStringLiteral("(\\b(layer|head)\\s+0\\b)|(\\b[LH]0\\b)|([层头]\\s*0(?![.0-9]))"),
    QRegularExpression::CaseInsensitiveOption);

QString zeroIn(const QStringList& texts) {
    for (const QString& text : texts)
        if (kCountedFromZero.match(text).hasMatch()) return text;
    return QString();
}

QStringList labelTexts(const QWidget* widget) {
    QStringList texts;
    for (const QLabel* label : widget->findChildren<QLabel*>()) texts << label->text() << label->toolTip();
    for (const QSpinBox* spin : widget->findChildren<QSpinBox*>()) texts << QStringLiteral("layer ") + spin->text();
    return texts;
}

}  // namespace

class TestNumbering : public QObject {
    Q_OBJECT

private slots:
    void attentionTabCountsFromOne();
    void headShownLargeAndItsPictureCountFromOne();
    void liveScoresCountFromOne();
    void generateStripsCountFromOne();
    void lessonAnswersCountFromOne();
};

void TestNumbering::attentionTabCountsFromOne() {
    AttentionPage page;
    page.showAttention(probe(2, 3), 10, 1.0);
    QCOMPARE(page.layerSpin()->value(), 0);  // the index, from 0
    QCOMPARE(page.layerSpin()->text(), QStringLiteral("1"));
    QStringList texts = labelTexts(&page);
    QVERIFY2(zeroIn(texts).isEmpty(), qPrintable(zeroIn(texts)));
    QVERIFY2(texts.contains(QStringLiteral("Head 1")), qPrintable(texts.join(QLatin1Char('|'))));
    QVERIFY(texts.contains(QStringLiteral("Head 3")));
    page.setLayer(1);
    QCOMPARE(page.layerSpin()->text(), QStringLiteral("2"));
    // Typing the number shown picks that layer.
    page.layerSpin()->findChild<QLineEdit*>()->selectAll();
    QTest::keyClicks(page.layerSpin(), QStringLiteral("1"));
    QTest::keyClick(page.layerSpin(), Qt::Key_Return);
    QCOMPARE(page.layerSpin()->value(), 0);
    // The overview's tooltips name the heads as the tiles do.
    QCOMPARE(AttentionHeadText::headTitle(0, 2), QStringLiteral("Layer 1 · head 3"));
}

void TestNumbering::headShownLargeAndItsPictureCountFromOne() {
    AttentionGrid grid;
    grid.setLayer(0, probe(1, 2).attention.layers.first());
    grid.showHeadLarge(0);
    auto* dialog = grid.findChild<AttentionHeadDialog*>();
    QVERIFY(dialog);
    QCOMPARE(dialog->windowTitle(), QStringLiteral("Layer 1 · head 1"));
    QVERIFY2(zeroIn(labelTexts(dialog)).isEmpty(), qPrintable(zeroIn(labelTexts(dialog))));
    dialog->close();

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("layer.svg"));
    QString error;
    QVERIFY2(grid.exportTo(path, &error), qPrintable(error));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QString svg = QString::fromUtf8(file.readAll());
    QVERIFY2(svg.contains(QStringLiteral("Attention of layer 1")), qPrintable(svg.left(2000)));
    QVERIFY(svg.contains(QStringLiteral("Head 2")));
    QVERIFY(!svg.contains(QStringLiteral("Head 0")));
    QVERIFY(!svg.contains(QStringLiteral("layer 0")));
}

void TestNumbering::liveScoresCountFromOne() {
    LiveScoresView view;
    view.setModelShape(2, 4);
    HeadScores s;
    s.layer = 0;
    s.head = 0;
    s.headSize = 16;
    s.characters = {QStringLiteral("a"), QStringLiteral("b")};
    s.scaled = {0.0f, 0.0f, 1.0f, 2.0f};
    s.masked = {0.0f, -std::numeric_limits<float>::infinity(), 1.0f, 2.0f};
    view.setScores(s, 64);
    const QStringList texts = labelTexts(&view);
    QVERIFY2(zeroIn(texts).isEmpty(), qPrintable(zeroIn(texts)));
    bool named = false;
    for (const QString& text : texts) named = named || text.contains(QStringLiteral("layer 1, head 1"));
    QVERIFY2(named, qPrintable(texts.join(QLatin1Char('|'))));
}

void TestNumbering::generateStripsCountFromOne() {
    GenerationView view;
    view.setLayerCount(2);
    const AttentionProbe p = probe(1, 3);
    view.showAttentionRows(p.attention.layers.first().heads);
    const QStringList texts = labelTexts(&view);
    QVERIFY2(zeroIn(texts).isEmpty(), qPrintable(zeroIn(texts)));
    QVERIFY(texts.contains(QStringLiteral("H1")));
    QVERIFY(texts.contains(QStringLiteral("H3")));
}

void TestNumbering::lessonAnswersCountFromOne() {
    // Layer 0's head 1 looks one character back: "layer 1, head 2".
    const LessonAnswer head = lesson_answers::previousCharacterHead(probe(1, 3).attention);
    QVERIFY(head.available);
    QVERIFY2(head.text.contains(QStringLiteral("layer 1, head 2")), qPrintable(head.text));
    QVERIFY2(zeroIn({head.text}).isEmpty(), qPrintable(head.text));

    Knockout knockout;
    knockout.baselineLoss = 2.0;
    knockout.layers = 1;
    knockout.heads = 1;
    KnockoutRow row;
    row.kind = KnockoutKind::FeedForward;
    row.layer = 0;
    row.loss = 2.5;
    row.increase = 0.5;
    knockout.rows.append(row);
    const LessonAnswer ff = lesson_answers::feedForwardKnockout(knockout);
    QVERIFY2(ff.text.contains(QStringLiteral("layer 1: 0.500")), qPrintable(ff.text));
    QVERIFY2(zeroIn({ff.text}).isEmpty(), qPrintable(ff.text));
}

CHARGPT_TEST_MAIN(TestNumbering)
}  // namespace tst_numbering
#include "tst_numbering.moc"
