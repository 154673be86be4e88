// SPDX-License-Identifier: GPL-3.0-or-later
// What a run keeps of its weights within a budget, on simulated runs (the
// recorder's own steps and evaluations, snapshots of a fixed size): spread
// over the whole run however long it is, first, best and newest always kept;
// a budget smaller than one snapshot keeps none and says so; a library out of
// room stops keeping weights, and still keeps every loss and the run's end.
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "model/record/RunLibrary.h"
#include "model/record/RunRecorder.h"
#include "TestProgram.h"

namespace tst_snapshotbudget {

using namespace chargpt;

RunStart simulatedStart() {
    RunStart start;
    start.name = "simulated";
    start.origin = RunOrigin::Cli;
    start.settingsJson = "{\"config\":{}}";
    start.corpusName = "simulated";
    return start;
}

// A run of `steps` steps evaluated every `interval`, its validation loss
// lowest at `bestAt`, recorded by `recorder` (whose snapshots it keeps).
TrainResult simulate(RunRecorder& recorder, int64_t steps, int64_t interval, int64_t bestAt) {
    StepFigures s;
    s.totalSteps = steps;
    auto evaluate = [&] {
        s.valLoss = 2.0 + std::abs(double(s.step - bestAt)) / double(steps);
        s.evalTrainLoss = s.valLoss;
        if (!s.bestStep || s.valLoss < s.bestValLoss) {
            s.bestStep = s.step;
            s.bestValLoss = s.valLoss;
        }
        recorder.evaluation(s);
    };
    evaluate();  // step 0, before the first step
    for (int64_t step = 1; step <= steps; ++step) {
        s.step = step;
        s.tokensSeen = step * 64;
        s.loss = 3.0 - double(step) / double(steps);
        s.elapsedSeconds = double(step) * 1e-3;
        recorder.step(s);
        if (step % interval == 0 || step == steps) evaluate();
    }
    TrainResult result;
    result.last = s;
    return result;
}

class TestSnapshotBudget : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }
    void keptStepsSpanTheWholeRun_data();
    void keptStepsSpanTheWholeRun();
    void aBudgetBelowOneSnapshotSaysSo();
    void aFullLibraryKeepsTheLossesAndTheEnd();

private:
    QTemporaryDir dir_;
};

void TestSnapshotBudget::keptStepsSpanTheWholeRun_data() {
    QTest::addColumn<qint64>("steps");
    QTest::addColumn<qint64>("interval");
    QTest::addColumn<int>("budget");  // in snapshots
    QTest::newRow("100 steps, 4") << qint64(100) << qint64(10) << 4;
    QTest::newRow("1,000 steps, 12") << qint64(1000) << qint64(50) << 12;
    // The tiny preset's 100 s at a budget of about one tenth of its evaluations.
    QTest::newRow("6,500 steps, 10") << qint64(6500) << qint64(120) << 10;
    QTest::newRow("book's 5,000 steps, 13") << qint64(5000) << qint64(250) << 13;
    QTest::newRow("50,000 steps, 13") << qint64(50000) << qint64(250) << 13;
    QTest::newRow("100,000 steps, 20") << qint64(100000) << qint64(500) << 20;
}

// However long the run, the kept steps stay spread over all of it: none of
// the gaps between them on the scale they are spread over is much wider than
// an even spread's, and with ten snapshots or more every fifth of the run (in
// steps) holds one.
void TestSnapshotBudget::keptStepsSpanTheWholeRun() {
    QFETCH(qint64, steps);
    QFETCH(qint64, interval);
    QFETCH(int, budget);
    constexpr int64_t kSize = 1000;
    const std::string path = dir_.filePath(QString::fromUtf8(QTest::currentDataTag()) + ".sqlite").toStdString();
    auto library = std::shared_ptr<RunLibrary>(RunLibrary::open(path));
    const int64_t bestAt = steps * 7 / 10 / interval * interval;
    RunRecorder recorder(library, simulatedStart());
    recorder.keepWeights([](int64_t) { return std::string(kSize, 'w'); }, budget * kSize);
    recorder.finish(simulate(recorder, steps, interval, bestAt));
    QVERIFY2(recorder.problem().empty() && recorder.leftOut().empty(), recorder.problem().c_str());

    std::vector<int64_t> kept;
    for (const KeptWeights& s : library->keptWeights(*recorder.runId())) kept.push_back(s.step);
    QString shown;
    for (const int64_t step : kept) shown += QString::number(step) + QLatin1Char(' ');
    QVERIFY2(int(kept.size()) <= budget && int(kept.size()) >= budget - 1, qPrintable(shown));
    QCOMPARE(kept.front(), int64_t(0));
    QCOMPARE(kept.back(), steps);
    QVERIFY2(std::count(kept.begin(), kept.end(), bestAt) == 1, qPrintable(shown));
    double widest = 0;
    for (std::size_t i = 1; i < kept.size(); ++i)
        widest = std::max(widest, RunRecorder::spreadPosition(kept[i], steps) - RunRecorder::spreadPosition(kept[i - 1], steps));
    QVERIFY2(widest <= 2.5 / double(budget - 1), qPrintable(QStringLiteral("widest gap %1: %2").arg(widest).arg(shown)));
    qInfo("kept: %s", qPrintable(shown));
    for (int fifth = 0; fifth < 5 && budget >= 10; ++fifth) {
        const int64_t from = steps * fifth / 5, to = steps * (fifth + 1) / 5;
        QVERIFY2(std::any_of(kept.begin(), kept.end(), [&](int64_t s) { return s >= from && s <= to; }),
                 qPrintable(QStringLiteral("nothing kept in %1..%2: %3").arg(from).arg(to).arg(shown)));
    }
}

// A snapshot larger than the whole budget: nothing is kept, which is said,
// and the run is recorded all the same.
void TestSnapshotBudget::aBudgetBelowOneSnapshotSaysSo() {
    auto library = std::shared_ptr<RunLibrary>(RunLibrary::open(dir_.filePath("small.sqlite").toStdString()));
    RunRecorder recorder(library, simulatedStart());
    recorder.keepWeights([](int64_t) { return std::string(3 << 20, 'w'); }, int64_t(1) << 20);
    recorder.finish(simulate(recorder, 200, 20, 100));
    QVERIFY(recorder.problem().empty());
    QVERIFY2(recorder.leftOut().find("one snapshot of this model takes 3.0 MiB, more than the budget of 1.0 MiB") !=
                 std::string::npos,
             recorder.leftOut().c_str());
    QVERIFY(library->keptWeights(*recorder.runId()).empty());
    QCOMPARE(library->lossCurve(*recorder.runId()).steps.size(), std::size_t(200));
}

// The library has room for a few snapshots only (as on a nearly full disk):
// when one does not fit, weights stop being kept, what the failed write took
// is given back, and every step's loss, the evaluations and the run's end are
// still recorded, so the run shows as finished, not killed.
void TestSnapshotBudget::aFullLibraryKeepsTheLossesAndTheEnd() {
    const std::string path = dir_.filePath("full.sqlite").toStdString();
    auto library = std::shared_ptr<RunLibrary>(RunLibrary::open(path));
    library->setSizeLimit(int64_t(3) << 20);
    RunRecorder recorder(library, simulatedStart());
    recorder.keepWeights([](int64_t step) { return std::string(700 << 10, char('a' + step % 26)); },
                         int64_t(64) << 20);
    const TrainResult result = simulate(recorder, 3000, 100, 2000);
    recorder.finish(result);
    QVERIFY2(recorder.problem().empty(), recorder.problem().c_str());
    QVERIFY2(recorder.leftOut().find("no longer kept") != std::string::npos &&
                 recorder.leftOut().find("no room") != std::string::npos,
             recorder.leftOut().c_str());
    const auto kept = library->keptWeights(*recorder.runId());
    QVERIFY(!kept.empty() && kept.size() < 6);
    const LossCurve curve = library->lossCurve(*recorder.runId());
    QCOMPARE(curve.steps.size(), std::size_t(3000));
    QCOMPARE(curve.evaluations.size(), std::size_t(31));
    const std::vector<RunRecord> runs = library->runs();
    QCOMPARE(runs.size(), std::size_t(1));
    QCOMPARE(runs.front().endReason, std::optional<EndReason>(EndReason::Finished));
    QCOMPARE(runs.front().figures.step, int64_t(3000));
}

CHARGPT_TEST_MAIN(TestSnapshotBudget)
}  // namespace tst_snapshotbudget
#include "tst_snapshotbudget.moc"
