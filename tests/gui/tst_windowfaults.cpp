// SPDX-License-Identifier: GPL-3.0-or-later
// The whole window, offscreen, facing faults: checkpoints that are not ours,
// saves that cannot be written, and Stop or closing the window at random
// moments of training and generation.
#include <signal.h>
#include <sys/resource.h>
#include <torch/torch.h>  // before Qt: the fixtures edit a checkpoint's tensors

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QRandomGenerator>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <mutex>
#include <thread>

#include "CheckpointFixtures.h"
#include "app/FileActions.h"
#include "widgets/GenerationView.h"
#include "app/LanguageManager.h"
#include "widgets/LossPlot.h"
#include "app/InspectionController.h"
#include "app/MainWindow.h"
#include "app/TrainingController.h"
#include "model/runtime/Runtime.h"
#include "widgets/TrainingPanel.h"
#include "WindowDriver.h"
#include "TestProgram.h"

namespace tst_windowfaults {

using namespace window_driver;
using namespace checkpoint_fixtures;

namespace {

QByteArray readFile(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool writeFile(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

// Ends the process with a message when a round takes longer than it may: a
// window that hangs on Stop or close fails here instead of freezing the suite.
class Watchdog {
public:
    Watchdog(int seconds, QString what) : what_(std::move(what)) {
        thread_ = std::thread([this, seconds] {
            std::unique_lock<std::mutex> lock(mutex_);
            if (!cv_.wait_for(lock, std::chrono::seconds(seconds), [this] { return done_; })) {
                std::fprintf(stderr, "FAIL: hang: %s took more than %d s\n", qPrintable(what_), seconds);
                std::fflush(stderr);
                std::_Exit(3);
            }
        });
    }
    ~Watchdog() {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            done_ = true;
        }
        cv_.notify_all();
        thread_.join();
    }

private:
    QString what_;
    std::mutex mutex_;
    std::condition_variable cv_;
    bool done_ = false;
    std::thread thread_;
};

}  // namespace

class TestWindowFaults : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void badCheckpointsKeepTheModel();
    void sharedPickleKeepsTheModelAndTheWindowCloses();
    void failedSavesKeepThePreviousFile();
    void nonFiniteLossShowsTheReason();
    void stopOrCloseAtRandomMoments();
    void hugeRecentListIsCapped();

private:
    LanguageManager languages_;
    QTemporaryDir dir_;
};

void TestWindowFaults::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("CharGPT-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_windowfaults"));
    window_driver::initTestThreads();
    QVERIFY(dir_.isValid());
}

void TestWindowFaults::init() {
    window_driver::clearSettings();
    languages_.setLanguage(QStringLiteral("en"), LanguageManager::Remember::No);
}

void TestWindowFaults::badCheckpointsKeepTheModel() {
    MainWindow window(&languages_);
    window.show();
    QVERIFY(waitForCorpus(window));
    startTiny(window, 30, 30);
    QSignalSpy ended(window.training(), &TrainingController::trainingFinished);
    if (window.isTraining()) QVERIFY(ended.wait(20000));
    const QString good = dir_.filePath(QStringLiteral("good.pt"));
    WorkerSpy saved(window.training()->worker(), &TrainingWorker::saved);
    window.saveCheckpointTo(good);
    QVERIFY(saved.wait(20000));
    const QByteArray bytes = readFile(good);
    QVERIFY(bytes.size() > 1000);
    const qint64 step = window.modelInfo().step;
    const int points = window.lossPlot()->trainPointCount();
    QCOMPARE(step, 30);

    auto edited = [&](const std::function<void(c10::impl::GenericDict&)>& edit) {
        c10::impl::GenericDict d =
            torch::pickle_load(std::vector<char>(bytes.begin(), bytes.end())).toGenericDict();
        edit(d);
        const std::vector<char> v = torch::pickle_save(d);
        return QByteArray(v.data(), qsizetype(v.size()));
    };
    auto at = [](const char* k) { return c10::IValue(std::string(k)); };
    const QString marker = dir_.filePath(QStringLiteral("was_run"));
    struct Case {
        const char* name;
        QByteArray bytes;
        const char* reason;
    };
    QRandomGenerator noise(9);
    QByteArray randomBytes;
    for (int i = 0; i < 3000; ++i) randomBytes.append(char(noise.bounded(256)));
    const QList<Case> cases{
        {"truncated", bytes.left(bytes.size() / 2), "is damaged or truncated and cannot be read"},
        {"random", randomBytes, "is not a CharGPT checkpoint"},
        {"zip", makeZip({{"docs/readme.txt", "hello"}}), "is a zip archive but not a CharGPT checkpoint"},
        {"os.system", torchArchive(codePickle(QStringLiteral("os.system"), marker.toUtf8())),
         "is refused: it names the Python object os.system, which a checkpoint never needs. Nothing in it "
         "was run"},
        {"version", edited([&](c10::impl::GenericDict& d) { d.insert_or_assign(at("version"), int64_t(2)); }),
         "was written by a newer CharGPT Studio"},
        {"nan", edited([&](c10::impl::GenericDict& d) {
             c10::impl::GenericDict model = d.at(at("model")).toGenericDict();
             torch::Tensor w = model.at(at("lm.weight")).toTensor().clone();
             w[0][0] = std::numeric_limits<float>::quiet_NaN();
             model.insert_or_assign(at("lm.weight"), w);
         }),
         "lm.weight holds non-finite values"},
    };
    for (const Case& c : cases) {
        const QString path = dir_.filePath(QStringLiteral("bad-%1.pt").arg(QLatin1String(c.name)));
        QVERIFY(writeFile(path, c.bytes));
        QSignalSpy message(&window, &MainWindow::messageShown);
        window.openCheckpoint(path);
        QVERIFY2(message.wait(10000), c.name);
        const QString text = window.messageText();
        QVERIFY2(
            text.startsWith(
                QStringLiteral("Could not open the checkpoint “bad-%1.pt”: ").arg(QLatin1String(c.name))),
            qPrintable(text));
        QVERIFY2(text.contains(QLatin1String(c.reason)), qPrintable(text));
        QVERIFY2(text.endsWith(QStringLiteral(". The current model is unchanged.")), qPrintable(text));
        QVERIFY2(!text.contains(QStringLiteral("..")), qPrintable(text));
        QVERIFY2(!text.contains('\n'), qPrintable(text));
        QCOMPARE(window.modelInfo().step, step);
        QCOMPARE(window.lossPlot()->trainPointCount(), points);
    }
    QVERIFY2(!QFileInfo::exists(marker), "a command named in a checkpoint was run");

    // The kept model still trains on.
    setSpin(window, QStringLiteral("max_steps"), 40);
    QTest::mouseClick(window.trainingPanel()->startButton(), Qt::LeftButton);
    QVERIFY(ended.wait(20000));
    QCOMPARE(window.modelInfo().step, 40);
}

// A checkpoint of 64 tuples each holding the previous one twice (under 1 KB,
// 2^64 steps to read as a tree): the worker refuses it within seconds, the
// model stays, and the window closes with its worker ended.
void TestWindowFaults::sharedPickleKeepsTheModelAndTheWindowCloses() {
    Watchdog watchdog(120, QStringLiteral("opening a shared-structure checkpoint"));
    auto* window = new MainWindow(&languages_);
    window->show();
    QVERIFY(waitForCorpus(*window));
    startTiny(*window, 10, 10);
    QSignalSpy ended(window->training(), &TrainingController::trainingFinished);
    if (window->isTraining()) QVERIFY(ended.wait(20000));
    const qint64 step = window->modelInfo().step;
    QCOMPARE(step, 10);
    const QString path = dir_.filePath(QStringLiteral("shared.pt"));
    const QByteArray bytes = torchArchive(hostilePickle(QStringLiteral("shared"), true));
    QVERIFY(bytes.size() < 1500);
    QVERIFY(writeFile(path, bytes));
    QSignalSpy message(window, &MainWindow::messageShown);
    QElapsedTimer timer;
    timer.start();
    window->openCheckpoint(path);
    QVERIFY(message.wait(10000));
    QVERIFY2(timer.elapsed() < 5000, qPrintable(QStringLiteral("took %1 ms").arg(timer.elapsed())));
    const QString text = window->messageText();
    QVERIFY2(text.startsWith(QStringLiteral("Could not open the checkpoint “shared.pt”: ")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("shares its values too deeply to be a checkpoint")), qPrintable(text));
    QVERIFY2(text.endsWith(QStringLiteral(". The current model is unchanged.")), qPrintable(text));
    QCOMPARE(window->modelInfo().step, step);
    QThread* worker = window->workerThread();
    QVERIFY(window->close());
    QVERIFY(worker->isFinished());
    delete window;
}

void TestWindowFaults::failedSavesKeepThePreviousFile() {
    MainWindow window(&languages_);
    window.show();
    QVERIFY(waitForCorpus(window));
    startTiny(window, 20, 20);
    QSignalSpy ended(window.training(), &TrainingController::trainingFinished);
    if (window.isTraining()) QVERIFY(ended.wait(20000));

    const QString notes = dir_.filePath(QStringLiteral("notes.txt"));
    QVERIFY(writeFile(notes, "notes"));
    const QStringList unwritable{QStringLiteral("/sys/chargpt-test.pt"), notes + QStringLiteral("/model.pt")};
    for (const QString& path : unwritable) {
        QSignalSpy message(&window, &MainWindow::messageShown);
        window.saveCheckpointTo(path);
        QVERIFY(message.wait(10000));
        QVERIFY2(
            window.messageText().startsWith(QStringLiteral("Could not save “%1”: cannot save to ").arg(path)),
            qPrintable(window.messageText()));
        QVERIFY(!QFileInfo::exists(path));
    }
    QCOMPARE(readFile(notes), QByteArray("notes"));

    // A full disk: the write fails part-way (RLIMIT_FSIZE, SIGXFSZ ignored).
    const QString path = dir_.filePath(QStringLiteral("kept.pt"));
    WorkerSpy saved(window.training()->worker(), &TrainingWorker::saved);
    window.saveCheckpointTo(path);
    QVERIFY(saved.wait(20000));
    const QByteArray before = readFile(path);
    startTiny(window, 30, 21);  // other weights to save
    if (window.isTraining()) QVERIFY(ended.wait(20000));
    {
        const auto oldHandler = std::signal(SIGXFSZ, SIG_IGN);
        rlimit old{};
        QCOMPARE(::getrlimit(RLIMIT_FSIZE, &old), 0);
        rlimit limit = old;
        limit.rlim_cur = rlim_t(before.size() / 3);
        QCOMPARE(::setrlimit(RLIMIT_FSIZE, &limit), 0);
        QSignalSpy message(&window, &MainWindow::messageShown);
        window.saveCheckpointTo(path);
        const bool shown = message.wait(10000);
        ::setrlimit(RLIMIT_FSIZE, &old);
        std::signal(SIGXFSZ, oldHandler);
        QVERIFY(shown);
    }
    const QString text = window.messageText();
    QVERIFY2(text.contains(QStringLiteral("File too large")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("the previous file is unchanged")), qPrintable(text));
    QVERIFY(readFile(path) == before);
}

// The window's learning rate stops at 1, where the tiny model does not diverge;
// a checkpoint whose output weights are near the float limit makes the very
// next loss overflow instead.
void TestWindowFaults::nonFiniteLossShowsTheReason() {
    MainWindow window(&languages_);
    window.show();
    QVERIFY(waitForCorpus(window));
    startTiny(window, 20, 20);
    QSignalSpy ended(window.training(), &TrainingController::trainingFinished);
    if (window.isTraining()) QVERIFY(ended.wait(20000));
    const QString path = dir_.filePath(QStringLiteral("huge.pt"));
    WorkerSpy saved(window.training()->worker(), &TrainingWorker::saved);
    window.saveCheckpointTo(path);
    QVERIFY(saved.wait(20000));
    {
        const QByteArray bytes = readFile(path);
        c10::impl::GenericDict d =
            torch::pickle_load(std::vector<char>(bytes.begin(), bytes.end())).toGenericDict();
        c10::impl::GenericDict model = d.at(c10::IValue(std::string("model"))).toGenericDict();
        const torch::Tensor w = model.at(c10::IValue(std::string("lm.weight"))).toTensor();
        model.insert_or_assign(c10::IValue(std::string("lm.weight")),
                               torch::full_like(w, 3e38f) * torch::sign(w));
        const std::vector<char> v = torch::pickle_save(d);
        QVERIFY(writeFile(path, QByteArray(v.data(), qsizetype(v.size()))));
    }
    QSignalSpy ready(&window, &MainWindow::modelReady);
    window.openCheckpoint(path);
    QVERIFY(ready.wait(20000));
    QCOMPARE(window.modelInfo().step, 20);

    setSpin(window, QStringLiteral("max_steps"), 40);
    ended.clear();
    QTest::mouseClick(window.trainingPanel()->startButton(), Qt::LeftButton);
    QVERIFY(ended.wait(20000));
    QCOMPARE(runEndName(ended.first().first().value<EndReason>()), runEndName(EndReason::NonFiniteLoss));
    const QString text = window.messageText();
    QVERIFY2(text.startsWith(QStringLiteral("Training stopped: the loss became ")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("at step 21")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("learning rate")), qPrintable(text));
    QVERIFY(!window.isTraining());
    QCOMPARE(window.modelInfo().step, 20);  // nothing was applied
    QVERIFY(window.trainingPanel()->startButton()->isEnabled());

    // The kept weights save and load again (loading refuses non-finite weights).
    const QString again = dir_.filePath(QStringLiteral("after-nan.pt"));
    saved.clear();
    window.saveCheckpointTo(again);
    QVERIFY(saved.wait(20000));
    ready.clear();
    window.openCheckpoint(again);
    QVERIFY(ready.wait(20000));
    QCOMPARE(window.modelInfo().step, 20);
}

void TestWindowFaults::stopOrCloseAtRandomMoments() {
    const quint32 seed = QRandomGenerator::global()->generate();
    qInfo("random seed %u", seed);
    QRandomGenerator random(seed);
    enum Action { StopTraining, CloseTraining, CloseTrainingSaving, StopGeneration, CloseGeneration };
    const QList<Action> actions{StopTraining,    CloseTraining, CloseTrainingSaving, StopGeneration,
                                CloseGeneration, StopTraining,  CloseTraining,       CloseGeneration};
    const QString saveTo = dir_.filePath(QStringLiteral("closing.pt"));
    for (int round = 0; round < actions.size(); ++round) {
        const Action action = actions[round];
        const int delayMs = random.bounded(0, 600);
        const QString what =
            QStringLiteral("round %1 (action %2, after %3 ms)").arg(round).arg(int(action)).arg(delayMs);
        Watchdog watchdog(60, what);
        auto* window = new MainWindow(&languages_);
        window->show();
        QVERIFY(waitForCorpus(*window));
        QThread* worker = window->workerThread();
        if (action == StopTraining || action == CloseTraining || action == CloseTrainingSaving) {
            if (action == CloseTrainingSaving) {
                // Closing asks to save to the model's file: give it one.
                startTiny(*window, 5, 5);
                QSignalSpy ended(window->training(), &TrainingController::trainingFinished);
                if (window->isTraining()) QVERIFY(ended.wait(20000));
                WorkerSpy saved(window->training()->worker(), &TrainingWorker::saved);
                window->saveCheckpointTo(saveTo);
                QVERIFY(saved.wait(20000));
            }
            choosePreset(*window, QStringLiteral("tiny"));
            setSpin(*window, QStringLiteral("max_steps"), 100000000);
            QTest::mouseClick(window->trainingPanel()->startButton(), Qt::LeftButton);
            QTest::qWait(delayMs);
            if (action == StopTraining) {
                QSignalSpy ended(window->training(), &TrainingController::trainingFinished);
                if (window->isTraining()) {
                    QTest::mouseClick(window->trainingPanel()->stopButton(), Qt::LeftButton);
                    QVERIFY2(ended.wait(20000), qPrintable(what));
                }
                QVERIFY(!window->isTraining());
                QVERIFY2(window->messageText().isEmpty(), qPrintable(window->messageText()));
                QVERIFY(window->trainingPanel()->startButton()->isEnabled());
            } else {
                const bool asks = window->isTraining();
                if (asks)
                    answerNextMessageBox(action == CloseTraining ? QMessageBox::Discard : QMessageBox::Save);
                QVERIFY2(window->close(), qPrintable(what));
                QVERIFY(worker->isFinished());
                if (action == CloseTrainingSaving) QVERIFY(QFileInfo(saveTo).size() > 1000);
            }
        } else {
            startTiny(*window, 10, 10);
            QSignalSpy trained(window->training(), &TrainingController::trainingFinished);
            if (window->isTraining()) QVERIFY(trained.wait(20000));
            GenerationView* view = window->generationView();
            GenerationOptions options = view->options();
            options.length = 100000000;
            view->setOptions(options);
            QSignalSpy ended(window->inspection(), &InspectionController::generationEnded);
            QTest::mouseClick(view->generateButton(), Qt::LeftButton);
            QTest::qWait(delayMs);
            if (action == StopGeneration) {
                if (view->isRunning()) {
                    QTest::mouseClick(view->stopButton(), Qt::LeftButton);
                    QVERIFY2(ended.wait(20000), qPrintable(what));
                    // The model may also end the text itself (end-of-text) between the
                    // check above and the click: then it finished on its own.
                    const auto reason = ended.last().first().value<GenerationEnd>();
                    QVERIFY2(reason == GenerationEnd::Stopped || reason == GenerationEnd::Finished, qPrintable(what));
                }
                QVERIFY(!view->isRunning());
            } else {
                QVERIFY2(window->close(), qPrintable(what));
                QVERIFY(worker->isFinished());
            }
        }
        delete window;
    }
    // The checkpoint written while closing is whole.
    QVERIFY(QFileInfo(saveTo).size() > 1000);
    MainWindow window(&languages_);
    QSignalSpy ready(&window, &MainWindow::modelReady);
    window.openCheckpoint(saveTo);
    QVERIFY(ready.wait(20000));
    QVERIFY(window.modelInfo().step >= 5);
}

void TestWindowFaults::hugeRecentListIsCapped() {
    // A settings file holding 200,000 recent checkpoints (7 MB) kept the
    // window from opening for more than 40 s: the File menu made an entry for
    // each, again at every change of state. It shows the newest 8, skips empty
    // and repeated entries, and a '&' in a path is shown, not taken for a
    // shortcut mark. (2,000 entries here: the same path, and the old code made
    // 2,003 entries of them.)
    QStringList recent{QString(), QStringLiteral("/models/a&b.pt"), QStringLiteral("/models/a&b.pt")};
    for (int i = 0; i < 2000; ++i) recent.append(QStringLiteral("/models/run-%1.pt").arg(i));
    QSettings().setValue(QStringLiteral("files/recentCheckpoints"), recent);
    QWidget window;
    FileActions files(&window);
    QMenu fileMenu;
    QAction quit(QStringLiteral("Quit"));
    files.fillMenu(&fileMenu, &quit);
    files.retranslate();
    files.setIdle(true);
    QMenu* menu = nullptr;
    for (QAction* action : fileMenu.actions())
        if (action->menu() && action->menu()->title() == QLatin1String("Open &recent")) menu = action->menu();
    QVERIFY(menu);
    const QList<QAction*> entries = menu->actions();
    QCOMPARE(entries.size(), 8);
    QCOMPARE(entries.first()->text(), QStringLiteral("/models/a&&b.pt"));
    QCOMPARE(entries.last()->text(), QStringLiteral("/models/run-6.pt"));
    QVERIFY(menu->isEnabled());
}

CHARGPT_TEST_MAIN(TestWindowFaults)
}  // namespace tst_windowfaults
#include "tst_windowfaults.moc"
