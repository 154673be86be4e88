// SPDX-License-Identifier: GPL-3.0-or-later
// The window's one timeline with real runs: a step chosen once is the step of
// every view that follows it (the Attention, Surprise and Inside tabs, the
// live scores, the loss plot's cursor); a past run opened in the Runs tab
// after a restart replays the weights the run library keeps, the attention and
// the Inside views shown being those of those weights; a damaged snapshot, or
// one of another architecture, is skipped with a message and never shown.
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <optional>

#include <qcustomplot.h>

#include "TestProgram.h"
#include "WindowDriver.h"
#include "app/AttentionBridge.h"
#include "app/FilmstripWorker.h"
#include "app/InsideBridge.h"
#include "app/InspectionController.h"
#include "app/LanguageManager.h"
#include "app/MainWindow.h"
#include "app/RunsController.h"
#include "app/StudioIdentity.h"
#include "model/generate/Filmstrip.h"
#include "model/io/ConfigJson.h"
#include "model/io/KeptWeightsCodec.h"
#include "model/record/RunLibrary.h"
#include "model/text/CharTokenizer.h"
#include "widgets/AttentionGrid.h"
#include "widgets/AttentionPage.h"
#include "widgets/CharacterMapView.h"
#include "widgets/FilmstripPage.h"
#include "widgets/FilmstripView.h"
#include "widgets/HeadRolesView.h"
#include "widgets/InsidePage.h"
#include "widgets/LiveScoresView.h"
#include "widgets/LogitLensView.h"
#include "widgets/LossPlot.h"
#include "widgets/RunsList.h"
#include "widgets/RunsPage.h"
#include "widgets/SurpriseLegend.h"
#include "widgets/SurpriseView.h"
#include "widgets/Timeline.h"
#include "widgets/TimelineControls.h"
#include "widgets/ValueGrid.h"

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

void checkFilmstrip(MainWindow& window, chargpt::RunLibrary& library);

bool near(double a, double b) { return std::abs(a - b) <= 1e-5 * std::max(1.0, std::abs(b)); }

bool nearAll(const QVector<float>& a, const QVector<float>& b) {
    if (a.size() != b.size() || a.isEmpty())
        return false;
    for (qsizetype i = 0; i < a.size(); ++i)
        if (!near(a[i], b[i]))
            return false;
    return true;
}

// The Inside views show `expected`, computed here from the same weights: the
// lens cell by cell, the heads' scores at its step, the characters' map (its
// axes' signs and order are aligned to the frame shown before, so each point
// is compared by its distance from the centre) and the positions' similarity.
void checkInsideShows(const InsidePage& page, const InsideFrame& expected) {
    QCOMPARE(page.shownStep(), expected.step);
    const LogitLens& lens = page.lensView()->lens();
    QVERIFY(expected.lens.isValid());
    QCOMPARE(lens.step, expected.step);
    QCOMPARE(lens.characters, expected.lens.characters);
    QCOMPARE(lens.layers, expected.lens.layers);
    for (qsizetype i = 0; i < lens.cells.size(); ++i) {
        QCOMPARE(lens.cells[i].top, expected.lens.cells[i].top);
        QCOMPARE(lens.cells[i].trueRank, expected.lens.cells[i].trueRank);
        QVERIFY(near(lens.cells[i].topProbability, expected.lens.cells[i].topProbability));
    }
    const HeadRoles& roles = page.headRolesView()->headRoles();
    const int frame = page.headRolesView()->currentFrame();
    QVERIFY(frame >= 0);
    QCOMPARE(roles.frames[frame].step, expected.step);
    QVERIFY(nearAll(roles.frames[frame].previousToken, expected.roles.previousToken));
    QVERIFY(nearAll(roles.frames[frame].induction, expected.roles.induction));
    const CharacterMap& map = page.characterMapView()->map();
    QCOMPARE(map.frames.size(), 1);
    const CharacterMapFrame& shown = map.frames.first();
    QCOMPARE(shown.step, expected.step);
    QCOMPARE(shown.characters, expected.map.characters);
    QCOMPARE(shown.points.size(), expected.map.points.size());
    for (qsizetype i = 0; i < shown.points.size(); ++i)
        QVERIFY(near(std::hypot(shown.points[i].x(), shown.points[i].y()),
                     std::hypot(expected.map.points[i].x(), expected.map.points[i].y())));
    QVERIFY(nearAll(shown.positionSimilarity, expected.map.positionSimilarity));
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

    QTRY_COMPARE_WITH_TIMEOUT(window.insidePage()->shownStep(), qint64(30), 20000);

    for (qint64 step : {qint64(4), qint64(8)}) {
        QSignalSpy attention(window.inspection(), &InspectionController::attentionShown);
        QSignalSpy scores(window.inspection(), &InspectionController::scoresShown);
        QSignalSpy inside(window.inspection(), &InspectionController::insideShown);
        moveTimelineTo(window, step);
        QCOMPARE(cursorStep(window), double(step));
        // Answers about the model the views showed before may still arrive
        // first (the round of the run's end); then the step's own.
        QTRY_VERIFY_WITH_TIMEOUT(!attention.isEmpty() && attention.last().first().toLongLong() == step, 20000);
        QTRY_VERIFY_WITH_TIMEOUT(!scores.isEmpty() && scores.last().first().toLongLong() == step, 20000);
        // The Inside tab, hidden, follows too: every view of it at that step.
        QTRY_VERIFY_WITH_TIMEOUT(!inside.isEmpty() && inside.last().first().toLongLong() == step, 20000);
        QCOMPARE(window.insidePage()->shownStep(), step);
        QCOMPARE(window.insidePage()->lensView()->lens().step, step);
        const HeadRolesView* roles = window.insidePage()->headRolesView();
        QCOMPARE(roles->headRoles().frames[roles->currentFrame()].step, step);
        QCOMPARE(window.insidePage()->characterMapView()->map().frames.constLast().step, step);
        QCOMPARE(window.attentionPage()->shownStep(), step);
        QCOMPARE(window.frozenStep(), step);
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

        // Step 4 marked A, the timeline moved to 8: each character's bits at
        // step 4 beside its bits at step 8, what was learned in between.
        const QVector<SurpriseText> atFour = window.surpriseView()->shownTexts();
        QTest::mouseClick(window.timelineControls()->markButton(), Qt::LeftButton);
        QCOMPARE(window.timeline()->markedStep(), std::optional<qint64>(4));
        moveTimelineTo(window, 8);
        QTRY_VERIFY_WITH_TIMEOUT(window.surpriseView()->shownStep() == 8 &&
                                     window.surpriseView()->shownTexts().first().isComparison(),
                                 20000);
        const QVector<SurpriseText> compared = window.surpriseView()->shownTexts();
        QCOMPARE(compared.first().comparedStep, qint64(4));
        QCOMPARE(compared.first().withoutMeanBits, atFour.first().meanBits);
        int learned = 0;
        for (int i = 0; i < compared.first().size(); ++i) {
            const SurpriseChar& c = compared.first().characters[i];
            QCOMPARE(c.withoutBits, atFour.first().characters[i].bits);
            learned += c.scored() && c.withoutBits > c.bits;
        }
        QVERIFY2(learned > 0, "some character is less surprising at step 8 than at step 4");
        QVERIFY(window.surpriseView()->legend()->isDifference());
        // The Inside tab's head roles: each head's change from step 4 to step 8.
        const HeadRolesView* roles = window.insidePage()->headRolesView();
        QTRY_COMPARE_WITH_TIMEOUT(window.insidePage()->shownStep(), qint64(8), 20000);
        QVERIFY(roles->comparedFrame() >= 0);
        QCOMPARE(roles->headRoles().frames[roles->comparedFrame()].step, qint64(4));
        QVERIFY(roles->heatmap()->data().diverging);
        // The characters' map: where each character was at step 4, in step 8's plane.
        const CharacterMapFrame& map = window.insidePage()->characterMapView()->map().frames.constLast();
        QCOMPARE(map.comparedStep, qint64(4));
        QCOMPARE(map.comparedPoints.size(), map.points.size());
        // The Attention tab: how far each head's attention moved since step 4.
        QTRY_VERIFY_WITH_TIMEOUT(!window.attentionPage()->findChild<AttentionGrid*>()->changes().isEmpty(), 20000);
        QCOMPARE(window.attentionPage()->shownStep(), qint64(8));
        // Cleared: the tab shows step 8 alone again.
        QTest::mouseClick(window.timelineControls()->markButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!window.surpriseView()->shownTexts().first().isComparison(), 20000);
        QCOMPARE(window.surpriseView()->shownStep(), qint64(8));
        QVERIFY(!roles->heatmap()->data().diverging);
    }

    // The right end: the model as it is again, not read from the library. The
    // head roles' lines hold the run's steps shown, the earlier ones too.
    moveTimelineTo(window, 30);
    QTRY_VERIFY(!window.inspection()->isReplaying());
    QTRY_COMPARE(window.attentionPage()->shownStep(), qint64(30));
    QTRY_COMPARE(window.insidePage()->shownStep(), qint64(30));
    QCOMPARE(cursorStep(window), 30.0);
    QVector<qint64> lines;
    for (const HeadRolesFrame& frame : window.insidePage()->headRolesView()->headRoles().frames)
        lines.append(frame.step);
    QVERIFY2(lines.contains(4) && lines.contains(8) && lines.constLast() == 30,
             qPrintable(QStringLiteral("head roles at %1 steps").arg(lines.size())));
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
    WorkerSpy opened(window.training()->worker(), &TrainingWorker::checkpointOpened);
    QTest::mouseClick(list->findChild<QPushButton*>(QStringLiteral("runsOpen")), Qt::LeftButton);
    QVERIFY(opened.wait(20000));  // the run's checkpoint is the model, the window has taken it in
    Timeline* timeline = window.timeline();
    QTRY_VERIFY(!timeline->isLive());
    QCOMPARE(timeline->run(), run);
    QVERIFY(timeline->steps().contains(8));

    window.tabs()->setCurrentWidget(window.attentionPage());
    QTRY_VERIFY(window.inspection()->isReplaying());
    moveTimelineTo(window, 8);
    QTRY_COMPARE(window.attentionPage()->shownStep(), qint64(8));
    QTRY_COMPARE(window.insidePage()->shownStep(), qint64(8));
    QCOMPARE(cursorStep(window), 8.0);

    // What the library keeps at step 8, run here on the probe shown.
    auto library = chargpt::RunLibrary::open(runLibraryPath());
    const std::optional<std::string> bytes = library->keptWeightsBytes(run, 8);
    QVERIFY(bytes);
    chargpt::Checkpoint kept = chargpt::decodeKeptWeights(*bytes);
    kept.model->eval();
    const AttentionProbe expected = computeAttention(kept, window.attentionPage()->probeText());
    QVERIFY(sameAttention(window.attentionPage()->shownAttention(), expected.attention));
    // The Inside views, on the probe and the corpus's validation sample.
    CharacterMapAlignment alignment;
    const InsideFrame inside = computeInsideFrame(kept, window.attentionPage()->probeText(),
                                                  window.corpusInfo().validationSample, alignment);
    checkInsideShows(*window.insidePage(), inside);
    if (QTest::currentTestFailed())
        return;
    // Its head roles' lines hold this run's kept steps only.
    for (const HeadRolesFrame& frame : window.insidePage()->headRolesView()->headRoles().frames)
        QVERIFY2(timeline->steps().contains(frame.step), qPrintable(QString::number(frame.step)));

    // Step 4's bytes damaged, step 2's replaced by another architecture's weights.
    std::string damaged = *library->keptWeightsBytes(run, 4);
    damaged.resize(damaged.size() / 2);
    library->addKeptWeights(run, 4, damaged);
    chargpt::RunConfig other = kept.config;
    other.n_layer += 1;
    const chargpt::CharGPT otherModel(other);
    library->addKeptWeights(run, 2, chargpt::encodeKeptWeights(other, kept.tokenizer, otherModel, 2));
    for (qint64 step : {qint64(4), qint64(2)}) {
        QSignalSpy failed(window.inspection(), &InspectionController::replayFailed);
        QSignalSpy attention(window.inspection(), &InspectionController::attentionShown);
        moveTimelineTo(window, step);
        QVERIFY(failed.wait(20000));
        QVERIFY2(window.messageText().contains(QStringLiteral("skipped")), qPrintable(window.messageText()));
        QVERIFY2(window.messageText().contains(QStringLiteral("step %1").arg(step)), qPrintable(window.messageText()));
        QVERIFY(attention.isEmpty());
        QCOMPARE(window.attentionPage()->shownStep(), qint64(8));
        QCOMPARE(window.insidePage()->shownStep(), qint64(8));
        QCOMPARE(window.frozenStep(), qint64(8));
    }
    // A good step after them still replays.
    moveTimelineTo(window, 16);
    QTRY_COMPARE(window.attentionPage()->shownStep(), qint64(16));
    QTRY_COMPARE(window.insidePage()->shownStep(), qint64(16));

    // Step 4, whose weights are damaged, as A: the Surprise tab says it cannot
    // compare with it; the map goes on uncompared.
    window.tabs()->setCurrentWidget(window.surpriseView());
    moveTimelineTo(window, 4);
    QVERIFY(window.timeline()->markChosen());
    QSignalSpy insideShown(window.inspection(), &InspectionController::insideShown);
    moveTimelineTo(window, 16);
    QTRY_VERIFY_WITH_TIMEOUT(
        window.surpriseView()->statusLabel()->text().contains(QStringLiteral("cannot compare with step 4")), 20000);
    QTRY_VERIFY_WITH_TIMEOUT(!insideShown.isEmpty() && insideShown.last().first().toLongLong() == 16, 20000);
    QVERIFY(!window.insidePage()->characterMapView()->map().frames.constLast().comparedStep);
    window.timeline()->clearMark();

    checkFilmstrip(window, *library);
}

// The Filmstrip tab samples the run on the timeline at every step it keeps,
// each row what model/generate/Filmstrip gives for the same words (and so
// what `chargpt sample RUN@STEP` prints, tst_cli_filmstrip), the damaged
// steps skipped saying why; a row clicked is every view's step, and the
// timeline's step marks its row. A stopped request gives no rows.
void checkFilmstrip(MainWindow& window, chargpt::RunLibrary& library) {
    QVERIFY(window.timeline()->run());
    const qint64 run = *window.timeline()->run();
    FilmstripPage* page = window.filmstripPage();
    window.tabs()->setCurrentWidget(page);
    QVERIFY(page->sampleButton()->isEnabled());
    const QString prompt = window.corpusInfo().validationSample.left(2);  // characters the model knows
    page->promptEdit()->setText(prompt);
    page->lengthSpin()->setValue(30);
    page->seedSpin()->setValue(3);
    page->temperatureSpin()->setValue(0.9);
    QTest::mouseClick(page->sampleButton(), Qt::LeftButton);
    QVERIFY(page->isSampling());
    QTRY_VERIFY_WITH_TIMEOUT(!page->isSampling(), 60000);

    chargpt::SamplingOptions options;
    options.maxNewChars = 30;
    options.seed = 3;
    options.temperature = 0.9;
    options.candidates = 0;
    const chargpt::Filmstrip expected = chargpt::sampleFilmstrip(library, run, prompt.toStdU32String(), options);
    const FilmstripSamples& shown = page->view()->samples();
    QCOMPARE(shown.run, run);
    QCOMPARE(shown.prompt, prompt);
    QCOMPARE(shown.rows.size(), qsizetype(expected.frames.size()));
    QCOMPARE(page->view()->table()->rowCount(), int(shown.rows.size()));
    for (qsizetype i = 0; i < shown.rows.size(); ++i) {
        const chargpt::FilmstripFrame& frame = expected.frames[size_t(i)];
        QCOMPARE(shown.rows[i].step, frame.step);
        QCOMPARE(shown.rows[i].text, QString::fromStdString(frame.text));
        QCOMPARE(shown.rows[i].sampled(), frame.sampled());
        QCOMPARE(shown.rows[i].sampled(), frame.step != 2 && frame.step != 4);
    }
    QVERIFY(expected.sampledCount() >= 4);
    QVERIFY(page->saveButton()->isEnabled());

    // A row clicked: that step in every view; the timeline's step marks its row.
    int row16 = -1;
    for (int i = 0; i < shown.rows.size(); ++i)
        if (shown.rows[i].step == 16) row16 = i;
    QVERIFY(row16 >= 0);
    moveTimelineTo(window, 8);
    QCOMPARE(page->view()->currentStep(), qint64(8));
    QTableWidget* table = page->view()->table();
    table->scrollToItem(table->item(row16, 0));
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualItemRect(table->item(row16, 0)).center());
    QCOMPARE(window.timeline()->chosenStep(), std::optional<qint64>(16));
    QTRY_COMPARE(window.attentionPage()->shownStep(), qint64(16));

    // A request stopped before the worker begins it gives no rows.
    FilmstripWorker worker;
    QSignalSpy rows(&worker, &FilmstripWorker::rowReady);
    QSignalSpy finished(&worker, &FilmstripWorker::finished);
    worker.stopStrip();
    worker.make(run, FilmstripAsk(), 5);
    QCOMPARE(finished.count(), 1);
    QCOMPARE(finished.first().first().toBool(), true);
    QCOMPARE(rows.count(), 0);
    worker.prepareStrip();  // as the controller does before it queues a request
    worker.make(run, FilmstripAsk(), 6);
    QCOMPARE(finished.count(), 2);
    QCOMPARE(finished.last().first().toBool(), false);
    QCOMPARE(rows.count(), shown.rows.size());
}

CHARGPT_TEST_MAIN(TestTimelineGui)
}  // namespace tst_timeline_gui
#include "tst_timeline_gui.moc"
