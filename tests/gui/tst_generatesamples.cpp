// SPDX-License-Identifier: GPL-3.0-or-later
// The Generate tab with several samples: sample 1 streams into the output and
// samples 2 and on below it, each exactly what Generate writes with one sample
// and its seed (fp32 and bf16); Stop ends them all; one sample leaves the
// other samples' panel hidden.
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

#include "widgets/GenerationView.h"
#include "app/LanguageManager.h"
#include "app/MainWindow.h"
#include "WindowDriver.h"
#include "TestProgram.h"

namespace tst_generatesamples {

using namespace window_driver;

class TestGenerateSamples : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void samplesAreTheirSeedsAlone_data();
    void samplesAreTheirSeedsAlone();
    void stopEndsAllSamples();

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
    return QTest::qWaitFor([&] { return window.hasSnapshot(); }, 20000);
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

CHARGPT_TEST_MAIN(TestGenerateSamples)
}  // namespace tst_generatesamples
#include "tst_generatesamples.moc"
