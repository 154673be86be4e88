// SPDX-License-Identifier: GPL-3.0-or-later
// The CPU tier from outside (model/runtime/CpuTier.h): `chargpt --version`
// names the tier in force, CHARGPT_CPU forces each tier this machine has and
// refuses one it lacks or a word that is no tier (one line on stderr, exit
// status 2, before any command runs), and greedy fp32 text is the same under
// every tier.
#include "CliRun.h"
#include "TestProgram.h"
#include "model/runtime/CpuTier.h"

namespace tst_cli_tiers {

namespace {

using cli_run::cliExists;
using cli_run::describe;
using cli_run::Result;
using cli_run::runCli;
using cli_run::succeeded;
using cli_run::writeFile;

const QByteArray kCorpus =
    QByteArray("the quick brown fox jumps over the lazy dog. ab ab ab.\n").repeated(60);

Result runForced(const QString& tier, const QStringList& args) {
    QProcessEnvironment environment = cli_run::cliEnvironment();
    environment.insert(QStringLiteral("CHARGPT_CPU"), tier);
    return cli_run::runCliIn(environment, args, 120000);
}

// The tiers this CPU and build run, lowest first.
QStringList availableTiers() {
    QStringList names;
    const chargpt::CpuTier top = std::min(chargpt::cpuBestTier(), chargpt::builtTopTier());
    for (chargpt::CpuTier t : chargpt::kAllTiers)
        if (t <= top) names << QString::fromLatin1(chargpt::tierName(t));
    return names;
}

}  // namespace

class TestCliTiers : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void refused_data();
    void refused();
    void versionNamesTheTier();
    void greedyTextAlikeInEveryTier();

private:
    QTemporaryDir dir_;
    QString model_;
};

void TestCliTiers::initTestCase() {
    QVERIFY2(cliExists(), CHARGPT_CLI);
    QVERIFY(dir_.isValid());
    const QString corpus = dir_.filePath("corpus.txt");
    QVERIFY(writeFile(corpus, kCorpus));
    model_ = dir_.filePath("m.pt");
    const Result train =
        runCli({"train", corpus, "--preset", "tiny", "--steps", "20", "--no-record", "--out", model_});
    QVERIFY2(succeeded(train), qPrintable(describe(train)));
}

void TestCliTiers::refused_data() {
    QTest::addColumn<QString>("tier");
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("says");
    QTest::newRow("no tier, --version")
        << "bogus" << QStringList{"--version"} << "CHARGPT_CPU=bogus is not a CPU tier";
    QTest::newRow("no tier, sample") << "AVX2" << QStringList{"sample", "m.pt"}
                                     << "CHARGPT_CPU=AVX2 is not a CPU tier";
    const QStringList have = availableTiers();
    for (chargpt::CpuTier t : chargpt::kAllTiers) {
        const QString name = QString::fromLatin1(chargpt::tierName(t));
        if (!have.contains(name))
            QTest::newRow(qPrintable("lacked: " + name))
                << name << QStringList{"--version"} << "CHARGPT_CPU=" + name + ": this ";
    }
}

// One line on stderr, nothing on stdout, exit status 2.
void TestCliTiers::refused() {
    QFETCH(QString, tier);
    QFETCH(QStringList, args);
    QFETCH(QString, says);
    const Result r = runForced(tier, args);
    QVERIFY2(r.finished && r.status == QProcess::NormalExit && r.exitCode == 2, qPrintable(describe(r)));
    QVERIFY2(r.err.startsWith("chargpt: " + says), qPrintable(describe(r)));
    QCOMPARE(r.err.count('\n'), 1);
    QVERIFY(r.out.isEmpty());
}

void TestCliTiers::versionNamesTheTier() {
    const Result best = runForced(QString(), {"--version"});
    QVERIFY2(succeeded(best), qPrintable(describe(best)));
    const QStringList have = availableTiers();
    QVERIFY2(best.out.contains("\nCPU tier: " + have.last() + "\n") ||
                 best.out.contains("\nCPU tier: " + have.last() + " ("),
             qPrintable(describe(best)));
    for (const QString& tier : have) {
        const Result r = runForced(tier, {"--version"});
        QVERIFY2(succeeded(r), qPrintable(describe(r)));
        QVERIFY2(r.out.contains("\nCPU tier: " + tier + " (forced by CHARGPT_CPU"), qPrintable(describe(r)));
    }
}

// The kernels of every tier add the same products in the same order: greedy
// fp32 text is the same under each.
void TestCliTiers::greedyTextAlikeInEveryTier() {
    const QStringList args{"sample",        model_, "--prompt",    "the ", "--chars", "300",
                           "--temperature", "0",    "--precision", "fp32", "--json"};
    QString first;
    for (const QString& tier : availableTiers()) {
        const Result r = runForced(tier, args);
        QVERIFY2(succeeded(r), qPrintable(describe(r)));
        const QString text = cli_run::onlySample(cli_run::lastJsonLine(r.out)).value("text").toString();
        QVERIFY(!text.isEmpty());
        if (first.isEmpty())
            first = text;
        else
            QVERIFY2(text == first, qPrintable(tier + ": " + text + "\nfirst tier: " + first));
    }
}

CHARGPT_TEST_GUILESS_MAIN(TestCliTiers)
}  // namespace tst_cli_tiers
#include "tst_cli_tiers.moc"
