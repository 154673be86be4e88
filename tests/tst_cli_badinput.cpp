// SPDX-License-Identifier: GPL-3.0-or-later
// `chargpt train` and `chargpt sample` given bad input: every numeric option at
// zero, negative, huge and non-numeric; corpora that are not text, too big,
// pipes, devices, link loops, just over the limit or of size 0 with content;
// prompts that are empty, too long, outside the vocabulary, a megabyte, a FIFO,
// with a NUL or escape sequences; options in the wrong place. Refusals exit
// non-zero with one line on stderr.
//
// Runs the CLI binary only: no LibTorch header.
#include <sys/stat.h>
#include <unistd.h>

#include "TestProgram.h"

#include "CliRun.h"

namespace tst_cli_badinput {

namespace {

using cli_run::cliExists;
using cli_run::describe;
using cli_run::Result;
using cli_run::runCli;
using cli_run::succeeded;
using cli_run::writeFile;

// A refusal: no crash, a non-zero exit and exactly one line "chargpt: ..." that
// matches `mentions`.
void verifyRefusal(const Result& r, const QString& mentions) {
    QVERIFY2(r.finished, qPrintable(describe(r)));
    QCOMPARE(r.status, QProcess::NormalExit);
    QVERIFY2(r.exitCode == 1, qPrintable(describe(r)));
    const QStringList lines = r.err.split('\n', Qt::SkipEmptyParts);
    QVERIFY2(lines.size() == 1 && lines.first().startsWith(QLatin1String("chargpt: ")),
             qPrintable(describe(r)));
    QVERIFY2(lines.first().contains(QRegularExpression(mentions, QRegularExpression::CaseInsensitiveOption)),
             qPrintable(describe(r)));
}

QByteArray utf16le(const QString& text) {
    QByteArray bytes("\xFF\xFE");
    for (const QChar c : text) bytes.append(char(c.unicode() & 0xFF)).append(char(c.unicode() >> 8));
    return bytes;
}

}  // namespace

class TestCliBadInput : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void numbers_data();
    void numbers();
    void corpora_data();
    void corpora();
    void prompts_data();
    void prompts();
    void megabytePrompt();
    void optionWords_data();
    void optionWords();

private:
    QTemporaryDir dir_;
    QString corpus_, model_;
};

void TestCliBadInput::initTestCase() {
    QVERIFY2(cliExists(), CHARGPT_CLI);
    QVERIFY(dir_.isValid());
    QByteArray text;
    for (int i = 0; i < 60; ++i) text += "the quick brown fox jumps over the lazy dog. ab ab ab.\n";
    corpus_ = dir_.filePath("corpus.txt");
    QVERIFY(writeFile(corpus_, text));
    model_ = dir_.filePath("m.pt");
    const Result r = runCli({"train", corpus_, "--preset", "tiny", "--steps", "20", "--out", model_});
    QVERIFY2(succeeded(r), qPrintable(describe(r)));
}

void TestCliBadInput::numbers_data() {
    QTest::addColumn<QString>("command");
    QTest::addColumn<QString>("option");
    QTest::addColumn<QString>("value");
    QTest::addColumn<bool>("accepted");
    QTest::addColumn<QString>("mentions");  // for a refusal: regular expression of its line

    const QString huge = QStringLiteral("99999999999999999999");  // past int64
    struct Option {
        const char* command;
        const char* name;
        bool zeroAccepted;
        const char* hugeValue;  // nullptr: `huge`
    };
    // Zero means "one per core", "seed 0", "no time limit" (beside --steps),
    // "no characters", "greedy", "all characters" where it is accepted.
    const Option options[] = {
        {"train", "steps", false, nullptr},      {"train", "time-limit", true, "1e400"},
        {"train", "batch", false, nullptr},      {"train", "lr", false, "1e30"},
        {"train", "threads", true, nullptr},     {"train", "seed", true, nullptr},
        {"train", "eval-iters", false, nullptr}, {"sample", "chars", true, nullptr},
        {"sample", "temperature", true, "1e30"}, {"sample", "top-k", true, nullptr},
        {"sample", "top-p", false, "1e30"},      {"sample", "seed", true, nullptr},
        {"sample", "threads", true, nullptr},
    };
    for (const Option& o : options) {
        const QString name = QString::fromLatin1(o.name);
        const QString flag = "--" + name;
        const QString command = QString::fromLatin1(o.command);
        const QString prefix = command + ' ' + flag;
        // The range of a training setting is its field's in the settings
        // table (0 included, as in the window's panel): a 0 that no run can
        // use is refused by the settings' validation instead, in its words.
        QTest::newRow(qPrintable(prefix + " 0"))
            << command << name << "0" << o.zeroAccepted
            << QString("(" + flag + " must be between|must be (a )?positive|would never end)");
        QTest::newRow(qPrintable(prefix + " -5"))
            << command << name << "-5" << false << QString(flag + " must be between .* not -5");
        const QString big = o.hugeValue ? QString::fromLatin1(o.hugeValue) : huge;
        QTest::newRow(qPrintable(prefix + " huge"))
            << command << name << big << false << QString(flag + " must be between .* not " + big);
        QTest::newRow(qPrintable(prefix + " abc"))
            << command << name << "abc" << false << QString(flag + " expects a (whole )?number .*not 'abc'");
    }
    QTest::newRow("train --steps empty") << "train"
                                         << "steps"
                                         << "" << false << "--steps expects a whole number";
    QTest::newRow("sample --temperature empty") << "sample"
                                                << "temperature"
                                                << "" << false << "--temperature expects a number";
    QTest::newRow("train --lr nan") << "train"
                                    << "lr"
                                    << "nan" << false << "--lr expects a number";
    // Decimal only: strtod alone would read "0x10" as 16 and skip leading blanks.
    QTest::newRow("train --lr hexadecimal") << "train"
                                            << "lr"
                                            << "0x10" << false << "--lr expects a number .*not '0x10'";
    QTest::newRow("sample --temperature hexadecimal float")
        << "sample"
        << "temperature"
        << "0x1p-1" << false << "--temperature expects a number .*not '0x1p-1'";
    QTest::newRow("train --steps hexadecimal") << "train"
                                               << "steps"
                                               << "0x10" << false << "--steps expects a whole number .*not '0x10'";
    QTest::newRow("train --lr with a leading blank")
        << "train"
        << "lr"
        << " 0.001" << false << "--lr expects a number .*not ' 0.001'";
    QTest::newRow("train --lr inf") << "train"
                                    << "lr"
                                    << "inf" << false << "--lr must be between";
    // Past the settings table's range, as the window's panel: refused by the
    // launcher before LibTorch loads.
    QTest::newRow("train --batch 4097 (past the table's range)")
        << "train"
        << "batch"
        << "4097" << false << "--batch must be between 0 and 4096, not 4097";
    QTest::newRow("train --lr 2 (past the table's range)") << "train"
                                                           << "lr"
                                                           << "2" << false << "--lr must be between 0 and 1, not 2";
}

void TestCliBadInput::numbers() {
    QFETCH(QString, command);
    QFETCH(QString, option);
    QFETCH(QString, value);
    QFETCH(bool, accepted);
    QFETCH(QString, mentions);
    const QString out = dir_.filePath("numbers.pt");
    QFile::remove(out);
    QStringList args;
    if (command == QLatin1String("train"))
        args = {"train", corpus_, "--preset", "tiny", "--steps", "2", "--out", out};
    else
        args = {"sample", model_, "--chars", "5", "--prompt", "ab"};
    args << ("--" + option + "=" + value);  // "=" so that "-5" is a value, not an option
    const Result r = runCli(args, 60000);
    if (accepted) {
        QVERIFY2(succeeded(r), qPrintable(describe(r)));
        if (command == QLatin1String("train")) QVERIFY(QFileInfo::exists(out));
        return;
    }
    verifyRefusal(r, mentions);
    QVERIFY(!QFileInfo::exists(out));
}

void TestCliBadInput::corpora_data() {
    QTest::addColumn<QString>("name");  // in the temporary folder, made in corpora()
    QTest::addColumn<bool>("accepted");
    QTest::addColumn<QString>("mentions");  // refusal line, or a warning for an accepted corpus

    QTest::newRow("UTF-16 with a byte-order mark") << "utf16.txt" << true << "";
    QTest::newRow("UTF-16 without a mark")
        << "utf16-nobom.txt" << false << "UTF-16 text without a byte-order mark";
    QTest::newRow("256 MiB + 1 byte sparse file")
        << "over.txt" << false
        << "over\\.txt is 268435457 bytes \\(over 256 MiB\\); corpora up to 256 MiB \\(268435456 bytes\\)";
    QTest::newRow("/proc/self/status (size 0, with content)") << "/proc/self/status" << true << "";
    QTest::newRow("2 GiB sparse file")
        << "huge.txt" << false << "huge\\.txt is 2048 MiB; corpora up to 256 MiB";
    QTest::newRow("FIFO") << "pipe" << false << "pipe is a named pipe \\(FIFO\\), not a text file";
    QTest::newRow("/dev/zero") << "/dev/zero" << false << "/dev/zero is a device";
    QTest::newRow("symlink loop") << "loop" << false << "loop is a loop of symbolic links";
    QTest::newRow("folder with a dangling link")
        << "withlink" << true << "dangling\\.txt is a symbolic link that leads nowhere";
    QTest::newRow("70,000 distinct characters")
        << "many.txt" << false << "70001 distinct characters; a vocabulary holds at most 65535";
    QTest::newRow("shorter than the context")
        << "short.txt" << false << "has 12 characters; a context of 16 needs at least 17";
}

void TestCliBadInput::corpora() {
    QFETCH(QString, name);
    QFETCH(bool, accepted);
    QFETCH(QString, mentions);
    const QString path = name.startsWith('/') ? name : dir_.filePath(name);
    const QByteArray encoded = QFile::encodeName(path);
    if (name == QLatin1String("utf16.txt") || name == QLatin1String("utf16-nobom.txt")) {
        QByteArray bytes =
            utf16le(QString::fromUtf8("the quick brown fox 狐狸 jumps over the lazy dog.\r\n").repeated(20));
        if (name.contains(QLatin1String("nobom"))) bytes.remove(0, 2);
        QVERIFY(writeFile(path, bytes));
    } else if (name == QLatin1String("over.txt")) {
        QVERIFY(writeFile(path, QByteArray()));
        QCOMPARE(::truncate(encoded.constData(), (off_t(256) << 20) + 1), 0);
    } else if (name == QLatin1String("huge.txt")) {
        QVERIFY(writeFile(path, QByteArray()));
        QCOMPARE(::truncate(encoded.constData(), off_t(2) << 30), 0);
    } else if (name == QLatin1String("pipe")) {
        ::unlink(encoded.constData());
        QCOMPARE(::mkfifo(encoded.constData(), 0644), 0);
    } else if (name == QLatin1String("loop")) {
        ::unlink(encoded.constData());
        QCOMPARE(::symlink(encoded.constData(), encoded.constData()), 0);
    } else if (name == QLatin1String("withlink")) {
        QVERIFY(QDir().mkpath(path));
        QVERIFY(writeFile(path + "/text.txt",
                          QByteArray("the quick brown fox jumps over the lazy dog.\n").repeated(10)));
        ::unlink(QFile::encodeName(path + "/dangling.txt").constData());
        QCOMPARE(::symlink("nowhere.txt", QFile::encodeName(path + "/dangling.txt").constData()), 0);
    } else if (name == QLatin1String("many.txt")) {
        std::u32string text;
        for (int i = 0; i < 70000; ++i) text.push_back(char32_t(0x20000 + i));
        text.push_back(U'\n');
        QVERIFY(writeFile(path, QString::fromStdU32String(text).toUtf8()));
    } else if (name == QLatin1String("short.txt")) {
        QVERIFY(writeFile(path, "hello world\n"));
    }

    const QString out = dir_.filePath("corpora.pt");
    QFile::remove(out);
    const Result r = runCli({"train", path, "--preset", "tiny", "--steps", "2", "--out", out}, 60000);
    if (accepted) {
        QVERIFY2(succeeded(r), qPrintable(describe(r)));
        if (!mentions.isEmpty())
            QVERIFY2(r.err.contains(QRegularExpression("chargpt: skipped: .*" + mentions)),
                     qPrintable(describe(r)));
        QVERIFY(QFileInfo::exists(out));
    } else {
        verifyRefusal(r, mentions);
        QVERIFY(!QFileInfo::exists(out));
        // Refused from what the path is, not by reading it.
        QVERIFY2(r.ms < 30000, qPrintable(describe(r)));
    }
}

void TestCliBadInput::prompts_data() {
    QTest::addColumn<QStringList>(
        "options");  // after "sample M --chars 10 --seed 1"; @ is the temporary folder
    QTest::addColumn<bool>("accepted");
    QTest::addColumn<QString>("mentions");  // on stderr (the refusal line, or a note)

    QTest::newRow("empty prompt") << QStringList{"--prompt", ""} << true << "";
    QTest::newRow("no prompt") << QStringList{} << true << "";
    QTest::newRow("longer than the context")
        << QStringList{"--prompt", "the quick brown fox jumps over the lazy dog. ab ab ab."} << true
        << "the prompt has 54 characters and the model's context is 16: only its last 16 characters steer";
    QTest::newRow("some characters outside the vocabulary")
        << QStringList{"--prompt", "the Z fox 狐"} << true
        << "left out 2 prompt character\\(s\\) the model never saw: 'Z' \\(position 4\\) '狐' \\(position "
           "10\\)";
    QTest::newRow("no character in the vocabulary")
        << QStringList{"--prompt", "XYZ狐狸"} << false
        << "no character of the prompt is in the model's vocabulary";
    QTest::newRow("100 KiB on the command line")
        << QStringList{"--prompt", QString(100 * 1024, 'a')} << true << "the prompt has 102400 characters";
    QTest::newRow("prompt file not valid UTF-8") << QStringList{"--prompt-file", "@/latin1.txt"} << false
                                                 << "the prompt is not valid UTF-8.*byte offset 3";
    QTest::newRow("missing prompt file") << QStringList{"--prompt-file", "@/nothing.txt"} << false
                                         << "cannot open the prompt file .*nothing\\.txt";
    // A FIFO would block the open (no writer) and the read: refused at once, without waiting.
    QTest::newRow("FIFO as prompt file") << QStringList{"--prompt-file", "@/prompt.fifo"} << false
                                         << "the prompt file .*prompt\\.fifo is a named pipe \\(FIFO\\); give a "
                                            "regular file, or - to read standard input";
    QTest::newRow("folder as prompt file") << QStringList{"--prompt-file", "@"} << false << "is a folder";
    // A NUL is never part of a vocabulary (corpora with one are binary): refused.
    QTest::newRow("NUL in the prompt file") << QStringList{"--prompt-file", "@/nul.txt"} << false
                                            << "the prompt has a NUL character at byte offset 4; a prompt is text";
    // Control characters the model never saw are named escaped, never sent raw to the terminal.
    QTest::newRow("escape sequences in the prompt file")
        << QStringList{"--prompt-file", "@/escape.txt"} << true
        << "left out 4 prompt character\\(s\\) the model never saw: '\\\\x1B' \\(position 4\\) '\\[' "
           "\\(position 5\\) 'Z' \\(position 7\\) '\\\\x07' \\(position 8\\)";
    QTest::newRow("both --prompt and --prompt-file")
        << QStringList{"--prompt", "ab", "--prompt-file", "@/latin1.txt"} << false << "not both";
}

void TestCliBadInput::prompts() {
    QFETCH(QStringList, options);
    QFETCH(bool, accepted);
    QFETCH(QString, mentions);
    QVERIFY(writeFile(dir_.filePath("latin1.txt"), "the\xE9 fox"));
    QVERIFY(writeFile(dir_.filePath("nul.txt"), QByteArray("the \0fox", 8)));
    QVERIFY(writeFile(dir_.filePath("escape.txt"), QByteArray("the \x1b[aZ\x07 fox")));
    const QByteArray fifo = QFile::encodeName(dir_.filePath("prompt.fifo"));
    if (!QFileInfo::exists(dir_.filePath("prompt.fifo"))) QCOMPARE(::mkfifo(fifo.constData(), 0644), 0);
    for (QString& o : options) o.replace('@', dir_.path());
    const Result r = runCli(QStringList{"sample", model_, "--chars", "10", "--seed", "1"} + options, 60000);
    // Whatever the prompt held, no raw escape, bell or NUL reached stderr.
    QVERIFY2(!r.err.contains(QChar(0x1B)) && !r.err.contains(QChar(0x07)) && !r.err.contains(QChar(0)),
             qPrintable(describe(r)));
    if (!accepted) {
        verifyRefusal(r, mentions);
        return;
    }
    QVERIFY2(succeeded(r), qPrintable(describe(r)));
    if (!mentions.isEmpty())
        QVERIFY2(r.err.contains(QRegularExpression("chargpt: " + mentions)), qPrintable(describe(r)));
    else
        QVERIFY2(r.err.isEmpty(), qPrintable(describe(r)));
    QVERIFY2(!r.out.trimmed().isEmpty(), qPrintable(describe(r)));
}

void TestCliBadInput::megabytePrompt() {
    // Linux caps one argument at 128 KiB: a megabyte never reaches --prompt (the
    // system refuses to start the program), so it comes in a file.
    QByteArray prompt;
    while (prompt.size() < (1 << 20)) prompt += "the quick brown fox jumps over the lazy dog. ab ab ab.\n";
    const QString file = dir_.filePath("megabyte.txt");
    QVERIFY(writeFile(file, prompt));
    const Result r = runCli({"sample", model_, "--prompt-file", file, "--chars", "20", "--seed", "1"}, 60000);
    QVERIFY2(succeeded(r), qPrintable(describe(r)));
    QVERIFY2(r.err.contains(QStringLiteral("the prompt has %1 characters").arg(prompt.size())),
             qPrintable(describe(r)));
    // The prompt is echoed whole, then the new characters.
    QVERIFY(r.out.startsWith(QString::fromUtf8(prompt)));
    QVERIFY(r.out.size() > prompt.size());
    qInfo("1 MiB prompt: %lld ms for the whole command", r.ms);

    // From standard input as well.
    const Result piped = runCli({"sample", model_, "--prompt-file", "-", "--chars", "5"}, 60000, prompt);
    QVERIFY(piped.started);
    QVERIFY(piped.finished);
    QCOMPARE(piped.exitCode, 0);
    QVERIFY(piped.out.startsWith(QString::fromUtf8(prompt)));
}

void TestCliBadInput::optionWords_data() {
    QTest::addColumn<QStringList>("args");  // @C is the corpus, @M the model, @ the temporary folder
    QTest::addColumn<QString>("says");
    // An unknown option is named first, wherever it stands, also last.
    QTest::newRow("unknown option after a value option")
        << QStringList{"train", "@C", "--out", "--bogus"} << "unknown option --bogus for 'train'";
    QTest::newRow("option missing its value after an unknown one")
        << QStringList{"train", "@C", "--bogus", "--out"} << "unknown option --bogus for 'train'";
    QTest::newRow("unknown option last") << QStringList{"sample", "@M", "--chars", "3", "--bogus"}
                                         << "unknown option --bogus for 'sample'";
    QTest::newRow("value missing at the end") << QStringList{"sample", "@M", "--prompt"}
                                              << "--prompt needs a value \\(TEXT\\)";
    QTest::newRow("an option where a value belongs")
        << QStringList{"train", "@C", "--out", "--steps", "2"}
        << "--out needs a value \\(FILE\\), not the option --steps; a value that starts with '-' is written "
           "--out=VALUE";
}

void TestCliBadInput::optionWords() {
    QFETCH(QStringList, args);
    QFETCH(QString, says);
    for (QString& a : args) {
        if (a == QLatin1String("@C")) a = corpus_;
        if (a == QLatin1String("@M")) a = model_;
    }
    const Result r = runCli(args, 60000);
    QVERIFY2(r.finished && r.status == QProcess::NormalExit && r.exitCode == 2, qPrintable(describe(r)));
    const QStringList lines = r.err.split('\n', Qt::SkipEmptyParts);
    QVERIFY2(lines.size() == 1 && lines.first().contains(QRegularExpression(says)), qPrintable(describe(r)));
    // Nothing was trained into a file named after the option.
    QVERIFY(!QFileInfo::exists(QStringLiteral("--bogus")));
    QVERIFY(!QFileInfo::exists(QStringLiteral("--steps")));
}

CHARGPT_TEST_GUILESS_MAIN(TestCliBadInput)
}  // namespace tst_cli_badinput
#include "tst_cli_badinput.moc"
