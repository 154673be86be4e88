// SPDX-License-Identifier: GPL-3.0-or-later
// The window's Runs tab with real runs: a run trained in the window is
// recorded, listed, drawn, renamed, continued (a second run) and deleted; a
// library that is no database is set aside.
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLocale>
#include <QDir>
#include <QFileInfo>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <cmath>
#include <random>

#include <qcustomplot.h>

#include "widgets/CorpusPanel.h"
#include "app/LanguageManager.h"
#include "widgets/LadderHistory.h"
#include "widgets/LossPlot.h"
#include "app/MainWindow.h"
#include "app/TrainingController.h"
#include "widgets/RunsCompare.h"
#include "app/RunsController.h"
#include "widgets/RunsList.h"
#include "widgets/RunsPage.h"
#include "app/StudioIdentity.h"
#include "model/runtime/Runtime.h"
#include "widgets/SettingsPanel.h"
#include "widgets/Timeline.h"
#include "widgets/TrainingPanel.h"
#include "WindowDriver.h"
#include "TestProgram.h"

namespace tst_runstab {

using namespace window_driver;

class TestRunsTab : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void runsAreRecordedListedAndContinued();
    void eachRunOpensItsOwnModel();
    void floorsOfALargeCorpusDoNotHoldUpTheList();

private:
    LanguageManager languages_;
    QTemporaryDir dir_;
};

void TestRunsTab::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("CharGPT-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_runstab"));
    window_driver::initTestThreads();
    QVERIFY(dir_.isValid());
}

void TestRunsTab::init() {
    window_driver::clearSettings();
    languages_.setLanguage(QStringLiteral("en"), LanguageManager::Remember::No);
}

// A run trained in the window goes into the run library, as chargpt train's
// do: the Runs tab lists it with its checkpoint, draws it when ticked, renames
// it, Continue training opens its checkpoint and trains on (a second run), and
// Delete removes it.
void TestRunsTab::runsAreRecordedListedAndContinued() {
    // A library that is no database: set aside with a message, a new one started.
    const QString library = QString::fromStdString(runLibraryPath());
    for (const QString& suffix : {QString(), QStringLiteral("-wal"), QStringLiteral("-shm")})
        QFile::remove(library + suffix);
    QVERIFY(QDir().mkpath(QFileInfo(library).absolutePath()));
    QFile garbage(library);
    QVERIFY(garbage.open(QIODevice::WriteOnly));
    garbage.write(QByteArray(5000, 'x'));
    garbage.close();
    MainWindow window(&languages_);
    window.show();
    QVERIFY(waitForCorpus(window));
    QTRY_VERIFY2(window.messageText().contains(QStringLiteral("moved to")), qPrintable(window.messageText()));
    const QStringList aside = QFileInfo(library).dir().entryList({QStringLiteral("runs.sqlite.unreadable-*")});
    QVERIFY(!aside.isEmpty());
    QFile kept(QFileInfo(library).dir().filePath(aside.last()));
    QVERIFY(kept.open(QIODevice::ReadOnly));
    QCOMPARE(kept.readAll(), QByteArray(5000, 'x'));
    trainTinyToEnd(window, 30);
    const QString path = dir_.filePath(QStringLiteral("recorded.pt"));
    WorkerSpy saved(window.training()->worker(), &TrainingWorker::saved);
    window.saveCheckpointTo(path);
    while (saved.isEmpty() || saved.last().first().toString() != path)
        QVERIFY(saved.wait(20000));

    // Shown, the tab reads the library.
    QSignalSpy listed(window.runs(), &RunsController::listed);
    window.tabs()->setCurrentWidget(window.runsPage());
    QVERIFY(listed.wait(10000));
    RunsList* list = window.runsPage()->list();
    QCOMPARE(list->runs().size(), 1);
    const RunRow run = list->runs().first();
    QVERIFY(run.origin == chargpt::RunOrigin::App);
    QCOMPARE(run.preset, QStringLiteral("tiny"));
    QCOMPARE(run.corpus, QStringLiteral("builtin:tang300"));
    QCOMPARE(run.step, qint64(30));
    QVERIFY(run.ended.isValid());
    QCOMPARE(run.endReason, std::optional<chargpt::EndReason>(chargpt::EndReason::Finished));
    QVERIFY(std::isfinite(run.bestValLoss));
    QCOMPARE(run.lastCheckpoint, QFileInfo(path).absoluteFilePath());
    QCOMPARE(run.setting(QStringLiteral("max_steps")), QStringLiteral("30"));
    // In Chinese, its corpus by its Chinese name and its start in Chinese's
    // own date form, written again when the language changes.
    languages_.setLanguage(QStringLiteral("zh_CN"), LanguageManager::Remember::No);
    const QLocale chinese(QLocale::Chinese, QLocale::China);
    QTRY_COMPARE(list->table()->item(0, 7)->text(), chinese.toString(run.started.toLocalTime(), QLocale::ShortFormat));
    QCOMPARE(list->table()->item(0, 2)->text(), QStringLiteral("唐诗三百首"));
    languages_.setLanguage(QStringLiteral("en"), LanguageManager::Remember::No);
    QTRY_COMPARE(list->table()->item(0, 7)->text(),
                 QLocale::system().toString(run.started.toLocalTime(), QLocale::ShortFormat));

    // Ticked, its curves arrive and are drawn: 30 training points.
    list->table()->item(0, 0)->setCheckState(Qt::Checked);
    QCustomPlot* plot = window.runsPage()->compare()->plot();
    auto longest = [plot] {
        int points = 0;
        for (int i = 0; i < plot->graphCount(); ++i)
            points = std::max(points, plot->graph(i)->data()->size());
        return points;
    };
    QTRY_COMPARE(longest(), 30);

    // The comparison draws on the Training tab's plot: the unit switch, the log
    // scale and the export, here on a real run.
    RunsCompare* compare = window.runsPage()->compare();
    LossPlot* comparePlot = compare->lossPlot();
    QCOMPARE(comparePlot->layoutKind(), LossPlot::Layout::Runs);
    // A change of unit draws the series again, in new graphs: the one named
    // for the run is looked up each time (an old pointer would be freed).
    auto validation = [plot, compare]() -> QCPGraph* {
        for (int i = 0; i < plot->graphCount(); ++i)
            if (plot->graph(i)->name() == compare->seriesNames().value(0))
                return plot->graph(i);
        return nullptr;
    };
    QVERIFY(validation() && !validation()->data()->isEmpty());
    const double nats = validation()->data()->at(0)->value;
    comparePlot->setUnit(LossUnit::Bits);
    QVERIFY(validation());
    QCOMPARE(validation()->data()->at(0)->value, nats / std::log(2.0));
    comparePlot->setLogScale(true);
    QCOMPARE(plot->yAxis->scaleType(), QCPAxis::stLogarithmic);
    QVERIFY(comparePlot->findChild<QPushButton*>(QStringLiteral("exportButton"))->isVisible());
    const QString csvPath = dir_.filePath(QStringLiteral("runs.csv"));
    QString csvError;
    QVERIFY2(compare->exportTo(csvPath, &csvError), qPrintable(csvError));
    QFile csv(csvPath);
    QVERIFY(csv.open(QIODevice::ReadOnly));
    QCOMPARE(csv.readLine(), QByteArray("series,runs,curve,step,loss,loss_bits\n"));
    comparePlot->setLogScale(false);
    comparePlot->setUnit(LossUnit::Nats);

    // Renamed in the table, renamed in the library.
    list->table()->item(0, 1)->setText(QStringLiteral("first run"));
    QVERIFY(listed.wait(10000));
    QCOMPARE(list->runs().first().name, QStringLiteral("first run"));

    // Continue training: its checkpoint opened and trained 30 steps more, a second run.
    QSignalSpy ended(window.training(), &TrainingController::trainingFinished);
    list->selectRun(run.id);
    QTest::mouseClick(list->findChild<QPushButton*>(QStringLiteral("runsContinue")), Qt::LeftButton);
    QVERIFY2(ended.wait(120000), qPrintable(window.messageText()));
    QCOMPARE(window.modelInfo().step, qint64(60));
    QTRY_COMPARE(list->runs().size(), 2);
    QTRY_COMPARE(list->runs().first().step, qint64(60));  // listed at its start, then at its end
    QVERIFY(list->runs().first().id > run.id);
    QCOMPARE(list->runs().first().firstStep, qint64(30));
    QVERIFY2(list->table()->item(0, 8)->text().contains(QStringLiteral("steps 30 to 60")),
             qPrintable(list->table()->item(0, 8)->text()));

    // Delete asks, and removes only that run.
    QStringList asked;
    list->setConfirmation([&asked](const QString& question) {
        asked << question;
        return true;
    });
    list->selectRun(run.id);
    list->deleteSelected();
    QCOMPARE(asked.size(), 1);
    QTRY_COMPARE(list->runs().size(), 1);
    QVERIFY(list->runs().first().id != run.id);
}

// Two models trained one after the other in the window, each autosaved at its
// end: Open in the Runs tab opens each run's own model, and the run's kept
// steps go on the timeline. A run's file written over by another model since
// is refused with a sentence saying so; the model and the timeline stay.
void TestRunsTab::eachRunOpensItsOwnModel() {
    const QString library = QString::fromStdString(runLibraryPath());
    for (const QString& suffix : {QString(), QStringLiteral("-wal"), QStringLiteral("-shm")})
        QFile::remove(library + suffix);
    MainWindow window(&languages_);
    window.show();
    QVERIFY(waitForCorpus(window));
    trainTinyToEnd(window, 30);
    const QString firstFile = window.training()->autosavePath();
    QTest::mouseClick(window.trainingPanel()->resetButton(), Qt::LeftButton);
    QTRY_VERIFY(!window.modelInfo().exists);
    trainTinyToEnd(window, 12);
    const QString secondFile = window.training()->autosavePath();
    QVERIFY2(firstFile != secondFile, qPrintable(firstFile));
    QTRY_VERIFY(QFileInfo(secondFile).size() > 0);

    QSignalSpy listed(window.runs(), &RunsController::listed);
    window.tabs()->setCurrentWidget(window.runsPage());
    RunsList* list = window.runsPage()->list();
    QTRY_COMPARE(list->runs().size(), 2);
    QTRY_VERIFY(!list->runs().at(0).lastCheckpoint.isEmpty() && !list->runs().at(1).lastCheckpoint.isEmpty());
    const RunRow second = list->runs().at(0);  // newest first
    const RunRow first = list->runs().at(1);
    QCOMPARE(first.step, qint64(30));
    QCOMPARE(first.lastCheckpoint, QFileInfo(firstFile).absoluteFilePath());
    QCOMPARE(second.lastCheckpoint, QFileInfo(secondFile).absoluteFilePath());

    auto* open = list->findChild<QPushButton*>(QStringLiteral("runsOpen"));
    WorkerSpy opened(window.training()->worker(), &TrainingWorker::checkpointOpened);
    list->selectRun(first.id);
    QTest::mouseClick(open, Qt::LeftButton);
    QVERIFY(opened.wait(20000));
    QCOMPARE(window.modelInfo().step, qint64(30));
    QTRY_COMPARE(window.timeline()->run(), first.id);
    list->selectRun(second.id);
    QTest::mouseClick(open, Qt::LeftButton);
    QVERIFY(opened.wait(20000));
    QCOMPARE(window.modelInfo().step, qint64(12));
    QTRY_COMPARE(window.timeline()->run(), second.id);

    // The first run's file now holds the second's model.
    QVERIFY(QFile::remove(firstFile));
    QVERIFY(QFile::copy(secondFile, firstFile));
    WorkerSpy failed(window.training()->worker(), &TrainingWorker::checkpointFailed);
    list->selectRun(first.id);
    QTest::mouseClick(open, Qt::LeftButton);
    QVERIFY(failed.wait(20000));
    QTRY_VERIFY2(window.messageText().contains(QStringLiteral("no longer holds the model of run %1").arg(first.id)),
                 qPrintable(window.messageText()));
    QCOMPARE(window.modelInfo().step, qint64(12));
    QTest::qWait(300);
    QCOMPARE(window.timeline()->run(), second.id);
}

// The floors of a recorded ladder are measured from its corpus, which may be a
// file of hundreds of megabytes: the list of runs asked for after them comes
// while they are still being measured, and then they come too.
void TestRunsTab::floorsOfALargeCorpusDoNotHoldUpTheList() {
    QTemporaryDir corpusDir;
    QVERIFY(corpusDir.isValid());
    const QString path = corpusDir.filePath(QStringLiteral("large.txt"));
    {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        const QByteArray block = QByteArray("To be, or not to be, that is the question:\n").repeated(1 << 14);
        for (int i = 0; i < 64; ++i) QVERIFY(file.write(block) == block.size());  // 46 MB
    }
    RunsPage page;
    RunsController controller(&page);
    LadderRecord ladder;
    ladder.corpus = path;
    ladder.corpusHash = QStringLiteral("0000000000000000");  // read whole to find it changed
    QSignalSpy measured(controller.floorsWorker(), &LadderFloorsWorker::measured);
    QSignalSpy listed(&controller, &RunsController::listed);
    controller.measureLadderFloors(ladder);
    controller.refresh();
    QVERIFY(listed.wait(30000));
    QCOMPARE(measured.count(), 0);
    QVERIFY(measured.count() == 1 || measured.wait(120000));
    QVERIFY2(measured.first().at(2).toString().contains(QStringLiteral("changed")),
             qPrintable(measured.first().at(2).toString()));
}

CHARGPT_TEST_MAIN(TestRunsTab)
}  // namespace tst_runstab
#include "tst_runstab.moc"
