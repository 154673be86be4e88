// SPDX-License-Identifier: GPL-3.0-or-later
// The window's one timeline with real runs: a step chosen once is the step of
// every view that follows it (the Attention and Surprise tabs, the live
// scores, the loss plot's cursor); a past run opened in the Runs tab after a restart replays
// the weights the run library keeps, the attention shown being that of those
// weights; a damaged snapshot, or one of another architecture, is skipped with
// a message and never shown.
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QSlider>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <optional>

#include <qcustomplot.h>

#include "app/AttentionBridge.h"
#include "app/InspectionController.h"
#include "app/LanguageManager.h"
#include "app/MainWindow.h"
#include "app/RunsController.h"
#include "app/StudioIdentity.h"
#include "model/io/ConfigJson.h"
#include "model/io/WeightsSnapshot.h"
#include "model/record/RunLibrary.h"
#include "model/text/CharTokenizer.h"
#include "widgets/AttentionPage.h"
#include "widgets/LiveScoresView.h"
#include "widgets/LossPlot.h"
#include "widgets/RunsList.h"
#include "widgets/RunsPage.h"
#include "widgets/SurpriseView.h"
#include "widgets/Timeline.h"
#include "widgets/TimelineControls.h"
#include "WindowDriver.h"
#include "TestProgram.h"

namespace tst_timeline_gui {

using namespace window_driver;

// Moves the window's timeline bar to `step`, as a user drags its slider.
void moveTimelineTo(MainWindow& window, qint64 step) {
    const int index = int(window.timeline()->steps().indexOf(step));
    QVERIFY2(index >= 0, qPrintable(QStringLiteral("step %1 is not on the timeline").arg(step)));
    window.timelineControls()->slider()->setValue(index);
}

// The step the loss plot's cursor marks (NaN when it is hidden).
double cursorStep(const MainWindow& window) {
    const QCPItemStraightLine* cursor = window.lossPlot()->stepCursor();
    return cursor->visible() ? cursor->point1->coords().x() : std::nan("");
}

bool sameAttention(const ModelAttention& a, const ModelAttention& b) {
    if (a.layers.size() != b.layers.size() || a.layers.isEmpty())
        return false;
    for (qsizetype l = 0; l < a.layers.size(); ++l) {
        if (a.layers[l].heads.size() != b.layers[l].heads.size())
            return false;
        for (qsizetype h = 0; h < a.layers[l].heads.size(); ++h) {
            const AttentionMatrix& x = a.layers[l].heads[h];
            const AttentionMatrix& y = b.layers[l].heads[h];
            if (x.keyChars != y.keyChars || x.weights.size() != y.weights.size())
                return false;
            for (qsizetype i = 0; i < x.weights.size(); ++i)
                if (!(x.weights[i] == y.weights[i] || (std::isnan(x.weights[i]) && std::isnan(y.weights[i]))))
                    return false;
        }
    }
    return true;
}

class TestTimelineGui : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void aStepChosenOnceIsEveryViewsStep();
    void aPastRunReplaysAfterARestart();

private:
    LanguageManager languages_;
    QTemporaryDir dir_;
};

void TestTimelineGui::initTestCase() {
    initTestApplication(QStringLiteral("tst_timeline_gui"));
    QVERIFY(dir_.isValid());
}

void TestTimelineGui::init() {
    resetSettingsAndLanguage(languages_);
    const QString library = QString::fromStdString(runLibraryPath());
    for (const QString& suffix : {QString(), QStringLiteral("-wal"), QStringLiteral("-shm")})
        QFile::remove(library + suffix);
}

// While and after a run trains, the timeline lists the steps the library
// keeps and the newest; a step chosen on its bar is the step the Attention
// and Surprise tabs, the live scores and the loss plot's cursor show, and
// the right end brings back the model as it is.
void TestTimelineGui::aStepChosenOnceIsEveryViewsStep() {
    MainWindow window(&languages_);
    window.show();
    QVERIFY(waitForCorpus(window));
    window.tabs()->setCurrentWidget(window.attentionPage());
    trainTinyToEnd(window, 30);
    Timeline* timeline = window.timeline();
    QTRY_COMPARE(timeline->chosenStep(), std::optional<qint64>(30));
    QVERIFY(timeline->isLive());
    QVERIFY(timeline->atLiveStep());
    QVERIFY2(timeline->steps().contains(4) && timeline->steps().contains(8), "the run keeps steps 4 and 8");
    QTRY_COMPARE(window.attentionPage()->shownStep(), qint64(30));
    QTRY_COMPARE(cursorStep(window), 30.0);

    for (qint64 step : {qint64(4), qint64(8)}) {
        QSignalSpy attention(window.inspection(), &InspectionController::attentionShown);
        QSignalSpy scores(window.inspection(), &InspectionController::scoresShown);
        moveTimelineTo(window, step);
        QCOMPARE(cursorStep(window), double(step));
        // Answers about the model the views showed before may still arrive
        // first (the round of the run's end); then the step's own.
        QTRY_VERIFY_WITH_TIMEOUT(!attention.isEmpty() && attention.last().first().toLongLong() == step, 20000);
        QTRY_VERIFY_WITH_TIMEOUT(!scores.isEmpty() && scores.last().first().toLongLong() == step, 20000);
        QCOMPARE(window.attentionPage()->shownStep(), step);
        QCOMPARE(window.snapshotStep(), step);
        QVERIFY(window.inspection()->isReplaying());
    }

    // The Surprise tab, shown at step 8, scores its texts with step 8's
    // weights, and follows the timeline from there.
    {
        QSignalSpy surprise(window.inspection(), &InspectionController::surpriseShown);
        window.tabs()->setCurrentWidget(window.surpriseView());
        QVERIFY(surprise.wait(20000));
        QCOMPARE(surprise.last().first().toLongLong(), qint64(8));
        QCOMPARE(window.surpriseView()->shownStep(), qint64(8));
        moveTimelineTo(window, 4);
        QVERIFY(surprise.wait(20000));
        QCOMPARE(surprise.last().first().toLongLong(), qint64(4));
        QCOMPARE(window.surpriseView()->shownStep(), qint64(4));
        QCOMPARE(window.attentionPage()->shownStep(), qint64(4));  // hidden, it follows too
        QCOMPARE(cursorStep(window), 4.0);
    }

    // The right end: the model as it is again, not read from the library.
    moveTimelineTo(window, 30);
    QTRY_VERIFY(!window.inspection()->isReplaying());
    QTRY_COMPARE(window.attentionPage()->shownStep(), qint64(30));
    QCOMPARE(cursorStep(window), 30.0);
}

// A run trained, the window closed and opened again: Open in the Runs tab puts
// the run's kept steps on the timeline, and the attention shown at a step is
// the attention of the weights the library keeps there. A snapshot replaced by
// bytes that are no snapshot, or by another architecture's weights, is skipped
// with a message; the views stay where they were.
void TestTimelineGui::aPastRunReplaysAfterARestart() {
    const QString checkpoint = dir_.filePath(QStringLiteral("past.pt"));
    {
        MainWindow window(&languages_);
        window.show();
        QVERIFY(waitForCorpus(window));
        trainTinyToEnd(window, 30);
        WorkerSpy saved(window.training()->worker(), &TrainingWorker::saved);
        window.saveCheckpointTo(checkpoint);
        while (saved.isEmpty() || saved.last().first().toString() != checkpoint)
            QVERIFY(saved.wait(20000));
    }

    MainWindow window(&languages_);
    window.show();
    QVERIFY(waitForCorpus(window));
    QSignalSpy listed(window.runs(), &RunsController::listed);
    window.tabs()->setCurrentWidget(window.runsPage());
    QVERIFY(listed.wait(10000));
    RunsList* list = window.runsPage()->list();
    QCOMPARE(list->runs().size(), 1);
    const qint64 run = list->runs().first().id;
    list->selectRun(run);
    QTest::mouseClick(list->findChild<QPushButton*>(QStringLiteral("runsOpen")), Qt::LeftButton);
    Timeline* timeline = window.timeline();
    QTRY_VERIFY(!timeline->isLive());
    QCOMPARE(timeline->run(), run);
    QVERIFY(timeline->steps().contains(8));

    window.tabs()->setCurrentWidget(window.attentionPage());
    QTRY_VERIFY(window.inspection()->isReplaying());
    moveTimelineTo(window, 8);
    QTRY_COMPARE(window.attentionPage()->shownStep(), qint64(8));
    QCOMPARE(cursorStep(window), 8.0);

    // What the library keeps at step 8, run here on the probe shown.
    auto library = chargpt::RunLibrary::open(runLibraryPath());
    const std::optional<std::string> bytes = library->snapshot(run, 8);
    QVERIFY(bytes);
    chargpt::Checkpoint kept = chargpt::decodeWeightsSnapshot(*bytes);
    kept.model->eval();
    const AttentionProbe expected = computeAttention(kept, window.attentionPage()->probeText());
    QVERIFY(sameAttention(window.attentionPage()->shownAttention(), expected.attention));

    // Step 4's bytes damaged, step 2's replaced by another architecture's weights.
    std::string damaged = *library->snapshot(run, 4);
    damaged.resize(damaged.size() / 2);
    library->addSnapshot(run, 4, damaged);
    chargpt::RunConfig other = kept.config;
    other.n_layer += 1;
    const chargpt::CharGPT otherModel(other);
    library->addSnapshot(run, 2, chargpt::encodeWeightsSnapshot(other, kept.tokenizer, otherModel, 2));
    for (qint64 step : {qint64(4), qint64(2)}) {
        QSignalSpy failed(window.inspection(), &InspectionController::replayFailed);
        QSignalSpy attention(window.inspection(), &InspectionController::attentionShown);
        moveTimelineTo(window, step);
        QVERIFY(failed.wait(20000));
        QVERIFY2(window.messageText().contains(QStringLiteral("skipped")), qPrintable(window.messageText()));
        QVERIFY2(window.messageText().contains(QStringLiteral("step %1").arg(step)), qPrintable(window.messageText()));
        QVERIFY(attention.isEmpty());
        QCOMPARE(window.attentionPage()->shownStep(), qint64(8));
        QCOMPARE(window.snapshotStep(), qint64(8));
    }
    // A good step after them still replays.
    moveTimelineTo(window, 16);
    QTRY_COMPARE(window.attentionPage()->shownStep(), qint64(16));
}

CHARGPT_TEST_MAIN(TestTimelineGui)
}  // namespace tst_timeline_gui
#include "tst_timeline_gui.moc"
