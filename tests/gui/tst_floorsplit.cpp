// SPDX-License-Identifier: GPL-3.0-or-later
// The n-gram floors the loss plot draws for a folder are those of the run's
// own split: its validation documents are drawn with the run's seed
// (Corpus::validationDocuments), so a run of another seed than the default
// is measured against its own validation text, not the default seed's.
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <string>

#include <qcustomplot.h>

#include "TestProgram.h"
#include "WindowDriver.h"
#include "app/LanguageManager.h"
#include "app/MainWindow.h"
#include "model/text/Corpus.h"
#include "model/train/NgramFloors.h"
#include "model/train/RunConfig.h"
#include "widgets/LossPlot.h"
#include "widgets/SettingsPanel.h"
#include "widgets/WideSpinBox.h"

namespace tst_floorsplit {

using namespace window_driver;

class TestFloorSplit : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        initTestApplication(QStringLiteral("tst_floorsplit"));
        QVERIFY(dir_.isValid());
    }

    void floorsFollowTheRunsSeed() {
        // Twenty documents of different texts: which ones validate changes the floors.
        const QString folder = dir_.filePath(QStringLiteral("letters"));
        QVERIFY(QDir().mkpath(folder));
        for (int i = 0; i < 20; ++i) {
            QFile file(QStringLiteral("%1/%2.txt").arg(folder).arg(i, 2, 10, QLatin1Char('0')));
            QVERIFY(file.open(QIODevice::WriteOnly));
            std::string text;
            for (int j = 0; j < 300 + 40 * i; ++j) text += char('a' + (j * (i + 1) + j / 7) % (5 + i));
            file.write(text.data(), qint64(text.size()));
        }
        LanguageManager languages;
        resetSettingsAndLanguage(languages);
        MainWindow window(&languages);
        window.show();
        QVERIFY(waitForCorpus(window));
        WorkerSpy loaded(window.training()->worker(), &TrainingWorker::corpusLoaded);
        window.openCorpus(folder);
        QVERIFY(loaded.wait(20000));
        QCOMPARE(window.corpusInfo().source, folder);

        const chargpt::RunConfig tiny = *chargpt::RunConfig::preset("tiny");
        const quint64 seed = 5;
        QVERIFY(seed != tiny.seed);
        const chargpt::Corpus corpus = chargpt::Corpus::load(folder.toStdString());
        const auto floors = [&](quint64 s) {
            return chargpt::ngramFloors(corpus, tiny.sequence_len, tiny.val_fraction, s).floors;
        };
        const auto own = floors(seed);
        const auto byDefault = floors(tiny.seed);
        QVERIFY(own.size() >= 2 && byDefault.size() >= 2);
        QVERIFY2(std::abs(own[1].loss - byDefault[1].loss) > 1e-6,
                 "the two seeds' splits have the same floors");

        choosePreset(window, QStringLiteral("tiny"));
        auto* seedBox = qobject_cast<WideSpinBox*>(window.settingsPanel()->field(QStringLiteral("seed")));
        QVERIFY(seedBox);
        seedBox->setValue(qint64(seed));
        setSpin(window, QStringLiteral("max_steps"), 20);
        startTinyAsSet(window);
        QCOMPARE(window.modelInfo().settings.seed, seed);
        // The 2-gram floor drawn, measured on the run's own validation documents.
        QTRY_VERIFY_WITH_TIMEOUT(
            window.lossPlot()->ngramLine(2) && window.lossPlot()->ngramLine(2)->visible(), 30000);
        QCOMPARE(window.lossPlot()->ngramLine(2)->point1->value(), own[1].loss);
    }

private:
    // Start, as the settings are now, until the run ends.
    static void startTinyAsSet(MainWindow& window) {
        QSignalSpy ended(window.training(), &TrainingController::trainingFinished);
        QPushButton* start = window.trainingPanel()->startButton();
        QVERIFY2(start->isEnabled(), qPrintable(window.trainingPanel()->startBlockedText()));
        QTest::mouseClick(start, Qt::LeftButton);
        QVERIFY2(ended.wait(120000), "training did not end");
    }

    QTemporaryDir dir_;
};

CHARGPT_TEST_MAIN(TestFloorSplit)
}  // namespace tst_floorsplit
#include "tst_floorsplit.moc"
