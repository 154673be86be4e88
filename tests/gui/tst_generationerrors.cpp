// SPDX-License-Identifier: GPL-3.0-or-later
// The Generate tab of the whole window on a model whose scores overflow
// (finite weights, so the checkpoint opens): Generate and Step say that the
// model produced non-finite scores, and no character is shown as picked.
#include <torch/torch.h>

#include "model/io/Checkpoint.h"
#include "model/nn/CharGPT.h"
#include "model/text/CharTokenizer.h"
#include "model/train/RunConfig.h"

#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include "widgets/GenerationView.h"
#include "app/LanguageManager.h"
#include "app/MainWindow.h"
#include "WindowDriver.h"
#include "TestProgram.h"

namespace tst_generationerrors {

using namespace window_driver;

class TestGenerationErrors : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void nonFiniteScoresAreShown();

private:
    LanguageManager languages_;
    QTemporaryDir dir_;
};

void TestGenerationErrors::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("CharGPT-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_generationerrors"));
    window_driver::clearSettings();
    languages_.setLanguage(QStringLiteral("en"), LanguageManager::Remember::No);
    initTestThreads();
}

void TestGenerationErrors::nonFiniteScoresAreShown() {
    using namespace chargpt;
    Checkpoint checkpoint;
    checkpoint.tokenizer = CharTokenizer::fromText(U"abcdefgh ");
    checkpoint.config = *RunConfig::preset("tiny");
    checkpoint.config.vocab_size = checkpoint.tokenizer.vocabSize();
    torch::manual_seed(3);
    checkpoint.model = CharGPT(checkpoint.config);
    {
        torch::NoGradGuard noGrad;
        checkpoint.model->lm->weight[3].fill_(3e38f);  // finite, but every score through it overflows
    }
    const QString path = dir_.filePath(QStringLiteral("overflow.pt"));
    saveCheckpoint(path.toStdString(), checkpoint);

    MainWindow window(&languages_);
    QVERIFY(waitForCorpus(window));
    QSignalSpy ready(&window, &MainWindow::modelReady);
    window.openCheckpoint(path);
    QVERIFY(ready.wait(20000));
    QTRY_VERIFY_WITH_TIMEOUT(window.hasFrozenModel(), 20000);

    GenerationView* view = window.generationView();
    view->findChild<QPlainTextEdit*>(QStringLiteral("prompt"))->setPlainText(QStringLiteral("ab"));
    auto* message = view->findChild<QLabel*>(QStringLiteral("promptMessage"));
    QVERIFY(message);
    const QString expected = QStringLiteral("Generation failed: the model produced non-finite scores at position 2; ");
    for (QPushButton* button : {view->generateButton(), view->stepButton()}) {
        view->showMessage(QString());
        QTest::mouseClick(button, Qt::LeftButton);
        QTRY_VERIFY2_WITH_TIMEOUT(message->text().startsWith(expected), qPrintable(message->text()), 20000);
        QCOMPARE(view->generatedText(), QString());  // nothing picked from NaN or infinity
        QTRY_VERIFY_WITH_TIMEOUT(!view->isRunning(), 20000);
    }
}

CHARGPT_TEST_MAIN(TestGenerationErrors)
}  // namespace tst_generationerrors
#include "tst_generationerrors.moc"
