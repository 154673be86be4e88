// SPDX-License-Identifier: GPL-3.0-or-later
// A large corpus is held at a few bytes a character: `chargpt train` (a file
// and a folder) and `chargpt ladder` on a text of 60 million characters take at
// most 8 bytes of memory a character more than on a text of a few thousand
// (the text as code points, 4 bytes, and its data set in 16 bits, 2). Peak
// memory is read from the kernel's count for the child (python3's
// resource.getrusage), one fresh measuring process per run.
#include <QDir>
#include <QProcess>
#include <QTemporaryDir>
#include "TestProgram.h"

#include <random>

#include "CliRun.h"

namespace tst_cli_memory {

namespace {

constexpr qint64 kLargeCharacters = 60'000'000;

// Peak resident memory of `chargpt args...` in bytes; -1 when it failed.
qint64 peakBytes(const QStringList& args, QString* failure) {
    QProcess p;
    p.setProcessEnvironment(cli_run::cliEnvironment());
    p.setProgram(QStringLiteral("python3"));
    p.setArguments(QStringList{QStringLiteral("-c"),
                               QStringLiteral("import resource, subprocess, sys\n"
                                              "r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)\n"
                                              "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
                                              "sys.exit(r.returncode)\n"),
                               QStringLiteral(CHARGPT_CLI)} +
                   args);
    p.start();
    if (!p.waitForFinished(300000) || p.exitCode() != 0) {
        *failure = QString::fromUtf8(p.readAllStandardError()).left(2000);
        return -1;
    }
    return QString::fromUtf8(p.readAllStandardOutput()).trimmed().toLongLong() * 1024;  // ru_maxrss is in KiB
}

// Lines of random words over a small alphabet, `characters` long.
QByteArray words(qint64 characters, unsigned seed) {
    std::mt19937 rng(seed);
    QByteArray text;
    text.reserve(characters);
    while (text.size() < characters) {
        const int length = 1 + int(rng() % 9);
        for (int i = 0; i < length; ++i) text.append(char('a' + rng() % 26));
        text.append(rng() % 12 == 0 ? '\n' : ' ');
    }
    text.truncate(characters);
    return text;
}

}  // namespace

class TestCliMemory : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void aLargeCorpusTakesAFewBytesACharacter_data();
    void aLargeCorpusTakesAFewBytesACharacter();

private:
    QTemporaryDir dir_;
};

void TestCliMemory::initTestCase() {
#if defined(__SANITIZE_ADDRESS__)
    // Its shadow memory and the quarantine that holds freed blocks are memory
    // of its own; the Release build's run of this test measures the program's.
    QSKIP("peak memory is measured in the build without AddressSanitizer");
#endif
    QVERIFY2(cli_run::cliExists(), CHARGPT_CLI);
    QVERIFY(dir_.isValid());
    QVERIFY(cli_run::writeFile(dir_.filePath("small.txt"), words(20000, 1)));
    const QByteArray large = words(kLargeCharacters, 2);
    QVERIFY(cli_run::writeFile(dir_.filePath("large.txt"), large));
    // The same text as a folder of ten files.
    QVERIFY(QDir(dir_.path()).mkdir("folder"));
    const qint64 part = kLargeCharacters / 10;
    for (int i = 0; i < 10; ++i)
        QVERIFY(cli_run::writeFile(dir_.filePath(QStringLiteral("folder/%1.txt").arg(i)), large.mid(i * part, part)));
}

void TestCliMemory::aLargeCorpusTakesAFewBytesACharacter_data() {
    QTest::addColumn<QStringList>("command");
    QTest::addColumn<QString>("large");
    QTest::addColumn<QString>("small");
    const QString out = dir_.filePath("out.pt");
    const QStringList train{"train", "--preset", "tiny", "--steps", "2", "--eval-iters", "1", "--no-record", "-o", out};
    QTest::newRow("train a file") << train << dir_.filePath("large.txt") << dir_.filePath("small.txt");
    QTest::newRow("train a folder") << train << dir_.filePath("folder") << dir_.filePath("small.txt");
    QTest::newRow("ladder") << QStringList{"ladder", "--rungs", "1", "--steps", "2", "--eval-iters", "1", "--no-record"}
                            << dir_.filePath("large.txt") << dir_.filePath("small.txt");
}

void TestCliMemory::aLargeCorpusTakesAFewBytesACharacter() {
    QFETCH(QStringList, command);
    QFETCH(QString, large);
    QFETCH(QString, small);
    QString failure;
    const qint64 base = peakBytes(command + QStringList{small}, &failure);
    QVERIFY2(base > 0, qPrintable(failure));
    const qint64 peak = peakBytes(command + QStringList{large}, &failure);
    QVERIFY2(peak > 0, qPrintable(failure));
    const double perCharacter = double(peak - base) / double(kLargeCharacters);
    qInfo("peak %.0f MB, %.0f MB on a small text: %.2f bytes a character", double(peak) / 1e6, double(base) / 1e6,
          perCharacter);
    QVERIFY2(perCharacter <= 8.0, qPrintable(QStringLiteral("%1 bytes a character").arg(perCharacter)));
}

CHARGPT_TEST_MAIN(TestCliMemory)
}  // namespace tst_cli_memory
#include "tst_cli_memory.moc"
