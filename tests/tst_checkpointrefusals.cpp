// SPDX-License-Identifier: GPL-3.0-or-later
// Files that are not checkpoints, or hostile ones, refused with one line that
// names the file: bad and truncated files, foreign archives, pickles that name
// code, recurse or share without end, and small files that would take
// gigabytes. Round trips and edited checkpoints: tst_checkpoint.
#include <torch/serialize.h>
#include <torch/torch.h>

#include "model/io/Checkpoint.h"
#include "model/io/Pickle.h"
#include "model/runtime/Error.h"
#include "model/runtime/Runtime.h"
#include "CheckpointFiles.h"
#include "CheckpointFixtures.h"

#include "TestProgram.h"

#include <sys/resource.h>

#include <functional>
#include <random>

namespace tst_checkpointrefusals {

using namespace chargpt;
using namespace checkpoint_files;
using namespace checkpoint_fixtures;

class TestCheckpointRefusals : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void rejectsBadFiles_data();
    void rejectsBadFiles();
    void rejectsTruncatedFiles_data();
    void rejectsTruncatedFiles();
    void rejectsForeignArchives_data();
    void rejectsForeignArchives();
    void refusesPicklesNamingCode_data();
    void refusesPicklesNamingCode();
    void acceptsTheGlobalsOfTorchSave();
    void refusesPicklesThatRecurseOrShare_data();
    void refusesPicklesThatRecurseOrShare();
    void unpickleStaysWithinItsBudget();
    void refusesSmallFilesThatWouldTakeHugeMemory_data();
    void refusesSmallFilesThatWouldTakeHugeMemory();

private:
    QTemporaryDir dir_;
    QString goodPath_;  // a good checkpoint, which the cases cut or edit
    Checkpoint original_;
};

void TestCheckpointRefusals::initTestCase() {
    QVERIFY(dir_.isValid());
    initThreads(0);
    original_ = trainTinyCheckpoint().checkpoint;
    QCOMPARE(original_.step, int64_t(12));
    goodPath_ = dir_.filePath("good.pt");
    saveCheckpoint(goodPath_.toStdString(), original_);
    QVERIFY(QFileInfo(goodPath_).size() > 0);
}

void TestCheckpointRefusals::rejectsBadFiles_data() {
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("problem");  // regular expression the message must match

    const QString unreadable = "damaged|truncat|corrupt|not a|cannot|invalid";
    QTest::newRow("nonexistent file") << "missing" << "no such|not exist|not found|cannot open|missing";
    QTest::newRow("empty file") << "empty" << "empty";
    QTest::newRow("truncated to 10 bytes") << "cut10" << unreadable;
    QTest::newRow("truncated to 100 bytes") << "cut100" << unreadable;
    QTest::newRow("truncated to half") << "cuthalf" << unreadable;
    QTest::newRow("truncated by one byte") << "cut1" << unreadable;
    QTest::newRow("random bytes") << "random" << unreadable;
    QTest::newRow("random bytes starting with PK") << "randomPK" << unreadable;
    QTest::newRow("text file") << "text" << unreadable;
    QTest::newRow("pickled tensor") << "tensor" << "not a|format|dictionar";
    QTest::newRow("pickled dict without format") << "noformat" << "not a|format";
    QTest::newRow("folder") << "folder" << "folder|directory|not a|regular";
}

void TestCheckpointRefusals::rejectsBadFiles() {
    QFETCH(QString, kind);
    QFETCH(QString, problem);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath("bad_checkpoint.pt");
    const std::vector<char> good = readBytes(goodPath_);
    QVERIFY(good.size() > 200);

    if (kind == "empty") {
        QVERIFY(writeBytes(path, "", 0));
    } else if (kind.startsWith("cut")) {
        std::size_t n = kind == "cut10" ? 10 : kind == "cut100" ? 100 : kind == "cuthalf" ? good.size() / 2
                                                                                          : good.size() - 1;
        QVERIFY(writeBytes(path, good.data(), n));
    } else if (kind.startsWith("random")) {
        std::mt19937 rng(3);
        std::vector<char> noise(4096);
        for (char& ch : noise) ch = char(rng() & 0xFF);
        if (kind == "randomPK") noise[0] = 'P', noise[1] = 'K', noise[2] = 3, noise[3] = 4;
        QVERIFY(writeBytes(path, noise.data(), noise.size()));
    } else if (kind == "text") {
        const QByteArray text = "format: chargpt-checkpoint\nversion: 1\n";
        QVERIFY(writeBytes(path, text.constData(), std::size_t(text.size())));
    } else if (kind == "tensor") {
        const std::vector<char> bytes = torch::pickle_save(torch::ones({3, 3}));
        QVERIFY(writeBytes(path, bytes.data(), bytes.size()));
    } else if (kind == "noformat") {
        c10::impl::GenericDict d(c10::StringType::get(), c10::AnyType::get());
        d.insert(key("hello"), torch::ones({2}));
        d.insert(key("version"), int64_t(1));
        const std::vector<char> bytes = torch::pickle_save(d);
        QVERIFY(writeBytes(path, bytes.data(), bytes.size()));
    } else if (kind == "folder") {
        QVERIFY(QDir().mkpath(path));
    }

    try {
        loadCheckpoint(path.toStdString());
        QFAIL("a bad checkpoint was loaded");
    } catch (const Error& e) {
        const QString m = QString::fromStdString(e.what());
        QVERIFY2(m.contains(QRegularExpression(problem, QRegularExpression::CaseInsensitiveOption)),
                 qPrintable("message does not say the problem: " + m));
        QVERIFY2(m.contains("bad_checkpoint.pt"), qPrintable("message does not name the file: " + m));
    }
}

void TestCheckpointRefusals::rejectsTruncatedFiles_data() {
    QTest::addColumn<qint64>("length");
    const qint64 size = QFileInfo(goodPath_).size();
    QVERIFY(size > 1000);
    // About 150 cuts spread over the whole file, plus the first bytes and the
    // end of the zip (its central directory and end record).
    const qint64 stride = size / 150 + 1;
    for (qint64 n = 1; n < size; n += (n < 8 ? 1 : stride))
        QTest::addRow("first %lld of %lld bytes", n, size) << n;
    for (qint64 back : {1, 2, 21, 22, 23, 100})
        QTest::addRow("all but the last %lld bytes", back) << size - back;
}

void TestCheckpointRefusals::rejectsTruncatedFiles() {
    QFETCH(qint64, length);
    const std::vector<char> good = readBytes(goodPath_);
    const QString path = dir_.filePath("truncated.pt");
    QVERIFY(writeBytes(path, good.data(), std::size_t(length)));
    try {
        loadCheckpoint(path.toStdString());
        QFAIL("a truncated checkpoint was loaded");
    } catch (const Error& e) {
        const QString m = QString::fromStdString(e.what());
        QVERIFY2(m.contains(QRegularExpression("damaged|truncated|not a CharGPT checkpoint", QRegularExpression::CaseInsensitiveOption)),
                 qPrintable(m));
        QVERIFY2(m.contains("truncated.pt"), qPrintable(m));
        QVERIFY2(!m.contains('\n'), qPrintable(m));
    }
}

void TestCheckpointRefusals::rejectsForeignArchives_data() {
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("problem");
    const QString notOurs = "zip archive but not a CharGPT checkpoint";
    QTest::newRow("zip of a text file") << makeZip({{"notes/readme.txt", "hello\n"}}) << notOurs;
    QTest::newRow("zip shaped like an office document")
        << makeZip({{"[Content_Types].xml", "<Types/>"}, {"word/document.xml", "<w:document/>"}}) << notOurs;
    QTest::newRow("torch.save layout without data.pkl") << makeZip({{"archive/version", "3\n"}, {"archive/data/0", "abcd"}})
                                                     << notOurs;
    QTest::newRow("empty zip") << makeZip({}) << "damaged|not a CharGPT";
    const std::vector<char> list = torch::pickle_save(c10::List<int64_t>({1, 2, 3}));
    QTest::newRow("pickle of a list") << QByteArray(list.data(), qsizetype(list.size())) << "holds no dictionary";
    QTest::newRow("pickle of a dict of strangers")
        << torchArchive(QByteArray("\x80\x02}q\x00(", 6) + text4("weights") + QByteArray("K\x07u.", 4)) << "format tag";
    QTest::newRow("pickle cut short") << torchArchive(QByteArray("\x80\x02}q\x00", 5) + text4("format")) << "ends before";
    QTest::newRow("pickle with an unknown instruction") << torchArchive(QByteArray("\x80\x02\xff.", 4)) << "instruction";
}

void TestCheckpointRefusals::rejectsForeignArchives() {
    QFETCH(QByteArray, bytes);
    QFETCH(QString, problem);
    const QString path = dir_.filePath("foreign.pt");
    QVERIFY(writeBytes(path, bytes.constData(), std::size_t(bytes.size())));
    try {
        loadCheckpoint(path.toStdString());
        QFAIL("a file that is not a checkpoint was loaded");
    } catch (const Error& e) {
        const QString m = QString::fromStdString(e.what());
        QVERIFY2(m.contains(QRegularExpression(problem, QRegularExpression::CaseInsensitiveOption)), qPrintable(m));
        QVERIFY2(m.contains("foreign.pt"), qPrintable(m));
        QVERIFY2(!m.contains('\n'), qPrintable(m));
    }
}

void TestCheckpointRefusals::refusesPicklesNamingCode_data() {
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("named");  // what the message must name
    QTest::newRow("GLOBAL os.system, REDUCE") << "os.system" << "os.system";
    QTest::newRow("GLOBAL posix.system, REDUCE") << "posix.system" << "posix.system";
    QTest::newRow("GLOBAL builtins.eval, REDUCE") << "builtins.eval" << "builtins.eval";
    QTest::newRow("GLOBAL __builtin__.exec, REDUCE") << "__builtin__.exec" << "__builtin__.exec";
    QTest::newRow("GLOBAL torch.load, a torch function") << "torch.load" << "torch.load";
    QTest::newRow("INST subprocess.Popen") << "subprocess.Popen" << "subprocess.Popen";
    QTest::newRow("STACK_GLOBAL posix.system, protocol 4") << "stack global" << "posix.system";
    QTest::newRow("STACK_GLOBAL from memoised names") << "memoised stack global" << "computes";
    QTest::newRow("copyreg extension code") << "copyreg" << "copyreg";
    QTest::newRow("os.system inside a checkpoint dict") << "inside a checkpoint" << "os.system";
}

void TestCheckpointRefusals::refusesPicklesNamingCode() {
    QFETCH(QString, kind);
    QFETCH(QString, named);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString marker = dir.filePath("was_run");
    const QByteArray pickle = codePickle(kind, marker.toUtf8());
    QVERIFY(!pickle.isEmpty());
    const QString path = dir.filePath("code.pt");
    const QByteArray archive = torchArchive(pickle);
    QVERIFY(writeBytes(path, archive.constData(), std::size_t(archive.size())));
    try {
        loadCheckpoint(path.toStdString());
        QFAIL("a pickle naming Python code was loaded");
    } catch (const Error& e) {
        const QString m = QString::fromStdString(e.what());
        QVERIFY2(m.contains(named), qPrintable(m));
        QVERIFY2(m.contains("Nothing in it was run"), qPrintable(m));
        QVERIFY2(m.contains("code.pt"), qPrintable(m));
        QVERIFY2(!m.contains('\n'), qPrintable(m));
    }
    QVERIFY2(!QFileInfo::exists(marker), "the pickle's command was run");
    // LibTorch's unpickler on its own runs no Python either: it fails or returns
    // plain values, and the command has not run.
    try {
        torch::pickle_load(readBytes(path));
    } catch (const std::exception&) {
    }
    QVERIFY2(!QFileInfo::exists(marker), "the pickle's command was run by the unpickler");
}

void TestCheckpointRefusals::acceptsTheGlobalsOfTorchSave() {
    // Our own file and a dict of tensors written by pickle_save both pass the check and load.
    QCOMPARE(loadCheckpoint(goodPath_.toStdString()).step, original_.step);
    c10::impl::GenericDict d(c10::StringType::get(), c10::AnyType::get());
    d.insert(key("a"), torch::ones({2, 3}, torch::kFloat64));
    d.insert(key("b"), torch::arange(5));
    d.insert(key("c"), torch::zeros({1}, torch::kBFloat16));
    const std::vector<char> bytes = torch::pickle_save(d);
    const QString path = dir_.filePath("plain.pt");
    QVERIFY(writeBytes(path, bytes.data(), bytes.size()));
    try {
        loadCheckpoint(path.toStdString());
        QFAIL("a dict without a format tag was loaded");
    } catch (const Error& e) {
        QVERIFY2(QString(e.what()).contains("format tag"), e.what());  // got past the pickle check
    }
}

// Class 1 and 2 of issue 13: pickles that nest without end, hold themselves or
// share their values exponentially are refused, quickly, with one line that
// names the file and says what is wrong.
void TestCheckpointRefusals::refusesPicklesThatRecurseOrShare_data() {
    QTest::addColumn<QString>("kind");
    QTest::addColumn<bool>("insideCheckpoint");
    QTest::addColumn<QString>("problem");
    const QList<std::pair<const char*, const char*>> kinds{
        {"self list", "holds a list that contains itself"},
        {"self dict", "holds a dictionary that contains itself"},
        {"nested tuples", "nests values more than 100 levels deep"},
        {"nested lists", "nests values more than 100 levels deep"},
        {"nested marks", "nests values more than 100 levels deep"},
        {"shared", "shares its values too deeply to be a checkpoint"},
        {"many values", "makes more than 2097152 values"},
    };
    for (const auto& [kind, problem] : kinds) {
        QTest::addRow("%s as the root", kind) << kind << false << problem;
        QTest::addRow("%s inside a checkpoint", kind) << kind << true << problem;
    }
}

void TestCheckpointRefusals::refusesPicklesThatRecurseOrShare() {
    QFETCH(QString, kind);
    QFETCH(bool, insideCheckpoint);
    QFETCH(QString, problem);
    const QString path = dir_.filePath("hostile.pt");
    const QByteArray archive = torchArchive(hostilePickle(kind, insideCheckpoint));
    QVERIFY(writeBytes(path, archive.constData(), std::size_t(archive.size())));
    QString message;
    const qint64 ms = millisecondsOf([&] {
        try {
            loadCheckpoint(path.toStdString());
        } catch (const Error& e) {
            message = QString::fromStdString(e.what());
        }
    });
    QVERIFY2(message.startsWith(path + " is refused: its pickle "), qPrintable(message));
    QVERIFY2(message.contains(problem), qPrintable(message));
    QVERIFY2(!message.contains('\n'), qPrintable(message));
    QVERIFY2(ms < 5000, qPrintable(QString("took %1 ms").arg(ms)));
}

namespace {
// Storages for pickle::unpickle without an archive: zeros of the asked type.
struct ZeroStorages : pickle::StorageSource {
    torch::Tensor storage(const std::string&, torch::ScalarType type) override {
        return torch::zeros({16}, torch::TensorOptions().dtype(type));
    }
};

QByteArray sharedLevels(int levels) {
    return QByteArray("\x80\x02)q\x00", 5) + QByteArray("0h\x00h\x00\x86q\x00", 8).repeated(levels) + ".";
}
}  // namespace

// The budget is exact: a walk over shared values is counted step by step, so
// sharing that doubles past the budget is refused after the budget, never
// walked further; and what fits is accepted.
void TestCheckpointRefusals::unpickleStaysWithinItsBudget() {
    ZeroStorages storages;
    pickle::Budget budget;
    budget.maxValues = 1000;
    budget.maxDepth = 20;
    budget.maxVisits = 5000;
    auto run = [&](const QByteArray& p) { return pickle::unpickle(p.constData(), std::size_t(p.size()), storages, budget); };
    // 11 levels: 2^12 - 1 = 4095 steps; 12 levels: 8191 steps, over 5000.
    QCOMPARE(int(run(sharedLevels(11)).root().items.size()), 2);
    QVERIFY_THROWS_EXCEPTION(pickle::Refused, run(sharedLevels(12)));
    // Depth: 19 nested tuples fit in 20 levels, 20 do not.
    QVERIFY(run(QByteArray("\x80\x02)", 3) + QByteArray(19, '\x85') + ".").root().is(pickle::Value::Kind::Tuple));
    QVERIFY_THROWS_EXCEPTION(pickle::Refused, run(QByteArray("\x80\x02)", 3) + QByteArray(20, '\x85') + "."));
    QVERIFY_THROWS_EXCEPTION(pickle::Refused, run(QByteArray("\x80\x02", 2) + QByteArray(21, '(') + "."));
    // Values: 999 pushes fit, 1001 do not; memo indices past the budget are refused.
    QCOMPARE(int(run(QByteArray("\x80\x02(", 3) + QByteArray(998, 'N') + "l.").root().items.size()), 998);
    QVERIFY_THROWS_EXCEPTION(pickle::Refused, run(QByteArray("\x80\x02(", 3) + QByteArray(1001, 'N') + "l."));
    QVERIFY_THROWS_EXCEPTION(pickle::Refused, run(QByteArray("\x80\x02Nr\xe8\x03\x00\x00.", 9)));
    // A dict's text keys are found by their index, and a key given again replaces the value.
    QByteArray dict("\x80\x02}(", 4);
    for (int i = 0; i < 300; ++i) dict += text4("k" + QByteArray::number(i % 200)) + intOp(i);
    const pickle::Unpickled d = run(dict + "u.");
    QCOMPARE(int(d.root().entries.size()), 200);
    QCOMPARE(d.root().find("k5")->integer, int64_t(205));
    // A tensor may not show more elements than its storage (16 here) holds.
    const QByteArray view = QByteArray("\x80\x02", 2) + tensorPickle("0", 16, {4, 4}, {4, 1}) + ".";
    QCOMPARE(run(view).root().tensor.numel(), int64_t(16));
    const QByteArray overlap = QByteArray("\x80\x02", 2) + tensorPickle("0", 16, {4, 5}, {1, 1}) + ".";
    QVERIFY_THROWS_EXCEPTION(pickle::Refused, run(overlap));
}

// Class 4: small files whose reading would take gigabytes are refused before
// anything of that size is allocated or read: stride-0 views, archives that
// inflate, storage no tensor uses, settings of a model larger than the file,
// and files that are not checkpoints from their first bytes, however large.
void TestCheckpointRefusals::refusesSmallFilesThatWouldTakeHugeMemory_data() {
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("problem");
    QTest::newRow("history holds a stride-0 tensor of 2^30 elements")
        << "stride-0 history" << "is refused: it holds a tensor of shape (1073741824) drawn from a storage of 1 element";
    QTest::newRow("a weight is a stride-0 view of the right shape")
        << "stride-0 weight" << "stride-0 or overlapping view";
    QTest::newRow("a deflated data.pkl of 8 MiB in a small file")
        << "deflated pickle" << "is refused: its entry archive/data.pkl would inflate from";
    QTest::newRow("entries that inflate past twice the file's size")
        << "many deflated" << "is refused: its entries would inflate to more than";
    QTest::newRow("an entry no tensor uses") << "unused entry" << "is refused: its entry archive/data/999 (1048576 bytes) is no tensor's data";
    QTest::newRow("settings of a model far larger than the file")
        << "big settings" << "is refused: its settings describe a model of";
    QTest::newRow("a 2 GiB sparse file of zeros") << "sparse" << "is not a CharGPT checkpoint";
    QTest::newRow("a 2 GiB sparse file starting with PK") << "sparse PK" << "is damaged or truncated and cannot be read";
}

void TestCheckpointRefusals::refusesSmallFilesThatWouldTakeHugeMemory() {
    QFETCH(QString, kind);
    QFETCH(QString, problem);
    const QString path = dir_.filePath("huge.pt");
    QFile::remove(path);
    const std::vector<char> good = readBytes(goodPath_);
    auto edited = [&](const std::function<void(c10::impl::GenericDict&)>& edit) {
        c10::impl::GenericDict d = torch::pickle_load(good).toGenericDict();
        edit(d);
        const std::vector<char> v = torch::pickle_save(d);
        return QByteArray(v.data(), qsizetype(v.size()));
    };
    QByteArray bytes;
    if (kind == "stride-0 history") {
        bytes = edited([](c10::impl::GenericDict& d) {
            sub(d, "history").insert_or_assign(key("train_loss"), torch::zeros({1}).expand({int64_t(1) << 30}));
        });
    } else if (kind == "stride-0 weight") {
        bytes = edited([](c10::impl::GenericDict& d) {
            c10::impl::GenericDict model = sub(d, "model");
            const torch::Tensor w = model.at(key("lm.weight")).toTensor();
            model.insert_or_assign(key("lm.weight"), torch::zeros({1}).expand(w.sizes()));
        });
    } else if (kind == "deflated pickle") {
        bytes = makeZipOf(QList<ZipEntry>{{"archive/data.pkl", QByteArray("\x80\x02", 2) + QByteArray(8 << 20, 'N'), true},
                                        {"archive/version", "3\n", false}});
    } else if (kind == "many deflated") {
        QList<ZipEntry> entries{{"archive/data.pkl", QByteArray("\x80\x02}.", 4), false}};
        const QByteArray zeros(64 << 10, '\0');
        for (int i = 0; i < 300; ++i) entries.append({"archive/data/" + QByteArray::number(i), zeros, true});
        bytes = makeZipOf(entries);
    } else if (kind == "unused entry") {
        // The good checkpoint's entries (stored, as written) plus one more.
        bytes = stateDictArchive({{"w", 4, {2, 2}, {2, 1}}}, {{"archive/data/999", QByteArray(1 << 20, '\0'), false}});
    } else if (kind == "big settings") {
        bytes = edited([](c10::impl::GenericDict& d) {
            c10::impl::GenericDict config = sub(d, "config");
            config.insert_or_assign(key("emb_size"), int64_t(2048));
            config.insert_or_assign(key("head_size"), int64_t(64));
            config.insert_or_assign(key("n_layer"), int64_t(32));
        });
    }
    if (kind.startsWith("sparse")) {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        if (kind == "sparse PK") f.write("PK\x03\x04", 4);
        QVERIFY(f.resize(qint64(1) << 31));  // sparse: no disk, and never read
    } else {
        QVERIFY(!bytes.isEmpty());
        QVERIFY2(bytes.size() < (2 << 20), "the file itself is small");
        QVERIFY(writeBytes(path, bytes.constData(), std::size_t(bytes.size())));
    }
    rusage before{}, after{};
    getrusage(RUSAGE_SELF, &before);
    QString message;
    const qint64 ms = millisecondsOf([&] {
        try {
            loadCheckpoint(path.toStdString());
        } catch (const Error& e) {
            message = QString::fromStdString(e.what());
        }
    });
    getrusage(RUSAGE_SELF, &after);
    QFile::remove(path);
    QVERIFY2(message.contains(problem), qPrintable(message));
    QVERIFY2(message.contains("huge.pt") || message.contains("checkpoint's"), qPrintable(message));
    QVERIFY2(!message.contains('\n'), qPrintable(message));
    QVERIFY2(ms < 5000, qPrintable(QString("took %1 ms").arg(ms)));
    const long grewMb = (after.ru_maxrss - before.ru_maxrss) / 1024;
    QVERIFY2(grewMb < 700, qPrintable(QString("the peak memory grew by %1 MB").arg(grewMb)));
}

CHARGPT_TEST_GUILESS_MAIN(TestCheckpointRefusals)
}  // namespace tst_checkpointrefusals

#include "tst_checkpointrefusals.moc"
