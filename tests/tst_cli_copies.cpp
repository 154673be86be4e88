// SPDX-License-Identifier: GPL-3.0-or-later
// `chargpt sample --corpus`, run as a user runs it: the copies of a folder
// corpus whose characters the model partly lacks, marked against its training
// part, and the budget of the corpus it marks against.
//
// This file runs the CLI binary only; it needs no LibTorch header.
#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>
#include "TestProgram.h"

#include <algorithm>
#include <cmath>
#include <random>

#include "CliRun.h"

namespace tst_cli_copies {

namespace {

using cli_run::cliExists;
using cli_run::describe;
using cli_run::Result;
using cli_run::runCli;
using cli_run::succeeded;
using cli_run::verifyNoStackTrace;
using cli_run::writeFile;

// The copied spans of `query` against `text` by the rule, the slow way: runs
// of at least `least` found in `text`, never across a NUL (an end-of-text).
QList<QPair<int, int>> copiedSpans(const QList<uint>& query, const QList<uint>& text, int least) {
    std::vector<bool> copied(std::size_t(query.size()), false);
    for (int j = 0; j < query.size(); ++j) {
        int best = 0;
        for (int s = 0; s < text.size(); ++s) {
            int k = 0;
            while (j + k < query.size() && s + k < text.size() && text[s + k] != 0 &&
                   text[s + k] == query[j + k])
                ++k;
            best = std::max(best, k);
        }
        if (best >= least)
            for (int k = 0; k < best; ++k) copied[std::size_t(j + k)] = true;
    }
    QList<QPair<int, int>> spans;
    for (int j = 0; j < query.size(); ++j) {
        if (!copied[std::size_t(j)]) continue;
        if (!spans.isEmpty() && spans.last().first + spans.last().second == j)
            ++spans.last().second;
        else
            spans.append({j, 1});
    }
    return spans;
}

}  // namespace

class TestCliCopies : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void folderCorpusWithUnknownCharacters();
    void corpusPastTheBudgetIsRefused();

private:
    QTemporaryDir dir_;
    QString model_;
    QByteArray text_;
};

// The tiny preset (context 16), 30 steps on lines of a few words.
void TestCliCopies::initTestCase() {
    QVERIFY2(cliExists(), CHARGPT_CLI);
    QVERIFY(dir_.isValid());
    for (int i = 0; i < 60; ++i)
        text_ += "the quick brown fox jumps over the lazy dog " + QByteArray::number(i % 7) + "\n";
    const QString corpus = dir_.filePath("corpus.txt");
    QVERIFY(writeFile(corpus, text_));
    model_ = dir_.filePath("m.pt");
    const Result r = runCli({"train", corpus, "--preset", "tiny", "--steps", "30", "--out", model_});
    QVERIFY2(succeeded(r), qPrintable(describe(r)));
}

// A folder of two documents holding characters the model never saw: the
// index is the training part of what the model's vocabulary makes of them
// (those characters left out, an end-of-text between the documents, never
// bridged), the last tenth held out; the spans are those of the rule.
void TestCliCopies::folderCorpusWithUnknownCharacters() {
    QVERIFY(QDir(dir_.path()).mkdir("folder"));
    std::mt19937 rng(3);
    QByteArray first = text_.left(1500), second;
    for (int i = 0; i < 40; ++i)
        first.insert(int(rng() % first.size()), "Z\xe6\x98\xa5");  // Z and 春: unknown
    for (int i = 0; i < 900; ++i) second += "the lazy dog "[rng() % 13];
    QVERIFY(writeFile(dir_.filePath("folder/a.txt"), first));
    QVERIFY(writeFile(dir_.filePath("folder/b.txt"), second));
    const Result r = runCli({"sample", model_, "--prompt", "the quick", "--chars", "200", "--seed", "4",
                             "--temperature", "0.3", "--json", "--corpus", dir_.filePath("folder")});
    QVERIFY2(succeeded(r), qPrintable(describe(r)));
    const QJsonObject result = cli_run::onlySample(cli_run::lastJsonLine(r.out));
    const QJsonObject copied = result.value("copied").toObject();
    // The tokens: the model's characters of each document, end-of-text (0) between them.
    QList<uint> tokens;
    for (const QByteArray& document : {first, second}) {
        if (!tokens.isEmpty()) tokens.append(0);
        for (const uint c : QString::fromUtf8(document).toUcs4())
            if (c != 'Z' && c != 0x6625) tokens.append(c);
    }
    // The split of the tiny preset's context 16 and a tenth held out.
    const int held = std::max(17, int(std::lround(tokens.size() * 0.1)));
    const QList<uint> training = tokens.mid(0, tokens.size() - held);
    const QList<uint> text = result.value("text").toString().toUcs4();
    const int least = copied.value("min_length").toInt();
    QVERIFY2(least >= 8 && least <= 64, qPrintable(describe(r)));
    QList<QPair<int, int>> reported;
    for (const QJsonValue& span : copied.value("spans").toArray())
        reported.append({span.toArray().at(0).toInt(), span.toArray().at(1).toInt()});
    QCOMPARE(reported, copiedSpans(text, training, least));
    QVERIFY2(!reported.isEmpty(), qPrintable(describe(r)));
}

// Past 64 MiB a corpus is refused with one line naming the limit: a file from
// its size, before the checkpoint or the corpus is read; a folder once read,
// before anything is indexed. (A 200 MiB corpus of one character took 37 s
// and 4.9 GB, and was marked.)
void TestCliCopies::corpusPastTheBudgetIsRefused() {
    const QByteArray mebibyte(1 << 20, 'a');
    {
        QFile big(dir_.filePath("big.txt"));
        QVERIFY(big.open(QIODevice::WriteOnly));
        for (int i = 0; i < 64; ++i) QCOMPARE(big.write(mebibyte), qint64(mebibyte.size()));
        QCOMPARE(big.write("a\n"), qint64(2));
    }
    QVERIFY(QDir(dir_.path()).mkdir("big-folder"));
    for (const char* name : {"big-folder/a.txt", "big-folder/b.txt"}) {
        QFile part(dir_.filePath(QLatin1String(name)));
        QVERIFY(part.open(QIODevice::WriteOnly));
        for (int i = 0; i < 33; ++i) QCOMPARE(part.write(mebibyte), qint64(mebibyte.size()));
    }
    for (const QString& corpus : {dir_.filePath("big.txt"), dir_.filePath("big-folder")}) {
        const Result r =
            runCli({"sample", model_, "--prompt", "the", "--chars", "20", "--corpus", corpus}, 60000);
        QVERIFY2(r.finished && r.exitCode == 1, qPrintable(describe(r)));
        QVERIFY2(r.err.contains(
                     QStringLiteral("copies are marked against a corpus of at most 67108864 bytes (64 MiB)")),
                 qPrintable(describe(r)));
        QCOMPARE(r.err.count(QLatin1Char('\n')), 1);  // one line
        QVERIFY(r.out.isEmpty());
        verifyNoStackTrace(r);
        QVERIFY2(r.ms < 20000, qPrintable(describe(r)));
    }
}

CHARGPT_TEST_GUILESS_MAIN(TestCliCopies)
}  // namespace tst_cli_copies
#include "tst_cli_copies.moc"
