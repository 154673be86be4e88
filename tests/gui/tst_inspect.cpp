// SPDX-License-Identifier: GPL-3.0-or-later
// The Attention, Softmax lab and Generate tabs of the whole window, offscreen,
// fed by snapshots of a model that really trains on the worker thread.
#include <QApplication>
#include <QComboBox>
#include <QElapsedTimer>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <cmath>

#include "widgets/AttentionGrid.h"
#include "widgets/AttentionPage.h"
#include "widgets/GenerationView.h"
#include "widgets/LogitLensView.h"
#include "app/LanguageManager.h"
#include "widgets/LiveScoresView.h"
#include "app/InspectWorker.h"
#include "app/InspectionController.h"
#include "app/MainWindow.h"
#include "app/TrainingController.h"
#include "model/runtime/Runtime.h"
#include "model/text/BuiltinCorpora.h"
#include "widgets/SettingsPanel.h"
#include "widgets/Timeline.h"
#include "widgets/TimelineControls.h"
#include "widgets/TrainingPanel.h"
#include "WindowDriver.h"
#include "TestProgram.h"

namespace tst_inspect {

using namespace window_driver;

namespace {

// Trains the tiny preset up to `maxSteps` steps in all and waits for the end of
// the run and for the attention of the final weights.
void trainTinyTo(MainWindow& window, int maxSteps) {
    QSignalSpy shown(window.inspection(), &InspectionController::attentionShown);
    trainTinyToEnd(window, maxSteps);
    if (QTest::currentTestFailed())
        return;
    const qint64 finalStep = window.modelInfo().step;
    while (window.attentionPage()->shownStep() != finalStep)
        QVERIFY2(shown.wait(20000), "no attention of the final weights arrived");
}

float largestDifference(const ModelAttention& a, const ModelAttention& b) {
    float largest = 0.0f;
    for (int l = 0; l < std::min(a.layers.size(), b.layers.size()); ++l)
        for (int h = 0; h < std::min(a.layers[l].heads.size(), b.layers[l].heads.size()); ++h) {
            const QVector<float>& x = a.layers[l].heads[h].weights;
            const QVector<float>& y = b.layers[l].heads[h].weights;
            for (int i = 0; i < std::min(x.size(), y.size()); ++i)
                if (!std::isnan(x[i]) && !std::isnan(y[i]))
                    largest = std::max(largest, std::abs(x[i] - y[i]));
        }
    return largest;
}

}  // namespace

class TestInspect : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void attentionFollowsTraining();
    void liveScoresAreMaskedAboveTheDiagonal();
    void generationStreamsAndStops();
    void stepModeShowsCandidatesAndAttention();
    void openedCheckpointShowsAttention();
    void generatesWhileTrainingIsPaused();

private:
    LanguageManager languages_;
};

void TestInspect::initTestCase() { initTestApplication(QStringLiteral("tst_inspect")); }

void TestInspect::init() { resetSettingsAndLanguage(languages_); }

void TestInspect::attentionFollowsTraining() {
    MainWindow window(&languages_);
    window.show();
    QVERIFY(waitForCorpus(window));
    QVERIFY(!window.attentionPage()->probeText().isEmpty());  // a line of the corpus
    trainTinyTo(window, 20);
    const ModelAttention before = window.attentionPage()->shownAttention();
    const std::optional<qint64> stepBefore = window.attentionPage()->shownStep();
    QCOMPARE(stepBefore, 20);
    QCOMPARE(before.layers.size(), 2);
    QCOMPARE(before.headCount(), 4);
    QCOMPARE(window.attentionPage()->grid()->layer().heads.size(), 4);

    // More steps on the same model: the heatmaps follow it while it trains,
    // and the GUI thread stays responsive meanwhile.
    QElapsedTimer clock;
    clock.start();
    qint64 lastTick = 0, longestGap = 0;
    QTimer heartbeat;
    heartbeat.setInterval(10);
    connect(&heartbeat, &QTimer::timeout, this, [&] {
        longestGap = std::max(longestGap, clock.elapsed() - lastTick);
        lastTick = clock.elapsed();
    });
    heartbeat.start();
    QSignalSpy shownWhileTraining(window.inspection(), &InspectionController::attentionShown);
    int liveUpdates = 0;
    connect(window.inspection(), &InspectionController::attentionShown, this, [&] { liveUpdates += window.isTraining() ? 1 : 0; });
    trainTinyTo(window, 400);  // evaluations every 50 steps refresh the views
    heartbeat.stop();
    const ModelAttention after = window.attentionPage()->shownAttention();
    QCOMPARE(window.attentionPage()->shownStep(), 400);
    QVERIFY2(largestDifference(before, after) > 0.01f, "the attention did not change with training");
    QVERIFY2(liveUpdates >= 1, "no attention arrived while training");
    QVERIFY2(longestGap < 1000, qPrintable(QStringLiteral("the window froze for %1 ms").arg(longestGap)));

    // The window's timeline replays the run from the oldest step it keeps,
    // then the right end brings back the model as it is.
    const Timeline* timeline = window.timeline();
    QVERIFY(timeline->steps().size() >= 3);
    const qint64 oldest = timeline->steps().first();
    QVERIFY(oldest < 400);
    QSlider* slider = window.timelineControls()->slider();
    QVERIFY(slider->isEnabled());
    slider->setValue(0);
    QTRY_COMPARE_WITH_TIMEOUT(window.attentionPage()->shownStep(), oldest, 20000);
    QVERIFY2(largestDifference(window.attentionPage()->shownAttention(), after) > 0.01f,
             "the oldest step shows the attention of the newest");
    slider->setValue(slider->maximum());
    QTRY_COMPARE_WITH_TIMEOUT(window.attentionPage()->shownStep(), qint64(400), 20000);
    QVERIFY(largestDifference(window.attentionPage()->shownAttention(), after) < 1e-6f);
}

void TestInspect::liveScoresAreMaskedAboveTheDiagonal() {
    MainWindow window(&languages_);
    window.show();
    QVERIFY(waitForCorpus(window));
    QSignalSpy scoresShown(window.inspection(), &InspectionController::scoresShown);
    window.attentionPage()->setProbeText(QStringLiteral("床前明月光，疑是地上霜。\n举头望明月，低头思故乡。"));
    trainTinyTo(window, 50);
    LiveScoresView* view = window.liveScores();
    QSignalSpy requested(view, &LiveScoresView::scoresRequested);
    view->setHead(1, 3);
    QCOMPARE(requested.count(), 1);
    while (view->scores().layer != 1 || view->scores().head != 3)
        QVERIFY2(scoresShown.wait(20000), "no scores arrived");
    const HeadScores& scores = view->scores();
    const int t = scores.size();
    QCOMPARE(t, 16);  // the tiny model's context: the probe is longer and cropped
    QCOMPARE(scores.scaled.size(), t * t);
    QCOMPARE(scores.masked.size(), t * t);
    for (int r = 0; r < t; ++r)
        for (int c = 0; c < t; ++c) {
            const float v = scores.masked[r * t + c];
            if (c > r)
                QVERIFY2(std::isinf(v) && v < 0, "a future key is not masked");
            else
                QCOMPARE(v, scores.scaled[r * t + c]);
            QVERIFY(std::isfinite(scores.scaled[r * t + c]));
        }
    QVERIFY(scores.scaledStd > 0.0);
    // Dividing by sqrt(H) = sqrt(8) shrinks the spread by exactly that.
    QVERIFY(std::abs(scores.unscaledStd / scores.scaledStd - std::sqrt(8.0)) < 1e-3);
    QCOMPARE(view->maskedTable()->model()->rowCount(), t);
    QCOMPARE(view->maskedTable()->model()->index(0, 1).data().toString(), QStringLiteral("-inf"));
    QVERIFY(view->scaledTable()->model()->index(0, 1).data().toString() != QStringLiteral("-inf"));
}

void TestInspect::generationStreamsAndStops() {
    MainWindow window(&languages_);
    window.show();
    QVERIFY(waitForCorpus(window));
    GenerationView* view = window.generationView();

    // Without a model: a message, not a crash.
    QSignalSpy ended(window.inspection(), &InspectionController::generationEnded);
    QTest::mouseClick(view->generateButton(), Qt::LeftButton);
    QCOMPARE(ended.count(), 1);
    QVERIFY(!view->isRunning());

    trainTinyTo(window, 60);
    WorkerSpy characters(window.inspection()->inspector(), &InspectWorker::samplesGenerated);
    GenerationOptions options = view->options();
    options.prompt = QStringLiteral("春风");
    options.length = 40;
    view->setOptions(options);
    ended.clear();
    QTest::mouseClick(view->generateButton(), Qt::LeftButton);
    QVERIFY(view->isRunning());
    QVERIFY2(ended.wait(20000), "generation did not end");
    QCOMPARE(ended.first().first().value<GenerationEnd>(), GenerationEnd::Finished);
    QVERIFY(!view->isRunning());
    QVERIFY(characters.count() >= 1);
    QVERIFY(characters.count() <= 40);
    // One signal per character of the one sample, each one character.
    QCOMPARE(characters.count(), splitCharacters(view->generatedText()).size());
    for (const QList<QVariant>& arguments : characters) {
        QCOMPARE(arguments.at(0).value<QVector<int>>(), QVector<int>{1});
        QCOMPARE(arguments.at(1).toStringList().size(), 1);
        QCOMPARE(splitCharacters(arguments.at(1).toStringList().first()).size(), 1);
    }
    QVERIFY(view->outputText().startsWith(QStringLiteral("春风")));
    // The model trained on the loaded corpus: its copies are marked, each a
    // run of the corpus (the training part is its beginning), and the share
    // is theirs.
    {
        const CopiedSpans copies = view->copies();
        QVERIFY2(std::isfinite(copies.share), "no copies were looked for");
        const QString corpus = QString::fromStdString(chargpt::builtinCorpusText("builtin:tang300"));
        const QStringList generated = splitCharacters(view->generatedText());
        int copied = 0;
        for (int i = 0; i < copies.starts.size(); ++i) {
            QVERIFY(copies.lengths[i] >= 8);
            const QString span = generated.mid(copies.starts[i], copies.lengths[i]).join(QString());
            QVERIFY2(corpus.contains(span), qPrintable(span));
            copied += copies.lengths[i];
        }
        QCOMPARE(copies.share, double(copied) / double(generated.size()));
        QVERIFY(view->copiesLine().startsWith(QStringLiteral("copied: ")));
        QCOMPARE(view->copyMarks().size(), copies.starts.size());
    }

    // A long generation stops on Stop, long before its length.
    options.length = 100000;
    view->setOptions(options);
    characters.clear();
    ended.clear();
    QTest::mouseClick(view->generateButton(), Qt::LeftButton);
    QVERIFY(characters.wait(20000));
    QTest::mouseClick(view->stopButton(), Qt::LeftButton);
    QVERIFY2(ended.wait(20000), "generation did not stop");
    QCOMPARE(ended.first().first().value<GenerationEnd>(), GenerationEnd::Stopped);
    const int stoppedAt = characters.count();
    QVERIFY(stoppedAt < 100000);
    QTest::qWait(100);
    QCOMPARE(characters.count(), stoppedAt);  // nothing after the end
    QCOMPARE(characters.count(), splitCharacters(view->generatedText()).size());

    // Unknown prompt characters are reported with their positions.
    options.prompt = QStringLiteral("春☃风");
    options.length = 3;
    view->setOptions(options);
    ended.clear();
    QTest::mouseClick(view->generateButton(), Qt::LeftButton);
    QVERIFY(ended.wait(20000));
    QCOMPARE(view->unknownCharacters(), QVector<int>{1});
}

void TestInspect::stepModeShowsCandidatesAndAttention() {
    MainWindow window(&languages_);
    window.show();
    QVERIFY(waitForCorpus(window));
    trainTinyTo(window, 60);
    GenerationView* view = window.generationView();
    GenerationOptions options = view->options();
    options.prompt = QStringLiteral("春");
    view->setOptions(options);
    QSignalSpy stepped(window.inspection(), &InspectionController::stepShown);
    for (int i = 0; i < 3; ++i) {
        QTest::mouseClick(view->stepButton(), Qt::LeftButton);
        QVERIFY2(stepped.wait(20000), "no step arrived");
    }
    QCOMPARE(stepped.count(), 3);
    QCOMPARE(splitCharacters(view->generatedText()).size(), 3);
    // Copies are looked for after each step: 3 characters, none copied.
    QTRY_COMPARE(view->copies().share, 0.0);
    QCOMPARE(view->outputText(), QStringLiteral("春") + view->generatedText());
    // After each block: the lens of the last step reads the text before the
    // newest character, and its last column has that character as the true
    // next one, ranked at every layer.
    const LogitLens& lens = view->lensView()->lens();
    QVERIFY(lens.isValid());
    QCOMPARE(lens.layerCount(), int(window.modelInfo().settings.n_layer) + 1);
    const QStringList shown = splitCharacters(view->outputText());
    QCOMPARE(lens.characters, shown.mid(0, shown.size() - 1));
    for (int layer = 0; layer < lens.layerCount(); ++layer)
        QVERIFY(lens.cell(layer, lens.positionCount() - 1).trueRank >= 1);
    QCOMPARE(lens.nextCharacter(lens.positionCount() - 1), shown.constLast());
}

// Without training: the model of a checkpoint fills the views.
void TestInspect::openedCheckpointShowsAttention() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("tiny.pt"));
    {
        MainWindow window(&languages_);
        QVERIFY(waitForCorpus(window));
        trainTinyTo(window, 30);
        WorkerSpy saved(window.training()->worker(), &TrainingWorker::saved);
        window.saveCheckpointTo(path);
        QVERIFY(saved.wait(20000));
    }
    MainWindow window(&languages_);
    QVERIFY(waitForCorpus(window));
    QVERIFY(!window.attentionPage()->shownStep());
    QSignalSpy shown(window.inspection(), &InspectionController::attentionShown);
    window.openCheckpoint(path);
    while (window.attentionPage()->shownStep() != 30)
        QVERIFY2(shown.wait(20000), "no attention of the opened checkpoint");
    QCOMPARE(window.attentionPage()->shownAttention().layers.size(), 2);
    QVERIFY(window.hasFrozenModel());
    QCOMPARE(window.frozenStep(), 30);
    // Nothing says on which text the checkpoint trained: no copies are claimed.
    GenerationView* view = window.generationView();
    GenerationOptions options = view->options();
    options.length = 20;
    view->setOptions(options);
    QSignalSpy ended(window.inspection(), &InspectionController::generationEnded);
    QTest::mouseClick(view->generateButton(), Qt::LeftButton);
    QVERIFY2(ended.wait(20000), "generation did not end");
    QVERIFY(!view->generatedText().isEmpty());
    QVERIFY(std::isnan(view->copies().share));
    QVERIFY(view->copiesLine().isEmpty());
}

// Pausing hands the views the weights training stopped on; generation runs on
// them while the run waits, and the run goes on afterwards.
void TestInspect::generatesWhileTrainingIsPaused() {
    MainWindow window(&languages_);
    QVERIFY(waitForCorpus(window));
    choosePreset(window, QStringLiteral("tiny"));
    setSpin(window, QStringLiteral("max_steps"), 1000000);
    WorkerSpy progress(window.training()->worker(), &TrainingWorker::progress);
    QSignalSpy ended(window.training(), &TrainingController::trainingFinished);
    QTest::mouseClick(window.trainingPanel()->startButton(), Qt::LeftButton);
    QVERIFY(progress.wait(20000));
    QSignalSpy snapshots(window.inspection(), &InspectionController::frozenModelArrived);
    QTest::mouseClick(window.trainingPanel()->pauseButton(), Qt::LeftButton);
    QVERIFY2(snapshots.wait(20000), "no snapshot when training paused");
    QVERIFY(window.isTraining());

    GenerationView* view = window.generationView();
    GenerationOptions options = view->options();
    options.length = 20;
    view->setOptions(options);
    QSignalSpy generated(window.inspection(), &InspectionController::generationEnded);
    QTest::mouseClick(view->generateButton(), Qt::LeftButton);
    QVERIFY(generated.wait(20000));
    QCOMPARE(generated.first().first().value<GenerationEnd>(), GenerationEnd::Finished);
    QVERIFY(!view->generatedText().isEmpty());
    QVERIFY(window.isTraining());  // still paused, not ended
    QCOMPARE(ended.count(), 0);

    QTest::mouseClick(window.trainingPanel()->stopButton(), Qt::LeftButton);
    QVERIFY(ended.wait(20000));
}

CHARGPT_TEST_MAIN(TestInspect)
}  // namespace tst_inspect
#include "tst_inspect.moc"
