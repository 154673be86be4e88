// SPDX-License-Identifier: GPL-3.0-or-later
// The why window of the whole window, offscreen, on a small model of random
// weights: a click on a generated character of the Generate tab opens the
// same why window the Surprise tab opens, for that position, with the
// attention paths of the heads that add most; its patching lab sweeps a
// clean and a corrupted prompt off the GUI thread (patching the last layer's
// stream at the last position restores everything, an embedding the prompts
// share nothing) and stops when asked; after a run that keeps its weights, a
// click's attribution at each kept step, its parts summing to the logit at each.
#include <torch/torch.h>

#include "model/io/Checkpoint.h"
#include "model/nn/CharGPT.h"
#include "model/text/CharTokenizer.h"
#include "model/train/RunConfig.h"

#include <QAction>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSemaphore>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <functional>

#include "TestProgram.h"
#include "WindowDriver.h"
#include "app/InspectionController.h"
#include "app/LanguageManager.h"
#include "app/MainWindow.h"
#include "widgets/AttributionHistoryView.h"
#include "widgets/AttributionView.h"
#include "widgets/GenerationView.h"
#include "widgets/PatchingLab.h"
#include "widgets/SurpriseTextWidget.h"
#include "widgets/SurpriseView.h"
#include "widgets/Timeline.h"
#include "widgets/ValueGrid.h"
#include "widgets/WhyWindow.h"

namespace tst_whywindow {

using namespace window_driver;

class TestWhyWindow : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void clickInGenerateAsksWhy();
    void patchingLabRunsAndStops();
    void acrossTheKeptSteps();

private:
    // A window with a small model of random, not flat, scores open.
    bool openModel(MainWindow& window);
    LanguageManager languages_;
    QTemporaryDir dir_;
};

void TestWhyWindow::initTestCase() { initTestApplication(QStringLiteral("tst_whywindow")); }

void TestWhyWindow::init() { resetSettingsAndLanguage(languages_); }

bool TestWhyWindow::openModel(MainWindow& window) {
    using namespace chargpt;
    Checkpoint checkpoint;
    checkpoint.tokenizer = CharTokenizer::fromText(U"abcdefgh .,\n");
    checkpoint.config = *RunConfig::preset("tiny");
    checkpoint.config.vocab_size = checkpoint.tokenizer.vocabSize();
    torch::manual_seed(4);
    checkpoint.model = CharGPT(checkpoint.config);
    {
        torch::NoGradGuard noGrad;
        for (torch::Tensor& p : checkpoint.model->parameters()) p.normal_(0.0, 0.3);
    }
    const QString path = dir_.filePath(QStringLiteral("random.pt"));
    saveCheckpoint(path.toStdString(), checkpoint);
    if (!waitForCorpus(window)) return false;
    QSignalSpy ready(&window, &MainWindow::modelReady);
    window.openCheckpoint(path);
    if (!ready.wait(20000)) return false;
    return QTest::qWaitFor([&] { return window.hasFrozenModel(); }, 20000);
}

void TestWhyWindow::clickInGenerateAsksWhy() {
    MainWindow window(&languages_);
    window.show();
    QVERIFY(openModel(window));
    GenerationView* view = window.generationView();
    window.tabs()->setCurrentWidget(view);
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    GenerationOptions options;
    options.prompt = QStringLiteral("abc");
    options.length = 12;
    options.seed = 3;
    view->setOptions(options);
    QTest::mouseClick(view->generateButton(), Qt::LeftButton);
    QVERIFY(QTest::qWaitFor([&] { return !view->isRunning(); }, 30000));
    const QString generated = view->generatedText();
    QCOMPARE(generated.size(), 12);

    // The fifth generated character: the model read the prompt and the four before it.
    QPlainTextEdit* output = view->outputEdit();
    QTextCursor cursor(output->document());
    cursor.setPosition(3 + 4);
    const QRect caret = output->cursorRect(cursor);
    const QPoint point(caret.x() + 2, caret.center().y());
    QCOMPARE(view->generatedIndexAt(point), 4);
    QSignalSpy answered(window.inspection(), &InspectionController::attributionShown);
    QTest::mouseClick(output->viewport(), Qt::LeftButton, {}, point);
    QVERIFY2(answered.wait(20000), "no attribution arrived");
    const CharacterAttribution& a = window.attributionView()->attribution();
    QVERIFY2(a.isValid(), qPrintable(a.problem));
    QCOMPARE(a.chosen, generated.mid(4, 1));
    QCOMPARE(a.characters.join(QString()), QStringLiteral("abc") + generated.left(4));
    QVERIFY(std::abs(a.gap) < 1e-4);
    QVERIFY(window.attributionView()->isVisible());

    // The attention paths: the three heads that add most (tiny has eight), most first,
    // each a softmax over the characters read.
    QVector<double> heads;
    for (const AttributionBar& bar : a.bars)
        if (bar.kind == AttributionBar::Head) heads.append(bar.logit);
    std::sort(heads.begin(), heads.end(), std::greater<double>());
    QCOMPARE(a.paths.size(), 3);
    for (int i = 0; i < a.paths.size(); ++i) {
        const AttentionPath& path = a.paths[i];
        QCOMPARE(path.logit, heads[i]);
        QVERIFY(path.layer >= 0 && path.layer < 2 && path.head >= 0 && path.head < 4);
        QCOMPARE(path.weights.size(), a.characters.size());
        double sum = 0.0;
        for (const double w : path.weights) {
            QVERIFY(w >= 0.0);
            sum += w;
        }
        QVERIFY(std::abs(sum - 1.0) < 1e-5);
    }
    QVERIFY(window.attributionView()->pathsText().contains(QLatin1String("most on")));
}

void TestWhyWindow::patchingLabRunsAndStops() {
    MainWindow window(&languages_);
    window.show();
    QVERIFY(openModel(window));
    PatchingLab* lab = window.whyWindow()->patchingLab();
    window.whyWindow()->labAction()->trigger();
    QVERIFY(window.whyWindow()->isVisible());
    QCOMPARE(window.whyWindow()->tabs()->currentWidget(), window.whyWindow()->labPage());
    QSignalSpy shown(window.inspection(), &InspectionController::patchingShown);
    lab->setPrompts({QStringLiteral("abcabcab"), QStringLiteral("abcabdab"), QStringLiteral("c")});
    QTest::mouseClick(lab->runButton(), Qt::LeftButton);
    QVERIFY2(shown.wait(30000), "no patching result arrived");
    const PatchingResult& r = lab->result();
    QVERIFY2(r.isValid(), qPrintable(lab->message()));
    QCOMPARE(r.layers, 2);  // tiny: 2 layers of 4 heads
    QCOMPARE(r.heads, 4);
    QCOMPARE(r.residual.size(), 3 * 8);
    QCOMPARE(r.perHead.size(), 2 * 4);
    QCOMPARE(r.feedForward.size(), 2 * 8);  // each block's feed-forward at each position
    QVERIFY(!lab->feedForwardGrid()->isHidden());
    QVERIFY(r.wrong != r.target);
    QVERIFY(std::abs(r.residual[2 * 8 + 7] - 1.0) <
            1e-4);  // the final stream at the last position: all of it
    for (int t = 0; t < 8; ++t)
        if (t != 5)  // an embedding both prompts share: nothing (float rounding of a batched pass aside)
            QVERIFY2(std::abs(r.residual[t]) < 1e-4, qPrintable(QString::number(r.residual[t])));
    // A feed-forward before the changed character reads only characters both prompts share: nothing.
    for (int t = 0; t < 5; ++t) QVERIFY2(std::abs(r.feedForward[t]) < 1e-4, qPrintable(QString::number(t)));
    QVERIFY(lab->finding().contains(QLatin1String("restores")));
    QVERIFY(lab->runButton()->isEnabled());

    // Stop: the inspector is held busy while Run and Stop are clicked, so
    // that the stop is seen whenever the sweeps begin.
    QSemaphore release;
    auto* blocker = new QObject;
    blocker->moveToThread(window.inspection()->inspectorThread());
    QMetaObject::invokeMethod(
        blocker, [&release] { release.acquire(); }, Qt::QueuedConnection);
    QTest::mouseClick(lab->runButton(), Qt::LeftButton);
    QVERIFY(lab->isRunning());
    QVERIFY(!lab->runButton()->isEnabled());
    QTest::mouseClick(lab->stopButton(), Qt::LeftButton);
    release.release();
    QVERIFY2(shown.wait(30000), "no answer after Stop");
    QVERIFY2(lab->message().contains(QLatin1String("stopped")), qPrintable(lab->message()));
    QVERIFY(!lab->isRunning());
    QVERIFY(lab->runButton()->isEnabled());
    blocker->deleteLater();
}

void TestWhyWindow::acrossTheKeptSteps() {
    MainWindow window(&languages_);
    window.show();
    QVERIFY(waitForCorpus(window));
    SurpriseView* view = window.surpriseView();
    window.tabs()->setCurrentWidget(view);
    trainTinyToEnd(window, 30);
    QTRY_VERIFY_WITH_TIMEOUT(window.timeline()->steps().contains(4) && window.timeline()->steps().contains(8),
                             20000);
    QTRY_COMPARE_WITH_TIMEOUT(view->shownStep(), qint64(30), 20000);
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    SurpriseTextWidget* pane = view->pane(SurpriseView::Training);
    QSignalSpy history(window.inspection(), &InspectionController::attributionHistoryShown);
    const QString clicked = pane->text().characters[10].character;
    QTest::mouseClick(pane, Qt::LeftButton, {}, pane->characterRect(10).center().toPoint());
    QVERIFY2(history.wait(60000), "no attribution across the kept steps arrived");
    const AttributionHistory& h = window.whyWindow()->historyView()->history();
    QVERIFY2(h.isValid(), qPrintable(h.problem));
    QCOMPARE(h.chosen, clicked);
    QVERIFY(h.steps.contains(4) && h.steps.contains(8));
    QVERIFY(std::is_sorted(h.steps.begin(), h.steps.end()));
    QCOMPARE(h.logits.size(), h.steps.size());
    for (int s = 0; s < h.steps.size(); ++s) {
        double sum = 0.0;
        for (const QVector<double>& part : h.values) {
            QCOMPARE(part.size(), h.steps.size());
            sum += part[s];
        }
        QVERIFY2(std::abs(sum - h.logits[s]) < 1e-4, qPrintable(QString::number(h.steps[s])));
    }
    QCOMPARE(window.whyWindow()->historyView()->shownParts().size(), AttributionHistoryView::kLines);
    QVERIFY(window.whyWindow()->historyView()->summary().contains(QLatin1String("grew most")));

    // The timeline's marks: A at step 4, B the step shown (8); the table is their difference.
    AttributionHistoryView* historyView = window.whyWindow()->historyView();
    Timeline* timeline = window.timeline();
    timeline->chooseStep(4);
    QVERIFY(timeline->markChosen());
    timeline->chooseStep(8);
    QCOMPARE(historyView->comparedSteps(), std::make_pair(qint64(4), qint64(8)));
    const QVector<AttributionHistoryView::Change> changes = historyView->changes();
    QVERIFY(!changes.isEmpty());
    const int a = int(h.steps.indexOf(4)), b = int(h.steps.indexOf(8));
    for (const AttributionHistoryView::Change& c : changes) {
        QCOMPARE(c.a, h.values[c.part][a]);
        QCOMPARE(c.b, h.values[c.part][b]);
    }
    QVERIFY(!historyView->changeTable()->isHidden());

    // Stop, then closing the window: each ends a request the inspector has not finished.
    for (const bool byClosing : {false, true}) {
        QSemaphore release;
        auto* blocker = new QObject;
        blocker->moveToThread(window.inspection()->inspectorThread());
        QMetaObject::invokeMethod(
            blocker, [&release] { release.acquire(); }, Qt::QueuedConnection);
        QTest::mouseClick(pane, Qt::LeftButton, {}, pane->characterRect(12).center().toPoint());
        QVERIFY(historyView->isRunning());
        if (byClosing)
            window.whyWindow()->close();
        else
            QTest::mouseClick(historyView->stopButton(), Qt::LeftButton);
        release.release();
        QVERIFY2(history.wait(60000), "no answer after Stop");
        QVERIFY2(historyView->history().problem.contains(QLatin1String("stopped")),
                 qPrintable(historyView->summary()));
        QVERIFY(!historyView->isRunning());
        blocker->deleteLater();
    }
}

CHARGPT_TEST_MAIN(TestWhyWindow)
}  // namespace tst_whywindow
#include "tst_whywindow.moc"
