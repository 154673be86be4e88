// SPDX-License-Identifier: GPL-3.0-or-later
// Another corpus chosen in the window while a trained model is loaded: what
// becomes of the model is asked first, and the text is then read as the model
// that will train on it reads it.
#include <QApplication>
#include <QFile>
#include <QMessageBox>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <utility>

#include <qcustomplot.h>

#include "widgets/CorpusPanel.h"
#include "app/LanguageManager.h"
#include "widgets/LossPlot.h"
#include "app/MainWindow.h"
#include "app/TrainingController.h"
#include "widgets/SettingsPanel.h"
#include "WindowDriver.h"
#include "TestProgram.h"

namespace tst_corpuschange {

using namespace window_driver;

class TestCorpusChange : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void asksAndReadsWithTheModel();

private:
    LanguageManager languages_;
    QTemporaryDir dir_;
};

void TestCorpusChange::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("CharGPT-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_corpuschange"));
    window_driver::initTestThreads();
    window_driver::clearSettings();
    languages_.setLanguage(QStringLiteral("en"), LanguageManager::Remember::No);
    QVERIFY(dir_.isValid());
}

// Another text with a trained model: what becomes of the model is asked
// before anything of the text is shown. Cancel keeps everything; Keep reads
// the text with the model's characters (the unknown ones left out, counted),
// so that every figure and the preview fit the model, and Start trains it
// further; New model discards it and reads the text with its own.
void TestCorpusChange::asksAndReadsWithTheModel() {
    const QString first = dir_.filePath(QStringLiteral("latin.txt"));
    const QString second = dir_.filePath(QStringLiteral("greek.txt"));
    for (const auto& [path, line] : {std::pair{first, QStringLiteral("the quick brown fox jumps over the lazy dog.\n")},
                                     {second, QStringLiteral("the fox ΩΨΦ jumps.\n")}}) {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        for (int i = 0; i < 200; ++i)
            file.write(line.toUtf8());
    }
    MainWindow window(&languages_);
    window.show();
    QVERIFY(waitForCorpus(window));
    WorkerSpy loaded(window.training()->worker(), &TrainingWorker::corpusLoaded);
    window.openCorpus(first);  // no trained model yet: nothing to ask
    QVERIFY(loaded.wait(20000));
    QCOMPARE(window.corpusInfo().source, first);
    QCOMPARE(window.corpusInfo().modelVocabularySize, 0);
    startTiny(window, 30, 30);
    QSignalSpy ended(window.training(), &TrainingController::trainingFinished);
    if (window.isTraining())
        QVERIFY(ended.wait(60000));
    const int vocabulary = window.modelInfo().vocabularySize;
    QCOMPARE(vocabulary, window.corpusInfo().vocabularySize);

    loaded.clear();
    answerNextMessageBox(QMessageBox::Cancel);
    window.openCorpus(second);
    QVERIFY(!loaded.wait(500));
    QCOMPARE(window.corpusInfo().source, first);
    QCOMPARE(window.corpusPanel()->corpus().source, first);

    answerNextMessageBox(QMessageBox::Yes);  // "Keep the model"
    window.openCorpus(second);
    QVERIFY(loaded.wait(20000));
    const CorpusSummary& read = window.corpusInfo();
    QCOMPARE(read.source, second);
    QCOMPARE(read.modelVocabularySize, vocabulary);
    QCOMPARE(read.unknownCharacters, qint64(3 * 200));  // Ω, Ψ and Φ on every line
    QVERIFY(!read.preview.contains(QChar(0x03A9)));
    QVERIFY(read.preview.startsWith(QStringLiteral("the fox  jumps.")));
    // The floors are those of the text as the model reads it: the uniform
    // guess over the model's characters, the unigram entropy below it.
    const double uniform = window.lossPlot()->referenceLine(LossPlot::Reference::Uniform)->point1->value();
    const double unigram = window.lossPlot()->referenceLine(LossPlot::Reference::Unigram)->point1->value();
    QVERIFY(std::abs(uniform - std::log(double(vocabulary))) < 1e-9);
    QVERIFY2(unigram < uniform, qPrintable(QStringLiteral("%1 %2").arg(unigram).arg(uniform)));
    QCOMPARE(window.training()->startKind(window.settingsPanel()->settings()), TrainingController::StartKind::Continue);
    QCOMPARE(window.modelInfo().step, 30);

    // A text that cannot be read discards nothing, whatever was answered.
    WorkerSpy failed(window.training()->worker(), &TrainingWorker::corpusFailed);
    answerNextMessageBox(QMessageBox::Discard);
    window.openCorpus(dir_.filePath(QStringLiteral("missing.txt")));
    QVERIFY(failed.wait(20000));
    QVERIFY(window.modelInfo().exists);
    QCOMPARE(window.corpusInfo().source, second);

    loaded.clear();
    answerNextMessageBox(QMessageBox::Discard);  // "New model"
    window.openCorpus(first);
    QVERIFY(loaded.wait(20000));
    QTRY_VERIFY(!window.modelInfo().exists);
    QCOMPARE(window.corpusInfo().source, first);
    QCOMPARE(window.corpusInfo().modelVocabularySize, 0);
    QCOMPARE(window.corpusInfo().unknownCharacters, qint64(0));
}


CHARGPT_TEST_MAIN(TestCorpusChange)
}  // namespace tst_corpuschange
#include "tst_corpuschange.moc"
