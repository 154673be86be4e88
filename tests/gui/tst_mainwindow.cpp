// SPDX-License-Identifier: GPL-3.0-or-later
// The whole window, offscreen, with real training on its worker thread (its
// Runs tab is tst_runstab's).
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFile>
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

#include <random>

#include <qcustomplot.h>

#include "widgets/CorpusPanel.h"
#include "widgets/FilmstripPage.h"
#include "app/LanguageManager.h"
#include "widgets/LossPlot.h"
#include "app/MainWindow.h"
#include "app/TrainingController.h"
#include "model/runtime/Runtime.h"
#include "widgets/SettingsPanel.h"
#include "widgets/SurpriseData.h"
#include "widgets/TrainingPanel.h"
#include "WindowDriver.h"
#include "TestProgram.h"

namespace tst_mainwindow {

using namespace window_driver;

class TestMainWindow : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void opensWithDefaultCorpus();
    void opensWithBuiltinCorpus();
    void invalidSettingsDisableStart_data();
    void invalidSettingsDisableStart();
    void badCorpusKeepsThePreviousOne();
    void trainsPausesResumesAndStops();
    void memorisingIsMarkedAndBestRestored();
    void changingArchitectureAsksBeforeDiscarding();
    void corruptCheckpointKeepsModel();
    void savedCheckpointRestoresHistory();
    void switchingLanguageRetranslates();
    void closingDuringTrainingExitsCleanly();

private:
    LanguageManager languages_;
    QTemporaryDir dir_;
};

void TestMainWindow::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("CharGPT-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_mainwindow"));
    window_driver::initTestThreads();
    QVERIFY(dir_.isValid());
}

void TestMainWindow::init() {
    window_driver::clearSettings();
    languages_.setLanguage(QStringLiteral("en"), LanguageManager::Remember::No);
}

void TestMainWindow::opensWithDefaultCorpus() {
    QSettings().clear();  // a first start: no corpus remembered
    MainWindow window(&languages_);
    window.show();
    QVERIFY(waitForCorpus(window));
    // The Python library (installed with python3, which the tests need anyway):
    // large enough that the default preset learns from it (README, "The first run").
    QCOMPARE(window.corpusInfo().source, QStringLiteral("builtin:python"));
    QVERIFY(window.corpusInfo().characters > 1000000);
    QVERIFY(window.corpusInfo().trainingTokens > 900000);
    // Both reference levels are known, the unigram entropy below the uniform guess.
    QVERIFY(window.corpusInfo().unigramEntropy > 1.0);
    QVERIFY(window.corpusInfo().unigramEntropy < std::log(double(window.corpusInfo().vocabularySize)));
    QCOMPARE(window.settingsPanel()->settings().preset_name, std::string("fast"));
    QCOMPARE(window.settingsPanel()->settings().max_steps, int64_t(3000));  // under 20 passes: the preset as it is
    QVERIFY(window.settingsPanel()->passesWarningText().isEmpty());
    // A first start fills the screen; the size the user then gives it is kept.
    QVERIFY(QTest::qWaitFor([&] { return window.isMaximized(); }, 2000));
    window.showNormal();
    const QRect chosen(QPoint(30, 40), QSize(700, 500).expandedTo(window.minimumSizeHint()));
    window.setGeometry(chosen);
    QVERIFY(QTest::qWaitFor([&] { return window.geometry() == chosen; }, 2000));
    window.close();
    MainWindow again(&languages_);
    again.show();
    QVERIFY(waitForCorpus(again));
    QVERIFY(!again.isMaximized());
    QCOMPARE(again.geometry(), chosen);
}

void TestMainWindow::opensWithBuiltinCorpus() {
    MainWindow window(&languages_);
    window.show();
    QVERIFY(waitForCorpus(window));
    QCOMPARE(window.corpusInfo().source, QStringLiteral("builtin:tang300"));
    QVERIFY(window.corpusInfo().vocabularySize > 1000);  // thousands of distinct hanzi
    QVERIFY(window.corpusInfo().characters > 20000);
    QVERIFY(!window.corpusInfo().preview.contains(QChar(0x1b)));  // colour codes stripped
    QVERIFY(!window.corpusInfo().preview.contains(QStringLiteral("\n%\n")));
    QVERIFY(window.corpusPanel()->errorText().isEmpty());
    QCOMPARE(window.settingsPanel()->settings().preset_name, std::string("fast"));
    QCOMPARE(window.settingsPanel()->settings().emb_size, int64_t(128));
    // The preset fitted to 26,619 training characters: no more than about 20
    // passes over them, with dropout and weight decay against memorising.
    QVERIFY(window.settingsPanel()->settings().max_steps < 3000);
    QVERIFY(window.settingsPanel()->settings().dropout > 0.0);
    QVERIFY(window.settingsPanel()->passesWarningText().isEmpty());
    QVERIFY(!window.settingsPanel()->passesText().isEmpty());
    QVERIFY(window.trainingPanel()->startButton()->isEnabled());
    // Training, Attention, Surprise, Inside, Softmax lab, Generate, Filmstrip, Runs, Ladder
    QCOMPARE(window.tabs()->count(), 9);
}

void TestMainWindow::invalidSettingsDisableStart_data() {
    QTest::addColumn<QString>("field");
    QTest::addColumn<int>("value");
    QTest::addColumn<QString>("reason");
    QTest::newRow("head size does not divide") << "head_size" << 7 << "divisible";
    QTest::newRow("no layers") << "n_layer" << 0 << "n_layer";
    QTest::newRow("no batch") << "batch_size" << 0 << "batch_size";
    QTest::newRow("context of one") << "sequence_len" << 1 << "sequence_len";
}

void TestMainWindow::invalidSettingsDisableStart() {
    QFETCH(QString, field);
    QFETCH(int, value);
    QFETCH(QString, reason);
    MainWindow window(&languages_);
    window.show();
    QVERIFY(waitForCorpus(window));
    auto* spin = qobject_cast<QSpinBox*>(window.settingsPanel()->field(field));
    QVERIFY(spin);
    const int good = spin->value();
    spin->setValue(value);
    QVERIFY(!window.trainingPanel()->startButton()->isEnabled());
    QVERIFY2(window.trainingPanel()->startBlockedText().contains(reason),
             qPrintable(window.trainingPanel()->startBlockedText()));
    QVERIFY(window.settingsPanel()->problemText().contains(reason));
    QVERIFY(!spin->styleSheet().isEmpty());  // marked inline
    spin->setValue(good);
    QVERIFY(window.trainingPanel()->startButton()->isEnabled());
    QVERIFY(window.trainingPanel()->startBlockedText().isEmpty());
    QVERIFY(spin->styleSheet().isEmpty());
}

void TestMainWindow::badCorpusKeepsThePreviousOne() {
    MainWindow window(&languages_);
    window.show();
    QVERIFY(waitForCorpus(window));
    const CorpusSummary before = window.corpusInfo();

    const QString binary = dir_.filePath(QStringLiteral("binary.txt"));
    QFile file(binary);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QByteArray("abc\0\x01\x02" "def", 9));
    file.close();
    QSignalSpy rejected(window.training(), &TrainingController::corpusFailed);
    window.openCorpus(binary);
    QVERIFY(rejected.wait(10000));
    QVERIFY2(window.corpusPanel()->errorText().contains(QStringLiteral("binary.txt")),
             qPrintable(window.corpusPanel()->errorText()));
    QCOMPARE(window.corpusInfo().source, before.source);
    QCOMPARE(window.corpusInfo().vocabularySize, before.vocabularySize);
    QVERIFY(window.trainingPanel()->startButton()->isEnabled());

    // A good file replaces it and clears the message.
    const QString text = dir_.filePath(QStringLiteral("hello.txt"));
    QFile good(text);
    QVERIFY(good.open(QIODevice::WriteOnly));
    good.write("hello world, hello corpus\n");
    good.close();
    WorkerSpy ready(window.training()->worker(), &TrainingWorker::corpusLoaded);
    window.openCorpus(text);
    QVERIFY(ready.wait(10000));
    QCOMPARE(window.corpusInfo().source, text);
    QCOMPARE(window.corpusInfo().characters, 26);
    QVERIFY(window.corpusPanel()->errorText().isEmpty());
}

void TestMainWindow::trainsPausesResumesAndStops() {
    MainWindow window(&languages_);
    window.show();
    QVERIFY(waitForCorpus(window));
    startTiny(window, 1000000, 20);
    QVERIFY(window.isTraining());
    QVERIFY(window.workerThread()->isRunning());
    QVERIFY(window.lossPlot()->trainPointCount() >= 20);
    const int replots = window.lossPlot()->replotCount();
    WorkerSpy progress(window.training()->worker(), &TrainingWorker::progress);
    QTRY_VERIFY(window.lossPlot()->replotCount() > replots);  // the GUI thread keeps drawing

    QTest::mouseClick(window.trainingPanel()->pauseButton(), Qt::LeftButton);
    QCOMPARE(window.trainingPanel()->state(), RunState::Paused);
    QCOMPARE(window.trainingPanel()->pauseButton()->text(), QStringLiteral("Resume"));
    // Updates already on their way may arrive, and one more step when the views
    // asked for the weights of a step not copied yet (TrainingWorker::requestFrozenModel);
    // once 300 ms pass without one, nothing while paused.
    for (int i = 0; i < 10 && progress.wait(300); ++i) {
    }
    progress.clear();
    const int pausedPoints = window.lossPlot()->trainPointCount();
    QVERIFY(!progress.wait(600));
    QCOMPARE(window.lossPlot()->trainPointCount(), pausedPoints);

    // Saving while paused happens on the worker between two steps; it stays paused.
    const QString path = dir_.filePath(QStringLiteral("paused.pt"));
    WorkerSpy saved(window.training()->worker(), &TrainingWorker::saved);
    window.saveCheckpointTo(path);
    while (saved.isEmpty() || saved.last().first().toString() != path)
        QVERIFY(saved.wait(20000));
    QVERIFY(QFileInfo(path).size() > 1000);
    QCOMPARE(window.trainingPanel()->state(), RunState::Paused);
    progress.clear();
    QVERIFY(!progress.wait(500));

    QTest::mouseClick(window.trainingPanel()->pauseButton(), Qt::LeftButton);
    QCOMPARE(window.trainingPanel()->state(), RunState::Training);
    QVERIFY(progress.wait(10000));
    QTRY_VERIFY(window.lossPlot()->trainPointCount() > pausedPoints);

    QSignalSpy ended(window.training(), &TrainingController::trainingFinished);
    QTest::mouseClick(window.trainingPanel()->stopButton(), Qt::LeftButton);
    QVERIFY(ended.wait(60000));
    QCOMPARE(runEndName(ended.first().first().value<EndReason>()), runEndName(EndReason::Stopped));
    QVERIFY(!window.isTraining());
    QVERIFY(window.modelInfo().exists);
    QVERIFY(window.modelInfo().step < 1000000);
    QCOMPARE(window.lossPlot()->trainPointCount(), int(window.modelInfo().step));
    QVERIFY(window.lossPlot()->evalPointCount() >= 1);  // evaluation at stop
    QVERIFY(window.trainingPanel()->startButton()->isEnabled());
    QVERIFY(window.messageText().isEmpty());
}

// A text far too small for its run: the settings warn before it starts, the
// plot marks where memorising began, the message bar says what it means, and
// Restore best puts back the weights of the lowest validation loss.
void TestMainWindow::memorisingIsMarkedAndBestRestored() {
    const QString text = dir_.filePath(QStringLiteral("letters.txt"));
    {
        std::mt19937 rng(7);
        QByteArray letters;
        for (int i = 0; i < 400; ++i) letters += char('a' + rng() % 26);
        QFile file(text);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(letters);
    }
    MainWindow window(&languages_);
    window.show();
    QVERIFY(waitForCorpus(window));
    WorkerSpy ready(window.training()->worker(), &TrainingWorker::corpusLoaded);
    window.openCorpus(text);
    QVERIFY(ready.wait(10000));
    QCOMPARE(window.corpusInfo().trainingTokens, 335);  // 400 less the 65 held out
    choosePreset(window, QStringLiteral("tiny"));
    setSpin(window, QStringLiteral("max_steps"), 300);
    setSpin(window, QStringLiteral("batch_size"), 16);
    for (const auto& [field, value] : {std::pair{"learning_rate", 0.01}, {"dropout", 0.0}, {"weight_decay", 0.0}}) {
        auto* spin = qobject_cast<QDoubleSpinBox*>(window.settingsPanel()->field(QLatin1String(field)));
        QVERIFY2(spin, field);
        spin->setValue(value);
    }
    // 300 x 16 x 16 characters over 335: about 229 passes.
    QVERIFY2(window.settingsPanel()->passesText().contains(QStringLiteral("229")),
             qPrintable(window.settingsPanel()->passesText()));
    QVERIFY(!window.settingsPanel()->passesWarningText().isEmpty());
    QVERIFY(!window.lossPlot()->overfittingLine()->visible());

    QSignalSpy ended(window.training(), &TrainingController::trainingFinished);
    QTest::mouseClick(window.trainingPanel()->startButton(), Qt::LeftButton);
    QVERIFY(ended.wait(120000));
    const ModelSummary model = window.modelInfo();
    QCOMPARE(model.step, 300);
    QVERIFY(model.bestStep);
    const qint64 bestStep = *model.bestStep;
    QVERIFY2(bestStep >= 0 && bestStep < 300, qPrintable(QString::number(bestStep)));
    QVERIFY(window.lossPlot()->overfittingLine()->visible());
    QVERIFY(window.messageText().contains(QStringLiteral("memorising")));
    QVERIFY(window.messageText().contains(QStringLiteral("step %1").arg(bestStep)));
    // The message follows the language, as the rest of the window does.
    languages_.setLanguage(QStringLiteral("zh_CN"), LanguageManager::Remember::No);
    QTRY_VERIFY(window.messageText().contains(QStringLiteral("死记硬背")));
    QVERIFY(window.messageText().contains(QString::number(bestStep)));
    languages_.setLanguage(QStringLiteral("en"), LanguageManager::Remember::No);
    QTRY_VERIFY(window.messageText().contains(QStringLiteral("memorising")));
    QPushButton* restore = window.trainingPanel()->restoreBestButton();
    QVERIFY(restore->isEnabled());

    QSignalSpy changed(&window, &MainWindow::modelReady);
    QTest::mouseClick(restore, Qt::LeftButton);
    QVERIFY(changed.wait(10000));
    QCOMPARE(window.modelInfo().weightsStep, bestStep);
    QCOMPARE(window.modelInfo().step, 300);  // the history and step stay
    QTRY_VERIFY(!restore->isEnabled());       // these are the best weights now
}

void TestMainWindow::changingArchitectureAsksBeforeDiscarding() {
    MainWindow window(&languages_);
    window.show();
    QVERIFY(waitForCorpus(window));
    startTiny(window, 30, 30);
    QSignalSpy ended(window.training(), &TrainingController::trainingFinished);
    if (window.isTraining())
        QVERIFY(ended.wait(60000));
    QCOMPARE(window.modelInfo().step, 30);

    setSpin(window, QStringLiteral("emb_size"), 64);
    answerNextMessageBox(QMessageBox::Cancel);
    QTest::mouseClick(window.trainingPanel()->startButton(), Qt::LeftButton);
    QVERIFY(!window.isTraining());
    QCOMPARE(window.modelInfo().step, 30);
    QCOMPARE(window.lossPlot()->trainPointCount(), 30);

    answerNextMessageBox(QMessageBox::Discard);
    QTest::mouseClick(window.trainingPanel()->startButton(), Qt::LeftButton);
    QVERIFY(window.isTraining());
    QVERIFY(ended.wait(60000));
    QCOMPARE(window.modelInfo().step, 30);  // a new model, trained from step 0
    QCOMPARE(window.modelInfo().settings.emb_size, int64_t(64));
    QCOMPARE(window.lossPlot()->trainPointCount(), 30);
}

void TestMainWindow::corruptCheckpointKeepsModel() {
    MainWindow window(&languages_);
    window.show();
    QVERIFY(waitForCorpus(window));
    startTiny(window, 40, 40);
    QSignalSpy ended(window.training(), &TrainingController::trainingFinished);
    if (window.isTraining())
        QVERIFY(ended.wait(60000));
    const qint64 step = window.modelInfo().step;
    const qint64 parameters = window.modelInfo().parameters;
    QCOMPARE(step, 40);
    const int points = window.lossPlot()->trainPointCount();

    const QString path = dir_.filePath(QStringLiteral("corrupt.pt"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("PK\x03\x04 this is not a checkpoint");
    file.close();

    QSignalSpy message(&window, &MainWindow::messageShown);
    window.openCheckpoint(path);
    QVERIFY(message.wait(10000));
    QVERIFY2(window.messageText().contains(QStringLiteral("corrupt.pt")), qPrintable(window.messageText()));
    QVERIFY(window.messageText().contains(QStringLiteral("unchanged")));
    QCOMPARE(window.modelInfo().step, step);
    QCOMPARE(window.modelInfo().parameters, parameters);
    QCOMPARE(window.lossPlot()->trainPointCount(), points);

    // The model still trains from where it was.
    setSpin(window, QStringLiteral("max_steps"), 60);
    QTest::mouseClick(window.trainingPanel()->startButton(), Qt::LeftButton);
    QVERIFY(ended.wait(60000));
    QCOMPARE(window.modelInfo().step, 60);
    QCOMPARE(window.lossPlot()->trainPointCount(), 60);
}

void TestMainWindow::savedCheckpointRestoresHistory() {
    const QString path = dir_.filePath(QStringLiteral("saved.pt"));
    qint64 step = 0;
    {
        MainWindow window(&languages_);
        window.show();
        QVERIFY(waitForCorpus(window));
        // The precision is part of the model's settings: it trains with it and keeps it.
        auto* bf16 = qobject_cast<QCheckBox*>(window.settingsPanel()->field(QStringLiteral("bf16")));
        QVERIFY(bf16);
        bf16->setChecked(true);
        startTiny(window, 30, 30);
        QSignalSpy ended(window.training(), &TrainingController::trainingFinished);
        if (window.isTraining())
            QVERIFY(ended.wait(60000));
        step = window.modelInfo().step;
        WorkerSpy saved(window.training()->worker(), &TrainingWorker::saved);
        window.saveCheckpointTo(path);
        while (saved.isEmpty() || saved.last().first().toString() != path)
            QVERIFY(saved.wait(20000));
    }
    MainWindow window(&languages_);
    window.show();
    QVERIFY(waitForCorpus(window));
    qobject_cast<QCheckBox*>(window.settingsPanel()->field(QStringLiteral("bf16")))->setChecked(false);
    setSpin(window, QStringLiteral("max_steps"), 500);
    const int64_t steps = window.settingsPanel()->settings().max_steps;
    QCOMPARE(steps, int64_t(500));
    QSignalSpy ready(&window, &MainWindow::modelReady);
    window.openCheckpoint(path);
    QVERIFY(ready.wait(20000));
    QCOMPARE(window.modelInfo().step, step);
    // It reached its own total (30 of 30): the Steps set stay, not its step count.
    QCOMPARE(window.settingsPanel()->settings().max_steps, steps);
    QCOMPARE(window.lossPlot()->trainPointCount(), int(step));
    QCOMPARE(window.settingsPanel()->settings().emb_size, int64_t(32));
    QVERIFY(window.settingsPanel()->settings().bf16);
    QVERIFY(window.messageText().isEmpty());
}

void TestMainWindow::switchingLanguageRetranslates() {
    MainWindow window(&languages_);
    window.show();
    QVERIFY(waitForCorpus(window));
    QCOMPARE(window.trainingPanel()->startButton()->text(), QStringLiteral("Start"));
    QCOMPARE(window.tabs()->tabText(0), QStringLiteral("Training"));
    // The language change reaches the widgets as a posted event.
    languages_.setLanguage(QStringLiteral("zh_CN"), LanguageManager::Remember::No);
    QTRY_COMPARE(window.trainingPanel()->startButton()->text(), QStringLiteral("开始"));
    QCOMPARE(window.tabs()->tabText(0), QStringLiteral("训练"));
    QCOMPARE(window.tabs()->tabText(window.tabs()->indexOf(window.filmstripPage())), QStringLiteral("胶片"));
    // Words written outside a widget class (the Surprise tab's tooltips and legends) too.
    QVERIFY2(surpriseComparisonText(QStringLiteral("L1 H2")).startsWith(QStringLiteral("颜色")),
             qPrintable(surpriseComparisonText(QStringLiteral("L1 H2"))));
    QCOMPARE(window.corpusPanel()->title(), QStringLiteral("语料"));
    QCOMPARE(window.settingsPanel()->title(), QStringLiteral("模型与训练"));
    languages_.setLanguage(QStringLiteral("en"), LanguageManager::Remember::No);
    QTRY_COMPARE(window.trainingPanel()->startButton()->text(), QStringLiteral("Start"));
    QCOMPARE(window.corpusPanel()->title(), QStringLiteral("Corpus"));
}

void TestMainWindow::closingDuringTrainingExitsCleanly() {
    auto* window = new MainWindow(&languages_);
    window->show();
    QVERIFY(waitForCorpus(*window));
    startTiny(*window, 1000000, 20);
    QVERIFY(window->isTraining());
    QThread* thread = window->workerThread();

    answerNextMessageBox(QMessageBox::Discard);
    QVERIFY(window->close());
    QVERIFY(!window->isVisible());
    QVERIFY(thread->isFinished());
    delete window;  // joins nothing more: the worker already stopped
}

CHARGPT_TEST_MAIN(TestMainWindow)
}  // namespace tst_mainwindow
#include "tst_mainwindow.moc"
