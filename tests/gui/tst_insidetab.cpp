// SPDX-License-Identifier: GPL-3.0-or-later
// The Inside tab of the whole window, offscreen: it follows a model that really
// trains on the worker thread (the logit lens of the probe, every head's
// scores, the feed-forward's neurons, the residual stream, the characters'
// map), the head roles' lines gather the scores of
// every step shown, the window's one timeline moves every view together, and
// Knock out measures every head and block of the step shown on the inspector
// thread.
#include <QApplication>
#include <QLabel>
#include <QSlider>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTest>

#include <cmath>

#include "widgets/CharacterMapView.h"
#include "widgets/FeedForwardView.h"
#include "widgets/HeadRolesView.h"
#include "widgets/InsidePage.h"
#include "app/InspectionController.h"
#include "widgets/KnockoutView.h"
#include "app/LanguageManager.h"
#include "widgets/LogitLensView.h"
#include "widgets/ResidualStreamView.h"
#include "app/MainWindow.h"
#include "widgets/Timeline.h"
#include "widgets/TimelineControls.h"
#include "WindowDriver.h"
#include "TestProgram.h"

namespace tst_insidetab {

using namespace window_driver;

class TestInsideTab : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void followsTrainingAndKnocksOut();

private:
    LanguageManager languages_;
};

void TestInsideTab::initTestCase() { initTestApplication(QStringLiteral("tst_insidetab")); }

void TestInsideTab::init() { resetSettingsAndLanguage(languages_); }

void TestInsideTab::followsTrainingAndKnocksOut() {
    MainWindow window(&languages_);
    window.show();
    QVERIFY(waitForCorpus(window));
    InsidePage* page = window.insidePage();
    QCOMPARE(window.tabs()->tabText(window.tabs()->indexOf(page)), QStringLiteral("Inside"));
    QVERIFY(!page->shownStep());
    QVERIFY(page->findChildren<QSlider*>().isEmpty());  // the window's timeline is the one

    // Frames arrive whichever tab is shown: the head roles are the run's history.
    window.tabs()->setCurrentIndex(0);
    QSignalSpy shown(window.inspection(), &InspectionController::insideShown);
    trainTinyToEnd(window, 30);
    QTRY_COMPARE_WITH_TIMEOUT(page->shownStep(), qint64(30), 120000);
    QVERIFY2(page->stepLabel()->text().contains(QStringLiteral("step 30")), qPrintable(page->stepLabel()->text()));

    // The tiny preset: 2 blocks of 4 heads.
    const LogitLens& lens = page->lensView()->lens();
    QVERIFY(lens.isValid());
    QCOMPARE(lens.layerCount(), 3);  // the embeddings, then each block
    QCOMPARE(lens.step, 30);
    const HeadRoles& roles = page->headRolesView()->headRoles();
    QCOMPARE(roles.layers, 2);
    QCOMPARE(roles.heads, 4);
    QVERIFY(roles.frames.size() >= 2);
    QCOMPARE(roles.frames.first().step, 0);  // the snapshot before the first step
    QCOMPARE(roles.frames.constLast().step, 30);
    for (const HeadRolesFrame& f : roles.frames) {
        QCOMPARE(f.previousToken.size(), 8);
        QCOMPARE(f.induction.size(), 8);
        for (float score : f.previousToken) QVERIFY(score >= 0.0f && score <= 1.0f);
    }
    QVERIFY(roles.previousTokenChance > 0.0 && roles.previousTokenChance < 1.0);
    const CharacterMap& map = page->characterMapView()->map();
    QCOMPARE(map.frames.size(), 1);  // the step shown
    QCOMPARE(map.frames.constLast().step, 30);
    QCOMPARE(map.frames.constLast().characters.size(), window.corpusInfo().vocabularySize);
    QCOMPARE(map.frames.constLast().positions, 16);
    // The probe through each block's feed-forward, and its residual stream.
    const FeedForwardProbeData& ff = page->feedForwardView()->probe();
    QVERIFY(ff.isValid());
    QCOMPARE(ff.layers.size(), 2);
    QCOMPARE(ff.positionCount(), lens.positionCount());
    QVERIFY(ff.sampleCharacters > 0);
    QVERIFY(!ff.layers[0].examples[0].isEmpty());
    const ResidualStreamData stream30 = page->residualView()->stream();
    QVERIFY(stream30.isValid());
    QCOMPARE(stream30.layers, 2);

    // The window's timeline moves every view to the same step, and back.
    QSlider* slider = window.timelineControls()->slider();
    const int at8 = int(window.timeline()->steps().indexOf(8));
    QVERIFY2(at8 >= 0, "the run keeps step 8");
    slider->setValue(at8);
    QTRY_COMPARE_WITH_TIMEOUT(page->shownStep(), qint64(8), 20000);
    QCOMPARE(page->lensView()->lens().step, 8);
    const HeadRoles& replayed = page->headRolesView()->headRoles();
    QCOMPARE(replayed.frames[page->headRolesView()->currentFrame()].step, 8);
    QVERIFY(replayed.frames.size() >= 2);  // the lines keep the run's other steps
    QCOMPARE(page->characterMapView()->map().frames.constLast().step, 8);
    QVERIFY(page->residualView()->stream().isValid());
    QVERIFY(page->residualView()->stream().norms != stream30.norms);  // step 8's weights
    QVERIFY2(page->stepLabel()->text().contains(QStringLiteral("step 8")), qPrintable(page->stepLabel()->text()));
    slider->setValue(slider->maximum());
    QTRY_COMPARE_WITH_TIMEOUT(page->shownStep(), qint64(30), 20000);
    QCOMPARE(page->lensView()->lens().step, 30);

    // Knock out: the baseline and 2 x 4 heads + 2 attentions + 2 feed-forwards.
    window.tabs()->setCurrentWidget(page);
    KnockoutView* knockout = page->knockoutView();
    QSignalSpy measured(window.inspection(), &InspectionController::knockoutShown);
    QTest::mouseClick(knockout->knockoutButton(), Qt::LeftButton);
    QVERIFY(knockout->isBusy());
    QVERIFY2(measured.wait(60000), "no knock-out table arrived");
    QVERIFY(!knockout->isBusy());
    const Knockout& table = knockout->knockout();
    QCOMPARE(table.step, 30);
    QCOMPARE(table.rows.size(), 12);
    QVERIFY(std::isfinite(table.baselineLoss) && table.baselineLoss > 0.0);
    for (const KnockoutRow& row : table.rows)
        QVERIFY(std::isfinite(row.loss) && std::abs(row.increase - (row.loss - table.baselineLoss)) < 1e-9);
    QCOMPARE(knockout->table()->model()->rowCount(), 12);
    // The residual stream's writers show the same table's losses.
    QVERIFY(page->residualView()->writerLabel(0).contains(QStringLiteral("without it")));
}

CHARGPT_TEST_MAIN(TestInsideTab)
}  // namespace tst_insidetab
#include "tst_insidetab.moc"
