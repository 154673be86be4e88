// SPDX-License-Identifier: GPL-3.0-or-later
// The softmax lab's numbers: the seed's examples of masking and of scaling.
#include "widgets/SoftmaxMath.h"

#include "TestProgram.h"

#include <cmath>

namespace tst_softmaxmath {

using namespace softmax_math;

class TestSoftmaxMath : public QObject {
    Q_OBJECT

private slots:
    void seedExampleWithMinusInfinity();
    void maskedRowsSumToOneWithExactZeros_data();
    void maskedRowsSumToOneWithExactZeros();
    void temperatureFlattensAndSharpens();
    void largeMultiplierIsNearlyOneHot();
    void scoreSpreadAtTheSeedsSizes();
    void scoreSpreadGrowsWithHeadSize();
    void histogramCountsEveryValue();
};

void TestSoftmaxMath::seedExampleWithMinusInfinity() {
    const std::vector<double> weights = softmax({1.0, 2.0, negativeInfinity()});
    QCOMPARE(weights.size(), size_t(3));
    QVERIFY(std::abs(weights[0] - 0.2689) < 1e-4);
    QVERIFY(std::abs(weights[1] - 0.7311) < 1e-4);
    QCOMPARE(weights[2], 0.0);
}

void TestSoftmaxMath::maskedRowsSumToOneWithExactZeros_data() {
    QTest::addColumn<int>("size");
    QTest::addColumn<double>("temperature");
    QTest::newRow("seed 4x4") << 4 << 1.0;
    QTest::newRow("8x8 hot") << 8 << 3.0;
    QTest::newRow("8x8 cold") << 8 << 0.1;
}

void TestSoftmaxMath::maskedRowsSumToOneWithExactZeros() {
    QFETCH(int, size);
    QFETCH(double, temperature);
    const Matrix masked = causallyMasked(randomScores(size, 12046));
    const Matrix weights = rowSoftmax(masked, temperature);
    for (int row = 0; row < size; ++row) {
        double sum = 0.0;
        for (int column = 0; column < size; ++column) {
            if (column > row) {
                QVERIFY(std::isinf(masked.at(row, column)) && masked.at(row, column) < 0);
                QCOMPARE(weights.at(row, column), 0.0);
            } else {
                QVERIFY(std::isfinite(masked.at(row, column)));
                QVERIFY(weights.at(row, column) > 0.0);
            }
            sum += weights.at(row, column);
        }
        QVERIFY(std::abs(sum - 1.0) < 1e-12);
    }
}

void TestSoftmaxMath::temperatureFlattensAndSharpens() {
    const std::vector<double> scores{0.0, 1.0, 2.0};
    const double plain = softmax(scores)[2];
    QVERIFY(softmax(scores, 5.0)[2] < plain);
    QVERIFY(softmax(scores, 0.2)[2] > plain);
}

void TestSoftmaxMath::largeMultiplierIsNearlyOneHot() {
    const std::vector<double> x = randomVector(8, 12046);
    const std::vector<double> sharp = softmax(scaled(x, 1000.0));
    const double largest = *std::max_element(sharp.begin(), sharp.end());
    QVERIFY(largest > 0.999);
    const std::vector<double> plain = softmax(x);
    QVERIFY(*std::max_element(plain.begin(), plain.end()) < 0.9);
}

void TestSoftmaxMath::scoreSpreadAtTheSeedsSizes() {
    const ScoreSpread spread = scoreSpread(32, 100, 10, 12046);
    QCOMPARE(spread.unscaled.size(), size_t(32 * 100 * 100));
    const double rootH = std::sqrt(10.0);
    QVERIFY2(std::abs(spread.unscaledStd - rootH) / rootH < 0.05,
             qPrintable(QString::number(spread.unscaledStd)));
    QVERIFY2(std::abs(spread.scaledStd - 1.0) < 0.05, qPrintable(QString::number(spread.scaledStd)));
    QVERIFY(std::abs(standardDeviation(scaled(spread.unscaled, 1.0 / rootH)) - spread.scaledStd) <
            1e-9);
}

void TestSoftmaxMath::scoreSpreadGrowsWithHeadSize() {
    const ScoreSpread small = scoreSpread(8, 32, 4, 1);
    const ScoreSpread large = scoreSpread(8, 32, 256, 1);
    QVERIFY(std::abs(small.unscaledStd - 2.0) < 0.2);
    QVERIFY(std::abs(large.unscaledStd - 16.0) < 1.6);
    QVERIFY(std::abs(large.scaledStd - 1.0) < 0.1);
}

void TestSoftmaxMath::histogramCountsEveryValue() {
    const std::vector<double> counts = histogram({-10.0, -0.5, 0.1, 0.2, 10.0}, 4, -1.0, 1.0);
    QCOMPARE(counts.size(), size_t(4));
    QCOMPARE(counts[0], 1.0);
    QCOMPARE(counts[1], 1.0);
    QCOMPARE(counts[2], 2.0);
    QCOMPARE(counts[3], 1.0);
}

CHARGPT_TEST_GUILESS_MAIN(TestSoftmaxMath)
}  // namespace tst_softmaxmath
#include "tst_softmaxmath.moc"
