// SPDX-License-Identifier: GPL-3.0-or-later
// Faults met by `chargpt`, nothing lost: a diverging `train` saves its last
// good weights and says so, Ctrl-C, SIGTERM and SIGHUP save and exit, `info`
// and `sample` refuse every kind of bad checkpoint with one line, and a save
// target that cannot be used is refused before training starts. The same
// faults in the model library: tst_faults.
#include <signal.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <torch/torch.h>
#include <unistd.h>

#include "TestProgram.h"

#include <QProcess>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QThread>

#include "model/io/Checkpoint.h"
#include "model/runtime/Runtime.h"
#include "model/text/Corpus.h"
#include "model/train/RunConfig.h"
#include "CheckpointFixtures.h"
#include "CliRun.h"
#include "FaultChecks.h"

namespace tst_cli_faults {

#ifndef CHARGPT_CLI
#error "CHARGPT_CLI must name the chargpt executable"
#endif

using namespace chargpt;
using namespace checkpoint_fixtures;
using namespace fault_checks;

namespace {

using cli_run::readFile;
using cli_run::writeFile;
using CliResult = cli_run::Result;

// A run of chargpt, killed after a minute.
CliResult runCli(const QStringList& args) { return cli_run::runCli(args, 60000); }

}  // namespace

class TestCliFaults : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void cliReportsNonFiniteLoss();
    void cliInterruptedTrainingSaves();
    void cliRefusesBadCheckpoints_data();
    void cliRefusesBadCheckpoints();
    void cliStopSignalsSave_data();
    void cliStopSignalsSave();
    void cliStoppedLadderSaysSoInItsStatus();
    void cliRefusesUnusableOutBeforeTraining_data();
    void cliRefusesUnusableOutBeforeTraining();
    void cliSavesThroughLinksKeepingMode();
    void cliExportConfigRefusesUnusableOut();

private:
    QTemporaryDir dir_;
    QString corpusPath_;
    QString goodPath_;  // an untrained checkpoint of the corpus
};

void TestCliFaults::initTestCase() {
    QVERIFY(dir_.isValid());
    initThreads(0);
    const std::string text = catsText();
    corpusPath_ = dir_.filePath("corpus.txt");
    QVERIFY(writeFile(corpusPath_, QByteArray::fromStdString(text)));
    const CharTokenizer tokenizer = Corpus::fromUtf8(text, "cats").buildTokenizer();
    RunConfig config = *RunConfig::preset("tiny");
    config.vocab_size = tokenizer.vocabSize();
    goodPath_ = dir_.filePath("good.pt");
    saveCheckpoint(goodPath_.toStdString(), untrainedCheckpoint(tokenizer, config, 7, 1));
}

void TestCliFaults::cliReportsNonFiniteLoss() {
    const QString out = dir_.filePath("diverged.pt");
    QVERIFY(QFile::copy(goodPath_, out));  // a previous file, replaced by the good weights
    const CliResult r =
        // The largest rate and weight decay the settings allow: each step
        // multiplies the weights by 1 - 1 x 10 = -9 until they overflow.
        runCli({"train", corpusPath_, "--preset", "tiny", "--steps", "300", "--lr", "1", "--weight-decay", "10", "--out",
                out});
    QCOMPARE(r.status, QProcess::NormalExit);
    QCOMPARE(r.exitCode, 3);
    QVERIFY2(r.err.contains(QRegularExpression("the loss became (NaN|infinite)|gradient became non-finite")),
             qPrintable(r.err));
    QVERIFY2(r.err.contains("learning rate"), qPrintable(r.err));
    QVERIFY2(cli_run::lastJsonLine(r.out).value("stop_reason").toString() == "non-finite loss", qPrintable(r.out));
    const Checkpoint saved = loadCheckpoint(out.toStdString());  // throws on non-finite weights
    QVERIFY(allFinite(weightsOf(saved.model)));
    const CliResult info = runCli({"info", out});
    QCOMPARE(info.exitCode, 0);
}

void TestCliFaults::cliInterruptedTrainingSaves() {
    QRandomGenerator random(QRandomGenerator::global()->generate());
    const QString out = dir_.filePath("interrupted.pt");
    QVERIFY(QFile::copy(goodPath_, out));  // a previous checkpoint there
    for (int i = 0; i < 3; ++i) {
        QProcess p;
        p.start(QStringLiteral(CHARGPT_CLI),
                {"train", corpusPath_, "--preset", "tiny", "--steps", "100000000", "--out", out});
        QVERIFY(p.waitForStarted(30000));
        p.setReadChannel(QProcess::StandardError);
        QByteArray err;
        while (!err.contains("parameters")) {  // the line printed as training starts
            QVERIFY2(p.waitForReadyRead(30000), err.constData());
            err += p.readAllStandardError();
        }
        const int delayMs = random.bounded(0, 1500);
        QThread::msleep(ulong(delayMs));
        QCOMPARE(::kill(pid_t(p.processId()), SIGINT), 0);
        QVERIFY2(p.waitForFinished(30000), "chargpt train did not end after Ctrl-C");
        err += p.readAllStandardError();
        const QString where = QStringLiteral("Ctrl-C after %1 ms: ").arg(delayMs) + QString::fromUtf8(err);
        // Saved, then the status a shell gives a process Ctrl-C ends: 128 + SIGINT.
        QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 128 + SIGINT, qPrintable(where));
        const QString json = QString::fromUtf8(p.readAllStandardOutput());
        QVERIFY2(cli_run::lastJsonLine(json).value("stop_reason").toString() == "stopped", qPrintable(json));
        QVERIFY2(err.contains("stopped after"), qPrintable(where));
        const Checkpoint saved = loadCheckpoint(out.toStdString());
        QVERIFY2(saved.step > 0 && saved.step < 100000000, qPrintable(where));
        QVERIFY(allFinite(weightsOf(saved.model)));
    }
}

void TestCliFaults::cliRefusesBadCheckpoints_data() {
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("reason");
    QTest::addColumn<bool>("sample");  // also `chargpt sample`, which loads the same way as `info`
    QTest::newRow("truncated") << "truncated"
                               << "is damaged or truncated and cannot be read" << true;
    QTest::newRow("random bytes") << "random"
                                  << "is not a CharGPT checkpoint" << false;
    QTest::newRow("a zip that is not ours") << "zip"
                                            << "is a zip archive but not a CharGPT checkpoint" << false;
    QTest::newRow("pickle naming os.system") << "os.system"
                                             << "is refused: it names the Python object os.system" << true;
    QTest::newRow("pickle naming builtins.eval")
        << "builtins.eval"
        << "is refused: it names the Python object builtins.eval" << false;
    QTest::newRow("wrong format tag") << "tag"
                                      << "format tag is missing or different" << false;
    QTest::newRow("newer version") << "version"
                                   << "was written by a newer CharGPT Studio" << false;
    QTest::newRow("vocabulary and weights disagree") << "vocab"
                                                     << "vocabulary has" << false;
    QTest::newRow("non-finite weight") << "nan"
                                       << "holds non-finite values" << true;
}

void TestCliFaults::cliRefusesBadCheckpoints() {
    QFETCH(QString, kind);
    QFETCH(QString, reason);
    QFETCH(bool, sample);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath("bad.pt"), marker = dir.filePath("was_run");
    const QByteArray good = readFile(goodPath_);
    QByteArray bytes;
    auto edited = [&](const std::function<void(c10::impl::GenericDict&)>& edit) {
        c10::impl::GenericDict d =
            torch::pickle_load(std::vector<char>(good.begin(), good.end())).toGenericDict();
        edit(d);
        const std::vector<char> v = torch::pickle_save(d);
        return QByteArray(v.data(), qsizetype(v.size()));
    };
    auto at = [](const char* k) { return c10::IValue(std::string(k)); };
    if (kind == "truncated") {
        bytes = good.left(good.size() * 2 / 3);
    } else if (kind == "random") {
        QRandomGenerator r(5);
        for (int i = 0; i < 5000; ++i) bytes.append(char(r.bounded(256)));
    } else if (kind == "zip") {
        bytes = makeZip({{"photos/cat.txt", "a cat"}});
    } else if (kind == "os.system" || kind == "builtins.eval") {
        bytes = torchArchive(codePickle(kind, marker.toUtf8()));
    } else if (kind == "tag") {
        bytes = edited(
            [&](c10::impl::GenericDict& d) { d.insert_or_assign(at("format"), std::string("other")); });
    } else if (kind == "version") {
        bytes = edited([&](c10::impl::GenericDict& d) { d.insert_or_assign(at("version"), int64_t(99)); });
    } else if (kind == "vocab") {
        bytes = edited([&](c10::impl::GenericDict& d) {
            c10::impl::GenericList shorter(c10::StringType::get());
            const auto& vocab = d.at(at("vocab")).toListRef();
            for (std::size_t i = 0; i + 1 < vocab.size(); ++i) shorter.push_back(vocab[i]);
            d.insert_or_assign(at("vocab"), shorter);
        });
    } else if (kind == "nan") {
        bytes = edited([&](c10::impl::GenericDict& d) {
            c10::impl::GenericDict model = d.at(at("model")).toGenericDict();
            torch::Tensor w = model.at(at("token_emb.weight")).toTensor().clone();
            w[1][1] = std::numeric_limits<float>::infinity();
            model.insert_or_assign(at("token_emb.weight"), w);
        });
    }
    QVERIFY(!bytes.isEmpty());
    QVERIFY(writeFile(path, bytes));
    QList<QStringList> commands{{"info", path}};
    if (sample) commands.append({"sample", path, "--chars", "5"});
    for (const QStringList& args : commands) {
        const CliResult r = runCli(args);
        const QString where = args.first() + ": " + r.err;
        QCOMPARE(r.status, QProcess::NormalExit);
        QVERIFY2(r.exitCode == 1, qPrintable(where));
        QVERIFY2(r.out.isEmpty(), qPrintable(r.out));
        QVERIFY2(r.err.startsWith("chargpt: "), qPrintable(where));
        QVERIFY2(r.err.count('\n') == 1 && r.err.endsWith('\n'), qPrintable("not one line: " + where));
        QVERIFY2(r.err.contains(reason), qPrintable(where));
        QVERIFY2(r.err.contains("bad.pt") || r.err.contains("checkpoint's"), qPrintable(where));
    }
    QVERIFY2(!QFileInfo::exists(marker), "a command named in the checkpoint was run");
}

void TestCliFaults::cliStopSignalsSave_data() {
    QTest::addColumn<int>("sig");
    QTest::addColumn<QString>("name");
    QTest::newRow("SIGTERM") << int(SIGTERM) << "SIGTERM";
    QTest::newRow("SIGHUP") << int(SIGHUP) << "SIGHUP";
}

void TestCliFaults::cliStopSignalsSave() {
    // A service manager, `kill` or a closed terminal stop the run as Ctrl-C
    // does: it saves, then exits with 128 + the signal.
    QFETCH(int, sig);
    QFETCH(QString, name);
    const QString out = dir_.filePath("signalled.pt");
    QVERIFY(QFile::copy(goodPath_, out) || QFileInfo::exists(out));
    QProcess p;
    p.start(QStringLiteral(CHARGPT_CLI), {"train", corpusPath_, "--preset", "tiny", "--steps", "100000000", "--out", out});
    QVERIFY(p.waitForStarted(30000));
    p.setReadChannel(QProcess::StandardError);
    QByteArray err;
    while (!err.contains("parameters")) {  // the line printed as training starts
        QVERIFY2(p.waitForReadyRead(30000), err.constData());
        err += p.readAllStandardError();
    }
    QThread::msleep(300);
    QCOMPARE(::kill(pid_t(p.processId()), sig), 0);
    QVERIFY2(p.waitForFinished(30000), qPrintable("chargpt train did not end after " + name));
    err += p.readAllStandardError();
    const QString where = name + ": " + QString::fromUtf8(err);
    QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 128 + sig, qPrintable(where));
    QVERIFY2(err.contains(name.toUtf8() + " received"), qPrintable(where));
    QVERIFY2(err.contains("stopped after"), qPrintable(where));
    const QString json = QString::fromUtf8(p.readAllStandardOutput());
    QVERIFY2(cli_run::lastJsonLine(json).value("stop_reason").toString() == "stopped", qPrintable(json));
    const Checkpoint saved = loadCheckpoint(out.toStdString());
    QVERIFY2(saved.step > 0 && saved.step < 100000000, qPrintable(where));
    QVERIFY(allFinite(weightsOf(saved.model)));
    QVERIFY(leftovers(dir_.path(), "signalled.pt").isEmpty());
}

// The ladder stopped by SIGTERM: the rung that trains ends, the table of what
// was trained is printed, and the status says it was stopped (128 + SIGTERM).
void TestCliFaults::cliStoppedLadderSaysSoInItsStatus() {
    QProcess p;
    p.setProcessEnvironment(cli_run::cliEnvironment());
    p.start(QStringLiteral(CHARGPT_CLI), {"ladder", corpusPath_, "--rungs", "7", "--steps", "100000000", "--json"});
    QVERIFY(p.waitForStarted(30000));
    p.setReadChannel(QProcess::StandardError);
    QByteArray err;
    while (!err.contains("parameters")) {  // the line printed as a rung starts
        QVERIFY2(p.waitForReadyRead(30000), err.constData());
        err += p.readAllStandardError();
    }
    QThread::msleep(300);
    QCOMPARE(::kill(pid_t(p.processId()), SIGTERM), 0);
    QVERIFY2(p.waitForFinished(30000), "chargpt ladder did not end after SIGTERM");
    err += p.readAllStandardError();
    QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 128 + SIGTERM, err.constData());
    QVERIFY2(err.contains("SIGTERM received"), err.constData());
    const QJsonObject report = cli_run::lastJsonLine(QString::fromUtf8(p.readAllStandardOutput()));
    QVERIFY2(!report.isEmpty(), err.constData());
}

void TestCliFaults::cliRefusesUnusableOutBeforeTraining_data() {
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("says");  // a regular expression
    QTest::newRow("missing folder") << "missing" << "the folder .*missing does not exist";
    QTest::newRow("a folder") << "folder" << "it is a folder; only a regular file is replaced";
    QTest::newRow("procfs") << "proc" << "cannot create a file in /proc";
    QTest::newRow("named pipe") << "fifo" << "it is a named pipe \\(FIFO\\); only a regular file is replaced";
    QTest::newRow("device") << "device" << "it is a device; only a regular file is replaced";
    QTest::newRow("hard-linked checkpoint") << "hardlink" << "it has 2 hard links";
    QTest::newRow("the corpus") << "corpus" << "is the corpus .*would overwrite the text being trained on";
    QTest::newRow("a link to the corpus") << "corpuslink" << "is the corpus .*would overwrite the text";
    QTest::newRow("inside the corpus folder") << "corpusfolder" << "is the corpus .*would overwrite the text";
}

void TestCliFaults::cliRefusesUnusableOutBeforeTraining() {
    // Found before the first step, not after the training: a run that started
    // would go on for 10^8 steps.
    QFETCH(QString, kind);
    QFETCH(QString, says);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QString corpus = dir.filePath("corpus.txt");
    QVERIFY(QFile::copy(corpusPath_, corpus));
    QString out = dir.filePath("model.pt");
    const std::string node = QFile::encodeName(out).toStdString();
    if (kind == "missing") {
        out = dir.filePath("missing/model.pt");
    } else if (kind == "folder") {
        QVERIFY(QDir().mkpath(out));
    } else if (kind == "proc") {
        out = "/proc/chargpt-test.pt";
    } else if (kind == "fifo") {
        QCOMPARE(::mkfifo(node.c_str(), 0644), 0);
    } else if (kind == "device") {
        if (::mknod(node.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0) QSKIP("making a device node needs root");
    } else if (kind == "hardlink") {
        QVERIFY(QFile::copy(goodPath_, out));
        QCOMPARE(::link(node.c_str(), QFile::encodeName(dir.filePath("other.pt")).constData()), 0);
    } else if (kind == "corpus") {
        out = corpus;
    } else if (kind == "corpuslink") {
        QCOMPARE(::symlink("corpus.txt", node.c_str()), 0);
    } else if (kind == "corpusfolder") {
        QVERIFY(QDir().mkpath(dir.filePath("texts")));
        QVERIFY(QFile::rename(corpus, dir.filePath("texts/corpus.txt")));
        corpus = dir.filePath("texts");
        out = dir.filePath("texts/corpus.txt");
    }
    const QByteArray corpusBefore = readFile(kind == "corpusfolder" ? out : dir.filePath("corpus.txt"));
    struct stat before {};
    ::lstat(node.c_str(), &before);
    const CliResult r =
        runCli({"train", corpus, "--preset", "tiny", "--steps", "100000000", "--out", out});
    QCOMPARE(r.status, QProcess::NormalExit);
    QVERIFY2(r.exitCode == 1, qPrintable(r.err));
    QVERIFY2(!r.err.contains("parameters"), qPrintable("training started: " + r.err));
    const QStringList lines = r.err.split('\n', Qt::SkipEmptyParts);
    QVERIFY2(lines.size() == 1 && lines.first().contains(QRegularExpression(says)), qPrintable(r.err));
    QVERIFY(r.out.isEmpty());
    struct stat after {};
    ::lstat(node.c_str(), &after);
    QCOMPARE(after.st_mode, before.st_mode);
    QCOMPARE(after.st_ino, before.st_ino);
    QCOMPARE(readFile(kind == "corpusfolder" ? out : dir.filePath("corpus.txt")), corpusBefore);
    const QStringList entries = QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::System);
    QVERIFY2(entries.filter(".tmp-").isEmpty(), qPrintable(entries.join(' ')));
}

void TestCliFaults::cliSavesThroughLinksKeepingMode() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString real = dir.filePath("real.pt"), link = dir.filePath("link.pt");
    QVERIFY(QFile::copy(goodPath_, real));
    const std::string realName = QFile::encodeName(real).toStdString();
    QCOMPARE(::chmod(realName.c_str(), 0600), 0);
    QCOMPARE(::symlink("real.pt", QFile::encodeName(link).constData()), 0);
    const CliResult r = runCli({"train", corpusPath_, "--preset", "tiny", "--steps", "3", "--out", link});
    QVERIFY2(r.status == QProcess::NormalExit && r.exitCode == 0, qPrintable(r.err));
    QCOMPARE(QFileInfo(link).isSymLink(), true);
    struct stat info {};
    QCOMPARE(::stat(realName.c_str(), &info), 0);
    QCOMPARE(int(info.st_mode & 07777), 0600);
    QCOMPARE(loadCheckpoint(realName).step, int64_t(3));
    QVERIFY(leftovers(dir.path(), "real.pt").isEmpty());
}

void TestCliFaults::cliExportConfigRefusesUnusableOut() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString fifo = dir.filePath("config.json");
    QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0644), 0);
    CliResult r = runCli({"export-config", "--preset", "tiny", "-o", fifo});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("it is a named pipe (FIFO); only a regular file is replaced"), qPrintable(r.err));
    QVERIFY(QFileInfo(fifo).exists() && !QFileInfo(fifo).isFile());
    r = runCli({"export-config", "--preset", "tiny", "-o", dir.filePath("missing/config.json")});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("does not exist"), qPrintable(r.err));
    // A name beside the target, "OUT.tmp", is never used: a link there keeps its file.
    const QString out = dir.filePath("settings.json"), victim = dir.filePath("victim.txt");
    QVERIFY(writeFile(victim, "keep"));
    QCOMPARE(::symlink("victim.txt", QFile::encodeName(out + ".tmp").constData()), 0);
    r = runCli({"export-config", "--preset", "tiny", "-o", out});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QCOMPARE(readFile(victim), QByteArray("keep"));
    QVERIFY(readFile(out).contains("chargpt-config"));
}

CHARGPT_TEST_GUILESS_MAIN(TestCliFaults)
}  // namespace tst_cli_faults
#include "tst_cli_faults.moc"
