// SPDX-License-Identifier: GPL-3.0-or-later
// The n-gram floors (model/train/NgramFloors.h) on texts whose answer is
// known: independent characters give ln V at every order; a text that repeats
// gives the information of its first character only; a text where the next
// character follows from the two before it is seen by the 3-gram and not by
// the 2-gram. And what the floors refuse.
#include <QTest>

#include <cmath>
#include <random>
#include <vector>

#include "TestProgram.h"
#include "model/runtime/Error.h"
#include "model/train/LossCurve.h"
#include "model/train/NgramFloors.h"

namespace tst_ngramfloors {

using namespace chargpt;

NgramFloors floorsOf(const std::vector<uint16_t>& text, int64_t vocabSize) {
    const std::size_t training = text.size() * 9 / 10;
    return ngramFloors(text.data(), training, text.data() + training, text.size() - training, vocabSize);
}

class TestNgramFloors : public QObject {
    Q_OBJECT

private slots:
    void independentCharactersGiveTheUniformLoss() {
        std::mt19937 rng(3);
        std::vector<uint16_t> text(2000000);
        for (uint16_t& t : text) t = uint16_t(rng() % 8);
        const NgramFloors f = floorsOf(text, 8);
        QCOMPARE(int(f.floors.size()), 5);
        for (const NgramFloor& floor : f.floors)
            QVERIFY2(std::abs(floor.loss - std::log(8.0)) < 0.03,
                     qPrintable(QStringLiteral("%1-gram %2").arg(floor.order).arg(floor.loss)));
    }

    void aRepeatingTextIsKnownFromOneCharacterBack() {
        std::vector<uint16_t> text;
        for (int i = 0; i < 30000; ++i) text.push_back(uint16_t(i % 3));
        const NgramFloors f = floorsOf(text, 3);
        QVERIFY2(std::abs(f.floors[0].loss - std::log(3.0)) < 0.01, qPrintable(QString::number(f.floors[0].loss)));
        for (std::size_t n = 1; n < f.floors.size(); ++n)
            QVERIFY2(f.floors[n].loss < 0.01, qPrintable(QString::number(f.floors[n].loss)));
    }

    // The next character is the sum of the two before it (mod 5), one time in
    // ten a random one: one character back tells nothing of it, two tell most.
    void twoCharactersBackAreSeenByTheThreeGram() {
        std::mt19937 rng(5);
        std::vector<uint16_t> text{0, 1};
        while (text.size() < 300000) {
            const uint16_t next = rng() % 10 == 0 ? uint16_t(rng() % 5) : uint16_t((text[text.size() - 1] + text[text.size() - 2]) % 5);
            text.push_back(next);
        }
        const NgramFloors f = floorsOf(text, 5);
        QVERIFY2(f.floors[1].loss > std::log(5.0) - 0.05, qPrintable(QString::number(f.floors[1].loss)));
        // Entropy of "right 90% + a uniform pick 10%": about 0.43 nats.
        QVERIFY2(f.floors[2].loss < 0.5, qPrintable(QString::number(f.floors[2].loss)));
        for (std::size_t n = 1; n < f.floors.size(); ++n)
            QVERIFY(f.floors[n].loss <= f.floors[n - 1].loss + 0.01);
    }

    void refusals() {
        const std::vector<uint16_t> text{0, 1, 2, 9, 1};
        QVERIFY_THROWS_EXCEPTION(Error, ngramFloors(text.data(), 4, text.data() + 4, 1, 5));  // 9 is no id of 5
        QVERIFY_THROWS_EXCEPTION(Error, ngramFloors(text.data(), 1, text.data() + 1, 1, 5));  // too short
        // A vocabulary of 65,536 ids (16 bits each) keeps four ids a key.
        std::vector<uint16_t> wide(1000);
        for (std::size_t i = 0; i < wide.size(); ++i) wide[i] = uint16_t(i * 7919);
        QCOMPARE(ngramFloors(wide.data(), 900, wide.data() + 900, 100, 65536).maxOrder, 4);
    }

    // Where the loss plot says a run passed a floor (LossPlot's n-gram lines).
    void theFirstStepBelowAFloor() {
        LossCurve curve;
        curve.addEvaluation(0, 0, 0.0, 5.0, 5.0);
        curve.addEvaluation(100, 6400, 1.0, 4.0, std::nan(""));
        curve.addEvaluation(200, 12800, 2.0, 2.4, 2.5);
        curve.addEvaluation(300, 19200, 3.0, 1.7, 1.9);
        QCOMPARE(firstStepBelow(curve.evaluations, 3.0), int64_t(200));
        QCOMPARE(firstStepBelow(curve.evaluations, 2.0), int64_t(300));
        QCOMPARE(firstStepBelow(curve.evaluations, 1.0), int64_t(-1));
    }
};

CHARGPT_TEST_GUILESS_MAIN(TestNgramFloors)
}  // namespace tst_ngramfloors
#include "tst_ngramfloors.moc"
