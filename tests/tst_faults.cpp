// SPDX-License-Identifier: GPL-3.0-or-later
// Faults with nothing lost: a diverging run keeps its last good weights, a save
// that cannot be written (a folder that refuses files, a full disk) leaves the
// previous file as it was, and a process killed while saving leaves a
// checkpoint that loads. The same through `chargpt`: tst_cli_faults.
//
// Started as `tst_faults --save-loop A B TARGET` (or --write-loop) this program
// is the child of killedWhileSaving: it saves A and B over TARGET in turn until
// it is killed.
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <torch/torch.h>
#include <unistd.h>

#include "TestProgram.h"
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "model/nn/CharGPT.h"
#include "model/text/CharTokenizer.h"
#include "model/io/AtomicFile.h"
#include "model/io/Checkpoint.h"
#include "model/session/TrainingSession.h"
#include "CliRun.h"
#include "FaultChecks.h"
#include "model/text/Corpus.h"
#include "model/train/Dataset.h"
#include "model/runtime/Error.h"
#include "model/train/RunConfig.h"
#include "model/runtime/Runtime.h"
#include "model/train/Trainer.h"

namespace tst_faults {

#ifndef CHARGPT_CLI
#error "CHARGPT_CLI must name the chargpt executable"
#endif

using namespace chargpt;
using namespace fault_checks;

// This program's own fsync and rename, which the model library (linked in
// statically) calls instead of libc's: they note each call while a test asks,
// then make the system call itself.
namespace {
std::mutex gCallsMutex;
std::vector<std::string>* gCalls = nullptr;

std::string pathOfDescriptor(int fd) {
    char link[64], target[4096];
    std::snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    const ssize_t n = ::readlink(link, target, sizeof target - 1);
    return n > 0 ? std::string(target, std::size_t(n)) : "?";
}

void noteCall(const std::string& call) {
    std::lock_guard<std::mutex> lock(gCallsMutex);
    if (gCalls) gCalls->push_back(call);
}
}  // namespace

extern "C" int fsync(int fd) {
    noteCall("fsync " + pathOfDescriptor(fd));
    return int(::syscall(SYS_fsync, fd));
}

extern "C" int rename(const char* from, const char* to) noexcept {
    noteCall(std::string("rename ") + from + " " + to);
    return int(::syscall(SYS_rename, from, to));
}

namespace {

bool sameWeights(const std::vector<torch::Tensor>& a, const std::vector<torch::Tensor>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (!torch::equal(a[i], b[i])) return false;
    return true;
}

using cli_run::readFile;
using cli_run::writeFile;

// Sets RLIMIT_FSIZE (with SIGXFSZ ignored, so a write past it fails with EFBIG
// as on a full disk) for the life of the object.
class FileSizeLimit {
public:
    explicit FileSizeLimit(rlim_t bytes) {
        oldHandler_ = std::signal(SIGXFSZ, SIG_IGN);
        ::getrlimit(RLIMIT_FSIZE, &old_);
        rlimit limit = old_;
        limit.rlim_cur = bytes;
        ok_ = ::setrlimit(RLIMIT_FSIZE, &limit) == 0;
    }
    ~FileSizeLimit() {
        ::setrlimit(RLIMIT_FSIZE, &old_);
        std::signal(SIGXFSZ, oldHandler_);
    }
    bool ok() const { return ok_; }

private:
    rlimit old_{};
    void (*oldHandler_)(int) = nullptr;
    bool ok_ = false;
};

}  // namespace

class TestFaults : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void nonFiniteLossKeepsLastGoodWeights();
    void saveSyncsFileThenRenamesThenSyncsFolder();
    void fullDiskKeepsPreviousFile();
    void unwritablePlaces_data();
    void unwritablePlaces();
    void killedWhileSaving();
    void staleTemporaryFilesGo();

private:
    Checkpoint makeCheckpoint(int64_t step, uint64_t seed) const;

    QTemporaryDir dir_;
    CharTokenizer tokenizer_;
    RunConfig config_;
    std::shared_ptr<const Dataset> data_;
    QString goodPath_;
    Checkpoint good_;
};

void TestFaults::initTestCase() {
    QVERIFY(dir_.isValid());
    initThreads(0);
    const std::string text = catsText();
    QVERIFY(writeFile(dir_.filePath("corpus.txt"), QByteArray::fromStdString(text)));
    const Corpus corpus = Corpus::fromUtf8(text, "cats");
    tokenizer_ = corpus.buildTokenizer();
    config_ = *RunConfig::preset("tiny");
    config_.vocab_size = tokenizer_.vocabSize();
    data_ = std::make_shared<const Dataset>(corpus.encode(tokenizer_), config_.sequence_len);
    good_ = makeCheckpoint(7, 1);
    goodPath_ = dir_.filePath("good.pt");
    saveCheckpoint(goodPath_.toStdString(), good_);
}

Checkpoint TestFaults::makeCheckpoint(int64_t step, uint64_t seed) const {
    return untrainedCheckpoint(tokenizer_, config_, step, seed);
}

void TestFaults::nonFiniteLossKeepsLastGoodWeights() {
    RunConfig config = config_;
    // At 10 the tiny model's loss grows to about 14 but stays finite (gradient
    // clipping and LayerNorm hold it); at 1000 it overflows within a few steps.
    config.learning_rate = 1000.0;
    config.min_learning_rate = 100.0;
    config.max_steps = 300;
    config.eval_interval = 1000;
    torch::manual_seed(3);
    CharGPT model(config);
    Trainer trainer(model, data_, config);
    std::vector<std::vector<torch::Tensor>> reached{weightsOf(model)};  // the start, then after every step
    trainer.onStep = [&](const StepFigures&) { reached.push_back(weightsOf(model)); };
    const TrainResult result = trainer.run();

    QVERIFY2(result.reason == EndReason::NonFiniteLoss,
             qPrintable("a learning rate of 10 ended with " +
                        QString::fromStdString(std::string(toString(result.reason)))));
    const QString message = QString::fromStdString(result.message);
    QVERIFY2(message.contains(QRegularExpression("NaN|infinite|non-finite")), qPrintable(message));
    QVERIFY2(message.contains("learning rate"), qPrintable(message));
    QVERIFY(trainer.step() < 300);

    // The weights now are a finite state the run went through, not the diverged ones.
    const std::vector<torch::Tensor> kept = weightsOf(model);
    QVERIFY2(allFinite(kept), "non-finite weights were kept");
    // A loss that is not finite comes from the weights of the last update: the
    // ones before it are put back, and that update no longer counts. A gradient
    // that is not finite is never applied. Either way the step counter and the
    // history describe exactly the weights kept.
    const bool lossDiverged = message.startsWith("the loss became");
    const std::size_t expected = std::size_t(trainer.step());
    QVERIFY(expected < reached.size());
    QVERIFY2(sameWeights(reached[expected], kept),
             qPrintable("the kept weights are not the last good ones: " + message));
    QVERIFY(!sameWeights(reached.back(), kept) || !lossDiverged);
    QCOMPARE(int64_t(trainer.history().steps.size()), trainer.step());
    QCOMPARE(trainer.history().trainLoss.size(), trainer.history().steps.size());
    if (!trainer.history().steps.empty()) QCOMPARE(trainer.history().steps.back(), trainer.step());
    QCOMPARE(result.last.step, trainer.step());
    QVERIFY(std::isfinite(trainer.evaluate(Split::Train)));

    // A save afterwards holds those finite weights and loads (loading checks finiteness).
    const QString path = dir_.filePath("diverged.pt");
    saveCheckpoint(path.toStdString(), checkpointFromTrainer(trainer, tokenizer_));
    const Checkpoint loaded = loadCheckpoint(path.toStdString());
    QVERIFY(sameWeights(weightsOf(loaded.model), kept));
    QVERIFY(allFinite(weightsOf(loaded.model)));
    for (float loss : loaded.history.trainLoss) QVERIFY(std::isfinite(loss));
}

void TestFaults::saveSyncsFileThenRenamesThenSyncsFolder() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string folder = QFileInfo(dir.path()).canonicalFilePath().toStdString();
    const std::string target = folder + "/model.pt";
    std::vector<std::string> calls;
    {
        std::lock_guard<std::mutex> lock(gCallsMutex);
        gCalls = &calls;
    }
    saveCheckpoint(target, good_);
    saveCheckpoint(target, makeCheckpoint(8, 2));  // over an existing file
    {
        std::lock_guard<std::mutex> lock(gCallsMutex);
        gCalls = nullptr;
    }
    QString all;
    for (const std::string& call : calls) all += QString::fromStdString(call) + "\n";
    // Per save: the temporary file reaches the disk, replaces the target, and
    // the folder (which holds the new name) reaches the disk.
    const QRegularExpression oneSave("fsync (" + QRegularExpression::escape(QString::fromStdString(folder)) +
                                     "/\\.model\\.pt\\.tmp-[\\w-]+)\n"
                                     "rename \\1 " +
                                     QRegularExpression::escape(QString::fromStdString(target)) +
                                     "\n"
                                     "fsync " +
                                     QRegularExpression::escape(QString::fromStdString(folder)) + "\n");
    QVERIFY(oneSave.isValid());
    int saves = 0;
    for (auto it = oneSave.globalMatch(all); it.hasNext(); it.next()) ++saves;
    QVERIFY2(saves == 2, qPrintable(all));
    QCOMPARE(int(calls.size()), 6);
    QCOMPARE(loadCheckpoint(target).step, int64_t(8));
}

void TestFaults::fullDiskKeepsPreviousFile() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath("model.pt");
    QVERIFY(QFile::copy(goodPath_, path));
    const QByteArray before = readFile(path);
    Checkpoint other = makeCheckpoint(8, 2);
    {
        // Room for a third of the new file: the write fails part-way, as on a full disk.
        FileSizeLimit limit(rlim_t(before.size() / 3));
        QVERIFY(limit.ok());
        try {
            saveCheckpoint(path.toStdString(), other);
            QFAIL("a save larger than the space left succeeded");
        } catch (const Error& e) {
            const QString m = e.what();
            QVERIFY2(m.contains("cannot save to " + path), qPrintable(m));
            QVERIFY2(m.contains("File too large"), qPrintable(m));
            QVERIFY2(m.contains("the previous file is unchanged"), qPrintable(m));
        }
    }
    QVERIFY(readFile(path) == before);
    QVERIFY(leftovers(dir.path(), "model.pt").isEmpty());
    QCOMPARE(loadCheckpoint(path.toStdString()).step, int64_t(7));
    // With the space back, the same save works.
    saveCheckpoint(path.toStdString(), other);
    QCOMPARE(loadCheckpoint(path.toStdString()).step, int64_t(8));
}

void TestFaults::unwritablePlaces_data() {
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("reason");
    // These refuse new files even to root, who may write into a chmod 0555 folder.
    QTest::newRow("sysfs folder") << "/sys/chargpt-test.pt"
                                  << "Permission denied";
    QTest::newRow("procfs folder") << "/proc/chargpt-test.pt"
                                   << "No such file or directory";
    QTest::newRow("parent is a regular file") << "PARENT_FILE/model.pt"
                                              << "Not a directory";
}

void TestFaults::unwritablePlaces() {
    QFETCH(QString, path);
    QFETCH(QString, reason);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    if (path.startsWith("PARENT_FILE")) {
        const QString file = dir.filePath("notes.txt");
        QVERIFY(writeFile(file, "notes"));
        path.replace("PARENT_FILE", file);
    }
    try {
        saveCheckpoint(path.toStdString(), good_);
        QFAIL("saved where no file can be created");
    } catch (const Error& e) {
        const QString m = e.what();
        QVERIFY2(m.startsWith("cannot save to " + path), qPrintable(m));
        QVERIFY2(m.contains(reason), qPrintable(m));
    }
    QVERIFY(!QFileInfo::exists(path));
}

void TestFaults::killedWhileSaving() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString a = dir.filePath("a.pt"), b = dir.filePath("b.pt"), target = dir.filePath("model.pt");
    saveCheckpoint(a.toStdString(), good_);  // step 7
    const Checkpoint second = makeCheckpoint(8, 2);
    saveCheckpoint(b.toStdString(), second);
    const std::vector<torch::Tensor> weightsA = weightsOf(good_.model), weightsB = weightsOf(second.model);
    QVERIFY(!sameWeights(weightsA, weightsB));
    QVERIFY(QFile::copy(a, target));
    const QByteArray bytesA = readFile(a), bytesB = readFile(b);

    QRandomGenerator random(QRandomGenerator::global()->generate());
    // Each kill ends a child, and each child costs a LibTorch start-up: 16
    // kills, and more (up to 64) until one has landed during a save.
    const int minimumKills = 16, maximumKills = 64;
    int iterations = 0, killedMidSave = 0, totalSaves = 0, endedOnB = 0;
    for (int i = 0; i < maximumKills && (i < minimumKills || killedMidSave == 0); ++i) {
        ++iterations;
        // Every other child saves the two checkpoints' bytes as they are, so
        // that its kills land in the writing and replacing (temporary file,
        // fsync, rename) rather than in the serialising before it, which an
        // instrumented build makes many times slower; the rest save the whole
        // checkpoint as the app does.
        QProcess child;
        const QString loop = i % 2 ? QStringLiteral("--save-loop") : QStringLiteral("--write-loop");
        child.start(QCoreApplication::applicationFilePath(), chargpt::test::selfArguments() << loop << a << b << target);
        QVERIFY(child.waitForStarted(30000));
        QByteArray output;
        while (!output.contains("saving\n")) {
            QVERIFY2(child.waitForReadyRead(30000), "the saving child did not start");
            output += child.readAllStandardOutput();
        }
        const int delayMs = random.bounded(1, 60);
        QThread::msleep(ulong(delayMs));
        child.kill();  // SIGKILL
        QVERIFY(child.waitForFinished(30000));
        QCOMPARE(child.exitStatus(), QProcess::CrashExit);
        output += child.readAllStandardOutput();
        totalSaves += int(output.count("saved\n"));

        const QString where = QStringLiteral("iteration %1, killed after %2 ms").arg(i).arg(delayMs);
        Checkpoint loaded;
        try {
            loaded = loadCheckpoint(target.toStdString());
        } catch (const Error& e) {
            QFAIL(qPrintable(where + ": " + e.what()));
        }
        const QByteArray now = readFile(target);
        QVERIFY2(now == bytesA || now == bytesB, qPrintable(where + ": the file is neither the old nor the new one"));
        const std::vector<torch::Tensor> w = weightsOf(loaded.model);
        if (loaded.step == 7) {
            QVERIFY2(sameWeights(w, weightsA), qPrintable(where));
        } else if (loaded.step == 8) {
            QVERIFY2(sameWeights(w, weightsB), qPrintable(where));
            ++endedOnB;
        } else
            QFAIL(qPrintable(where + QStringLiteral(": step %1").arg(loaded.step)));
        const QStringList left = leftovers(dir.path(), "model.pt");
        if (!left.isEmpty()) ++killedMidSave;
        for (const QString& name : left) QVERIFY(QFile::remove(dir.filePath(name)));
    }
    qInfo(
        "%d kills: %d during a save (a temporary file was left), %d saves completed, %d ended on the second "
        "file",
        iterations, killedMidSave, totalSaves, endedOnB);
    // The kills did land while files were being written and replaced.
    QVERIFY(killedMidSave > 0);
    QVERIFY(totalSaves > 0);
}

void TestFaults::staleTemporaryFilesGo() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    // A process that has ended: the writer of a save that was killed.
    QProcess ended;
    ended.start(QStringLiteral("/bin/sleep"), {QStringLiteral("0.1")});
    QVERIFY(ended.waitForStarted(30000));
    const qint64 gonePid = ended.processId();  // read while it runs
    QVERIFY(ended.waitForFinished(30000));
    QVERIFY(gonePid > 0);
    QVERIFY(::kill(pid_t(gonePid), 0) != 0 && errno == ESRCH);
    const QString dead = QString::number(gonePid), alive = QString::number(QCoreApplication::applicationPid());

    auto make = [&](const QString& name, qint64 ageSeconds) {
        const QString path = dir.filePath(name);
        if (!writeFile(path, QByteArray("PK\x03\x04 half a checkpoint"))) return false;
        QFile f(path);
        return f.open(QIODevice::ReadWrite) &&
               f.setFileTime(QDateTime::currentDateTime().addSecs(-ageSeconds), QFileDevice::FileModificationTime);
    };
    const QStringList gone = {".model.pt.tmp-" + dead + "-a1B2c3",  // its writer ended 2 minutes ago
                              ".model.pt.tmp-Zx9Yw8"};                 // the older pattern, 2 hours old
    const QStringList kept = {".model.pt.tmp-" + alive + "-d4E5f6",    // its writer is running
                              ".model.pt.tmp-" + dead + "-g7H8i9",     // written moments ago
                              ".model.pt.tmp-Qq1Ww2",                  // older pattern, 10 minutes old
                              ".other.pt.tmp-" + dead + "-j1K2l3",     // another file's
                              "model.pt.tmp-" + dead + "-m4N5o6"};     // not a name a save makes
    QVERIFY(make(gone[0], 120));
    QVERIFY(make(gone[1], 7200));
    QVERIFY(make(kept[0], 7200));
    QVERIFY(make(kept[1], 0));
    QVERIFY(make(kept[2], 600));
    QVERIFY(make(kept[3], 7200));
    QVERIFY(make(kept[4], 7200));

    saveCheckpoint(dir.filePath("model.pt").toStdString(), good_);
    QCOMPARE(loadCheckpoint(dir.filePath("model.pt").toStdString()).step, good_.step);
    for (const QString& name : gone) QVERIFY2(!QFile::exists(dir.filePath(name)), qPrintable(name + " was left"));
    for (const QString& name : kept) QVERIFY2(QFile::exists(dir.filePath(name)), qPrintable(name + " was removed"));
    // The save's own temporary file is gone too: only the ones kept above remain.
    QStringList expected = kept.mid(0, 3), left = leftovers(dir.path(), "model.pt");
    expected.sort();
    left.sort();
    QCOMPARE(left, expected);
}

// The child of killedWhileSaving: saves A and B over TARGET in turn, as
// checkpoints (--save-loop) or as the files' bytes (--write-loop).
static int saveLoop(bool wholeCheckpoint, const char* a, const char* b, const char* target) {
    try {
        initThreads(1);
        const Checkpoint first = loadCheckpoint(a), second = loadCheckpoint(b);
        const QByteArray bytesA = readFile(a), bytesB = readFile(b);
        std::fputs("saving\n", stdout);
        std::fflush(stdout);
        for (uint64_t i = 0;; ++i) {
            if (wholeCheckpoint) {
                saveCheckpoint(target, i % 2 ? first : second);
            } else {
                const QByteArray& bytes = i % 2 ? bytesA : bytesB;
                writeFileAtomically(target, std::string_view(bytes.constData(), std::size_t(bytes.size())));
            }
            std::fputs("saved\n", stdout);
            std::fflush(stdout);
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 1;
    }
}

// A child started with --save-loop or --write-loop saves until it is killed.
int runTests(int argc, char** argv) {
    if (argc == 5 && std::strcmp(argv[1], "--save-loop") == 0) return saveLoop(true, argv[2], argv[3], argv[4]);
    if (argc == 5 && std::strcmp(argv[1], "--write-loop") == 0) return saveLoop(false, argv[2], argv[3], argv[4]);
    QCoreApplication app(argc, argv);
    TestFaults test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}
CHARGPT_TEST_CUSTOM_MAIN(runTests)

}  // namespace tst_faults

#include "tst_faults.moc"
