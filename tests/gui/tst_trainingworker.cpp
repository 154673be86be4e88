// SPDX-License-Identifier: GPL-3.0-or-later
// TrainingWorker on its own thread, as the window drives it: a model paused at
// step N and saved is stored at step N, with the weights of step N, and no step
// is taken while it stays paused.
#include <torch/torch.h>

#include <QStandardPaths>
#include <QTemporaryDir>
#include <QThread>
#include "TestProgram.h"

#include <optional>

#include "app/ModelBridge.h"
#include "app/TrainingWorker.h"
#include "WindowDriver.h"
#include "model/io/Checkpoint.h"

namespace tst_trainingworker {

class TestTrainingWorker : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void saveWhilePausedKeepsTheStep();
    void aModelIsTrainedOnceItSteppedOrWasImported();

private:
    QTemporaryDir dir_;
};

namespace {

bool sameWeights(const chargpt::CharGPT& a, const chargpt::CharGPT& b) {
    const auto left = a->named_parameters(), right = b->named_parameters();
    if (left.size() != right.size()) return false;
    for (const auto& item : left) {
        const torch::Tensor* other = right.find(item.key());
        if (!other || !torch::equal(item.value().cpu(), other->cpu())) return false;
    }
    return true;
}

}  // namespace

void TestTrainingWorker::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);  // the autosave at the end goes to a test folder
    QVERIFY(dir_.isValid());
    // The worker's signals cross to this thread as they cross to the window's
    // (and ThreadSanitizer is told how QtCore orders them).
    window_driver::initTestThreads();
    qRegisterMetaType<chargpt::RunConfig>();
    qRegisterMetaType<CorpusSummary>();
    qRegisterMetaType<TrainingProgress>();
    qRegisterMetaType<ModelSummary>();
    qRegisterMetaType<FrozenModel>();
}

void TestTrainingWorker::saveWhilePausedKeepsTheStep() {
    QThread thread;
    auto* worker = new TrainingWorker;
    worker->moveToThread(&thread);
    connect(&thread, &QThread::finished, worker, &QObject::deleteLater);
    thread.start();

    // Everything the worker says arrives here, on the test's thread.
    bool corpusLoaded = false;
    int progressCount = 0;
    qint64 lastStep = 0;
    QStringList saved;
    QList<FrozenModel> snapshots;
    std::optional<EndReason> finished;
    connect(
        worker, &TrainingWorker::corpusLoaded, this, [&] { corpusLoaded = true; }, Qt::QueuedConnection);
    connect(
        worker, &TrainingWorker::progress, this,
        [&](const TrainingProgress& u) {
            ++progressCount;
            lastStep = u.step;
        },
        Qt::QueuedConnection);
    connect(
        worker, &TrainingWorker::saved, this, [&](const QString& path) { saved << path; },
        Qt::QueuedConnection);
    connect(
        worker, &TrainingWorker::modelFrozen, this, [&](const FrozenModel& s) { snapshots << s; },
        Qt::QueuedConnection);
    connect(
        worker, &TrainingWorker::trainingFinished, this, [&](EndReason reason) { finished = reason; },
        Qt::QueuedConnection);

    QMetaObject::invokeMethod(worker, [worker] { worker->loadCorpus(QStringLiteral("builtin:tang300")); });
    QTRY_VERIFY_WITH_TIMEOUT(corpusLoaded, 30000);
    chargpt::RunConfig settings = presetSettings(QStringLiteral("tiny"));
    settings.max_steps = 1000000;
    settings.fitEvaluations();  // as the window passes it on (SidePanel::settings)
    QMetaObject::invokeMethod(worker, [worker, settings] { worker->train(settings, /*newModel=*/true); });
    QTRY_VERIFY_WITH_TIMEOUT(lastStep >= 10, 60000);

    worker->pause();
    // Updates on their way arrive; then nothing comes while paused.
    for (int before = -1; before != progressCount + snapshots.size();) {
        before = progressCount + snapshots.size();
        QTest::qWait(500);
    }
    snapshots.clear();
    worker->requestFrozenModel();
    QTRY_VERIFY_WITH_TIMEOUT(!snapshots.isEmpty(), 20000);
    const FrozenModel paused = snapshots.last();
    QVERIFY(!paused.isNull());
    QVERIFY(paused.step >= 10);

    const QString first = dir_.filePath(QStringLiteral("paused.pt"));
    worker->requestSave(first);
    QTRY_VERIFY_WITH_TIMEOUT(saved.contains(first), 20000);
    const chargpt::Checkpoint atPause = chargpt::loadCheckpoint(QFile::encodeName(first).toStdString());
    QCOMPARE(atPause.step, paused.step);
    QCOMPARE(qint64(atPause.history.steps.size()), paused.step);
    QVERIFY2(sameWeights(atPause.model, paused.checkpoint->model),
             "the saved weights are not the paused step's");

    // Still paused a while later: the same step, the same weights, no update.
    const int updates = progressCount;
    QTest::qWait(600);
    const QString second = dir_.filePath(QStringLiteral("later.pt"));
    worker->requestSave(second);
    QTRY_VERIFY_WITH_TIMEOUT(saved.contains(second), 20000);
    const chargpt::Checkpoint later = chargpt::loadCheckpoint(QFile::encodeName(second).toStdString());
    QCOMPARE(later.step, paused.step);
    QVERIFY(sameWeights(later.model, paused.checkpoint->model));
    QCOMPARE(progressCount, updates);

    // Resumed, it trains on from there.
    worker->resume();
    QTRY_VERIFY_WITH_TIMEOUT(lastStep > paused.step, 20000);
    worker->stop();
    QTRY_VERIFY_WITH_TIMEOUT(finished.has_value(), 20000);
    QCOMPARE(runEndName(*finished), runEndName(EndReason::Stopped));
    thread.quit();
    QVERIFY(thread.wait(20000));
}

// The one test of a trained model, which the window (a corpus change asks what
// becomes of it) and the worker (a corpus is read in its vocabulary) share.
void TestTrainingWorker::aModelIsTrainedOnceItSteppedOrWasImported() {
    ModelSummary model;
    QVERIFY(!model.trained());
    model.exists = true;
    QVERIFY(!model.trained());  // new, untrained: a run replaces it
    model.step = 1;
    QVERIFY(model.trained());
    model.step = 0;
    model.imported = true;
    QVERIFY(model.trained());
    model.exists = false;
    QVERIFY(!model.trained());
    QCOMPARE(ModelSummary::isTrained(true, 0, false), false);
    QCOMPARE(ModelSummary::isTrained(true, 5, false), true);
}

CHARGPT_TEST_MAIN(TestTrainingWorker)
}  // namespace tst_trainingworker
#include "tst_trainingworker.moc"
