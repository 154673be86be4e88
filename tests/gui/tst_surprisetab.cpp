// SPDX-License-Identifier: GPL-3.0-or-later
// The Surprise tab of the whole window, offscreen: its default texts come from
// the corpus's split, it follows a model that really trains on the worker
// thread while it is shown (and only then), and it scores what the user types;
// a click on a character opens why the model wrote it (AttributionView).
#include <QApplication>
#include <QComboBox>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QSlider>
#include <QTabWidget>
#include <QTest>

#include <cmath>

#include "app/InspectionController.h"
#include "app/LanguageManager.h"
#include "app/MainWindow.h"
#include "widgets/AttributionView.h"
#include "widgets/SurpriseTextWidget.h"
#include "widgets/SurpriseView.h"
#include "widgets/TrainingPanel.h"
#include "WindowDriver.h"
#include "TestProgram.h"

namespace tst_surprisetab {

using namespace window_driver;

namespace {

// Waits until the view shows a result of the model at `step`.
bool waitForSurprise(MainWindow& window, qint64 step) {
    QSignalSpy shown(window.inspection(), &InspectionController::surpriseShown);
    while (window.surpriseView()->shownStep() != step)
        if (!shown.wait(20000))
            return false;
    return true;
}

}  // namespace

class TestSurpriseTab : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void samplesFromTheSplit();
    void followsTrainingWhileShown();
    void clickAsksWhy();

private:
    LanguageManager languages_;
};

void TestSurpriseTab::initTestCase() { initTestApplication(QStringLiteral("tst_surprisetab")); }

void TestSurpriseTab::init() { resetSettingsAndLanguage(languages_); }

// The default panes: the start of the last tenth of the corpus's tokens, and
// as many characters from the start of the corpus.
void TestSurpriseTab::samplesFromTheSplit() {
    MainWindow window(&languages_);
    QVERIFY(waitForCorpus(window));
    const CorpusSummary& corpus = window.corpusInfo();
    QCOMPARE(splitCharacters(corpus.validationSample).size(), 600);
    QCOMPARE(splitCharacters(corpus.trainingSample).size(), 600);
    QVERIFY(corpus.preview.startsWith(corpus.trainingSample.left(100)));
    QVERIFY(!corpus.preview.contains(corpus.validationSample.left(100)));
    const QStringList texts = window.surpriseView()->texts();
    QCOMPARE(texts.at(SurpriseView::Validation), corpus.validationSample);
    QCOMPARE(texts.at(SurpriseView::Training), corpus.trainingSample);
    // The tab sits after the Attention tab.
    QCOMPARE(window.tabs()->indexOf(window.surpriseView()), 2);
    QCOMPARE(window.tabs()->tabText(2), QStringLiteral("Surprise"));
}

void TestSurpriseTab::followsTrainingWhileShown() {
    MainWindow window(&languages_);
    window.show();
    QVERIFY(waitForCorpus(window));
    SurpriseView* view = window.surpriseView();
    window.tabs()->setCurrentWidget(view);
    trainTinyToEnd(window, 20);
    QVERIFY2(waitForSurprise(window, 20), "no surprise of the final weights arrived");
    const QVector<SurpriseText> shown = view->shownTexts();
    QCOMPARE(shown.size(), 3);
    for (int p : {SurpriseView::Validation, SurpriseView::Training}) {
        QCOMPARE(shown[p].size(), 600);
        QVERIFY(std::isfinite(shown[p].meanBits));
        QVERIFY(shown[p].meanBits > 0.0);
        QCOMPARE(shown[p].step, 20);
    }
    QVERIFY(shown[SurpriseView::User].isEmpty());
    QVERIFY(view->meansPointCount() >= 2);  // the two means of step 20 on the plot

    // What the user types is scored by the same model.
    view->setUserText(QStringLiteral("春眠不觉晓"));
    QTRY_COMPARE_WITH_TIMEOUT(view->shownTexts()[SurpriseView::User].size(), 5, 20000);
    QCOMPARE(view->shownTexts()[SurpriseView::User].scored, 4);
    QCOMPARE(view->pane(SurpriseView::User)->text().size(), 5);

    // Compare without: the first part offered (L1 H1), chosen with the keyboard.
    QCOMPARE(view->comparisonBox()->count(), 1 + 2 * 4 + 2 + 2);  // tiny: 2 layers of 4 heads
    view->comparisonBox()->setFocus();
    QTest::keyClick(view->comparisonBox(), Qt::Key_Down);
    QTRY_VERIFY_WITH_TIMEOUT(view->shownTexts()[SurpriseView::User].isComparison(), 20000);
    const SurpriseText compared = view->shownTexts()[SurpriseView::User];
    QCOMPARE(compared.without, QStringLiteral("L1 H1"));
    QVERIFY(std::isfinite(compared.withoutMeanBits));
    for (const SurpriseChar& c : compared.characters)
        QCOMPARE(std::isfinite(c.withoutBits), c.scored());
    QVERIFY(view->legend()->isDifference());
    QTest::keyClick(view->comparisonBox(), Qt::Key_Up);  // back to nothing
    QTRY_VERIFY_WITH_TIMEOUT(!view->shownTexts()[SurpriseView::User].isComparison(), 20000);

    // Hidden, it asks for nothing; shown again, it catches up with the model.
    window.tabs()->setCurrentIndex(0);
    QTest::qWait(500);  // an answer still on its way may land
    QSignalSpy whileHidden(window.inspection(), &InspectionController::surpriseShown);
    trainTinyToEnd(window, 60);
    QTest::qWait(200);
    QCOMPARE(whileHidden.count(), 0);
    window.tabs()->setCurrentWidget(view);
    QVERIFY2(waitForSurprise(window, 60), "no surprise after the tab was shown again");
    QCOMPARE(view->shownTexts()[SurpriseView::User].size(), 5);  // the user's text stays
}

void TestSurpriseTab::clickAsksWhy() {
    MainWindow window(&languages_);
    window.show();
    QVERIFY(waitForCorpus(window));
    SurpriseView* view = window.surpriseView();
    window.tabs()->setCurrentWidget(view);
    trainTinyToEnd(window, 20);
    QVERIFY2(waitForSurprise(window, 20), "no surprise of the final weights arrived");
    SurpriseTextWidget* pane = view->pane(SurpriseView::Training);
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QSignalSpy answered(window.inspection(), &InspectionController::attributionShown);
    // The eleventh character: the model read the ten before it (tiny's context is 16).
    const QString clicked = pane->text().characters[10].character;
    QTest::mouseClick(pane, Qt::LeftButton, {}, pane->characterRect(10).center().toPoint());
    QVERIFY2(answered.wait(20000), "no attribution arrived");
    const CharacterAttribution& a = window.attributionView()->attribution();
    QVERIFY2(a.isValid(), qPrintable(a.problem));
    QCOMPARE(a.chosen, clicked);
    QCOMPARE(a.characters.size(), 10);
    QCOMPARE(a.gradientTimesInput.size(), 10);
    QCOMPARE(a.step, 20);
    QVERIFY(std::abs(a.gap) < 1e-4);
    QVERIFY(window.attributionView()->isVisible());
    // The first character has nothing before it: the window says so.
    QTest::mouseClick(pane, Qt::LeftButton, {}, pane->characterRect(0).center().toPoint());
    QVERIFY(answered.wait(20000));
    QVERIFY(!window.attributionView()->attribution().isValid());
    QVERIFY(window.attributionView()->summary().contains(QLatin1String("nothing before")));
}

CHARGPT_TEST_MAIN(TestSurpriseTab)
}  // namespace tst_surprisetab
#include "tst_surprisetab.moc"
