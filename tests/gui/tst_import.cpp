// SPDX-License-Identifier: GPL-3.0-or-later
// File > Import PyTorch model, offscreen: a state_dict trained for a few steps
// by the seed's Python code (made here by /usr/bin/python3 with python3-torch)
// becomes the window's model: its heatmaps show, it generates what Python
// generates, and Continue trains it further. A state_dict that does not fit is
// reported in the window and changes nothing. A nanoGPT checkpoint opens with
// the meta.pkl found where its sample.py finds it.
#include <QApplication>
#include <QDir>
#include <QFileInfo>
#include <QPushButton>
#include <QProcess>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

#include "widgets/AttentionGrid.h"
#include "widgets/AttentionPage.h"
#include "widgets/GenerationView.h"
#include "app/LanguageManager.h"
#include "app/InspectionController.h"
#include "app/MainWindow.h"
#include "app/TrainingController.h"
#include "model/io/NanoGptMeta.h"
#include "model/runtime/Runtime.h"
#include "widgets/TrainingPanel.h"
#include "WindowDriver.h"
#include "TestProgram.h"

namespace tst_import {

using namespace window_driver;

namespace {

bool writeText(const QString& path, const QString& text) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(text.toUtf8()) >= 0;
}

QString readText(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

}  // namespace

class TestImport : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void importedModelShowsGeneratesAndContinues();
    void nanoGptCheckpointOpens();
    void exportedSettingsAreJson();

private:
    LanguageManager languages_;
    QTemporaryDir dir_;
};

void TestImport::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("CharGPT-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_import"));
    chargpt::initThreads(2);
    window_driver::clearSettings();
    languages_.setLanguage(QStringLiteral("en"), LanguageManager::Remember::No);
    QVERIFY(dir_.isValid());
}

void TestImport::importedModelShowsGeneratesAndContinues() {
    const QStringList lines = {QStringLiteral("To be, or not to be, that is the question:"),
                               QStringLiteral("Whether tis nobler in the mind to suffer"),
                               QStringLiteral("The slings and arrows of outrageous fortune,"),
                               QStringLiteral("Or to take arms against a sea of troubles")};
    QString text;
    for (int i = 0; i < 24; ++i) text += lines[i % lines.size()] + QLatin1Char('\n');
    const QString corpus = dir_.filePath(QStringLiteral("verse.txt"));
    QVERIFY(writeText(corpus, text));
    QVERIFY(writeText(dir_.filePath(QStringLiteral("other.txt")), QStringLiteral("abc abc abc\n")));

    const QString fixture = dir_.filePath(QStringLiteral("python"));
    QProcess python;
    python.start(QStringLiteral("/usr/bin/python3"),
                 {QStringLiteral(CHARGPT_SOURCE_DIR "/tests/python/make_state_dict.py"), corpus, fixture,
                  QStringLiteral("--naming"), QStringLiteral("book"), QStringLiteral("--prompt"),
                  QStringLiteral("To be, or")});
    QVERIFY2(python.waitForFinished(240000) && python.exitCode() == 0,
             qPrintable(QString::fromUtf8(python.readAllStandardError())));
    const QString stateDict = fixture + QStringLiteral("/state_dict.pt");

    MainWindow window(&languages_);
    window.show();
    QVERIFY(waitForCorpus(window));
    WorkerSpy corpusReady(window.training()->worker(), &TrainingWorker::corpusLoaded);
    window.openCorpus(corpus);
    QVERIFY(corpusReady.wait(20000));

    // The wrong text: the vocabulary does not match, said in the window, nothing changes.
    QSignalSpy messages(&window, &MainWindow::messageShown);
    window.importModel(stateDict, VocabularySource::CorpusText, dir_.filePath(QStringLiteral("other.txt")));
    QVERIFY(messages.wait(20000));
    QVERIFY2(window.messageText().contains(QLatin1String("token embedding has 27 rows")), qPrintable(window.messageText()));
    QVERIFY(!window.modelInfo().exists);

    // The loaded corpus is the one it was trained on.
    WorkerSpy imported(window.training()->worker(), &TrainingWorker::modelImported);
    QSignalSpy shown(window.inspection(), &InspectionController::attentionShown);
    window.importModel(stateDict, VocabularySource::LoadedCorpus);
    QVERIFY(imported.wait(20000));
    const ModelSummary& info = window.modelInfo();
    QVERIFY(info.exists);
    QCOMPARE(info.settings.n_layer, int64_t(2));
    QCOMPARE(info.settings.emb_size, int64_t(32));
    QCOMPARE(info.settings.head_size, int64_t(8));
    QCOMPARE(info.settings.sequence_len, int64_t(16));
    QCOMPARE(info.vocabularySize, 27);
    QVERIFY(window.messageText().contains(QLatin1String("Imported state_dict.pt")));
    QCOMPARE(window.trainingPanel()->startButton()->text(), QStringLiteral("Continue"));

    // Its heads, in the Attention tab.
    while (window.attentionPage()->shownStep() != 0)
        QVERIFY2(shown.wait(20000), "no attention of the imported model");
    QCOMPARE(window.attentionPage()->shownAttention().layers.size(), 2);
    QCOMPARE(window.attentionPage()->shownAttention().headCount(), 4);

    // Greedy generation gives what the Python model gave.
    GenerationView* view = window.generationView();
    GenerationOptions options = view->options();
    options.prompt = QStringLiteral("To be, or");
    options.temperature = 0.0;
    options.length = 40;
    view->setOptions(options);
    QSignalSpy generated(window.inspection(), &InspectionController::generationEnded);
    QTest::mouseClick(view->generateButton(), Qt::LeftButton);
    QVERIFY(generated.wait(20000));
    QCOMPARE(view->outputText(), readText(fixture + QStringLiteral("/greedy.txt")));

    // Continue trains the imported weights further (no new model: its loss starts low).
    setSpin(window, QStringLiteral("max_steps"), 20);
    QSignalSpy ended(window.training(), &TrainingController::trainingFinished);
    QTest::mouseClick(window.trainingPanel()->startButton(), Qt::LeftButton);
    QVERIFY2(ended.wait(120000), "training did not end");
    QCOMPARE(runEndName(ended.first().first().value<EndReason>()), runEndName(EndReason::Finished));
    QCOMPARE(window.modelInfo().step, 20);
    const auto& evaluations = window.modelInfo().history.evaluations;
    QVERIFY(!evaluations.empty());
    QVERIFY2(evaluations.back().valLoss < 0.8 * std::log(27.0), qPrintable(QString::number(evaluations.back().valLoss)));
}

void TestImport::nanoGptCheckpointOpens() {
    const QString corpus = dir_.filePath(QStringLiteral("lines.txt"));
    QVERIFY(writeText(corpus, QStringLiteral("To be, or not to be, that is the question:\n").repeated(20)));
    const QString fixture = dir_.filePath(QStringLiteral("foreign"));
    QProcess python;
    python.start(QStringLiteral("/usr/bin/python3"),
                 {QStringLiteral(CHARGPT_SOURCE_DIR "/tests/python/make_foreign_models.py"), corpus, fixture,
                  QStringLiteral("--steps"), QStringLiteral("20"), QStringLiteral("--prompt"), QStringLiteral("To be")});
    QVERIFY2(python.waitForFinished(240000) && python.exitCode() == 0,
             qPrintable(QString::fromUtf8(python.readAllStandardError())));
    // What File > Import finds before it would ask for a vocabulary.
    const QString checkpoint = fixture + QStringLiteral("/nanogpt-nobias/out/ckpt.pt");
    const QString meta = QString::fromStdString(chargpt::findNanoGptMeta(checkpoint.toStdString()));
    QVERIFY2(meta.endsWith(QLatin1String("data/shakespeare_char/meta.pkl")), qPrintable(meta));

    MainWindow window(&languages_);
    window.show();
    QVERIFY(waitForCorpus(window));
    WorkerSpy corpusReady(window.training()->worker(), &TrainingWorker::corpusLoaded);
    window.openCorpus(corpus);
    QVERIFY(corpusReady.wait(20000));
    // Opened like a checkpoint of ours (File > Open, a recent file, a file
    // dropped): found to be nanoGPT's and imported with that meta.pkl.
    WorkerSpy imported(window.training()->worker(), &TrainingWorker::modelImported);
    QSignalSpy shown(window.inspection(), &InspectionController::attentionShown);
    window.openCheckpoint(checkpoint);
    QVERIFY2(imported.wait(20000), qPrintable(window.messageText()));
    QVERIFY2(window.messageText().contains(QLatin1String("unlike the book's CharGPT")) &&
                 window.messageText().contains(QLatin1String("head tied to the token embedding")),
             qPrintable(window.messageText()));
    QCOMPARE(QSettings().value(QStringLiteral("files/recentCheckpoints")).toStringList().value(0), checkpoint);
    const ModelSummary& info = window.modelInfo();
    QVERIFY(info.exists);
    QVERIFY(info.settings.tied_head);
    QVERIFY(!info.settings.biases);
    QCOMPARE(info.vocabularySize, 17);  // the characters of lines.txt, no <|e|>
    while (window.attentionPage()->shownStep() != 0)
        QVERIFY2(shown.wait(20000), "no attention of the imported model");
    QCOMPARE(window.attentionPage()->shownAttention().headCount(), 2);

    // Continue trains it on its text as it computes: the same model, tied head and all.
    setSpin(window, QStringLiteral("max_steps"), 5);
    QSignalSpy ended(window.training(), &TrainingController::trainingFinished);
    QTest::mouseClick(window.trainingPanel()->startButton(), Qt::LeftButton);
    QVERIFY2(ended.wait(120000), "training did not end");
    QVERIFY2(ended.first().first().value<EndReason>() == EndReason::Finished,
             qPrintable(window.messageText()));
    QCOMPARE(window.modelInfo().step, 5);
    QVERIFY(window.modelInfo().settings.tied_head);
    QCOMPARE(window.modelInfo().settings.activation, int64_t(chargpt::ModelConfig::GeluErf));

    // File > Export model for nanoGPT writes ckpt.pt and meta.pkl, which open
    // again as the same model.
    const QString exportFolder = dir_.filePath(QStringLiteral("exported"));
    QVERIFY(QDir().mkpath(exportFolder));  // the folder dialog chooses one that is there
    WorkerSpy exported(window.training()->worker(), &TrainingWorker::exported);
    window.training()->exportNanoGpt(exportFolder);
    QVERIFY2(exported.wait(20000), qPrintable(window.messageText()));
    QVERIFY(window.messageText().contains(QLatin1String("meta.pkl")));
    QVERIFY(QFileInfo(exportFolder + QStringLiteral("/meta.pkl")).isFile());
    const qint64 parameters = window.modelInfo().parameters;
    window.openCheckpoint(exportFolder + QStringLiteral("/ckpt.pt"));
    QVERIFY2(imported.wait(20000), qPrintable(window.messageText()));
    QVERIFY(window.modelInfo().settings.tied_head);
    QCOMPARE(window.modelInfo().parameters, parameters);
    QCOMPARE(window.modelInfo().vocabularySize, 17);

    // A file that is neither ours nor a model of theirs says why, as before.
    const QString text = dir_.filePath(QStringLiteral("not-a-model.pt"));
    QVERIFY(writeText(text, QStringLiteral("hello")));
    WorkerSpy failed(window.training()->worker(), &TrainingWorker::checkpointFailed);
    window.openCheckpoint(text);
    QVERIFY(failed.wait(20000));
    QVERIFY2(window.messageText().contains(QLatin1String("not a CharGPT checkpoint")), qPrintable(window.messageText()));
}

void TestImport::exportedSettingsAreJson() {
    MainWindow window(&languages_);
    QVERIFY(waitForCorpus(window));
    choosePreset(window, QStringLiteral("tiny"));
    const QString path = dir_.filePath(QStringLiteral("config.json"));
    QVERIFY(window.exportConfigTo(path));
    const QString json = readText(path);
    QVERIFY2(json.contains(QLatin1String("\"format\": \"chargpt-config\"")), qPrintable(json));
    QVERIFY2(json.contains(QLatin1String("\"emb_size\": 32")), qPrintable(json));
    QVERIFY2(json.contains(QLatin1String("\"learning_rate\": 0.003,")), qPrintable(json));
    // A folder is no file: the reason shows in the window.
    QVERIFY(!window.exportConfigTo(dir_.path()));
    QVERIFY(window.messageText().contains(QLatin1String("folder")));
}

CHARGPT_TEST_MAIN(TestImport)
}  // namespace tst_import
#include "tst_import.moc"
