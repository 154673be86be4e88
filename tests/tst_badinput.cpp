// SPDX-License-Identifier: GPL-3.0-or-later
// Corpora a learner may pick by mistake (UTF-16, 2 GiB, 20,000 files, unreadable
// entries, link loops, pipes and devices, too many distinct characters) and
// settings too large for the machine: each refused with a message that says
// why, or accepted, and never by reading forever or running out of memory.
#include <fcntl.h>
#include <grp.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "TestProgram.h"
#include <csignal>
#include <cstdio>
#include <functional>
#include <string>

#include "model/text/Corpus.h"
#include "model/runtime/Error.h"
#include "model/train/RunConfig.h"
#include "model/runtime/Runtime.h"

namespace tst_badinput {

using chargpt::Corpus;

namespace {

bool writeFile(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

// Corpus::load's message, or an empty string when it accepted the path.
QString refusal(const QString& path) {
    try {
        Corpus::load(QFile::encodeName(path).toStdString());
    } catch (const chargpt::Error& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

QString warningsOf(const Corpus& corpus) {
    QString all;
    for (const std::string& w : corpus.warnings()) all += QString::fromStdString(w) + '\n';
    return all;
}

QByteArray utf16(const QString& text, bool littleEndian, bool bom) {
    QByteArray bytes;
    if (bom) bytes += littleEndian ? QByteArray("\xFF\xFE") : QByteArray("\xFE\xFF");
    for (const QChar c : text) {
        const ushort u = c.unicode();
        const char lo = char(u & 0xFF), hi = char(u >> 8);
        if (littleEndian)
            bytes.append(lo).append(hi);
        else
            bytes.append(hi).append(lo);
    }
    return bytes;
}

long maxResidentKiB() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss;
}

// Runs `check` in a child process that is killed after `seconds`. The child's
// exit code is check's result (0 for success); a kill means it blocked.
// Returns a description of the failure, or an empty string.
QString inChild(const std::function<int()>& check, unsigned seconds, bool dropRoot = false) {
    std::fflush(nullptr);
    const pid_t pid = fork();
    if (pid < 0) return QStringLiteral("fork failed");
    if (pid == 0) {
        alarm(seconds);
        if (dropRoot && geteuid() == 0) {
            // root reads any file whatever its mode: become "nobody" to test a
            // file that the user cannot read.
            if (setgroups(0, nullptr) != 0 || setgid(65534) != 0 || setuid(65534) != 0) _exit(90);
        }
        _exit(check());
    }
    int status = 0;
    if (waitpid(pid, &status, 0) != pid) return QStringLiteral("waitpid failed");
    if (WIFSIGNALED(status))
        return WTERMSIG(status) == SIGALRM ? QStringLiteral("blocked for %1 s").arg(seconds)
                                           : QStringLiteral("killed by signal %1").arg(WTERMSIG(status));
    if (WEXITSTATUS(status) == 90) return QStringLiteral("could not drop root privileges");
    return WEXITSTATUS(status) == 0 ? QString()
                                    : QStringLiteral("check failed with code %1").arg(WEXITSTATUS(status));
}

}  // namespace

class TestBadInput : public QObject {
    Q_OBJECT

private slots:
    void utf16WithBomIsConverted_data();
    void utf16WithBomIsConverted();
    void utf16Refused_data();
    void utf16Refused();
    void twoGiBFileRefusedBeforeReading();
    void folderOf20000Files();
    void unreadableFiles();
    void brokenLinksAndLoops();
    void pipesAndDevices();
    void vocabularyLimit();
    void memoryLimit();
};

void TestBadInput::utf16WithBomIsConverted_data() {
    QTest::addColumn<bool>("littleEndian");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("expected");
    const QString poem = QStringLiteral("床前明月光，疑是地上霜。\r\nplain ASCII 😀 and 𝄞\r\n");
    const QString lf = QString(poem).replace(QStringLiteral("\r\n"), QStringLiteral("\n"));
    QTest::newRow("UTF-16 LE (Windows Notepad 'Unicode')") << true << poem << lf;
    QTest::newRow("UTF-16 BE") << false << poem << lf;
}

void TestBadInput::utf16WithBomIsConverted() {
    QFETCH(bool, littleEndian);
    QFETCH(QString, text);
    QFETCH(QString, expected);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath("notepad.txt");
    QVERIFY(writeFile(path, utf16(text, littleEndian, true)));
    const Corpus corpus = Corpus::load(path.toStdString());
    QCOMPARE(corpus.documents().size(), std::size_t(1));
    QCOMPARE(QString::fromStdU32String(corpus.documents()[0]), expected);
    // Surrogate pairs became one code point each; no mark in the vocabulary.
    QCOMPARE(corpus.documents()[0].size(), std::size_t(expected.toStdU32String().size()));
    QCOMPARE(corpus.buildTokenizer().id(U'\uFEFF'), int64_t(-1));
    QVERIFY(corpus.buildTokenizer().id(U'😀') > 0);
}

void TestBadInput::utf16Refused_data() {
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("problem");  // regular expression

    const QString text = QStringLiteral("hello, world\nsecond line\n");
    QTest::newRow("UTF-16 LE without a mark")
        << utf16(text, true, false) << "UTF-16.*without a byte-order mark";
    QTest::newRow("UTF-16 BE without a mark")
        << utf16(text, false, false) << "UTF-16.*without a byte-order mark";
    QTest::newRow("odd byte count") << (utf16(text, true, true) + 'x') << "UTF-16.*odd number of bytes";
    QTest::newRow("unpaired surrogate") << (utf16(QStringLiteral("ab"), true, true) + QByteArray("\x00\xD8"
                                                                                                 "c\0",
                                                                                                 4))
                                        << "UTF-16.*surrogate at byte offset 6";
    QTest::newRow("UTF-32") << QByteArray("\xFF\xFE\0\0h\0\0\0", 8) << "UTF-32.*not supported";
    QTest::newRow("binary still names UTF-16 as a cause")
        << QByteArray("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16) << "binary.*byte offset 8.*UTF-16";
}

void TestBadInput::utf16Refused() {
    QFETCH(QByteArray, bytes);
    QFETCH(QString, problem);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath("odd.txt");
    QVERIFY(writeFile(path, bytes));
    const QString m = refusal(path);
    QVERIFY2(!m.isEmpty(), "accepted");
    QVERIFY2(m.contains(QRegularExpression(problem)), qPrintable(m));
    QVERIFY2(m.contains(QStringLiteral("odd.txt")), qPrintable(m));
}

void TestBadInput::twoGiBFileRefusedBeforeReading() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath("huge.txt");
    // A sparse file: 2 GiB long, no disk used. Corpus::load must refuse it from
    // its size; reading it would allocate 2 GiB.
    const int fd = ::open(QFile::encodeName(path).constData(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    QVERIFY(fd >= 0);
    QCOMPARE(::ftruncate(fd, off_t(2) << 30), 0);
    ::close(fd);
    QCOMPARE(QFileInfo(path).size(), qint64(2) << 30);

    const long before = maxResidentKiB();
    QElapsedTimer timer;
    timer.start();
    const QString m = refusal(path);
    const qint64 ms = timer.elapsed();
    QVERIFY2(m.contains(QStringLiteral("2048 MiB")) && m.contains(QStringLiteral("256 MiB")), qPrintable(m));
    QVERIFY2(m.contains(QStringLiteral("huge.txt")), qPrintable(m));
    // Peak memory did not grow by the file (a few MiB of slack for the allocator).
    QVERIFY2(maxResidentKiB() - before < 32 * 1024, qPrintable(QString::number(maxResidentKiB() - before)));
    qInfo("2 GiB file refused in %lld ms", ms);

    // In a folder, the big file is left out with the reason; the rest is used.
    QVERIFY(writeFile(dir.filePath("small.txt"), "a small text file\n"));
    const Corpus corpus = Corpus::load(dir.path().toStdString());
    QCOMPARE(corpus.documents().size(), std::size_t(1));
    QVERIFY2(warningsOf(corpus).contains(QStringLiteral("huge.txt is 2048 MiB")),
             qPrintable(warningsOf(corpus)));
    QVERIFY2(maxResidentKiB() - before < 32 * 1024, qPrintable(QString::number(maxResidentKiB() - before)));
}

void TestBadInput::folderOf20000Files() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    constexpr int kFiles = 20000;
    QElapsedTimer timer;
    timer.start();
    // 200 subfolders of 100 files, as a scraped data set might come.
    for (int i = 0; i < kFiles; ++i) {
        const QString sub = QStringLiteral("part%1").arg(i / 100, 3, 10, QLatin1Char('0'));
        if (i % 100 == 0) QVERIFY(QDir(dir.path()).mkpath(sub));
        QVERIFY(
            writeFile(dir.filePath(QStringLiteral("%1/file%2.txt").arg(sub).arg(i, 5, 10, QLatin1Char('0'))),
                      QStringLiteral("document %1 of the folder\n").arg(i).toUtf8()));
    }
    const qint64 writeMs = timer.restart();
    const Corpus corpus = Corpus::load(dir.path().toStdString());
    const qint64 loadMs = timer.restart();
    const chargpt::CharTokenizer tokenizer = corpus.buildTokenizer();
    const std::vector<int64_t> tokens = corpus.encode(tokenizer);
    const qint64 encodeMs = timer.elapsed();
    qInfo("20,000 files: written in %lld ms, loaded in %lld ms, tokenized in %lld ms", writeMs, loadMs,
          encodeMs);

    QCOMPARE(corpus.documents().size(), std::size_t(kFiles));
    QVERIFY(corpus.warnings().empty());
    // Path order: part000/file00000 first, part199/file19999 last.
    QCOMPARE(QString::fromStdU32String(corpus.documents().front()),
             QStringLiteral("document 0 of the folder\n"));
    QCOMPARE(QString::fromStdU32String(corpus.documents().back()),
             QStringLiteral("document 19999 of the folder\n"));
    QCOMPARE(tokens.size(), corpus.tokenCount());
    QCOMPARE(corpus.tokenCount(), corpus.charCount() + kFiles - 1);
    // Generous bound, far above the measured time: loading must stay linear.
    QVERIFY2(loadMs < 30000, qPrintable(QString::number(loadMs)));
}

void TestBadInput::unreadableFiles() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString folder = dir.filePath("mixed");
    QVERIFY(QDir().mkpath(folder));
    QVERIFY(writeFile(folder + "/readable.txt", "text anyone may read\n"));
    const QString secret = folder + "/secret.txt";
    QVERIFY(writeFile(secret, "text nobody may read\n"));
    QVERIFY(QDir().mkpath(folder + "/locked"));
    QVERIFY(writeFile(folder + "/locked/inside.txt", "inside a folder nobody may open\n"));
    QCOMPARE(::chmod(QFile::encodeName(secret).constData(), 0), 0);
    QCOMPARE(::chmod(QFile::encodeName(folder + "/locked").constData(), 0), 0);
    // The user the check runs as must reach the folder itself.
    for (const QString& d : {dir.path(), folder})
        QCOMPARE(::chmod(QFile::encodeName(d).constData(), 0755), 0);
    const std::string folderPath = folder.toStdString(), secretPath = secret.toStdString();

    // As root every file is readable, so the check runs in a child that drops
    // to the unprivileged user "nobody" first (as any other user it runs as is).
    const QString failure = inChild(
        [&]() -> int {
            try {
                Corpus::load(secretPath);
                return 1;  // the unreadable file was accepted
            } catch (const chargpt::Error& e) {
                const std::string m = e.what();
                if (m.find("cannot open") == std::string::npos || m.find("secret.txt") == std::string::npos ||
                    m.find("Permission denied") == std::string::npos)
                    return 2;
            }
            try {
                const Corpus corpus = Corpus::load(folderPath);
                if (corpus.documents().size() != 1) return 3;
                std::string all;
                for (const std::string& w : corpus.warnings()) all += w + '\n';
                if (all.find("secret.txt: Permission denied") == std::string::npos) return 4;
                if (all.find("skipped the folder " + folderPath + "/locked: Permission denied") ==
                    std::string::npos)
                    return 5;
            } catch (const chargpt::Error&) {
                return 6;
            }
            return 0;
        },
        20, /*dropRoot=*/true);
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
    ::chmod(QFile::encodeName(folder + "/locked").constData(), 0755);  // so that the folder can be removed
}

void TestBadInput::brokenLinksAndLoops() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString folder = dir.filePath("links");
    QVERIFY(QDir().mkpath(folder));
    QVERIFY(writeFile(folder + "/real.txt", "the only real text\n"));
    auto link = [](const QString& target, const QString& name) {
        return ::symlink(QFile::encodeName(target).constData(), QFile::encodeName(name).constData()) == 0;
    };
    QVERIFY(link(folder + "/gone.txt", folder + "/dangling.txt"));  // fails to open, for root too
    QVERIFY(link(folder + "/loop_b", folder + "/loop_a"));
    QVERIFY(link(folder + "/loop_a", folder + "/loop_b"));
    QVERIFY(link(folder, folder + "/myself"));                      // a folder loop
    QVERIFY(link(folder + "/real.txt", folder + "/zz_alias.txt"));  // a link to a file is followed

    QElapsedTimer timer;
    timer.start();
    const Corpus corpus = Corpus::load(folder.toStdString());
    QVERIFY(timer.elapsed() < 5000);
    QCOMPARE(corpus.documents().size(), std::size_t(2));  // real.txt and its alias
    const QString w = warningsOf(corpus);
    QVERIFY2(
        w.contains(QRegularExpression("dangling.txt is a symbolic link that leads nowhere \\(No such file")),
        qPrintable(w));
    QVERIFY2(
        w.contains(QRegularExpression("loop_a is a symbolic link that leads nowhere \\(Too many levels")),
        qPrintable(w));
    QVERIFY2(w.contains(QStringLiteral("myself links to a folder; links to folders are not followed")),
             qPrintable(w));

    // Given directly, each is refused with its own reason.
    QString m = refusal(folder + "/loop_a");
    QVERIFY2(m.contains(QStringLiteral("loop_a is a loop of symbolic links")), qPrintable(m));
    m = refusal(folder + "/dangling.txt");
    QVERIFY2(m.contains(QStringLiteral("dangling.txt is a symbolic link to something that does not exist")),
             qPrintable(m));
}

void TestBadInput::pipesAndDevices() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString fifo = dir.filePath("pipe.txt");
    QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0644), 0);
    QVERIFY(writeFile(dir.filePath("text.txt"), "the text beside the pipe\n"));
    const std::string fifoPath = fifo.toStdString(), folderPath = dir.path().toStdString();

    // Opening a FIFO for reading blocks until a writer comes, and /dev/zero never
    // ends: each check runs in a child killed after 10 s, which would fail it.
    struct Case {
        std::string path;
        const char* says;
    };
    for (const Case& c : {Case{fifoPath, "is a named pipe (FIFO), not a text file"},
                          Case{"/dev/zero", "/dev/zero is a device, not a text file"},
                          Case{"/dev/null", "/dev/null is a device, not a text file"}}) {
        const QString failure = inChild(
            [&]() -> int {
                try {
                    Corpus::load(c.path);
                } catch (const chargpt::Error& e) {
                    return std::string(e.what()).find(c.says) == std::string::npos ? 2 : 0;
                }
                return 1;
            },
            10);
        QVERIFY2(failure.isEmpty(), qPrintable(QString::fromStdString(c.path) + ": " + failure));
    }
    const QString failure = inChild(
        [&]() -> int {
            const Corpus corpus = Corpus::load(folderPath);
            if (corpus.documents().size() != 1) return 1;
            std::string all;
            for (const std::string& w : corpus.warnings()) all += w;
            return all.find("pipe.txt is not a regular file") == std::string::npos ? 2 : 0;
        },
        10);
    QVERIFY2(failure.isEmpty(), qPrintable("folder with a pipe: " + failure));
}

void TestBadInput::vocabularyLimit() {
    // 65,535 distinct characters fill the vocabulary (with end-of-text, 65,536
    // tokens); one more is refused. Supplementary-plane code points: 4 bytes each.
    auto text = [](int distinct) {
        std::u32string s;
        for (int i = 0; i < distinct; ++i) s.push_back(char32_t(0x20000 + i));
        s.push_back(U'\n');
        return QString::fromStdU32String(s).toUtf8();
    };
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString full = dir.filePath("full.txt"), over = dir.filePath("over.txt");
    QVERIFY(writeFile(full, text(65534)));  // + '\n' = 65,535 distinct
    QVERIFY(writeFile(over, text(70000)));

    const Corpus fits = Corpus::load(full.toStdString());
    QCOMPARE(fits.buildTokenizer().vocabSize(), chargpt::RunConfig::kMaxVocabulary);

    const Corpus tooMany = Corpus::load(over.toStdString());
    try {
        tooMany.buildTokenizer();
        QFAIL("a vocabulary over the limit was built");
    } catch (const chargpt::Error& e) {
        const QString m = QString::fromStdString(e.what());
        QVERIFY2(m.contains(QStringLiteral("over.txt has 70001 distinct characters")) &&
                     m.contains(QStringLiteral("at most 65535 (65536 tokens")),
                 qPrintable(m));
    }
}

void TestBadInput::memoryLimit() {
    const double machine = chargpt::physicalMemoryBytes();
    QVERIFY(machine > 0);
    // The same figure as /proc/meminfo's MemTotal, within a few per cent.
    QFile meminfo(QStringLiteral("/proc/meminfo"));
    QVERIFY(meminfo.open(QIODevice::ReadOnly));
    const QByteArray first = meminfo.readLine();
    const double kib = first.simplified().split(' ').value(1).toDouble();
    QVERIFY2(std::abs(machine - kib * 1024) < 0.05 * machine, first.constData());

    chargpt::RunConfig fast = *chargpt::RunConfig::preset("fast");
    fast.vocab_size = 100;
    QVERIFY(fast.trainingMemoryBytes() > 0);
    QVERIFY(fast.trainingMemoryBytes() < 1e9);
    QCOMPARE(QString::fromStdString(fast.memoryProblem(machine).message()), QString());

    // A context of 4096 and a batch of 4096 at width 4096: petabytes.
    chargpt::RunConfig absurd = fast;
    absurd.emb_size = 4096;
    absurd.head_size = 64;
    absurd.n_layer = 128;
    absurd.sequence_len = 4096;
    absurd.batch_size = 4096;
    QVERIFY(absurd.trainingMemoryBytes() > 1e15);
    const QString m = QString::fromStdString(absurd.memoryProblem(machine).message());
    QVERIFY2(
        m.contains(QRegularExpression("needs about \\d+ GiB of memory and this machine has [\\d.]+ GiB")),
        qPrintable(m));
    QVERIFY(m.contains(QStringLiteral("lower the batch size")));
    // The limit is the machine's: the fast preset is refused by a 1 MiB machine.
    QVERIFY(fast.memoryProblem(1 << 20));
}

CHARGPT_TEST_GUILESS_MAIN(TestBadInput)
}  // namespace tst_badinput
#include "tst_badinput.moc"
