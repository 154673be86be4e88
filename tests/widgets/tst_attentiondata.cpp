// SPDX-License-Identifier: GPL-3.0-or-later
// Summary figures of attention heads on hand-made matrices.
#include "widgets/AttentionData.h"

#include "TestProgram.h"

#include <cmath>

namespace tst_attentiondata {

namespace {

// Every row puts all its weight on one key chosen by `keyOf(position)`.
template <typename KeyOf>
AttentionMatrix oneKeyHead(const QStringList& characters, KeyOf keyOf) {
    const int n = int(characters.size());
    QVector<float> weights(n * n, 0.0f);
    for (int i = 0; i < n; ++i)
        weights[i * n + keyOf(i)] = 1.0f;
    return AttentionMatrix::causal(characters, weights);
}

AttentionMatrix uniformAttention(int n) {
    QStringList characters;
    for (int i = 0; i < n; ++i)
        characters.append(QStringLiteral("a"));
    QVector<float> weights(n * n, 0.0f);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j <= i; ++j)
            weights[i * n + j] = 1.0f / float(i + 1);
    return AttentionMatrix::causal(characters, weights);
}

}  // namespace

class TestAttentionData : public QObject {
    Q_OBJECT

private slots:
    void causalMatrixMasksTheFuture();
    void previousTokenHead();
    void changeBetweenTwoSnapshots();
    void lineStartHead();
    void uniformRows_data();
    void uniformRows();
    void oneRowOfTheNewestCharacter();
    void displayCharacters_data();
    void displayCharacters();
    void splitKeepsChineseAndSurrogatePairs();
};

void TestAttentionData::causalMatrixMasksTheFuture() {
    const AttentionMatrix matrix = uniformAttention(4);
    QVERIFY(matrix.isValid());
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
            QCOMPARE(matrix.isMasked(i, j), j > i);
}

void TestAttentionData::previousTokenHead() {
    const QStringList text = splitCharacters(QStringLiteral("床前明月光\n疑是地上霜"));
    const HeadSummary summary =
        summarizeHead(oneKeyHead(text, [](int i) { return std::max(0, i - 1); }));
    QCOMPARE(summary.previousTokenShare, 1.0);
    QCOMPARE(summary.entropy, 0.0);
    QCOMPARE(summary.meanDistance, 1.0);
}

// The mean total variation distance of the rows after the first: 0 for the
// same weights, 1 when every row's weight went to other keys, in between for
// half of it; NaN for matrices of different texts.
void TestAttentionData::changeBetweenTwoSnapshots() {
    const QStringList text = splitCharacters(QStringLiteral("abcdef"));
    const AttentionMatrix previous = oneKeyHead(text, [](int i) { return std::max(0, i - 1); });
    const AttentionMatrix first = oneKeyHead(text, [](int) { return 0; });
    QCOMPARE(attentionChange(previous, previous), 0.0);
    // Row 1 attends to key 0 in both; rows 2..5 moved all their weight.
    QCOMPARE(attentionChange(previous, first), 4.0 / 5.0);
    QCOMPARE(attentionChange(first, previous), 4.0 / 5.0);
    QCOMPARE(attentionChange(uniformAttention(6), uniformAttention(6)), 0.0);
    // Against even attention over the same text: row i moved 1 - 1/(i + 1).
    AttentionMatrix even = uniformAttention(6);
    even.queryChars = even.keyChars = text;
    const double expected = (1.0 / 2 + 2.0 / 3 + 3.0 / 4 + 4.0 / 5 + 5.0 / 6) / 5.0;
    QVERIFY(std::abs(attentionChange(previous, even) - expected) < 1e-6);
    QVERIFY(std::isnan(attentionChange(previous, oneKeyHead(splitCharacters(QStringLiteral("abcdeX")),
                                                              [](int i) { return std::max(0, i - 1); }))));
    QVERIFY(std::isnan(attentionChange(previous, uniformAttention(4))));
}

void TestAttentionData::lineStartHead() {
    const QStringList text = splitCharacters(QStringLiteral("ab c\nxyz\n12"));
    // Line starts: 0 for "ab c\n" (positions 0..4), 5 for "xyz\n", 9 for "12".
    auto lineStart = [](int i) { return i < 5 ? 0 : (i < 9 ? 5 : 9); };
    const HeadSummary summary = summarizeHead(oneKeyHead(text, lineStart));
    QCOMPARE(summary.lineStartShare, 1.0);
    QVERIFY(summary.previousTokenShare < 0.5);

    const HeadSummary previous =
        summarizeHead(oneKeyHead(text, [](int i) { return std::max(0, i - 1); }));
    QVERIFY(previous.lineStartShare < 0.5);
}

void TestAttentionData::uniformRows_data() {
    QTest::addColumn<int>("size");
    QTest::newRow("1") << 1;
    QTest::newRow("4") << 4;
    QTest::newRow("24") << 24;
    QTest::newRow("64") << 64;
}

void TestAttentionData::uniformRows() {
    QFETCH(int, size);
    // Row i spreads 1/(i+1) over keys 0..i: entropy ln(i+1), distance i/2. Row 0
    // has no choice and is left out of the means.
    double expectedEntropy = 0.0, expectedDistance = 0.0;
    for (int i = 1; i < size; ++i) {
        expectedEntropy += std::log(double(i + 1));
        expectedDistance += i / 2.0;
    }
    if (size > 1) {
        expectedEntropy /= size - 1;
        expectedDistance /= size - 1;
    }
    const HeadSummary summary = summarizeHead(uniformAttention(size));
    QVERIFY2(std::abs(summary.entropy - expectedEntropy) < 1e-5,
             qPrintable(QString::number(summary.entropy)));
    QVERIFY(std::abs(summary.meanDistance - expectedDistance) < 1e-4);
}

void TestAttentionData::oneRowOfTheNewestCharacter() {
    AttentionMatrix row;
    row.keyChars = splitCharacters(QStringLiteral("abcd"));
    row.queryChars = QStringList{QStringLiteral("d")};
    row.firstQueryPosition = 3;
    row.weights = {0.1f, 0.1f, 0.7f, 0.1f};
    row.applyCausalMask();
    QVERIFY(!row.isMasked(0, 3));
    const HeadSummary summary = summarizeHead(row);
    QVERIFY(std::abs(summary.previousTokenShare - 0.7) < 1e-6);
    QVERIFY(std::abs(summary.meanDistance - (0.3 + 0.2 + 0.7)) < 1e-6);
}

void TestAttentionData::displayCharacters_data() {
    QTest::addColumn<QString>("character");
    QTest::addColumn<QString>("shown");
    QTest::newRow("newline") << QStringLiteral("\n") << QStringLiteral("\u21B5");
    QTest::newRow("space") << QStringLiteral(" ") << QStringLiteral("\u2423");
    QTest::newRow("end of text") << QStringLiteral("<|e|>") << QStringLiteral("\u2205");
    QTest::newRow("chinese") << QStringLiteral("月") << QStringLiteral("月");
    QTest::newRow("letter") << QStringLiteral("x") << QStringLiteral("x");
}

void TestAttentionData::displayCharacters() {
    QFETCH(QString, character);
    QFETCH(QString, shown);
    QCOMPARE(displayCharacter(character), shown);
}

void TestAttentionData::splitKeepsChineseAndSurrogatePairs() {
    const QStringList characters = splitCharacters(QStringLiteral("月a\U0001F600"));
    QCOMPARE(characters.size(), 3);
    QCOMPARE(characters[2], QStringLiteral("\U0001F600"));
}

CHARGPT_TEST_GUILESS_MAIN(TestAttentionData)
}  // namespace tst_attentiondata
#include "tst_attentiondata.moc"
