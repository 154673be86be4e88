// SPDX-License-Identifier: GPL-3.0-or-later
// Every rung of the architecture ladder opened in the whole window, offscreen:
// the Attention tab shows one head, several, or says that a bigram model has
// no attention; the Inside tab shows the lens of the layers there are and says
// what it cannot show; the Surprise tab scores; Generate writes and steps. No
// view may fail on a model without some of its parts. And the whole ladder
// trained from the window: each rung recorded and drawn, Start waiting, Stop
// ending it, a text too short for it refused with one message.
#include <torch/torch.h>

#include <QAction>
#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QTableWidget>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include "app/InspectionController.h"
#include "app/LanguageManager.h"
#include "app/MainWindow.h"
#include "app/RunsController.h"
#include "app/StudioIdentity.h"
#include "model/io/Checkpoint.h"
#include "model/record/RunLibrary.h"
#include "model/text/BuiltinCorpora.h"
#include "model/train/Ladder.h"
#include "widgets/AttentionPage.h"
#include "widgets/GenerationView.h"
#include "widgets/InsidePage.h"
#include "widgets/LadderView.h"
#include "widgets/LogitLensView.h"
#include "widgets/RunsList.h"
#include "widgets/RunsPage.h"
#include "widgets/SurpriseView.h"
#include "TestProgram.h"
#include "WindowDriver.h"

namespace tst_ladderwindow {

using namespace window_driver;

namespace {

// Rung `number` made small (width 32, context 16) over the Tang poems'
// vocabulary, the corpus the window opens with, and saved.
bool saveRung(int number, const QString& path) {
    chargpt::Checkpoint c;
    c.tokenizer = chargpt::loadCorpusSource("builtin:tang300").buildTokenizer();
    c.config = chargpt::ladderSettings(number);
    const bool oneWideHead = c.config.head_size == c.config.emb_size;
    c.config.emb_size = 32;
    c.config.head_size = oneWideHead ? 32 : 8;
    c.config.sequence_len = 16;
    c.config.vocab_size = c.tokenizer.vocabSize();
    torch::manual_seed(number);
    c.model = chargpt::CharGPT(c.config);
    chargpt::saveCheckpoint(path.toStdString(), c);
    return true;
}

// A ladder small enough to train in seconds.
LadderRequest tinyLadder(qint64 steps) {
    LadderRequest request;
    request.steps = steps;
    request.evalIters = 2;
    request.batchSize = 4;
    return request;
}

// The test's run library starts empty.
void forgetRuns() {
    const QString library = QString::fromStdString(runLibraryPath());
    for (const char* suffix : {"", "-wal", "-shm"}) QFile::remove(library + QLatin1String(suffix));
}

bool anyLabelSays(const QWidget* parent, const QString& words) {
    for (const QLabel* label : parent->findChildren<QLabel*>())
        if (label->text().contains(words)) return true;
    return false;
}

}  // namespace

class TestLadderWindow : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void everyRungOpens_data();
    void everyRungOpens();
    void ladderTrainsEveryRung();
    void stopEndsTheLadder();
    void textTooShortIsSaid();
    void closesWhileTheLadderTrains();

private:
    LanguageManager languages_;
    QTemporaryDir dir_;
};

void TestLadderWindow::initTestCase() {
    initTestApplication(QStringLiteral("tst_ladderwindow"));
    QVERIFY(dir_.isValid());
}

void TestLadderWindow::init() { resetSettingsAndLanguage(languages_); }

void TestLadderWindow::everyRungOpens_data() {
    QTest::addColumn<int>("rung");
    for (const chargpt::LadderRung& rung : chargpt::kLadder) QTest::newRow(rung.name) << rung.number;
}

void TestLadderWindow::everyRungOpens() {
    QFETCH(int, rung);
    const QString path = dir_.filePath(QStringLiteral("rung%1.pt").arg(rung));
    QVERIFY(saveRung(rung, path));
    const chargpt::RunConfig config = chargpt::loadCheckpoint(path.toStdString()).config;
    const int layers = int(config.n_layer), heads = int(config.n_head());

    MainWindow window(&languages_);
    window.show();
    QVERIFY(waitForCorpus(window));
    QSignalSpy inside(window.inspection(), &InspectionController::insideShown);
    QSignalSpy surprise(window.inspection(), &InspectionController::surpriseShown);
    window.tabs()->setCurrentWidget(window.attentionPage());
    window.openCheckpoint(path);
    QTRY_VERIFY_WITH_TIMEOUT(window.hasFrozenModel(), 20000);
    QCOMPARE(window.modelInfo().settings.n_layer, config.n_layer);
    QVERIFY(window.modelInfo().settings.sameArchitecture(config));

    // Attention: every head of the layer, or words for a model without one.
    if (layers == 0) {
        QTRY_VERIFY_WITH_TIMEOUT(anyLabelSays(window.attentionPage(), QStringLiteral("this model has no attention")),
                                 20000);
    } else {
        QTRY_COMPARE_WITH_TIMEOUT(window.attentionPage()->shownStep(), qint64(0), 20000);
        QCOMPARE(window.attentionPage()->shownAttention().layers.size(), layers);
        QCOMPARE(window.attentionPage()->shownAttention().layers[0].heads.size(), heads);
    }

    // Inside: the lens of the embeddings and each block; what cannot be shown, said.
    window.tabs()->setCurrentWidget(window.insidePage());
    QTRY_COMPARE_WITH_TIMEOUT(window.insidePage()->shownStep(), qint64(0), 20000);
    QCOMPARE(window.insidePage()->lensView()->lens().layerCount(), layers + 1);
    if (layers == 0) QVERIFY(anyLabelSays(window.insidePage(), QStringLiteral("no heads to score")));
    if (!config.positions) QVERIFY(anyLabelSays(window.insidePage(), QStringLiteral("no position embeddings")));

    // Surprise scores the validation and training text.
    window.tabs()->setCurrentWidget(window.surpriseView());
    if (surprise.isEmpty()) QVERIFY2(surprise.wait(20000), "no surprise of the opened rung");

    // Generate writes, and a step shows the new character's attention (none
    // without layers).
    window.tabs()->setCurrentWidget(window.generationView());
    GenerationView* view = window.generationView();
    GenerationOptions options = view->options();
    options.length = 12;
    view->setOptions(options);
    QSignalSpy ended(window.inspection(), &InspectionController::generationEnded);
    QTest::mouseClick(view->generateButton(), Qt::LeftButton);
    QVERIFY2(ended.wait(20000), "generation did not end");
    QVERIFY(!view->generatedText().isEmpty());
    QSignalSpy stepped(window.inspection(), &InspectionController::stepShown);
    QTest::mouseClick(view->stepButton(), Qt::LeftButton);
    QVERIFY2(stepped.wait(20000), "no step");
    QVERIFY(!stepped.first().first().toString().isEmpty());
}

// Training > Train the Architecture Ladder trains the seven rungs on the
// loaded corpus, records each, draws each beside the floors; Start waits.
void TestLadderWindow::ladderTrainsEveryRung() {
    forgetRuns();
    MainWindow window(&languages_);
    window.show();
    QVERIFY(waitForCorpus(window));
    // A text of 12,000 characters: each rung reads, splits and scores it in a
    // moment, also in a sanitizer build.
    const QString path = dir_.filePath(QStringLiteral("ladder.txt"));
    {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        const char* words[] = {"the ", "cat ", "sat ", "on ", "a ", "mat ", "and ", "dog ", "ran, ", "far.\n"};
        quint32 state = 12046;
        QByteArray text;
        while (text.size() < 12000) {
            state = state * 1664525u + 1013904223u;  // a fixed sequence of words
            text += words[(state >> 16) % 10];
        }
        file.write(text);
    }
    window.openCorpus(path);
    QTRY_COMPARE_WITH_TIMEOUT(window.corpusInfo().source, path, 20000);
    window.training()->setLadderRequest(tinyLadder(30));
    QPushButton* start = window.trainingPanel()->startButton();
    QVERIFY(start->isEnabled());
    QVERIFY(window.ladderAction()->isEnabled());
    QSignalSpy finished(window.training(), &TrainingController::ladderFinished);
    window.ladderAction()->trigger();
    QCOMPARE(window.tabs()->currentWidget(), window.ladderView());
    QVERIFY(window.training()->isTraining());
    QVERIFY(!start->isEnabled());
    QVERIFY(!window.ladderAction()->isEnabled());
    QVERIFY(!window.ladderView()->startButton()->isEnabled());
    window.startTraining();  // refused while the ladder trains
    QVERIFY(window.training()->isLadder());
    QVERIFY2(finished.wait(150000), "the ladder did not end");
    QCOMPARE(finished.first().at(0).toBool(), false);
    QCOMPARE(finished.first().at(1).toString(), QString());

    LadderView* view = window.ladderView();
    QCOMPARE(view->bestPoints().size(), 7);
    QVERIFY(view->livePoints().isEmpty());
    const QVector<double> floors = view->floorLines();
    QVERIFY(floors[0] > floors[1] && floors[1] > floors[2] && floors[2] > 0);
    QCOMPARE(view->table()->rowCount(), 7);
    QVERIFY(!view->lesson().isEmpty());
    QSet<qint64> ids;
    for (const LadderRungData& rung : view->rungs()) {
        QCOMPARE(rung.state, LadderRungData::State::Finished);
        QCOMPARE(rung.step, qint64(30));
        QVERIFY(rung.runId);
        ids.insert(*rung.runId);
    }
    QCOMPARE(ids.size(), 7);
    QVERIFY(start->isEnabled());
    QVERIFY(window.ladderAction()->isEnabled());
    QVERIFY(!window.modelInfo().exists);  // the window's model is not the ladder's
    // Read back from the run library, it is the newest ladder there, still
    // drawn as it trained, and the line above says which it is.
    QTRY_COMPARE_WITH_TIMEOUT(view->shownRecord(), 0, 10000);
    QTRY_VERIFY_WITH_TIMEOUT(view->heading().contains(QStringLiteral("ladder.txt, started")), 10000);
    QCOMPARE(view->floorLines(), floors);
    QTRY_COMPARE_WITH_TIMEOUT(view->history().first().rungs.size(), 7, 10000);

    // The Runs tab lists the seven, as runs of the app.
    window.tabs()->setCurrentWidget(window.runsPage());
    RunsList* list = window.runsPage()->list();
    QTRY_COMPARE_WITH_TIMEOUT(list->runs().size(), 7, 10000);
    for (const RunRow& run : list->runs()) {
        QVERIFY(run.origin == chargpt::RunOrigin::App);
        QVERIFY2(run.preset.startsWith(QStringLiteral("ladder-")), qPrintable(run.preset));
        QVERIFY(ids.contains(run.id));
    }
}

// Stop ends the rung in training as stopped and the ladder with it; what
// was recorded stays, and Start may start again.
void TestLadderWindow::stopEndsTheLadder() {
    forgetRuns();
    MainWindow window(&languages_);
    window.show();
    QVERIFY(waitForCorpus(window));
    window.training()->setLadderRequest(tinyLadder(1000000));
    QSignalSpy finished(window.training(), &TrainingController::ladderFinished);
    QTest::mouseClick(window.ladderView()->startButton(), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!window.ladderView()->rungs().isEmpty() && window.ladderView()->rungs()[0].step > 0,
                             20000);
    QPushButton* stop = window.trainingPanel()->stopButton();
    QVERIFY(stop->isEnabled());
    QTest::mouseClick(stop, Qt::LeftButton);
    QVERIFY2(finished.wait(20000), "the ladder did not stop");
    QCOMPARE(finished.first().at(0).toBool(), true);
    const QVector<LadderRungData> rungs = window.ladderView()->rungs();
    QCOMPARE(rungs.size(), 1);
    QCOMPARE(rungs[0].state, LadderRungData::State::Stopped);
    QVERIFY(rungs[0].step < 1000000);
    QVERIFY(rungs[0].runId >= 0);
    QVERIFY(!window.training()->isTraining());
    QVERIFY(window.trainingPanel()->startButton()->isEnabled());
    window.tabs()->setCurrentWidget(window.runsPage());
    QTRY_COMPARE_WITH_TIMEOUT(window.runsPage()->list()->runs().size(), 1, 10000);
}

// A text shorter than the rungs' context: one message says why, nothing is
// recorded, and the window goes on with the corpus it has.
void TestLadderWindow::textTooShortIsSaid() {
    forgetRuns();
    MainWindow window(&languages_);
    window.show();
    QVERIFY(waitForCorpus(window));
    const QString path = dir_.filePath(QStringLiteral("short.txt"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("abcabcabcabcabcabcab");
    file.close();
    window.openCorpus(path);
    QTRY_COMPARE_WITH_TIMEOUT(window.corpusInfo().source, path, 20000);
    window.training()->setLadderRequest(tinyLadder(30));
    QSignalSpy finished(window.training(), &TrainingController::ladderFinished);
    window.startLadder();
    QVERIFY2(finished.wait(20000), "the ladder did not end");
    QCOMPARE(finished.first().at(0).toBool(), false);
    QVERIFY(finished.first().at(1).toString().contains(QStringLiteral("context")));
    QVERIFY2(window.messageText().contains(QStringLiteral("could not train")), qPrintable(window.messageText()));
    QVERIFY(window.ladderView()->rungs().isEmpty());
    QVERIFY(!window.training()->isTraining());
    QVERIFY(window.ladderAction()->isEnabled());
    QCOMPARE(window.corpusInfo().source, path);
}

// Closing the window mid-ladder stops the rung in training and closes at
// once, the rung recorded as stopped.
void TestLadderWindow::closesWhileTheLadderTrains() {
    forgetRuns();
    QElapsedTimer closing;
    {
        MainWindow window(&languages_);
        window.show();
        QVERIFY(waitForCorpus(window));
        window.training()->setLadderRequest(tinyLadder(1000000));
        window.startLadder();
        QTRY_VERIFY_WITH_TIMEOUT(!window.ladderView()->rungs().isEmpty() && window.ladderView()->rungs()[0].step > 0,
                                 20000);
        QVERIFY(window.close());
        closing.start();
    }
    QVERIFY2(closing.elapsed() < 10000, qPrintable(QString::number(closing.elapsed())));
    // The rung was recorded, and ended as stopped.
    const auto library = chargpt::RunLibrary::open(runLibraryPath());
    const std::vector<chargpt::RunRecord> runs = library->runs();
    QCOMPARE(int(runs.size()), 1);
    QVERIFY(runs[0].endReason == chargpt::EndReason::Stopped);
}

CHARGPT_TEST_MAIN(TestLadderWindow)
}  // namespace tst_ladderwindow
#include "tst_ladderwindow.moc"
