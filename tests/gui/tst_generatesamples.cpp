// SPDX-License-Identifier: GPL-3.0-or-later
// The Generate tab with several samples: sample 1 streams into the output and
// samples 2 and on below it, each exactly what Generate writes with one sample
// and its seed (fp32 and bf16); Stop ends them all; one sample leaves the
// other samples' panel hidden; one signal carries every sample's characters.
#include <torch/torch.h>

#include "model/io/Checkpoint.h"
#include "model/nn/CharGPT.h"
#include "model/text/CharTokenizer.h"
#include "model/train/RunConfig.h"

#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <numeric>

#include "TestProgram.h"
#include "WindowDriver.h"
#include "app/InspectWorker.h"
#include "app/InspectionController.h"
#include "app/LanguageManager.h"
#include "app/MainWindow.h"
#include "widgets/GenerationView.h"

namespace tst_generatesamples {

using namespace window_driver;

class TestGenerateSamples : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void samplesAreTheirSeedsAlone_data();
    void samplesAreTheirSeedsAlone();
    void stopEndsAllSamples();
    void oneSignalCarriesEverySample_data();
    void oneSignalCarriesEverySample();

private:
    // A window with a small model of random, not flat, scores open.
    bool openModel(MainWindow& window, bool bf16);
    // Generate with these options, to the end; the output's generated text.
    QString generate(GenerationView* view, const GenerationOptions& options);
    LanguageManager languages_;
    QTemporaryDir dir_;
};

void TestGenerateSamples::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("CharGPT-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_generatesamples"));
    window_driver::clearSettings();
    languages_.setLanguage(QStringLiteral("en"), LanguageManager::Remember::No);
    initTestThreads();
}

bool TestGenerateSamples::openModel(MainWindow& window, bool bf16) {
    using namespace chargpt;
    Checkpoint checkpoint;
    checkpoint.tokenizer = CharTokenizer::fromText(U"abcdefgh .,\n");
    checkpoint.config = *RunConfig::preset("tiny");
    checkpoint.config.vocab_size = checkpoint.tokenizer.vocabSize();
    checkpoint.config.bf16 = bf16;
    torch::manual_seed(4);
    checkpoint.model = CharGPT(checkpoint.config);
    {
        torch::NoGradGuard noGrad;
        for (torch::Tensor& p : checkpoint.model->parameters()) p.normal_(0.0, 0.3);
    }
    const QString path = dir_.filePath(bf16 ? QStringLiteral("bf16.pt") : QStringLiteral("fp32.pt"));
    saveCheckpoint(path.toStdString(), checkpoint);
    if (!waitForCorpus(window))
        return false;
    QSignalSpy ready(&window, &MainWindow::modelReady);
    window.openCheckpoint(path);
    if (!ready.wait(20000))
        return false;
    return QTest::qWaitFor([&] { return window.hasFrozenModel(); }, 20000);
}

QString TestGenerateSamples::generate(GenerationView* view, const GenerationOptions& options) {
    view->setOptions(options);
    QTest::mouseClick(view->generateButton(), Qt::LeftButton);
    if (!QTest::qWaitFor([&] { return !view->isRunning(); }, 30000))
        return QStringLiteral("(still running)");
    return view->generatedText();
}

void TestGenerateSamples::samplesAreTheirSeedsAlone_data() {
    QTest::addColumn<bool>("bf16");
    QTest::newRow("fp32") << false;
    QTest::newRow("bf16") << true;
}

void TestGenerateSamples::samplesAreTheirSeedsAlone() {
    QFETCH(bool, bf16);
    MainWindow window(&languages_);
    QVERIFY(openModel(window, bf16));
    GenerationView* view = window.generationView();
    GenerationOptions options;
    options.prompt = QStringLiteral("ab");
    options.length = 60;
    options.seed = 5;
    options.samples = 3;
    const QString first = generate(view, options);
    QVERIFY(view->otherSamplesShown());
    const QStringList together{first, view->otherSampleText(2), view->otherSampleText(3)};
    QCOMPARE(view->otherSampleText(4), QString());
    options.samples = 1;
    for (int i = 0; i < 3; ++i) {
        options.seed = 5 + quint64(i);
        const QString alone = generate(view, options);
        QVERIFY(!alone.isEmpty());
        QCOMPARE(together[i], alone);
        QVERIFY(!view->otherSamplesShown());
    }
    QVERIFY2(together[0] != together[1] || together[1] != together[2], "different seeds, different samples");
}

void TestGenerateSamples::stopEndsAllSamples() {
    MainWindow window(&languages_);
    QVERIFY(openModel(window, false));
    GenerationView* view = window.generationView();
    GenerationOptions options;
    options.length = 100000;
    options.samples = 3;
    view->setOptions(options);
    QTest::mouseClick(view->generateButton(), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(view->otherSampleText(3).size() > 20, 20000);
    QTest::mouseClick(view->stopButton(), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!view->isRunning(), 20000);
    const QString first = view->generatedText(), third = view->otherSampleText(3);
    QVERIFY(first.size() < 100000);
    QTest::qWait(300);
    QCOMPARE(view->generatedText(), first);  // nothing arrives after Stop
    QCOMPARE(view->otherSampleText(3), third);
}

void TestGenerateSamples::oneSignalCarriesEverySample_data() {
    QTest::addColumn<int>("samples");
    QTest::newRow("1 sample") << 1;
    QTest::newRow("3 samples") << 3;
}

// Generate's every step is one samplesGenerated: the samples still running,
// numbered from 1 in order, one character each (a sample that ends at
// end-of-text is left out from then on); joined, each sample's characters
// are what the view shows for it.
void TestGenerateSamples::oneSignalCarriesEverySample() {
    QFETCH(int, samples);
    MainWindow window(&languages_);
    QVERIFY(openModel(window, false));
    GenerationView* view = window.generationView();
    WorkerSpy steps(window.inspection()->inspector(), &InspectWorker::samplesGenerated);
    GenerationOptions options;
    options.prompt = QStringLiteral("ab");
    options.length = 40;
    options.seed = 9;
    options.samples = samples;
    QVERIFY(!generate(view, options).isEmpty());
    QVERIFY(!steps.isEmpty());
    QVERIFY(steps.size() <= 40);
    QVector<int> all(samples);
    std::iota(all.begin(), all.end(), 1);
    QCOMPARE(steps.first().at(0).value<QVector<int>>(), all);  // the first step: every sample
    QVector<QString> joined(samples);
    QVector<int> running = all;
    for (const QList<QVariant>& step : steps) {
        const QVector<int> numbers = step.at(0).value<QVector<int>>();
        const QStringList characters = step.at(1).toStringList();
        QVERIFY(!numbers.isEmpty());
        QCOMPARE(characters.size(), numbers.size());
        for (int k = 0; k < numbers.size(); ++k) {
            QVERIFY(running.contains(numbers[k]));  // never one that ended, never one twice
            QVERIFY(k == 0 || numbers[k] > numbers[k - 1]);
            QCOMPARE(characters[k].toUcs4().size(), 1);
            joined[numbers[k] - 1] += characters[k];
        }
        running = numbers;
    }
    QCOMPARE(joined[0], view->generatedText());
    for (int i = 1; i < samples; ++i) QCOMPARE(joined[i], view->otherSampleText(i + 1));
}

CHARGPT_TEST_MAIN(TestGenerateSamples)
}  // namespace tst_generatesamples
#include "tst_generatesamples.moc"
