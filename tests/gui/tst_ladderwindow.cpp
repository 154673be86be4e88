// SPDX-License-Identifier: GPL-3.0-or-later
// Every rung of the architecture ladder opened in the whole window, offscreen:
// the Attention tab shows one head, several, or says that a bigram model has
// no attention; the Inside tab shows the lens of the layers there are and says
// what it cannot show; the Surprise tab scores; Generate writes and steps. No
// view may fail on a model without some of its parts.
#include <torch/torch.h>

#include <QLabel>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include "app/InspectionController.h"
#include "app/LanguageManager.h"
#include "app/MainWindow.h"
#include "model/io/Checkpoint.h"
#include "model/text/BuiltinCorpora.h"
#include "model/train/Ladder.h"
#include "widgets/AttentionPage.h"
#include "widgets/GenerationView.h"
#include "widgets/InsidePage.h"
#include "widgets/LogitLensView.h"
#include "widgets/SurpriseView.h"
#include "TestProgram.h"
#include "WindowDriver.h"

namespace tst_ladderwindow {

using namespace window_driver;

namespace {

// Rung `number` made small (width 32, context 16) over the Tang poems'
// vocabulary, the corpus the window opens with, and saved.
bool saveRung(int number, const QString& path) {
    chargpt::Checkpoint c;
    c.tokenizer = chargpt::loadCorpusSource("builtin:tang300").buildTokenizer();
    c.config = chargpt::ladderSettings(number);
    const bool oneWideHead = c.config.head_size == c.config.emb_size;
    c.config.emb_size = 32;
    c.config.head_size = oneWideHead ? 32 : 8;
    c.config.sequence_len = 16;
    c.config.vocab_size = c.tokenizer.vocabSize();
    torch::manual_seed(number);
    c.model = chargpt::CharGPT(c.config);
    chargpt::saveCheckpoint(path.toStdString(), c);
    return true;
}

bool anyLabelSays(const QWidget* parent, const QString& words) {
    for (const QLabel* label : parent->findChildren<QLabel*>())
        if (label->text().contains(words)) return true;
    return false;
}

}  // namespace

class TestLadderWindow : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void everyRungOpens_data();
    void everyRungOpens();

private:
    LanguageManager languages_;
    QTemporaryDir dir_;
};

void TestLadderWindow::initTestCase() {
    initTestApplication(QStringLiteral("tst_ladderwindow"));
    QVERIFY(dir_.isValid());
}

void TestLadderWindow::init() { resetSettingsAndLanguage(languages_); }

void TestLadderWindow::everyRungOpens_data() {
    QTest::addColumn<int>("rung");
    for (const chargpt::LadderRung& rung : chargpt::kLadder) QTest::newRow(rung.name) << rung.number;
}

void TestLadderWindow::everyRungOpens() {
    QFETCH(int, rung);
    const QString path = dir_.filePath(QStringLiteral("rung%1.pt").arg(rung));
    QVERIFY(saveRung(rung, path));
    const chargpt::RunConfig config = chargpt::loadCheckpoint(path.toStdString()).config;
    const int layers = int(config.n_layer), heads = int(config.n_head());

    MainWindow window(&languages_);
    window.show();
    QVERIFY(waitForCorpus(window));
    QSignalSpy inside(window.inspection(), &InspectionController::insideShown);
    QSignalSpy surprise(window.inspection(), &InspectionController::surpriseShown);
    window.tabs()->setCurrentWidget(window.attentionPage());
    window.openCheckpoint(path);
    QTRY_VERIFY_WITH_TIMEOUT(window.hasSnapshot(), 20000);
    QCOMPARE(window.modelInfo().settings.n_layer, config.n_layer);
    QVERIFY(window.modelInfo().settings.sameArchitecture(config));

    // Attention: every head of the layer, or words for a model without one.
    if (layers == 0) {
        QTRY_VERIFY_WITH_TIMEOUT(anyLabelSays(window.attentionPage(), QStringLiteral("this model has no attention")),
                                 20000);
    } else {
        QTRY_COMPARE_WITH_TIMEOUT(window.attentionPage()->shownStep(), qint64(0), 20000);
        QCOMPARE(window.attentionPage()->shownAttention().layers.size(), layers);
        QCOMPARE(window.attentionPage()->shownAttention().layers[0].heads.size(), heads);
    }

    // Inside: the lens of the embeddings and each block; what cannot be shown, said.
    window.tabs()->setCurrentWidget(window.insidePage());
    QTRY_COMPARE_WITH_TIMEOUT(window.insidePage()->shownStep(), qint64(0), 20000);
    QCOMPARE(window.insidePage()->lensView()->lens().layerCount(), layers + 1);
    if (layers == 0) QVERIFY(anyLabelSays(window.insidePage(), QStringLiteral("no heads to score")));
    if (!config.positions) QVERIFY(anyLabelSays(window.insidePage(), QStringLiteral("no position embeddings")));

    // Surprise scores the validation and training text.
    window.tabs()->setCurrentWidget(window.surpriseView());
    if (surprise.isEmpty()) QVERIFY2(surprise.wait(20000), "no surprise of the opened rung");

    // Generate writes, and a step shows the new character's attention (none
    // without layers).
    window.tabs()->setCurrentWidget(window.generationView());
    GenerationView* view = window.generationView();
    GenerationOptions options = view->options();
    options.length = 12;
    view->setOptions(options);
    QSignalSpy ended(window.inspection(), &InspectionController::generationEnded);
    QTest::mouseClick(view->generateButton(), Qt::LeftButton);
    QVERIFY2(ended.wait(20000), "generation did not end");
    QVERIFY(!view->generatedText().isEmpty());
    QSignalSpy stepped(window.inspection(), &InspectionController::stepShown);
    QTest::mouseClick(view->stepButton(), Qt::LeftButton);
    QVERIFY2(stepped.wait(20000), "no step");
    QVERIFY(!stepped.first().first().toString().isEmpty());
}

CHARGPT_TEST_MAIN(TestLadderWindow)
}  // namespace tst_ladderwindow
#include "tst_ladderwindow.moc"
