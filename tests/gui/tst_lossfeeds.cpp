// SPDX-License-Identifier: GPL-3.0-or-later
// The one loss store fed two ways: from the training worker's progress (what
// the Training tab draws) and from the run library (what the Runs tab draws).
// The same run gives the same points either way, for hand-made snapshots (a
// run and the run that continues it) and for a model trained by the worker.
#include <torch/torch.h>

#include <QFile>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QThread>
#include "TestProgram.h"

#include <cmath>
#include <optional>

#include "app/ModelBridge.h"
#include "app/ProgressFeed.h"
#include "app/StudioIdentity.h"
#include "app/TrainingWorker.h"
#include "WindowDriver.h"
#include "model/record/RunLibrary.h"
#include "model/record/RunRecorder.h"

namespace tst_lossfeeds {

using chargpt::LossCurve;

namespace {

bool same(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }

// Every point of `a` is `b`'s, field by field; the first difference otherwise.
QString difference(const LossCurve& a, const LossCurve& b) {
    if (a.steps.size() != b.steps.size())
        return QStringLiteral("%1 steps against %2").arg(a.steps.size()).arg(b.steps.size());
    if (a.evaluations.size() != b.evaluations.size())
        return QStringLiteral("%1 evaluations against %2").arg(a.evaluations.size()).arg(b.evaluations.size());
    for (std::size_t i = 0; i < a.steps.size(); ++i) {
        const LossCurve::Step &x = a.steps[i], &y = b.steps[i];
        if (x.step != y.step || x.tokens != y.tokens || !same(x.seconds, y.seconds) || !same(x.loss, y.loss) ||
            !same(x.learningRate, y.learningRate))
            return QStringLiteral("step %1: tokens %2/%3, seconds %4/%5, loss %6/%7, rate %8/%9")
                .arg(x.step).arg(x.tokens).arg(y.tokens).arg(x.seconds).arg(y.seconds).arg(x.loss).arg(y.loss)
                .arg(x.learningRate).arg(y.learningRate);
    }
    for (std::size_t i = 0; i < a.evaluations.size(); ++i) {
        const LossCurve::Evaluation &x = a.evaluations[i], &y = b.evaluations[i];
        if (x.step != y.step || x.tokens != y.tokens || !same(x.seconds, y.seconds) ||
            !same(x.trainLoss, y.trainLoss) || !same(x.valLoss, y.valLoss))
            return QStringLiteral("evaluation at %1: tokens %2/%3, seconds %4/%5, losses %6 %7/%8 %9")
                .arg(x.step).arg(x.tokens).arg(y.tokens).arg(x.seconds).arg(y.seconds).arg(x.trainLoss)
                .arg(x.valLoss).arg(y.trainLoss).arg(y.valLoss);
    }
    return QString();
}

chargpt::RunStart someRun(int64_t firstStep) {
    chargpt::RunStart start;
    start.name = "fed twice";
    start.origin = chargpt::RunOrigin::App;
    start.settingsJson = R"({"format":"chargpt-config"})";
    start.corpusName = "builtin:tang300";
    start.firstStep = firstStep;
    return start;
}

// The snapshot after `step`: 192 tokens a step, 13 ms a step.
chargpt::StepFigures snapshotAt(int64_t step, int64_t firstStep) {
    chargpt::StepFigures s;
    s.step = step;
    s.totalSteps = 200;
    s.tokensSeen = 192 * step;
    s.elapsedSeconds = 0.013 * double(step - firstStep);
    s.loss = 4.2 - 0.01 * double(step) + 0.05 * std::sin(double(step));
    s.learningRate = 1e-3 * std::min(1.0, double(step) / 30.0);
    return s;
}

}  // namespace

class TestLossFeeds : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void handMadeRunsGiveTheSamePoints();
    void aTrainedRunGivesTheSamePoints();
};

void TestLossFeeds::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);  // the run library and the autosave go to test folders
    window_driver::initTestThreads();
    qRegisterMetaType<chargpt::RunConfig>();
    qRegisterMetaType<CorpusSummary>();
    qRegisterMetaType<TrainingProgress>();
    qRegisterMetaType<ModelSummary>();
}

// As the worker feeds them: each snapshot to the recorder and to the progress
// feed, evaluations before the first step and every 20 steps, and at the end.
void TestLossFeeds::handMadeRunsGiveTheSamePoints() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    std::shared_ptr<chargpt::RunLibrary> library =
        chargpt::RunLibrary::open(dir.filePath(QStringLiteral("runs.sqlite")).toStdString());
    // A run from step 0 to 57, and one that continues it to 90 (its first
    // evaluation comes before the first step it records).
    for (const auto& [first, last] : {std::pair<int64_t, int64_t>{0, 57}, {57, 90}}) {
        LossCurve progressed;
        ProgressFeed feed(0.0, [&progressed](const TrainingProgress& p) { progressed.append(p.curve); });
        int64_t runId = -1;
        {
            chargpt::RunRecorder recorder(library, someRun(first), /*flushSeconds=*/0.0);
            runId = recorder.runId().value_or(-1);
            const auto evaluate = [&](int64_t step) {
                chargpt::StepFigures s = snapshotAt(step, first);
                s.evalTrainLoss = 3.9 - 0.01 * double(step);
                s.valLoss = 4.0 - 0.009 * double(step);
                recorder.evaluation(s);
                feed.evaluation(s);
            };
            evaluate(first);
            for (int64_t step = first + 1; step <= last; ++step) {
                const chargpt::StepFigures s = snapshotAt(step, first);
                recorder.step(s);
                feed.step(s);
                if (step % 20 == 0 || step == last)
                    evaluate(step);
            }
            chargpt::TrainResult result;
            result.last = snapshotAt(last, first);
            recorder.finish(result);
            feed.finish(result.last);
        }
        QVERIFY(runId >= 0);
        const LossCurve read = library->lossCurve(runId);
        QCOMPARE(read.steps.size(), std::size_t(last - first));
        QVERIFY(read.evaluations.size() >= 3);
        const QString differs = difference(progressed, read);
        QVERIFY2(differs.isEmpty(), qPrintable(differs));
        // The first evaluation's tokens, which the library does not keep, are the run's own.
        QCOMPARE(read.evaluations.front().tokens, 192 * first);
    }
}

// A tiny model trained by the worker: what its progress carried is what the
// run library gives back of it, the losses and the training health alike.
void TestLossFeeds::aTrainedRunGivesTheSamePoints() {
    const std::string path = runLibraryPath();
    QVERIFY(!path.empty());
    for (const char* suffix : {"", "-wal", "-shm"})
        QFile::remove(QString::fromStdString(path + suffix));
    QThread thread;
    auto* worker = new TrainingWorker;
    worker->moveToThread(&thread);
    connect(&thread, &QThread::finished, worker, &QObject::deleteLater);
    thread.start();
    bool corpusLoaded = false;
    std::optional<EndReason> finished;
    LossCurve progressed;
    std::vector<chargpt::HealthFigures> health;
    connect(
        worker, &TrainingWorker::corpusLoaded, this, [&] { corpusLoaded = true; }, Qt::QueuedConnection);
    connect(
        worker, &TrainingWorker::progress, this,
        [&](const TrainingProgress& p) {
            progressed.append(p.curve);
            health.insert(health.end(), p.health.begin(), p.health.end());
        },
        Qt::QueuedConnection);
    connect(
        worker, &TrainingWorker::trainingFinished, this, [&](EndReason reason) { finished = reason; },
        Qt::QueuedConnection);
    QMetaObject::invokeMethod(worker, [worker] { worker->loadCorpus(QStringLiteral("builtin:tang300")); });
    QTRY_VERIFY_WITH_TIMEOUT(corpusLoaded, 30000);
    chargpt::RunConfig settings = presetSettings(QStringLiteral("tiny"));
    settings.max_steps = 45;
    settings.fitEvaluations();  // as the window passes it on (SidePanel::settings)
    QMetaObject::invokeMethod(worker, [worker, settings] { worker->train(settings, /*newModel=*/true); });
    QTRY_VERIFY_WITH_TIMEOUT(finished.has_value(), 120000);
    QCOMPARE(runEndName(*finished), runEndName(EndReason::Finished));
    thread.quit();
    QVERIFY(thread.wait(20000));

    auto library = chargpt::RunLibrary::open(path);
    const std::vector<chargpt::RunRecord> runs = library->runs();
    QCOMPARE(runs.size(), std::size_t(1));
    const LossCurve read = library->lossCurve(runs.front().id);
    QCOMPARE(read.steps.size(), std::size_t(45));
    QVERIFY(read.evaluations.size() >= 2);
    const QString differs = difference(progressed, read);
    QVERIFY2(differs.isEmpty(), qPrintable(differs));

    const std::vector<chargpt::HealthFigures> kept = library->health(runs.front().id);
    QCOMPARE(health.size(), std::size_t(2));  // steps 1 and 25 of 45
    QCOMPARE(kept.size(), health.size());
    for (std::size_t i = 0; i < kept.size(); ++i) {
        QCOMPARE(kept[i].step, health[i].step);
        QCOMPARE(kept[i].layers(), settings.n_layer);
        QVERIFY(kept[i].updateRatio == health[i].updateRatio);
        QVERIFY(kept[i].layerGradNorm == health[i].layerGradNorm);
        QVERIFY(kept[i].headEntropy == health[i].headEntropy);
    }
}

CHARGPT_TEST_MAIN(TestLossFeeds)
}  // namespace tst_lossfeeds
#include "tst_lossfeeds.moc"
