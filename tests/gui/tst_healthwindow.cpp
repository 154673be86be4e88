// SPDX-License-Identifier: GPL-3.0-or-later
// The Training tab's health panel and learning-rate finder in the window: a
// run at a learning rate far too high is said in the message bar, whose link
// brings the health plot forward at the warning's step, and the timeline's
// step shows the health measured nearest it; the finder sweeps a
// copy of the settings off the GUI thread, records no run and leaves the model
// alone, and "Use this rate" puts its suggestion in the settings; every
// warning has its words in English and in Chinese.
#include <QDoubleSpinBox>
#include <QFile>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTest>
#include <QToolButton>

#include <algorithm>
#include <cmath>
#include <tuple>

#include "TestProgram.h"
#include "WindowDriver.h"
#include "app/LanguageManager.h"
#include "app/MainWindow.h"
#include "app/RunsController.h"
#include "app/StudioIdentity.h"
#include "app/TrainingController.h"
#include "model/record/RunLibrary.h"
#include "model/train/HealthWarningWords.h"
#include "widgets/HealthView.h"
#include "widgets/LearningRateView.h"
#include "widgets/SettingsPanel.h"
#include "widgets/Timeline.h"
#include "widgets/TrainingPanel.h"

namespace tst_healthwindow {

using namespace window_driver;

namespace {

QDoubleSpinBox* rateBox(MainWindow& window) {
    return qobject_cast<QDoubleSpinBox*>(window.settingsPanel()->field(QStringLiteral("learning_rate")));
}

std::size_t recordedRuns() {
    auto library = chargpt::RunLibrary::open(runLibraryPath());
    return library->runs().size();
}

}  // namespace

class TestHealthWindow : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void aRateFarTooHighIsSaidWithALinkToThePlot();
    void theFinderSuggestsARateAndLeavesTheModelAlone();
    void everyWarningHasWordsInBothLanguages();

private:
    LanguageManager languages_;
};

void TestHealthWindow::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("CharGPT-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_healthwindow"));
    window_driver::initTestThreads();
}

void TestHealthWindow::init() {
    window_driver::clearSettings();
    languages_.setLanguage(QStringLiteral("en"), LanguageManager::Remember::No);
}

void TestHealthWindow::aRateFarTooHighIsSaidWithALinkToThePlot() {
    MainWindow window(&languages_);
    window.show();
    QVERIFY(waitForCorpus(window));
    choosePreset(window, QStringLiteral("tiny"));
    setSpin(window, QStringLiteral("max_steps"), 30);
    rateBox(window)->setValue(0.3);  // a hundred times the preset's
    QSignalSpy ended(window.training(), &TrainingController::trainingFinished);
    QTest::mouseClick(window.trainingPanel()->startButton(), Qt::LeftButton);
    QVERIFY2(ended.wait(120000), "training did not end");
    QCOMPARE(runEndName(ended.first().first().value<EndReason>()), runEndName(EndReason::Finished));
    QTRY_VERIFY2(window.messageText().contains(QStringLiteral("learning rate is likely too high")),
                 qPrintable(window.messageText()));
    QVERIFY(window.healthView()->figures().size() >= 2);  // steps 1 and 25
    QCOMPARE(window.healthView()->figures().front().layers(), window.modelInfo().settings.n_layer);

    window.tabs()->setCurrentWidget(window.runsPage());
    auto* link = window.findChild<QToolButton*>(QStringLiteral("messageAction"));
    QVERIFY(link && link->isVisible());
    link->click();
    QCOMPARE(window.tabs()->currentWidget(), window.trainingPage());
    QCOMPARE(window.healthView()->markedStep(), 1.0);  // the first measured step already says it
    // The run's warnings listed under the plot, as the message bar said them.
    QVERIFY(!window.healthView()->warnings().empty());
    QVERIFY(
        window.healthView()->warningListText().contains(QStringLiteral("learning rate is likely too high")));

    // The timeline on a past step: the health measured nearest it (steps 1 and 25 are measured).
    QTRY_VERIFY_WITH_TIMEOUT(
        window.timeline()->steps().contains(4) && window.timeline()->steps().contains(16), 20000);
    window.timeline()->chooseStep(4);
    QCOMPARE(*window.timeline()->chosenStep(), qint64(4));
    QCOMPARE(window.healthView()->cursorStep(), 1.0);
    window.timeline()->chooseStep(16);
    QCOMPARE(window.healthView()->cursorStep(), 25.0);
    QVERIFY2(window.healthView()->readoutText().startsWith(
                 QStringLiteral("Measured at step 25, the nearest to step 16")),
             qPrintable(window.healthView()->readoutText()));

    // Read back from the run library as a past run is: the same figures and warnings.
    // (Kept by step, then kind: the order within a step may differ from the order said.)
    const auto order = [](const chargpt::HealthWarning& a, const chargpt::HealthWarning& b) {
        return std::tie(a.step, a.kind, a.layer) < std::tie(b.step, b.kind, b.layer);
    };
    std::vector<chargpt::HealthWarning> said = window.healthView()->warnings();
    std::sort(said.begin(), said.end(), order);
    const std::size_t measured = window.healthView()->figures().size();
    const std::vector<chargpt::RunRecord> runs = chargpt::RunLibrary::open(runLibraryPath())->runs();
    QVERIFY(!runs.empty());
    window.healthView()->clear();
    window.runs()->loadHealth(runs.front().id);  // the newest: this one
    QTRY_COMPARE(window.healthView()->figures().size(), measured);
    std::vector<chargpt::HealthWarning> kept = window.healthView()->warnings();
    std::sort(kept.begin(), kept.end(), order);
    QCOMPARE(kept.size(), said.size());
    for (std::size_t i = 0; i < said.size(); ++i) {
        QCOMPARE(int(kept[i].kind), int(said[i].kind));
        QCOMPARE(kept[i].step, said[i].step);
        QCOMPARE(kept[i].factor, said[i].factor);
    }

    // Reset discards the model: its health goes with its loss curve, not left
    // beside a plot that says no loss yet.
    QTest::mouseClick(window.trainingPanel()->resetButton(), Qt::LeftButton);
    QTRY_VERIFY(!window.modelInfo().exists);
    QVERIFY(window.healthView()->figures().empty());
    QVERIFY(window.healthView()->warnings().empty());
}

void TestHealthWindow::theFinderSuggestsARateAndLeavesTheModelAlone() {
    for (const char* suffix : {"", "-wal", "-shm"})
        QFile::remove(QString::fromStdString(runLibraryPath() + suffix));
    MainWindow window(&languages_);
    window.show();
    QVERIFY(waitForCorpus(window));
    choosePreset(window, QStringLiteral("tiny"));
    const double before = rateBox(window)->value();
    window.findRateButton()->click();
    LearningRateView* view = window.learningRateView();
    QVERIFY(view && view->isVisible());
    view->findButton()->click();
    QTRY_VERIFY_WITH_TIMEOUT(view->useButton()->isEnabled(), 120000);
    QVERIFY2(view->suggestedRate() > 0.0, qPrintable(view->summaryText()));
    QVERIFY(!window.modelInfo().exists);  // no model was made or trained for the window
    QCOMPARE(window.training()->state(), RunState::Idle);
    QCOMPARE(recordedRuns(), std::size_t(0));
    QCOMPARE(rateBox(window)->value(), before);

    view->useButton()->click();
    const double expected = rateBox(window)->valueFromText(rateBox(window)->textFromValue(view->suggestedRate()));
    QCOMPARE(rateBox(window)->value(), expected);
    QVERIFY(std::abs(window.settingsPanel()->settings().learning_rate - view->suggestedRate()) <=
            0.5 * std::pow(10.0, -rateBox(window)->decimals()));
}

// The window's words of a warning are the command line's sentence, in English
// the same text, in Chinese a translation with every number in its place.
void TestHealthWindow::everyWarningHasWordsInBothLanguages() {
    chargpt::HealthWarning w;
    w.step = 812;
    w.layer = 2;
    w.factor = 37.4;
    w.count = 6;
    w.total = 16;
    for (const chargpt::HealthWarning::Kind kind : chargpt::kHealthWarningKinds) {
        w.kind = kind;
        const QString english = QString::fromStdString(chargpt::healthWarningText(w));
        languages_.setLanguage(QStringLiteral("en"), LanguageManager::Remember::No);
        QCOMPARE(HealthView::warningText(w), english);
        languages_.setLanguage(QStringLiteral("zh_CN"), LanguageManager::Remember::No);
        const QString chinese = HealthView::warningText(w);
        QVERIFY2(chinese != english && chinese.contains(QChar(0x6b65)), qPrintable(chinese));  // 步, the step
        QVERIFY2(!chinese.contains(QLatin1Char('%')), qPrintable(chinese));
        for (const std::string& number : chargpt::healthWarningNumbers(w))
            QVERIFY2(chinese.contains(QString::fromStdString(number)), qPrintable(chinese));
    }
    languages_.setLanguage(QStringLiteral("en"), LanguageManager::Remember::No);
}

CHARGPT_TEST_MAIN(TestHealthWindow)
}  // namespace tst_healthwindow
#include "tst_healthwindow.moc"
