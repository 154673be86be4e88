// SPDX-License-Identifier: GPL-3.0-or-later
// `chargpt sample --samples N`: N samples decoded together, sample i the text
// `--seed S + i - 1` alone gives, in fp32 and bf16, as text and as JSON; and
// the refusals of a count or a precision out of range.
#include <QJsonArray>
#include "TestProgram.h"

#include "CliRun.h"

namespace tst_cli_samples {

namespace {

using cli_run::cliExists;
using cli_run::describe;
using cli_run::Result;
using cli_run::runCli;
using cli_run::succeeded;
using cli_run::writeFile;

const QByteArray kCorpus = QByteArray("the quick brown fox jumps over the lazy dog. ab ab ab.\n").repeated(60);

}  // namespace

class TestCliSamples : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void eachSampleIsItsSeedAlone_data();
    void eachSampleIsItsSeedAlone();
    void textNamesEachSample();
    void jsonListsTheSamples_data();
    void jsonListsTheSamples();
    void refusals_data();
    void refusals();

private:
    QTemporaryDir dir_;
    QString model_;
};

void TestCliSamples::initTestCase() {
    QVERIFY2(cliExists(), CHARGPT_CLI);
    QVERIFY(dir_.isValid());
    const QString corpus = dir_.filePath("corpus.txt");
    QVERIFY(writeFile(corpus, kCorpus));
    model_ = dir_.filePath("m.pt");
    const Result train = runCli({"train", corpus, "--preset", "tiny", "--steps", "20", "--no-record", "--out", model_});
    QVERIFY2(succeeded(train), qPrintable(describe(train)));
}

void TestCliSamples::eachSampleIsItsSeedAlone_data() {
    QTest::addColumn<QString>("precision");
    QTest::addColumn<QStringList>("options");
    QTest::newRow("fp32") << "fp32" << QStringList{};
    QTest::newRow("bf16") << "bf16" << QStringList{};
    QTest::newRow("bf16, exact window, top-k") << "bf16" << QStringList{"--exact-window", "--top-k", "5"};
}

// The JSON lists the samples with their seeds; each text is what that seed
// alone writes, and different seeds write different texts.
void TestCliSamples::eachSampleIsItsSeedAlone() {
    QFETCH(QString, precision);
    QFETCH(QStringList, options);
    const QStringList common = QStringList{"sample", model_, "--prompt", "the ", "--chars", "60", "--json",
                                           "--precision", precision} + options;
    const Result all = runCli(common + QStringList{"--seed", "40", "--samples", "4"});
    QVERIFY2(succeeded(all), qPrintable(describe(all)));
    const QJsonObject summary = cli_run::lastJsonLine(all.out);
    QCOMPARE(summary.value("prompt").toString(), QStringLiteral("the "));
    const QJsonArray samples = summary.value("samples").toArray();
    QCOMPARE(samples.size(), 4);
    QStringList texts;
    for (int i = 0; i < 4; ++i) {
        const QJsonObject sample = samples.at(i).toObject();
        QCOMPARE(sample.value("seed").toInteger(), qint64(40 + i));
        const Result alone = runCli(common + QStringList{"--seed", QString::number(40 + i)});
        QVERIFY2(succeeded(alone), qPrintable(describe(alone)));
        const QString text = cli_run::onlySample(cli_run::lastJsonLine(alone.out)).value("text").toString();
        QVERIFY(!text.isEmpty());
        QCOMPARE(sample.value("text").toString(), text);
        texts.append(text);
    }
    texts.removeDuplicates();
    QVERIFY2(texts.size() > 1, "different seeds, different samples");  // temperature 1
}

// As text, each sample is written whole under a line naming it and its seed.
void TestCliSamples::textNamesEachSample() {
    const Result r = runCli({"sample", model_, "--prompt", "ab", "--chars", "20", "--seed", "7", "--samples", "3"});
    QVERIFY2(succeeded(r), qPrintable(describe(r)));
    for (int i = 0; i < 3; ++i)
        QVERIFY2(r.out.contains(QString("-- sample %1 of 3, seed %2 --\nab").arg(i + 1).arg(7 + i)),
                 qPrintable(describe(r)));
}

void TestCliSamples::jsonListsTheSamples_data() {
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<int>("count");
    QTest::newRow("one, by default") << QStringList{} << 1;
    QTest::newRow("--samples 1") << QStringList{"--samples", "1"} << 1;
    QTest::newRow("--samples 3") << QStringList{"--samples", "3"} << 3;
}

// --json has one shape for one sample and for several: the prompt, and
// `samples` as a list, each entry with its seed, text, characters and copied.
void TestCliSamples::jsonListsTheSamples() {
    QFETCH(QStringList, options);
    QFETCH(int, count);
    const Result r = runCli(
        QStringList{"sample", model_, "--prompt", "ab", "--chars", "12", "--seed", "3", "--json"} + options);
    QVERIFY2(succeeded(r), qPrintable(describe(r)));
    QCOMPARE(r.out.count('\n'), 1);  // one line: the object
    const QJsonObject summary = cli_run::lastJsonLine(r.out);
    QCOMPARE(summary.keys(), (QStringList{"prompt", "samples"}));
    QCOMPARE(summary.value("prompt").toString(), QStringLiteral("ab"));
    QVERIFY(summary.value("samples").isArray());
    const QJsonArray samples = summary.value("samples").toArray();
    QCOMPARE(samples.size(), count);
    for (int i = 0; i < count; ++i) {
        const QJsonObject sample = samples.at(i).toObject();
        QCOMPARE(sample.keys(), (QStringList{"characters", "copied", "seed", "text"}));
        QCOMPARE(sample.value("seed").toInteger(), qint64(3 + i));
        const QString text = sample.value("text").toString();
        QCOMPARE(sample.value("characters").toInt(), int(text.toUcs4().size()));
        QVERIFY(text.toUcs4().size() <= 12 && !text.isEmpty());
        QVERIFY(sample.value("copied").isNull());  // no --corpus
    }
}

void TestCliSamples::refusals_data() {
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<QString>("named");
    QTest::newRow("no samples") << QStringList{"--samples", "0"} << "--samples";
    QTest::newRow("too many samples") << QStringList{"--samples", "65"} << "--samples";
    QTest::newRow("unknown precision") << QStringList{"--precision", "fp16"} << "--precision";
}

void TestCliSamples::refusals() {
    QFETCH(QStringList, options);
    QFETCH(QString, named);
    const Result r = runCli(QStringList{"sample", model_, "--chars", "5"} + options);
    QVERIFY2(r.finished && r.status == QProcess::NormalExit && r.exitCode != 0, qPrintable(describe(r)));
    QVERIFY2(r.err.contains(named), qPrintable(describe(r)));
    QVERIFY(r.out.isEmpty());
}

CHARGPT_TEST_GUILESS_MAIN(TestCliSamples)
}  // namespace tst_cli_samples
#include "tst_cli_samples.moc"
