// SPDX-License-Identifier: GPL-3.0-or-later
// The compute thread count: one rule (chooseThreads) for the CLI's --threads,
// the studio's stored setting and OMP_NUM_THREADS, capped at the machine's
// cores; and the CPU tier's one rule (chooseTier) for CHARGPT_CPU.
#include <torch/torch.h>

#include "model/runtime/CpuTier.h"
#include "model/runtime/Runtime.h"

#include "TestProgram.h"

namespace tst_runtime {

using namespace chargpt;

class TestRuntime : public QObject {
    Q_OBJECT

private slots:
    void cappedAtCores_data();
    void cappedAtCores();
    void environmentIsCappedToo();
    void appliedOnce();
    void tierChosen_data();
    void tierChosen();
    void tierNames();
};

void TestRuntime::cappedAtCores_data() {
    QTest::addColumn<int>("requested");
    QTest::addColumn<int>("cores");
    QTest::addColumn<int>("applied");
    QTest::addColumn<bool>("capped");
    QTest::newRow("4000 on 2 cores") << 4000 << 2 << 2 << true;
    QTest::newRow("1024 on 2 cores") << 1024 << 2 << 2 << true;
    QTest::newRow("3 on 2 cores") << 3 << 2 << 2 << true;
    QTest::newRow("2 on 2 cores") << 2 << 2 << 2 << false;
    QTest::newRow("1 on 16 cores") << 1 << 16 << 1 << false;
    QTest::newRow("automatic on 16 cores") << 0 << 16 << 16 << false;
    QTest::newRow("negative is automatic") << -5 << 4 << 4 << false;
    QTest::newRow("no cores known") << 8 << 0 << 1 << true;
}

void TestRuntime::cappedAtCores() {
    QFETCH(int, requested);
    QFETCH(int, cores);
    QFETCH(int, applied);
    QFETCH(bool, capped);
    const bool wasSet = qEnvironmentVariableIsSet("OMP_NUM_THREADS");
    const QByteArray before = qgetenv("OMP_NUM_THREADS");
    qunsetenv("OMP_NUM_THREADS");
    const ThreadChoice c = chooseThreads(requested, cores);
    if (wasSet) qputenv("OMP_NUM_THREADS", before);
    QCOMPARE(c.applied, applied);
    QCOMPARE(c.capped, capped);
    QVERIFY(!c.fromEnvironment);
    const QString message = QString::fromStdString(c.message("--threads " + std::to_string(requested)));
    if (capped)
        QCOMPARE(message, QStringLiteral("--threads %1 is more than this machine's %2: using %3.")
                              .arg(requested)
                              .arg(std::max(cores, 1) == 1 ? QStringLiteral("1 core") : QStringLiteral("%1 cores").arg(cores))
                              .arg(applied == 1 ? QStringLiteral("1 thread") : QStringLiteral("%1 threads").arg(applied)));
    else
        QVERIFY(message.isEmpty());
}

void TestRuntime::environmentIsCappedToo() {
    const bool wasSet = qEnvironmentVariableIsSet("OMP_NUM_THREADS");
    const QByteArray before = qgetenv("OMP_NUM_THREADS");
    qputenv("OMP_NUM_THREADS", "64");
    const ThreadChoice automatic = chooseThreads(0, 4);
    const ThreadChoice explicitOne = chooseThreads(3, 4);  // an explicit count wins over the variable
    if (wasSet) qputenv("OMP_NUM_THREADS", before);
    else qunsetenv("OMP_NUM_THREADS");
    QCOMPARE(automatic.applied, 4);
    QVERIFY(automatic.capped && automatic.fromEnvironment);
    QCOMPARE(QString::fromStdString(automatic.message("the Threads setting (0)")),
             QStringLiteral("OMP_NUM_THREADS=64 is more than this machine's 4 cores: using 4 threads."));
    QCOMPARE(explicitOne.applied, 3);
    QVERIFY(!explicitOne.capped && !explicitOne.fromEnvironment);
}

// The process applies its choice once, and LibTorch runs exactly that many.
void TestRuntime::appliedOnce() {
    const int cores = machineCores();
    QVERIFY(cores >= 1);
    const ThreadChoice first = applyThreads(4000);
    QCOMPARE(first.applied, std::min(cores, 4000));
    QCOMPARE(first.capped, cores < 4000);
    QCOMPARE(at::get_num_threads(), first.applied);
    const ThreadChoice later = applyThreads(1);  // later calls change nothing
    QCOMPARE(later.applied, first.applied);
    QCOMPARE(initThreads(1), first.applied);
}

void TestRuntime::tierChosen_data() {
    QTest::addColumn<QString>("forced");  // CHARGPT_CPU; empty: not set
    QTest::addColumn<int>("cpu");
    QTest::addColumn<int>("built");
    QTest::addColumn<int>("tier");
    QTest::addColumn<QString>("refusal");  // the start of the refusal; empty: none
    const int generic = int(CpuTier::Generic), avx2 = int(CpuTier::Avx2), avx512 = int(CpuTier::Avx512),
              bf16 = int(CpuTier::Avx512Bf16), amx = int(CpuTier::Amx);
    QTest::newRow("the CPU's best") << "" << bf16 << amx << bf16 << "";
    QTest::newRow("capped by the build") << "" << bf16 << generic << generic << "";
    QTest::newRow("forced lower") << "avx2" << bf16 << amx << avx2 << "";
    QTest::newRow("forced generic") << "generic" << avx512 << amx << generic << "";
    QTest::newRow("forced, the CPU's own") << "avx512-bf16" << bf16 << amx << bf16 << "";
    QTest::newRow("lacked by the CPU") << "avx512" << avx2 << amx << avx2
                                       << "CHARGPT_CPU=avx512: this CPU has no avx512 (its best tier is avx2).";
    QTest::newRow("lacked by the build") << "avx2" << bf16 << generic << generic
                                         << "CHARGPT_CPU=avx2: this build has no kernels for avx2";
    QTest::newRow("no tier") << "bogus" << avx2 << amx << avx2 << "CHARGPT_CPU=bogus is not a CPU tier";
    QTest::newRow("names are lower case") << "AVX2" << avx2 << amx << avx2 << "CHARGPT_CPU=AVX2 is not a CPU tier";
}

void TestRuntime::tierChosen() {
    QFETCH(QString, forced);
    QFETCH(int, cpu);
    QFETCH(int, built);
    QFETCH(int, tier);
    QFETCH(QString, refusal);
    const QByteArray name = forced.toUtf8();
    const TierChoice c = chooseTier(forced.isEmpty() ? nullptr : name.constData(), CpuTier(cpu), CpuTier(built));
    QCOMPARE(int(c.tier), tier);
    QCOMPARE(c.forced, !forced.isEmpty() && refusal.isEmpty());
    QVERIFY2(QString::fromStdString(c.refusal).startsWith(refusal), c.refusal.c_str());
    QCOMPARE(c.refusal.empty(), refusal.isEmpty());
    if (c.forced) QVERIFY(QString::fromStdString(tierLine(c)).contains("forced by CHARGPT_CPU"));
}

// Each tier's name reads back as the tier; only native bf16 tiers multiply it
// natively; the process's tier is one this CPU runs.
void TestRuntime::tierNames() {
    for (CpuTier t : kAllTiers) {
        CpuTier back = CpuTier::Generic;
        QVERIFY(tierFromName(tierName(t), &back));
        QCOMPARE(int(back), int(t));
    }
    QVERIFY(!tierHasNativeBf16(CpuTier::Avx512) && tierHasNativeBf16(CpuTier::Avx512Bf16));
    QVERIFY(cpuTier() <= cpuBestTier() && cpuTier() <= builtTopTier());
    QCOMPARE(cpuHasFastBf16(), tierHasNativeBf16(cpuTier()));
}

CHARGPT_TEST_GUILESS_MAIN(TestRuntime)
}  // namespace tst_runtime
#include "tst_runtime.moc"
