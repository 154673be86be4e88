// SPDX-License-Identifier: GPL-3.0-or-later
// The window given bad input as a user gives it: typed into every numeric
// settings field, corpora that are not text or cannot be read, and prompts that
// are empty, too long, unknown to the model or a pasted megabyte. Each gets a
// message in the window, Start stays disabled while settings are wrong, and the
// GUI thread never stalls.
#include <sys/stat.h>
#include <unistd.h>

#include <QApplication>
#include <QClipboard>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include "widgets/CorpusPanel.h"
#include "widgets/GenerationView.h"
#include "app/LanguageManager.h"
#include "app/InspectionController.h"
#include "app/MainWindow.h"
#include "app/TrainingController.h"
#include "app/ModelBridge.h"
#include "model/runtime/Runtime.h"
#include "widgets/SettingsPanel.h"
#include "widgets/WideSpinBox.h"
#include "widgets/TrainingPanel.h"
#include "WindowDriver.h"
#include "TestProgram.h"

namespace tst_badinput_gui {

using namespace window_driver;

namespace {

bool writeFile(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

// The longest time the GUI thread went without serving a 10 ms timer while
// `work` ran and until `done` returned true (or `timeoutMs` passed).
qint64 longestStall(const std::function<void()>& work, const std::function<bool()>& done, int timeoutMs) {
    QElapsedTimer clock;
    clock.start();
    qint64 last = 0, longest = 0;
    QTimer heartbeat;
    heartbeat.setInterval(10);
    QObject::connect(&heartbeat, &QTimer::timeout, [&] {
        longest = std::max(longest, clock.elapsed() - last);
        last = clock.elapsed();
    });
    heartbeat.start();
    work();
    longest = std::max(longest, clock.elapsed() - last);
    last = clock.elapsed();
    while (!done() && clock.elapsed() < timeoutMs) QTest::qWait(5);
    return std::max(longest, clock.elapsed() - last);
}

// Types `text` into a spin box over its whole content, as a user would.
void typeInto(QAbstractSpinBox* spin, const QString& text) {
    spin->setFocus();
    auto* edit = spin->findChild<QLineEdit*>();
    QVERIFY(edit);
    edit->selectAll();
    QTest::keyClick(spin, Qt::Key_Delete);
    QTest::keyClicks(spin, text);
    QTest::keyClick(spin, Qt::Key_Return);
    spin->clearFocus();
}

QString rowText(const QString& field, const QString& text) { return field + " = '" + text + "'"; }

}  // namespace

class TestBadInputGui : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void settingsFields_data();
    void settingsFields();
    void memoryRefusedBeforeAllocation();
    void corpora_data();
    void corpora();
    void folderOf20000FilesKeepsTheWindowResponsive();
    void prompts();

private:
    LanguageManager languages_;
    QTemporaryDir dir_;
};

void TestBadInputGui::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("CharGPT-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_badinput_gui"));
    chargpt::initThreads(2);
    QVERIFY(dir_.isValid());
}

void TestBadInputGui::init() {
    window_driver::clearSettings();
    languages_.setLanguage(QStringLiteral("en"), LanguageManager::Remember::No);
}

void TestBadInputGui::settingsFields_data() {
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("typed");
    QTest::addColumn<QString>("refusal");  // for "0": what the message says, empty when 0 is fine

    // What zero means in each field: a refusal that names it, or a valid choice.
    const QList<QPair<QString, QString>> zero = {
        {"emb_size", "emb_size must be positive"},
        {"head_size", "head_size must be positive"},
        {"n_layer", "n_layer must be positive"},
        {"sequence_len", "sequence_len must be positive"},
        {"batch_size", "batch_size must be positive"},
        {"learning_rate", "learning rate must be a positive number"},
        {"max_steps", "set a number of steps or a time limit"},
        {"dropout", ""},       // no dropout
        {"warmup_steps", ""},  // no warm-up
        {"time_limit_s", ""},  // no time limit (the steps end the run)
        {"seed", ""},
        {"threads", ""},  // one per core
    };
    for (const auto& [field, refusal] : zero) {
        QTest::newRow(qPrintable(rowText(field, "0"))) << field << "0" << refusal;
        QTest::newRow(qPrintable(rowText(field, "-5"))) << field << "-5" << QString();
        QTest::newRow(qPrintable(rowText(field, "99999999999999"))) << field << "99999999999999" << QString();
        QTest::newRow(qPrintable(rowText(field, "abc"))) << field << "abc" << QString();
        QTest::newRow(qPrintable(rowText(field, "1e9"))) << field << "1e9" << QString();
    }
}

void TestBadInputGui::settingsFields() {
    QFETCH(QString, field);
    QFETCH(QString, typed);
    QFETCH(QString, refusal);
    MainWindow window(&languages_);
    window.show();
    QVERIFY(waitForCorpus(window));
    QVERIFY(window.trainingPanel()->startButton()->isEnabled());
    auto* spin = qobject_cast<QAbstractSpinBox*>(window.settingsPanel()->field(field));
    QVERIFY2(spin, qPrintable(field));
    auto value = [spin]() -> double {
        if (auto* s = qobject_cast<QSpinBox*>(spin)) return s->value();
        if (auto* s = qobject_cast<WideSpinBox*>(spin)) return double(s->value());
        return qobject_cast<QDoubleSpinBox*>(spin)->value();
    };
    auto bounds = [spin]() -> QPair<double, double> {
        if (auto* s = qobject_cast<QSpinBox*>(spin)) return {double(s->minimum()), double(s->maximum())};
        if (auto* s = qobject_cast<WideSpinBox*>(spin)) return {double(s->minimum()), double(s->maximum())};
        auto* d = qobject_cast<QDoubleSpinBox*>(spin);
        return {d->minimum(), d->maximum()};
    };
    const double before = value();
    typeInto(spin, typed);
    const double after = value();
    const auto [minimum, maximum] = bounds();

    // The field never holds a value outside its range: no negative number, no
    // overflow, letters ignored.
    QVERIFY2(after >= minimum && after <= maximum, qPrintable(QString::number(after)));
    if (typed == QLatin1String("-5")) QVERIFY(after >= 0);
    if (typed == QLatin1String("abc")) QCOMPARE(after, before);  // no letter taken, the value kept
    if (typed == QLatin1String("0")) QCOMPARE(after, 0.0);

    QPushButton* start = window.trainingPanel()->startButton();
    const QString problem = window.settingsPanel()->problemText();
    const QString blocked = window.trainingPanel()->startBlockedText();
    if (typed == QLatin1String("0") && !refusal.isEmpty()) {
        QVERIFY2(!start->isEnabled(), qPrintable(field));
        QVERIFY2(problem.contains(refusal), qPrintable(problem));
        QVERIFY2(blocked.contains(refusal), qPrintable(blocked));
    } else if (typed == QLatin1String("0")) {
        QVERIFY2(start->isEnabled(), qPrintable(blocked));
        QVERIFY(problem.isEmpty());
    }
    // Whatever was typed: Start is disabled exactly when the window says why,
    // and the verdict is the model library's for the settings the fields hold.
    const SettingsAssessment expected = assessSettings(
        window.settingsPanel()->settings(), window.corpusInfo().vocabularySize, window.corpusInfo().tokens);
    QCOMPARE(start->isEnabled(), expected.problem.isEmpty());
    QCOMPARE(problem.isEmpty(), expected.problem.isEmpty());
    if (!start->isEnabled()) {
        QVERIFY2(problem.contains(expected.problem), qPrintable(problem));
        QVERIFY(!blocked.isEmpty());
        // A click on the disabled button starts nothing.
        QTest::mouseClick(start, Qt::LeftButton);
        QVERIFY(!window.isTraining());
    }
}

void TestBadInputGui::memoryRefusedBeforeAllocation() {
    MainWindow window(&languages_);
    window.show();
    QVERIFY(waitForCorpus(window));
    // Each value within its field's range; together petabytes of activations.
    setSpin(window, QStringLiteral("emb_size"), 4096);
    setSpin(window, QStringLiteral("head_size"), 64);
    setSpin(window, QStringLiteral("n_layer"), 128);
    setSpin(window, QStringLiteral("sequence_len"), 4096);
    setSpin(window, QStringLiteral("batch_size"), 4096);
    QPushButton* start = window.trainingPanel()->startButton();
    QVERIFY(!start->isEnabled());
    const QString problem = window.settingsPanel()->problemText();
    QVERIFY2(problem.contains(
                 QRegularExpression("needs about \\d+ GiB of memory and this machine has [\\d.]+ GiB")),
             qPrintable(problem));
    QVERIFY(window.trainingPanel()->startBlockedText().contains(QStringLiteral("lower the batch size")));
    for (const char* field : {"batch_size", "sequence_len", "emb_size", "n_layer"})
        QVERIFY2(!window.settingsPanel()->field(QLatin1String(field))->styleSheet().isEmpty(), field);
    QTest::mouseClick(start, Qt::LeftButton);
    QVERIFY(!window.isTraining());

    // Back to a batch that fits: Start again.
    setSpin(window, QStringLiteral("emb_size"), 128);
    setSpin(window, QStringLiteral("n_layer"), 4);
    setSpin(window, QStringLiteral("sequence_len"), 64);
    setSpin(window, QStringLiteral("batch_size"), 12);
    QVERIFY2(start->isEnabled(), qPrintable(window.trainingPanel()->startBlockedText()));

    // The limit is the machine's memory: the same fast settings on a 64 MiB machine.
    const SettingsAssessment small =
        assessSettings(window.settingsPanel()->settings(), 100, -1, qint64(16) << 20);
    QVERIFY2(small.problem.contains(
                 QRegularExpression("needs about \\d+ MiB of memory and this machine has 16 MiB")),
             qPrintable(small.problem));
    QVERIFY(assessSettings(window.settingsPanel()->settings(), 100, -1, qint64(64) << 30).problem.isEmpty());
}

void TestBadInputGui::corpora_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<bool>("accepted");
    QTest::addColumn<QString>("mentions");  // the error shown, or a warning / Start's reason

    QTest::newRow("UTF-16 with a byte-order mark") << "utf16.txt" << true << "";
    QTest::newRow("UTF-16 without a mark")
        << "utf16-nobom.txt" << false << "UTF-16 text without a byte-order mark";
    QTest::newRow("empty file") << "empty.txt" << false << "empty.txt is empty";
    QTest::newRow("whitespace only") << "blank.txt" << false << "has only whitespace";
    QTest::newRow("invalid UTF-8") << "latin1.txt" << false << "not valid UTF-8 text.*byte offset 3";
    QTest::newRow("2 GiB sparse file")
        << "huge.txt" << false << "huge.txt is 2048 MiB; corpora up to 256 MiB";
    QTest::newRow("FIFO") << "pipe" << false << "is a named pipe \\(FIFO\\)";
    QTest::newRow("/dev/zero") << "/dev/zero" << false << "/dev/zero is a device";
    QTest::newRow("symlink loop") << "loop" << false << "is a loop of symbolic links";
    QTest::newRow("folder with a dangling link")
        << "withlink" << true << "dangling.txt is a symbolic link that leads nowhere";
    QTest::newRow("70,000 distinct characters") << "many.txt" << false << "70001 distinct characters";
    QTest::newRow("shorter than the context")
        << "short.txt" << true << "the corpus has 12 characters; a context of 64 needs at least 65";
}

void TestBadInputGui::corpora() {
    QFETCH(QString, name);
    QFETCH(bool, accepted);
    QFETCH(QString, mentions);
    const QString path = name.startsWith('/') ? name : dir_.filePath(name);
    const QByteArray encoded = QFile::encodeName(path);
    auto utf16 = [](const QString& text, bool bom) {
        QByteArray bytes = bom ? QByteArray("\xFF\xFE") : QByteArray();
        for (const QChar c : text) bytes.append(char(c.unicode() & 0xFF)).append(char(c.unicode() >> 8));
        return bytes;
    };
    const QString sentence =
        QString::fromUtf8("the quick brown fox 狐狸 jumps over the lazy dog.\r\n").repeated(20);
    if (name == QLatin1String("utf16.txt")) {
        QVERIFY(writeFile(path, utf16(sentence, true)));
    } else if (name == QLatin1String("utf16-nobom.txt")) {
        QVERIFY(writeFile(path, utf16(sentence, false)));
    } else if (name == QLatin1String("empty.txt")) {
        QVERIFY(writeFile(path, QByteArray()));
    } else if (name == QLatin1String("blank.txt")) {
        QVERIFY(writeFile(path, " \n\t\r\n \n"));
    } else if (name == QLatin1String("latin1.txt")) {
        QVERIFY(writeFile(path, "caf\xE9 au lait\n"));
    } else if (name == QLatin1String("huge.txt")) {
        QVERIFY(writeFile(path, QByteArray()));
        QCOMPARE(::truncate(encoded.constData(), off_t(2) << 30), 0);
    } else if (name == QLatin1String("pipe")) {
        ::unlink(encoded.constData());
        QCOMPARE(::mkfifo(encoded.constData(), 0644), 0);
    } else if (name == QLatin1String("loop")) {
        ::unlink(encoded.constData());
        QCOMPARE(::symlink(encoded.constData(), encoded.constData()), 0);
    } else if (name == QLatin1String("withlink")) {
        QVERIFY(QDir().mkpath(path));
        QVERIFY(writeFile(path + "/text.txt", sentence.toUtf8()));
        ::unlink(QFile::encodeName(path + "/dangling.txt").constData());
        QCOMPARE(::symlink("nowhere.txt", QFile::encodeName(path + "/dangling.txt").constData()), 0);
    } else if (name == QLatin1String("many.txt")) {
        std::u32string text;
        for (int i = 0; i < 70000; ++i) text.push_back(char32_t(0x20000 + i));
        text.push_back(U'\n');
        QVERIFY(writeFile(path, QString::fromStdU32String(text).toUtf8()));
    } else if (name == QLatin1String("short.txt")) {
        QVERIFY(writeFile(path, "hello world\n"));
    }

    MainWindow window(&languages_);
    window.show();
    QVERIFY(waitForCorpus(window));
    const CorpusSummary before = window.corpusInfo();
    WorkerSpy ready(window.training()->worker(), &TrainingWorker::corpusLoaded);
    QSignalSpy rejected(window.training(), &TrainingController::corpusFailed);
    // Loading happens on the worker: the window keeps serving events meanwhile.
    const qint64 stall = longestStall([&] { window.openCorpus(path); },
                                      [&] { return ready.count() + rejected.count() > 0; }, 30000);
    QVERIFY2(ready.count() + rejected.count() == 1, "no answer within 30 s");
    QVERIFY2(stall < 1000, qPrintable(QString::number(stall)));

    if (!accepted) {
        QCOMPARE(rejected.count(), 1);
        const QString error = window.corpusPanel()->errorText();
        QVERIFY2(error.contains(QRegularExpression(mentions)), qPrintable(error));
        // The previous corpus stays, and with it Start.
        QCOMPARE(window.corpusInfo().source, before.source);
        QVERIFY(window.trainingPanel()->startButton()->isEnabled());
        return;
    }
    QCOMPARE(ready.count(), 1);
    QCOMPARE(window.corpusInfo().source, path);
    if (name == QLatin1String("utf16.txt")) {
        QCOMPARE(window.corpusInfo().characters, qint64(sentence.size() - 20));  // CRLF became LF
        QVERIFY(window.corpusInfo().preview.startsWith(QString::fromUtf8("the quick brown fox 狐狸")));
    }
    if (name == QLatin1String("withlink")) {
        // The reason is shown in the corpus panel, not only kept.
        auto* stats = window.corpusPanel()->findChild<QLabel*>(QStringLiteral("corpusStats"));
        QVERIFY(stats);
        QVERIFY2(stats->text().contains(QRegularExpression("1 file(\\(s\\))? left out")) &&
                     stats->text().contains(mentions),
                 qPrintable(stats->text()));
    }
    if (name == QLatin1String("short.txt")) {
        // Too short for the context: Start says so before anything is built.
        QVERIFY(!window.trainingPanel()->startButton()->isEnabled());
        QVERIFY2(window.trainingPanel()->startBlockedText().contains(mentions),
                 qPrintable(window.trainingPanel()->startBlockedText()));
        setSpin(window, QStringLiteral("sequence_len"), 8);
        QVERIFY2(window.trainingPanel()->startButton()->isEnabled(),
                 qPrintable(window.trainingPanel()->startBlockedText()));
    }
}

void TestBadInputGui::folderOf20000FilesKeepsTheWindowResponsive() {
    const QString folder = dir_.filePath("many_files");
    for (int i = 0; i < 20000; ++i) {
        const QString sub = folder + QStringLiteral("/part%1").arg(i / 100, 3, 10, QLatin1Char('0'));
        if (i % 100 == 0) QVERIFY(QDir().mkpath(sub));
        QVERIFY(writeFile(sub + QStringLiteral("/f%1.txt").arg(i),
                          QStringLiteral("document %1\n").arg(i).toUtf8()));
    }
    MainWindow window(&languages_);
    window.show();
    QVERIFY(waitForCorpus(window));
    WorkerSpy ready(window.training()->worker(), &TrainingWorker::corpusLoaded);
    QElapsedTimer timer;
    timer.start();
    const qint64 stall =
        longestStall([&] { window.openCorpus(folder); }, [&] { return ready.count() > 0; }, 60000);
    const qint64 ms = timer.elapsed();
    QVERIFY2(ready.count() == 1, qPrintable(window.corpusPanel()->errorText()));
    qInfo("20,000 files: loaded by the window in %lld ms, longest GUI stall %lld ms", ms, stall);
    QVERIFY2(stall < 1000, qPrintable(QString::number(stall)));
    QCOMPARE(window.corpusInfo().source, folder);
    QVERIFY(window.corpusInfo().characters > 20000 * 10);
    QVERIFY(window.trainingPanel()->startButton()->isEnabled());
}

void TestBadInputGui::prompts() {
    const QString corpus = dir_.filePath("fox.txt");
    QVERIFY(writeFile(corpus,
                      QByteArray("the quick brown fox jumps over the lazy dog. ab ab ab.\n").repeated(40)));
    MainWindow window(&languages_);
    window.show();
    QVERIFY(waitForCorpus(window));
    WorkerSpy ready(window.training()->worker(), &TrainingWorker::corpusLoaded);
    window.openCorpus(corpus);
    QVERIFY(ready.wait(20000));
    choosePreset(window, QStringLiteral("tiny"));  // a context of 16
    // Enough steps that end-of-text, absent from the corpus, is unlikely first.
    setSpin(window, QStringLiteral("max_steps"), 100);
    QSignalSpy ended(window.training(), &TrainingController::trainingFinished);
    QSignalSpy snapshot(window.inspection(), &InspectionController::frozenModelArrived);
    QTest::mouseClick(window.trainingPanel()->startButton(), Qt::LeftButton);
    QVERIFY2(ended.wait(120000), "training did not end");
    QCOMPARE(runEndName(ended.first().first().value<EndReason>()), runEndName(EndReason::Finished));
    while (!window.hasFrozenModel() || window.frozenStep() != window.modelInfo().step)
        QVERIFY(snapshot.wait(20000));

    GenerationView* view = window.generationView();
    auto* prompt = view->findChild<QPlainTextEdit*>(QStringLiteral("prompt"));
    QVERIFY(prompt);
    auto* message = view->findChild<QLabel*>(QStringLiteral("promptMessage"));
    QVERIFY(message);
    // On screen, as the user sees it: layout costs of a long prompt included.
    window.tabs()->setCurrentWidget(view);
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    auto shownMessage = [message] { return message->isVisible() ? message->text() : QString(); };
    QSignalSpy generated(window.inspection(), &InspectionController::generationEnded);
    auto generate = [&](int length) {
        GenerationOptions options = view->options();
        options.length = length;
        options.prompt = prompt->toPlainText();
        view->setOptions(options);
        generated.clear();
        QTest::mouseClick(view->generateButton(), Qt::LeftButton);
        return generated.wait(60000);
    };

    // Empty: starts from end-of-text and generates.
    prompt->clear();
    QVERIFY(generate(10));
    QCOMPARE(generated.first().first().value<GenerationEnd>(), GenerationEnd::Finished);
    QVERIFY2(!view->generatedText().isEmpty(), qPrintable(view->outputText() + "|" + shownMessage()));
    QVERIFY(shownMessage().isEmpty());

    // Longer than the context: generates, and says only the end is read.
    prompt->setPlainText(QStringLiteral("the quick brown fox jumps over the lazy dog."));
    QVERIFY(generate(10));
    QCOMPARE(generated.first().first().value<GenerationEnd>(), GenerationEnd::Finished);
    QVERIFY2(shownMessage().contains(
                 QStringLiteral("The prompt has 44 characters; the model reads only its last 16.")),
             qPrintable(shownMessage()));

    // Characters the model never saw: left out, named, highlighted.
    prompt->setPlainText(QString::fromUtf8("the Z fox 狐"));
    QVERIFY(generate(10));
    QCOMPARE(generated.first().first().value<GenerationEnd>(), GenerationEnd::Finished);
    QCOMPARE(view->unknownCharacters(), (QVector<int>{4, 10}));
    QVERIFY2(shownMessage().contains(QString::fromUtf8("left out of the prompt: Z 狐")),
             qPrintable(shownMessage()));
    QCOMPARE(prompt->extraSelections().size(), 2);

    // Nothing the model knows: refused with a reason, nothing generated.
    prompt->setPlainText(QString::fromUtf8("XYZ狐狸"));
    QVERIFY(generate(10));
    QCOMPARE(generated.first().first().value<GenerationEnd>(), GenerationEnd::Error);
    QVERIFY2(
        shownMessage().contains(QStringLiteral("no character of the prompt is in the model's vocabulary")),
        qPrintable(shownMessage()));
    QVERIFY(view->generatedText().isEmpty());

    // A megabyte pasted, on one line, every other character unknown to the model:
    // the paste, the generation and the highlighting keep the window responsive.
    // (Laid out whole, that line froze the window for 136 s.)
    QString megabyte;
    megabyte.reserve(1 << 20);
    while (megabyte.size() < (1 << 20)) megabyte += QStringLiteral("aZbQ");
    QApplication::clipboard()->setText(megabyte);
    prompt->clear();
    prompt->setFocus();
    QElapsedTimer paste;
    paste.start();
    prompt->paste();
    QCoreApplication::processEvents();
    const qint64 pasteMs = paste.elapsed();
    // The box keeps the end of the paste, as much as it holds, and says so.
    QCOMPARE(prompt->toPlainText(), megabyte.right(10000));
    QVERIFY2(
        shownMessage().contains(QStringLiteral(
            "A prompt holds at most 10,000 characters: only the last 10,000 of the pasted text were kept.")),
        qPrintable(shownMessage()));
    generated.clear();
    const qint64 stall = longestStall([&] { QTest::mouseClick(view->generateButton(), Qt::LeftButton); },
                                      [&] { return generated.count() > 0; }, 60000);
    QCOMPARE(generated.count(), 1);
    QCOMPARE(generated.first().first().value<GenerationEnd>(), GenerationEnd::Finished);
    qInfo("1 MiB prompt: pasted in %lld ms; longest GUI stall while generating %lld ms", pasteMs, stall);
    QVERIFY2(pasteMs < 1000, qPrintable(QString::number(pasteMs)));
    QVERIFY2(stall < 1000, qPrintable(QString::number(stall)));
    QVERIFY2(shownMessage().contains(QStringLiteral("left out of the prompt: Z Q")),
             qPrintable(shownMessage()));
    // The output shows the prompt's end only, then the new characters.
    QVERIFY(view->outputText().startsWith(QChar(0x2026)));
    QVERIFY(view->outputText().size() <= 4001 + view->generatedText().size());
    QVERIFY(view->outputText().endsWith(view->generatedText()));
}

CHARGPT_TEST_MAIN(TestBadInputGui)
}  // namespace tst_badinput_gui
#include "tst_badinput_gui.moc"
