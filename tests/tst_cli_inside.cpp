// SPDX-License-Identifier: GPL-3.0-or-later
// `chargpt ablate` and `chargpt heads`, run as a user runs them: the table of
// every part knocked out, every head's two scores, and the refusals.
//
// This file runs the CLI binary only; it needs no LibTorch header.
#include <QJsonArray>
#include <QJsonObject>
#include "TestProgram.h"

#include <cmath>

#include "CliRun.h"

namespace tst_cli_inside {

using cli_run::describe;
using cli_run::Result;
using cli_run::runCli;
using cli_run::succeeded;
using cli_run::writeFile;

class TestCliInside : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void ablateJson();
    void ablateText();
    void headsJson();
    void refusals();

private:
    QTemporaryDir dir_;
    QString corpus_, model_;
};

// The tiny preset (2 blocks of 4 heads, context 16), 30 steps.
void TestCliInside::initTestCase() {
    QVERIFY2(QFileInfo(QStringLiteral(CHARGPT_CLI)).isExecutable(), CHARGPT_CLI);
    QVERIFY(dir_.isValid());
    QByteArray text;
    for (int i = 0; i < 60; ++i) text += "the quick brown fox jumps over the lazy dog, then naps.\n";
    corpus_ = dir_.filePath("corpus.txt");
    QVERIFY(writeFile(corpus_, text));
    model_ = dir_.filePath("m.pt");
    const Result r = runCli({"train", corpus_, "--preset", "tiny", "--steps", "30", "--out", model_});
    QVERIFY2(succeeded(r), qPrintable(describe(r)));
}

void TestCliInside::ablateJson() {
    const Result r = runCli({"ablate", model_, "--corpus", corpus_, "--json"});
    QVERIFY2(succeeded(r), qPrintable(describe(r)));
    const QJsonObject o = cli_run::lastJsonLine(r.out);
    QCOMPARE(o.value("step").toInt(), 30);
    const double baseline = o.value("baseline_loss").toDouble();
    QVERIFY(std::isfinite(baseline) && baseline > 0.0);
    QVERIFY(o.value("tokens").toInt() > 0);
    const QJsonArray parts = o.value("knocked_out").toArray();
    QCOMPARE(parts.size(), 2 * 4 + 2 + 2);  // every head, every attention, every feed-forward
    int heads = 0;
    double previous = INFINITY;
    for (const QJsonValue& v : parts) {
        const QJsonObject p = v.toObject();
        const double loss = p.value("loss").toDouble(), increase = p.value("increase").toDouble();
        QVERIFY(std::abs(increase - (loss - baseline)) < 1e-3);
        QVERIFY2(increase <= previous, "largest increase first");
        previous = increase;
        if (p.value("part").toString() == QLatin1String("head")) {
            ++heads;
            QVERIFY(p.value("head").toInt() >= 1 && p.value("head").toInt() <= 4);
        }
        QVERIFY(p.value("layer").toInt() >= 1 && p.value("layer").toInt() <= 2);
    }
    QCOMPARE(heads, 8);
}

void TestCliInside::ablateText() {
    const Result r = runCli({"ablate", model_, "--corpus", corpus_});
    QVERIFY2(succeeded(r), qPrintable(describe(r)));
    QVERIFY2(r.out.startsWith(QLatin1String("validation loss ")), qPrintable(r.out));
    for (const char* part : {"L1 H1", "L2 H4", "L1 attention", "L2 feed-forward"})
        QVERIFY2(r.out.contains(QLatin1String(part)), part);
}

void TestCliInside::headsJson() {
    for (const bool withCorpus : {false, true}) {
        QStringList args{"heads", model_, "--json"};
        if (withCorpus) args << "--corpus" << corpus_;
        const Result r = runCli(args);
        QVERIFY2(succeeded(r), qPrintable(describe(r)));
        const QJsonObject o = cli_run::lastJsonLine(r.out);
        QCOMPARE(o.value("step").toInt(), 30);
        const double previousChance = o.value("previous_token_chance").toDouble();
        const double inductionChance = o.value("induction_chance").toDouble();
        QVERIFY(previousChance > 0.0 && previousChance < 1.0);
        QVERIFY(inductionChance > 0.0 && inductionChance < 1.0);
        QCOMPARE(o.value("induction_length").toInt(), 8);  // half the context of 16
        const QJsonArray heads = o.value("heads").toArray();
        QCOMPARE(heads.size(), 8);
        for (const QJsonValue& v : heads) {
            const QJsonObject h = v.toObject();
            for (const char* score : {"previous_token", "induction"}) {
                const double s = h.value(score).toDouble(-1.0);
                QVERIFY2(s >= 0.0 && s <= 1.0, score);
            }
        }
    }
    // The same seed gives the same scores.
    const Result a = runCli({"heads", model_, "--json", "--seed", "7"});
    const Result b = runCli({"heads", model_, "--json", "--seed", "7"});
    QVERIFY(succeeded(a) && succeeded(b));
    QCOMPARE(a.out, b.out);
}

void TestCliInside::refusals() {
    Result r = runCli({"ablate", model_});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains(QLatin1String("--corpus")), qPrintable(r.err));
    r = runCli({"heads", dir_.filePath("missing.pt")});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.startsWith(QLatin1String("chargpt: ")), qPrintable(r.err));
    cli_run::verifyNoStackTrace(r);
    r = runCli({"ablate", model_, "--corpus", dir_.filePath("missing.txt")});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.startsWith(QLatin1String("chargpt: ")), qPrintable(r.err));
}

CHARGPT_TEST_MAIN(TestCliInside)
}  // namespace tst_cli_inside
#include "tst_cli_inside.moc"
