// SPDX-License-Identifier: GPL-3.0-or-later
// Corpus loading (files, folders, refusals) and the built-in corpora (the
// Dataset's splitting and sampling is tst_dataset's).
#include <torch/torch.h>

#include "model/text/BuiltinCorpora.h"
#include "model/text/CharTokenizer.h"
#include "model/text/Corpus.h"
#include "model/runtime/Error.h"

#include "TestProgram.h"
#include <sys/stat.h>
#include <unistd.h>

#ifdef CHARGPT_CLI
#include "CliRun.h"
#endif

#include <algorithm>
#include <random>
#include <string>
#include <vector>

namespace tst_corpus {

using chargpt::Corpus;

namespace {

bool writeFile(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) return false;
    return f.write(bytes) == bytes.size();
}

QString message(const std::string& path, bool* threw) {
    try {
        Corpus::load(path);
    } catch (const chargpt::Error& e) {
        *threw = true;
        return QString::fromStdString(e.what());
    }
    *threw = false;
    return {};
}

}  // namespace

class TestCorpus : public QObject {
    Q_OBJECT

private slots:
    void loadFile();
    void builtinCorpora_data();
    void builtinCorpora();
    void builtinPython();
    void builtinUnknown();
    void trainBuiltinFromCli();
    void fromUtf8();
    void bomAndCrlf_data();
    void bomAndCrlf();
    void folderJoinsDocuments_data();
    void folderJoinsDocuments();
    void folderOrderHiddenAndWarnings();
    void refuses_data();
    void refuses();
    void sizeZeroFilesAreRead();
    void justOverTheLimitSaysSo();
    void holdsItsOwnFiles();
};

void TestCorpus::loadFile() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QByteArray text = "床前明月光，疑是地上霜。\n举头望明月，低头思故乡。\n";
    const QString path = dir.filePath("poem.txt");
    QVERIFY(writeFile(path, text));

    const Corpus corpus = Corpus::load(path.toStdString());
    QCOMPARE(corpus.documents().size(), std::size_t(1));
    QVERIFY(corpus.documents()[0] == QString::fromUtf8(text).toStdU32String());
    QCOMPARE(corpus.charCount(), std::size_t(QString::fromUtf8(text).toStdU32String().size()));
    QCOMPARE(corpus.byteCount(), std::size_t(text.size()));
    QVERIFY(corpus.warnings().empty());

    const chargpt::CharTokenizer tokenizer = corpus.buildTokenizer();
    // Distinct characters of the poem plus end-of-text.
    std::u32string distinct = corpus.documents()[0];
    std::sort(distinct.begin(), distinct.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    QVERIFY(tokenizer.characters() == distinct);
    QCOMPARE(tokenizer.vocabSize(), int64_t(distinct.size()) + 1);

    const std::vector<int64_t> ids = corpus.encode(tokenizer);
    QCOMPARE(ids.size(), corpus.charCount());
    QCOMPARE(std::count(ids.begin(), ids.end(), 0), 0L);
    QCOMPARE(QString::fromStdString(tokenizer.decode(ids)), QString::fromUtf8(text));
}

void TestCorpus::fromUtf8() {
    const Corpus corpus = Corpus::fromUtf8("def f(x):\n    return x\n", "snippet");
    QCOMPARE(corpus.documents().size(), std::size_t(1));
    QVERIFY(corpus.documents()[0] == std::u32string(U"def f(x):\n    return x\n"));
    QCOMPARE(QString::fromStdString(corpus.name()), QStringLiteral("snippet"));

    try {
        Corpus::fromUtf8(std::string(1000, 'x') + "\xC0\xAF", "snippet");
        QFAIL("invalid UTF-8 accepted");
    } catch (const chargpt::Error& e) {
        const QString m = QString::fromStdString(e.what());
        QVERIFY2(m.contains("snippet") && m.contains("1000"), qPrintable(m));
    }
}

void TestCorpus::bomAndCrlf_data() {
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("expected");
    QTest::newRow("bom") << QByteArray("\xEF\xBB\xBFhello\n") << QStringLiteral("hello\n");
    QTest::newRow("bom chinese") << QByteArray("\xEF\xBB\xBF床前") << QStringLiteral("床前");
    QTest::newRow("crlf") << QByteArray("a\r\nb\r\n") << QStringLiteral("a\nb\n");
    QTest::newRow("bom+crlf") << QByteArray("\xEF\xBB\xBFline 1\r\nline 2\r\n")
                              << QStringLiteral("line 1\nline 2\n");
    QTest::newRow("lf kept") << QByteArray("x\ny\n") << QStringLiteral("x\ny\n");
}

void TestCorpus::bomAndCrlf() {
    QFETCH(QByteArray, bytes);
    QFETCH(QString, expected);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath("doc.txt");
    QVERIFY(writeFile(path, bytes));
    const Corpus corpus = Corpus::load(path.toStdString());
    QCOMPARE(corpus.documents().size(), std::size_t(1));
    QCOMPARE(QString::fromStdU32String(corpus.documents()[0]), expected);
    // The byte-order mark is not a character of the vocabulary.
    QCOMPARE(corpus.buildTokenizer().id(U'\uFEFF'), -1);
    QCOMPARE(corpus.buildTokenizer().id(U'\r'), -1);
    // decodeDocument does the same on bytes.
    QCOMPARE(QString::fromStdU32String(chargpt::decodeDocument(bytes.toStdString(), "doc")), expected);
}

void TestCorpus::folderJoinsDocuments_data() {
    QTest::addColumn<int>("documents");
    QTest::newRow("1 document") << 1;
    QTest::newRow("2 documents") << 2;
    QTest::newRow("5 documents") << 5;
}

void TestCorpus::folderJoinsDocuments() {
    QFETCH(int, documents);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QString joined;
    for (int i = 0; i < documents; ++i) {
        const QString text = QStringLiteral("document %1: 床前明月光\n").arg(i);
        QVERIFY(writeFile(dir.filePath(QStringLiteral("doc%1.txt").arg(i)), text.toUtf8()));
        if (i > 0) joined += "<|e|>";
        joined += text;
    }
    const Corpus corpus = Corpus::load(dir.path().toStdString());
    QCOMPARE(int(corpus.documents().size()), documents);
    const chargpt::CharTokenizer tokenizer = corpus.buildTokenizer();
    const std::vector<int64_t> ids = corpus.encode(tokenizer);
    QCOMPARE(int(std::count(ids.begin(), ids.end(), int64_t(0))), documents - 1);
    QCOMPARE(ids.size(), corpus.charCount() + std::size_t(documents - 1));
    QCOMPARE(QString::fromStdString(tokenizer.decode(ids)), joined);
}

void TestCorpus::folderOrderHiddenAndWarnings() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QDir root(dir.path());
    QVERIFY(root.mkpath("sub"));
    QVERIFY(root.mkpath(".git"));
    QVERIFY(writeFile(dir.filePath("b.txt"), "second\n"));
    QVERIFY(writeFile(dir.filePath("a.txt"), "first\n"));
    QVERIFY(writeFile(dir.filePath("sub/c.txt"), "third\n"));
    QVERIFY(writeFile(dir.filePath(".hidden.txt"), "hidden\n"));
    QVERIFY(writeFile(dir.filePath(".git/config"), "gitstuff\n"));
    QVERIFY(writeFile(dir.filePath("image.bin"), QByteArray("PNG\0\0\x01\x02", 7)));
    QVERIFY(writeFile(dir.filePath("latin1.txt"), QByteArray("caf\xE9\n")));

    const Corpus corpus = Corpus::load(dir.path().toStdString());
    QCOMPARE(corpus.documents().size(), std::size_t(3));
    QCOMPARE(QString::fromStdU32String(corpus.documents()[0]), QStringLiteral("first\n"));
    QCOMPARE(QString::fromStdU32String(corpus.documents()[1]), QStringLiteral("second\n"));
    QCOMPARE(QString::fromStdU32String(corpus.documents()[2]), QStringLiteral("third\n"));

    // The binary and the Latin-1 file were left out, each with a reason naming it.
    QCOMPARE(corpus.warnings().size(), std::size_t(2));
    QString warnings;
    for (const std::string& w : corpus.warnings()) warnings += QString::fromStdString(w) + '\n';
    QVERIFY2(warnings.contains("image.bin"), qPrintable(warnings));
    QVERIFY2(warnings.contains("latin1.txt"), qPrintable(warnings));
    QVERIFY2(!warnings.contains("hidden") && !warnings.contains(".git"), qPrintable(warnings));
}

void TestCorpus::refuses_data() {
    QTest::addColumn<QString>("kind");        // file, missing, folder
    QTest::addColumn<QByteArray>("bytes");    // file contents (folder: one file inside)
    QTest::addColumn<QString>("problem");     // regular expression the message must match
    QTest::addColumn<QString>("alsoMention"); // literal the message must contain (or empty)

    const QString missing = "exist|not found|no such|cannot|can't|could not|unable";
    QTest::newRow("empty file") << "file" << QByteArray() << "empty" << "";
    QTest::newRow("whitespace only") << "file" << QByteArray(" \n\t\r\n  \n") << "whitespace|empty|blank|no text"
                                     << "";
    QTest::newRow("binary with NUL") << "file" << QByteArray("abc\0def\x01\x02", 9) << "binary|nul|null|zero byte"
                                     << "";
    QTest::newRow("invalid utf-8") << "file" << (QByteArray(1234, 'a') + "\xFF" + "tail") << "utf-?8"
                                   << "1234";
    QTest::newRow("latin-1 text") << "file" << QByteArray("na\xEFve\n") << "utf-?8" << "2";
    QTest::newRow("nonexistent path") << "missing" << QByteArray() << missing << "";
    QTest::newRow("empty folder") << "emptyfolder" << QByteArray() << "no |empty|nothing|none" << "";
    QTest::newRow("folder of binary files") << "folder" << QByteArray("\x89PNG\0\0", 6)
                                            << "no |empty|nothing|none|binary" << "";
}

void TestCorpus::refuses() {
    QFETCH(QString, kind);
    QFETCH(QByteArray, bytes);
    QFETCH(QString, problem);
    QFETCH(QString, alsoMention);

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QString path;
    if (kind == "file") {
        path = dir.filePath("corpus_under_test.txt");
        QVERIFY(writeFile(path, bytes));
    } else if (kind == "missing") {
        path = dir.filePath("no_such_corpus.txt");
    } else if (kind == "emptyfolder") {
        path = dir.filePath("corpus_folder");
        QVERIFY(QDir().mkpath(path));
    } else {
        path = dir.filePath("corpus_folder");
        QVERIFY(QDir().mkpath(path));
        QVERIFY(writeFile(path + "/picture.png", bytes));
    }

    bool threw = false;
    const QString m = message(path.toStdString(), &threw);
    QVERIFY2(threw, "Corpus::load accepted it");
    QVERIFY2(m.contains(QRegularExpression(problem, QRegularExpression::CaseInsensitiveOption)),
             qPrintable("message does not say the problem: " + m));
    QVERIFY2(m.contains(QFileInfo(path).fileName()), qPrintable("message does not name the path: " + m));
    if (!alsoMention.isEmpty())
        QVERIFY2(m.contains(QRegularExpression("\\b" + alsoMention + "\\b")),
                 qPrintable("message lacks " + alsoMention + ": " + m));
}

void TestCorpus::builtinCorpora_data() {
    QTest::addColumn<QString>("source");
    QTest::addColumn<QString>("contains");  // a line every copy of the text has
    QTest::addColumn<int>("minChars");
    QTest::newRow("tang300") << "builtin:tang300" << QStringLiteral("床前明月光") << 20000;
    QTest::newRow("song100") << "builtin:song100" << QStringLiteral("鸣骹直上一千尺") << 5000;
}

// The fortunes converted at build time are in the model library: no file, no Qt resource.
void TestCorpus::builtinCorpora() {
    QFETCH(QString, source);
    QFETCH(QString, contains);
    QFETCH(int, minChars);
    QVERIFY(chargpt::isBuiltinSource(source.toStdString()));
    const Corpus corpus = chargpt::loadCorpusSource(source.toStdString());
    QCOMPARE(QString::fromStdString(corpus.name()), source.mid(8));
    QCOMPARE(corpus.documents().size(), std::size_t(1));
    QVERIFY2(corpus.charCount() >= std::size_t(minChars), qPrintable(QString::number(corpus.charCount())));
    const QString text = QString::fromStdU32String(corpus.documents().front());
    QVERIFY(text.contains(contains));
    // The conversion took out the fortune separators and the colour codes.
    QVERIFY(!text.contains(QStringLiteral("\n%\n")));
    QVERIFY(!text.contains(QChar(0x1b)));
    QVERIFY(!text.contains(QStringLiteral("\n\n\n")));
    // The same text as the one handed to tools that read a file (bench's reference).
    QCOMPARE(QString::fromStdString(chargpt::builtinCorpusText(source.toStdString())).trimmed(), text.trimmed());
}

void TestCorpus::builtinPython() {
    const std::string folder = chargpt::pythonLibraryPath();
    if (folder.empty()) QSKIP("the Python standard library is not installed");
    QVERIFY(QFileInfo::exists(QString::fromStdString(folder) + QStringLiteral("/os.py")));
    const std::string text = chargpt::builtinCorpusText("builtin:python");
    // os.py's own text is in it, module after module in name order.
    QFile os(QString::fromStdString(folder) + QStringLiteral("/os.py"));
    QVERIFY(os.open(QIODevice::ReadOnly));
    const QByteArray osText = os.readAll();
    const auto at = text.find(osText.toStdString());
    QVERIFY(at != std::string::npos);
    QFile abc(QString::fromStdString(folder) + QStringLiteral("/abc.py"));
    if (abc.open(QIODevice::ReadOnly)) QVERIFY(text.find(abc.readAll().toStdString()) < at);
    const Corpus corpus = chargpt::loadCorpusSource("builtin:python");
    QCOMPARE(corpus.name(), folder);
    QVERIFY(corpus.charCount() > 100000);
}

void TestCorpus::builtinUnknown() {
    try {
        chargpt::loadCorpusSource("builtin:nothing");
        QFAIL("an unknown built-in corpus was accepted");
    } catch (const chargpt::Error& e) {
        QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("builtin:tang300")), e.what());
    }
    QVERIFY(!chargpt::isBuiltinSource("tang300"));
    // Other sources are files and folders as ever.
    bool threw = false;
    QVERIFY(message("/nonexistent/corpus.txt", &threw).contains(QStringLiteral("corpus.txt")));
    QVERIFY(threw);
}

// `chargpt train builtin:tang300` trains the built-in corpus like a file.
void TestCorpus::trainBuiltinFromCli() {
#ifdef CHARGPT_CLI
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString out = dir.filePath(QStringLiteral("tang.pt"));
    const cli_run::Result r = cli_run::runCli(
        {"train", "builtin:tang300", "--preset", "tiny", "--steps", "5", "--threads", "1", "--out", out});
    QVERIFY2(r.finished && r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains(QRegularExpression(QStringLiteral("\"steps\":\\s*5\\b"))), qPrintable(r.out));
    QVERIFY(QFileInfo(out).size() > 1000);
    const cli_run::Result info = cli_run::runCli({"info", out});
    QVERIFY2(info.exitCode == 0, qPrintable(info.err));
    // The vocabulary is the poems' characters: thousands of them.
    const QRegularExpression vocabulary(QStringLiteral("vocabulary\\s+(\\d+) tokens"));
    const QRegularExpressionMatch m = vocabulary.match(info.out);
    QVERIFY2(m.hasMatch(), qPrintable(info.out));
    QVERIFY(m.captured(1).toInt() > 2000);
#else
    QSKIP("built without the chargpt command");
#endif
}

void TestCorpus::sizeZeroFilesAreRead() {
    // Files of /proc report 0 bytes and have content: they are read to their end.
    struct stat info {};
    QCOMPARE(::stat("/proc/self/status", &info), 0);
    QCOMPARE(qint64(info.st_size), qint64(0));
    const Corpus corpus = Corpus::load("/proc/self/status");
    QCOMPARE(corpus.documents().size(), std::size_t(1));
    QVERIFY2(corpus.byteCount() > 100, qPrintable(QString::number(corpus.byteCount())));
    const std::u32string& text = corpus.documents().front();
    QVERIFY(text.find(U"Name:") != std::u32string::npos);
}

void TestCorpus::justOverTheLimitSaysSo() {
    // 256 MiB + 1 byte (sparse): the size in the message shows it is over.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath("over.txt");
    QVERIFY(writeFile(path, QByteArray()));
    QCOMPARE(::truncate(QFile::encodeName(path).constData(), off_t(256) * 1024 * 1024 + 1), 0);
    bool threw = false;
    const QString m = message(path.toStdString(), &threw);
    QVERIFY(threw);
    QVERIFY2(m.contains("over.txt is 268435457 bytes (over 256 MiB); corpora up to 256 MiB (268435456 bytes)"),
             qPrintable(m));
    QVERIFY2(!m.contains("is 256 MiB"), qPrintable(m));
}

void TestCorpus::holdsItsOwnFiles() {
    // What `train --out` must never overwrite: the corpus, also through a
    // symbolic or hard link, and anything inside a corpus folder.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QByteArray text = QByteArray("the quick brown fox jumps over the lazy dog.\n").repeated(4);
    const QString file = dir.filePath("book.txt");
    QVERIFY(writeFile(file, text));
    QCOMPARE(::symlink("book.txt", QFile::encodeName(dir.filePath("soft.txt")).constData()), 0);
    QCOMPARE(::link(QFile::encodeName(file).constData(), QFile::encodeName(dir.filePath("hard.txt")).constData()), 0);
    const Corpus single = Corpus::load(file.toStdString());
    QVERIFY(single.holds(file.toStdString()));
    QVERIFY(single.holds(dir.filePath("soft.txt").toStdString()));
    QVERIFY(single.holds(dir.filePath("hard.txt").toStdString()));
    QVERIFY(!single.holds(dir.filePath("model.pt").toStdString()));
    QVERIFY(!single.holds(dir.path().toStdString() + "/../model.pt"));

    const QString folder = dir.filePath("texts");
    QVERIFY(QDir().mkpath(folder + "/deeper"));
    QVERIFY(writeFile(folder + "/deeper/a.txt", text));
    const QString outside = dir.filePath("outside.txt");
    QVERIFY(writeFile(outside, text));
    QCOMPARE(::symlink(QFile::encodeName(outside).constData(), QFile::encodeName(folder + "/linked.txt").constData()), 0);
    const Corpus many = Corpus::load(folder.toStdString());
    QCOMPARE(many.documents().size(), std::size_t(2));
    QVERIFY(many.holds((folder + "/deeper/a.txt").toStdString()));
    QVERIFY(many.holds((folder + "/deeper/new.pt").toStdString()));  // not yet there, but inside
    QVERIFY(many.holds((folder + "/model.pt").toStdString()));
    QVERIFY(many.holds(outside.toStdString()));  // read through the folder's link
    QVERIFY(!many.holds(dir.filePath("model.pt").toStdString()));
    QVERIFY(!many.holds(file.toStdString()));
}

CHARGPT_TEST_GUILESS_MAIN(TestCorpus)
}  // namespace tst_corpus
#include "tst_corpus.moc"
