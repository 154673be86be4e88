// SPDX-License-Identifier: GPL-3.0-or-later
// Hostile files (issue 13, classes 1 to 4): pickles that recurse or share,
// dicts of many keys, and small files that would take gigabytes. Each is
// refused (or read) in bounded time with one line naming the file: through
// the import functions, and through `chargpt info`, `sample` and `import`.
// Every file is made here, at run time; no Python is needed.
#include <torch/torch.h>

#include "model/io/Checkpoint.h"
#include "model/io/PyTorchInterop.h"
#include "model/nn/CharGPT.h"
#include "model/runtime/Error.h"
#include "model/text/CharTokenizer.h"
#include "model/train/RunConfig.h"
#include "CheckpointFixtures.h"
#include "CliRun.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include "TestProgram.h"

namespace tst_hostile {

using namespace chargpt;
using namespace checkpoint_fixtures;

namespace {

// A small state_dict of the seed's CharGPT plus `extra` keys, all sharing the
// first tensor (memoised once): the keys cost a few bytes each.
QByteArray manyKeysStateDict(int extra) {
    QByteArray pickle("\x80\x02}(", 4);
    pickle += text4("token_emb.weight") + tensorPickle("0", 32, {4, 8}, {8, 1}) + QByteArray("q\x01", 2);
    for (int i = 0; i < extra; ++i) pickle += text4("k" + QByteArray::number(i)) + QByteArray("h\x01", 2);
    pickle += "u.";
    return makeZipOf(QList<ZipEntry>{{"archive/data.pkl", pickle, false},
                                   {"archive/version", "3\n", false},
                                   {"archive/data/0", QByteArray(32 * 4, '\0'), false}});
}

// Four stride-0 tensors of a billion elements each, in 1.5 KB.
QByteArray strideZeroStateDict() {
    return stateDictArchive({{"token_emb.weight", 1, {65536, 16384}, {0, 0}},
                             {"pos_emb.weight", 1, {65536, 16384}, {0, 0}},
                             {"blocks.0.mha.heads.0.key.weight", 1, {16384, 16384}, {0, 0}},
                             {"lm.weight", 1, {65536, 16384}, {0, 0}}});
}

// A state_dict whose keys and few real tensors describe a model of 2 billion
// parameters (40 layers of width 2048, from one head's key and one stray block).
QByteArray bigModelStateDict() {
    return stateDictArchive({{"token_emb.weight", 4 * 2048, {4, 2048}, {2048, 1}},
                             {"pos_emb.weight", 8 * 2048, {8, 2048}, {2048, 1}},
                             {"blocks.0.mha.heads.31.key.weight", 64 * 2048, {64, 2048}, {2048, 1}},
                             {"blocks.39.l1.weight", 2048, {2048}, {1}},
                             {"lm.weight", 4 * 2048, {4, 2048}, {2048, 1}}});
}

// One tensor of 2^23 x (2^40 + 1) bytes over a storage of 2^23 (8 MB): every
// element it shows lies inside its storage, and the product of its sizes
// passes int64's range.
QByteArray productOverflowStateDict() {
    const qint64 n = qint64(1) << 23;
    QByteArray pickle("\x80\x02}(", 4);
    pickle += text4("token_emb.weight") +
              tensorPickle("0", n, {n, (qint64(1) << 40) + 1}, {1, 0}, 0, "ByteStorage") + "u.";
    return makeZipOf(QList<ZipEntry>{{"archive/data.pkl", pickle, false},
                                   {"archive/version", "3\n", false},
                                   {"archive/data/0", QByteArray(n, '\0'), false}});
}

}  // namespace

class TestHostile : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void importRefusesHostileFiles_data();
    void importRefusesHostileFiles();
    void dictKeysCostLogTime();
    void vocabularyFileSizeIsCheckedBeforeReading();
    void cliRefusesHostileFiles_data();
    void cliRefusesHostileFiles();

private:
    QString write(const QString& name, const QByteArray& bytes);
    QString sparse(const QString& name, const QByteArray& head, qint64 size);

    QTemporaryDir dir_;
    QString goodPath_, vocabPath_;
    CharTokenizer tokenizer_;
};

QString TestHostile::write(const QString& name, const QByteArray& bytes) {
    const QString path = dir_.filePath(name);
    return cli_run::writeFile(path, bytes) ? path : QString();
}

// A file of `size` bytes that takes no disk: `head`, then a hole.
QString TestHostile::sparse(const QString& name, const QByteArray& head, qint64 size) {
    const QString path = dir_.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(head) != head.size() || !f.resize(size)) return QString();
    return path;
}

void TestHostile::initTestCase() {
    QVERIFY(dir_.isValid());
    torch::set_num_threads(1);
    Checkpoint c;
    c.config = *RunConfig::preset("tiny");
    c.config.emb_size = 8;
    c.config.head_size = 4;
    c.config.n_layer = 1;
    c.config.sequence_len = 4;
    c.tokenizer = CharTokenizer::fromText(U"ab\n");
    c.config.vocab_size = c.tokenizer.vocabSize();
    torch::manual_seed(1);
    c.model = CharGPT(c.config);
    c.history.steps = {1};
    c.history.trainLoss = {1.5f};
    c.history.learningRate = {3e-3f};
    tokenizer_ = c.tokenizer;
    goodPath_ = dir_.filePath("good.pt");
    saveCheckpoint(goodPath_.toStdString(), c);
    QJsonArray vocab;
    for (const std::string& token : c.tokenizer.vocabulary()) vocab.append(QString::fromStdString(token));
    vocabPath_ = write("vocab.json", QJsonDocument(vocab).toJson());
    QVERIFY(!vocabPath_.isEmpty());
}

void TestHostile::importRefusesHostileFiles_data() {
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("problem");
    QTest::newRow("a dict holding itself") << torchArchive(hostilePickle("self dict", false))
                                           << "cannot be imported: its pickle holds a dictionary that contains itself";
    QTest::newRow("a list holding itself") << torchArchive(hostilePickle("self list", false)) << "contains itself";
    QTest::newRow("100,000 nested tuples") << torchArchive(hostilePickle("nested tuples", false))
                                           << "nests values more than 100 levels deep";
    QTest::newRow("200,000 nested lists by APPENDS")
        << torchArchive(hostilePickle("nested lists", false)) << "nests values more than 100 levels deep";
    QTest::newRow("1,000,000 nested lists, a MARK each") << torchArchive(hostilePickle("nested marks", false))
                                                        << "nests values more than 100 levels deep";
    QTest::newRow("64 levels of shared tuples") << torchArchive(hostilePickle("shared", false))
                                                << "shares its values too deeply";
    QTest::newRow("four stride-0 tensors of 2^30 elements")
        << strideZeroStateDict() << "cannot be imported: it holds a tensor of shape (65536, 16384) drawn from a storage of 1 element";
    QTest::newRow("a deflated data.pkl of 8 MiB")
        << makeZipOf(QList<ZipEntry>{{"archive/data.pkl", QByteArray(8 << 20, 'N'), true}, {"archive/version", "3\n", false}})
        << "cannot be imported: its entry archive/data.pkl would inflate from";
    QTest::newRow("an entry no tensor uses")
        << stateDictArchive({{"w", 4, {2, 2}, {2, 1}}}, {{"archive/data/7", QByteArray(1 << 20, '\0'), false}})
        << "cannot be imported: its entry archive/data/7 (1048576 bytes) is no tensor's data";
    QTest::newRow("a model far larger than the file")
        << bigModelStateDict() << "the state_dict's shapes describe a model of";
    QTest::newRow("sizes whose product passes 2^63")
        << productOverflowStateDict() << "cannot be read as a state_dict saved by torch.save (a tensor too large)";
}

void TestHostile::importRefusesHostileFiles() {
    QFETCH(QByteArray, bytes);
    QFETCH(QString, problem);
    QVERIFY2(bytes.size() < (10 << 20), "the file is under 10 MB");
    const QString path = write("state_dict.pt", bytes);
    QString message;
    const qint64 ms = millisecondsOf([&] {
        try {
            importStateDict(path.toStdString(), tokenizer_, "vocab.json", *RunConfig::preset("tiny"));
        } catch (const Error& e) {
            message = QString::fromStdString(e.what());
        }
    });
    QVERIFY2(message.contains(problem), qPrintable(message));
    QVERIFY2(message.contains("state_dict.pt") || message.startsWith("the state_dict"), qPrintable(message));
    QVERIFY2(!message.contains('\n'), qPrintable(message));
    QVERIFY2(ms < 5000, qPrintable(QString("took %1 ms").arg(ms)));
}

// Class 3: every key of a dict is placed in O(log n), so 400,000 keys take
// a moment (each key was compared with every earlier one: over a minute).
void TestHostile::dictKeysCostLogTime() {
    const QString path = write("keys.pt", manyKeysStateDict(400000));
    std::size_t count = 0;
    const qint64 readMs = millisecondsOf([&] { count = readTorchStateDict(path.toStdString()).tensors.size(); });
    QCOMPARE(count, std::size_t(400001));
    QVERIFY2(readMs < 5000, qPrintable(QString("reading took %1 ms").arg(readMs)));
    QString message;
    const qint64 importMs = millisecondsOf([&] {
        try {
            importStateDict(path.toStdString(), tokenizer_, "vocab.json", *RunConfig::preset("tiny"));
        } catch (const Error& e) {
            message = QString::fromStdString(e.what());
        }
    });
    QVERIFY2(message.contains("position embedding"), qPrintable(message));
    QVERIFY2(importMs < 5000, qPrintable(QString("importing took %1 ms").arg(importMs)));
}

void TestHostile::vocabularyFileSizeIsCheckedBeforeReading() {
    // 1 GiB that takes no disk: refused from its size, never read.
    const QString huge = sparse("huge.json", "[", qint64(1) << 30);
    QVERIFY(!huge.isEmpty());
    QString message;
    const qint64 ms = millisecondsOf([&] {
        try {
            readVocabularyFile(huge.toStdString());
        } catch (const Error& e) {
            message = QString::fromStdString(e.what());
        }
    });
    QVERIFY2(message.contains(huge + " is too large for a vocabulary file: a vocabulary of at most 65536 tokens"),
             qPrintable(message));
    QVERIFY2(ms < 1000, qPrintable(QString("took %1 ms").arg(ms)));
    // One byte over the limit is refused; the largest vocabulary, pretty-printed, fits.
    QVERIFY(!sparse("over.json", "[", qint64(kMaxVocabularyFileBytes) + 1).isEmpty());
    QVERIFY_THROWS_EXCEPTION(Error, readVocabularyFile(dir_.filePath("over.json").toStdString()));
    // As Python's json.dump(char2ind, f, indent=4) writes it: every character
    // escaped as a surrogate pair, `    "\ud800\udc01": 1,` (27 bytes a line).
    QByteArray json = "{\n    \"<|e|>\": 0";
    for (int i = 1; i < 65536; ++i) {
        const char32_t c = char32_t(0x10000 + i) - 0x10000;
        json += QStringLiteral(",\n    \"\\u%1\\u%2\": %3")
                    .arg(0xD800 + (c >> 10), 4, 16, QLatin1Char('0'))
                    .arg(0xDC00 + (c & 0x3FF), 4, 16, QLatin1Char('0'))
                    .arg(i)
                    .toLatin1();
    }
    json += "\n}\n";
    QVERIFY(std::size_t(json.size()) < kMaxVocabularyFileBytes);
    QCOMPARE(readVocabularyFile(write("largest.json", json).toStdString()).vocabSize(), int64_t(65536));
}

void TestHostile::cliRefusesHostileFiles_data() {
    QTest::addColumn<QString>("command");
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("problem");
    QTest::newRow("info: a list holding itself") << "info" << "self list" << "is refused: its pickle holds a list that contains itself";
    QTest::newRow("sample: 100,000 nested tuples") << "sample" << "nested tuples" << "is refused: its pickle nests values more than 100 levels deep";
    QTest::newRow("info: 64 levels of shared tuples") << "info" << "shared" << "is refused: its pickle shares its values too deeply to be a checkpoint";
    QTest::newRow("sample: 64 levels of shared tuples") << "sample" << "shared" << "shares its values too deeply";
    QTest::newRow("info: a stride-0 history") << "info" << "stride-0 history" << "is refused: it holds a tensor of shape (1073741824)";
    QTest::newRow("sample: a stride-0 history") << "sample" << "stride-0 history" << "stride-0 or overlapping view";
    QTest::newRow("info: a deflated data.pkl") << "info" << "deflated" << "is refused: its entry archive/data.pkl would inflate";
    QTest::newRow("info: an entry no tensor uses") << "info" << "unused" << "is no tensor's data";
    QTest::newRow("info: sizes whose product passes 2^63") << "info" << "product overflow" << "is damaged or truncated and cannot be read (a tensor too large)";
    QTest::newRow("info: 2 GiB of zeros") << "info" << "sparse" << "is not a CharGPT checkpoint (not a torch.save archive)";
    QTest::newRow("import: a dict holding itself") << "import" << "self dict" << "cannot be imported: its pickle holds a dictionary that contains itself";
    QTest::newRow("import: 64 levels of shared tuples") << "import" << "shared" << "shares its values too deeply";
    QTest::newRow("import: four stride-0 tensors") << "import" << "stride-0 state_dict" << "stride-0 or overlapping view";
    QTest::newRow("import: 100,000 keys") << "import" << "keys" << "the state_dict has no two-dimensional position embedding";
    QTest::newRow("import: a model far larger than the file") << "import" << "big model" << "describe a model of";
    QTest::newRow("import: 2 GiB of zeros") << "import" << "sparse" << "is not a file written by torch.save";
    QTest::newRow("import: a 1 GiB vocabulary") << "import" << "huge vocab" << "is too large for a vocabulary file";
}

void TestHostile::cliRefusesHostileFiles() {
    QFETCH(QString, command);
    QFETCH(QString, kind);
    QFETCH(QString, problem);
    QString path, vocab = vocabPath_;
    const QString name = command == "import" ? "state_dict.pt" : "hostile.pt";
    if (kind == "self list" || kind == "nested tuples" || kind == "shared" || kind == "self dict") {
        path = write(name, torchArchive(hostilePickle(kind, command != "import")));
    } else if (kind == "stride-0 history") {
        const QByteArray good = cli_run::readFile(goodPath_);
        c10::impl::GenericDict d = torch::pickle_load(std::vector<char>(good.begin(), good.end())).toGenericDict();
        d.at(c10::IValue(std::string("history")))
            .toGenericDict()
            .insert_or_assign(c10::IValue(std::string("train_loss")), torch::zeros({1}).expand({int64_t(1) << 30}));
        const std::vector<char> v = torch::pickle_save(d);
        path = write(name, QByteArray(v.data(), qsizetype(v.size())));
    } else if (kind == "deflated") {
        path = write(name, makeZipOf(QList<ZipEntry>{{"archive/data.pkl", QByteArray(8 << 20, 'N'), true},
                                                   {"archive/version", "3\n", false}}));
    } else if (kind == "unused") {
        path = write(name, stateDictArchive({{"w", 4, {2, 2}, {2, 1}}}, {{"archive/data/9", QByteArray(4096, '\0'), false}}));
    } else if (kind == "product overflow") {
        path = write(name, productOverflowStateDict());
    } else if (kind == "sparse") {
        path = sparse(name, QByteArray(), qint64(1) << 31);
    } else if (kind == "stride-0 state_dict") {
        path = write(name, strideZeroStateDict());
    } else if (kind == "keys") {
        path = write(name, manyKeysStateDict(100000));
    } else if (kind == "big model") {
        path = write(name, bigModelStateDict());
    } else if (kind == "huge vocab") {
        path = write(name, stateDictArchive({{"w", 4, {2, 2}, {2, 1}}}));
        vocab = sparse("huge.json", "[", qint64(1) << 30);
    }
    QVERIFY(!path.isEmpty() && !vocab.isEmpty());
    QStringList args{command, path};
    if (command == "sample") args << "--chars" << "5";
    if (command == "import") args << "--vocab" << vocab << "-o" << dir_.filePath("imported.pt");
    const cli_run::Result r = cli_run::runCli(args, 60000);
    QFile::remove(path);
    const QString where = args.join(' ') + ": " + r.err;
    QVERIFY2(r.finished, qPrintable("still running after 60 s: " + where));
    QCOMPARE(r.status, QProcess::NormalExit);
    QVERIFY2(r.exitCode == 1, qPrintable(where));
    QVERIFY2(r.err.startsWith("chargpt: "), qPrintable(where));
    QVERIFY2(r.err.count('\n') == 1, qPrintable("not one line: " + where));
    QVERIFY2(r.err.contains(problem), qPrintable(where));
    QVERIFY2(r.err.contains(kind == "huge vocab" ? "huge.json" : name) || r.err.contains("the state_dict"), qPrintable(where));
    // Seconds, most of them LibTorch starting (several on a busy machine); the
    // same files took minutes and gigabytes, or were killed.
    QVERIFY2(r.ms < 30000, qPrintable(QString("took %1 ms: ").arg(r.ms) + where));
    QVERIFY(!QFileInfo::exists(dir_.filePath("imported.pt")));
}

CHARGPT_TEST_GUILESS_MAIN(TestHostile)
}  // namespace tst_hostile
#include "tst_hostile.moc"
