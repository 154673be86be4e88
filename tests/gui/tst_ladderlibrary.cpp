// SPDX-License-Identifier: GPL-3.0-or-later
// The Ladder tab of a window opened on a run library that holds ladders
// trained before (by chargpt::trainLadder, as `chargpt ladder` trains them):
// the newest shown with its floors measured again from its built-in corpus,
// exactly those it trained beside; an earlier one picked from the list; and
// one whose corpus file is gone shown without floors and with a line saying why.
#include <QComboBox>
#include <QFile>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <memory>

#include "TestProgram.h"
#include "WindowDriver.h"
#include "app/LanguageManager.h"
#include "app/MainWindow.h"
#include "app/StudioIdentity.h"
#include "model/record/LadderRuns.h"
#include "model/record/RunLibrary.h"
#include "model/text/BuiltinCorpora.h"
#include "model/text/Corpus.h"
#include "model/train/NgramFloors.h"
#include "widgets/LadderView.h"

namespace tst_ladderlibrary {

using namespace window_driver;

namespace {

// Rungs `rungs` trained for two steps on `source` into `library`.
chargpt::LadderReport tinyLadder(const std::shared_ptr<chargpt::RunLibrary>& library, const std::string& source,
                                 std::vector<int> rungs) {
    chargpt::LadderOptions options;
    options.rungs = std::move(rungs);
    options.steps = 2;
    options.batchSize = 2;
    options.evalIters = 1;
    options.library = library;
    options.source = source;
    options.keepWeights = false;
    return chargpt::trainLadder(chargpt::loadCorpusSource(source), options);
}

void compareFloors(const QVector<double>& drawn, const chargpt::LossFloors& trained) {
    QCOMPARE(drawn.size(), 3);
    QCOMPARE(drawn[0], trained.uniform);
    QCOMPARE(drawn[1], trained.unigram);
    QCOMPARE(drawn[2], trained.bigram);
}

}  // namespace

class TestLadderLibrary : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void showsTheLaddersTrainedBefore();

private:
    LanguageManager languages_;
    QTemporaryDir dir_;
};

void TestLadderLibrary::initTestCase() {
    initTestApplication(QStringLiteral("tst_ladderlibrary"));
    resetSettingsAndLanguage(languages_);
    QVERIFY(dir_.isValid());
}

void TestLadderLibrary::showsTheLaddersTrainedBefore() {
    const std::string path = runLibraryPath();
    for (const char* suffix : {"", "-wal", "-shm"}) QFile::remove(QString::fromStdString(path) + QLatin1String(suffix));
    // Oldest first: a ladder on a file deleted since, then two on the Tang poems.
    const QString file = dir_.filePath(QStringLiteral("gone.txt"));
    {
        QFile text(file);
        QVERIFY(text.open(QIODevice::WriteOnly));
        QByteArray words;
        for (int i = 0; words.size() < 12000; ++i) words += QByteArray::number(i * 7919 % 1000) + (i % 9 ? " " : ".\n");
        text.write(words);
    }
    chargpt::LadderReport gone, earlier, newest;
    {
        auto library = std::shared_ptr<chargpt::RunLibrary>(chargpt::RunLibrary::open(path));
        gone = tinyLadder(library, QFile::encodeName(file).toStdString(), {1});
        earlier = tinyLadder(library, "builtin:tang300", {1, 2});
        newest = tinyLadder(library, "builtin:tang300", {1, 2, 3});
    }
    QVERIFY(QFile::remove(file));

    MainWindow window(&languages_);
    window.show();
    LadderView* view = window.ladderView();
    window.tabs()->setCurrentWidget(view);
    // The newest, its floors measured on the runs thread: those it trained beside.
    QTRY_COMPARE_WITH_TIMEOUT(view->history().size(), 3, 20000);
    QCOMPARE(view->shownRecord(), 0);
    QCOMPARE(view->rungs().size(), 3);
    for (int i = 0; i < 3; ++i) {
        QCOMPARE(view->rungs()[i].runId, newest.rows[std::size_t(i)].runId);
        QCOMPARE(view->rungs()[i].bestValLoss, newest.rows[std::size_t(i)].bestValLoss);
        QCOMPARE(view->rungs()[i].parameters, newest.rows[std::size_t(i)].parameters);
        QCOMPARE(view->rungs()[i].step, qint64(2));
    }
    QTRY_VERIFY_WITH_TIMEOUT(view->floorsNote().isEmpty(), 20000);
    compareFloors(view->floorLines(), newest.floors);
    // Its text is the one it trained on: the n-gram floors of that text, split as its rungs split it.
    const LadderRecord& shown = view->history()[0];
    const chargpt::NgramFloors ngrams =
        chargpt::ngramFloors(chargpt::loadCorpusSource("builtin:tang300"), shown.sequenceLen,
                             shown.valFraction, chargpt::ladderSettings(1).seed);
    QTRY_VERIFY_WITH_TIMEOUT(std::isfinite(view->ngramLines()[0]), 30000);
    for (int n = 2; n <= 5 && n <= int(ngrams.floors.size()); ++n)
        QCOMPARE(view->ngramLines()[n - 2], ngrams.floors[std::size_t(n - 1)].loss);
    QCOMPARE(view->table()->rowCount(), 3);
    QVERIFY(!view->lesson().isEmpty());
    QVERIFY2(view->heading().contains(QStringLiteral("builtin:tang300")), qPrintable(view->heading()));
    QCOMPARE(view->historyBox()->count(), 3);
    QVERIFY(view->historyBox()->isVisible());

    // The earlier one on the same text, picked from the list.
    view->historyBox()->setFocus();
    QTest::keyClick(view->historyBox(), Qt::Key_Down);
    QCOMPARE(view->shownRecord(), 1);
    QCOMPARE(view->rungs().size(), 2);
    QCOMPARE(view->rungs()[1].runId, earlier.rows[1].runId);
    QTRY_VERIFY_WITH_TIMEOUT(view->floorsNote().isEmpty(), 20000);
    compareFloors(view->floorLines(), earlier.floors);

    // The oldest, whose file is gone: its rung, no floors, and why.
    QTest::keyClick(view->historyBox(), Qt::Key_Down);
    QCOMPARE(view->shownRecord(), 2);
    QCOMPARE(view->rungs().size(), 1);
    QCOMPARE(view->rungs()[0].runId, gone.rows[0].runId);
    QTRY_VERIFY_WITH_TIMEOUT(view->floorsNote().contains(QStringLiteral("no longer there")), 20000);
    for (const double floor : view->floorLines()) QVERIFY(std::isnan(floor));
    QCOMPARE(view->bestPoints().size(), 1);

    // In Chinese the lines about the ladder shown follow, its rungs kept.
    languages_.setLanguage(QStringLiteral("zh_CN"), LanguageManager::Remember::No);
    QTRY_VERIFY2(view->floorsNote().startsWith(QStringLiteral("没有画出下限")), qPrintable(view->floorsNote()));
    QVERIFY2(view->heading().startsWith(QStringLiteral("在 ")), qPrintable(view->heading()));
    QVERIFY2(view->historyBox()->itemText(0).contains(QStringLiteral("（3 级）")),
             qPrintable(view->historyBox()->itemText(0)));
    QCOMPARE(view->shownRecord(), 2);
    QCOMPARE(view->rungs().size(), 1);
    languages_.setLanguage(QStringLiteral("en"), LanguageManager::Remember::No);
    QTRY_VERIFY(view->historyBox()->itemText(0).contains(QStringLiteral("(3 rungs)")));
}

CHARGPT_TEST_MAIN(TestLadderLibrary)
}  // namespace tst_ladderlibrary
#include "tst_ladderlibrary.moc"
