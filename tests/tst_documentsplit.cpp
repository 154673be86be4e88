// SPDX-License-Identifier: GPL-3.0-or-later
// Validation split by document (model/train/Dataset::ofCorpus): a folder of
// documents validates on whole documents, about a tenth of its characters,
// drawn with the run's seed (the same for the same seed, others for another);
// a single text still validates on its last tenth.
#include <torch/torch.h>

#include <QFile>
#include <QTemporaryDir>

#include "model/text/Corpus.h"
#include "model/train/Dataset.h"

#include "TestProgram.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <vector>

namespace tst_documentsplit {

using chargpt::CharTokenizer;
using chargpt::Corpus;
using chargpt::Dataset;
using chargpt::Split;

namespace {

constexpr int kDocuments = 20;

// Document `i`: a line that names it, then text of its own length.
std::string document(int i) {
    std::string text = "document " + std::to_string(i) + ":";
    for (int j = 0; j < 40 + 7 * i; ++j) text += char('a' + (i + j) % 26);
    return text + "\n";
}

bool writeFolder(const QTemporaryDir& dir) {
    for (int i = 0; i < kDocuments; ++i) {
        QFile file(dir.filePath(QStringLiteral("%1.txt").arg(i, 2, 10, QLatin1Char('0'))));
        if (!file.open(QIODevice::WriteOnly)) return false;
        const std::string text = document(i);
        if (file.write(text.data(), qint64(text.size())) != qint64(text.size())) return false;
    }
    return true;
}

// The validation part's text, read back through the vocabulary.
std::u32string validationText(const Dataset& data, const CharTokenizer& tokenizer) {
    std::u32string text;
    for (const int64_t id : data.tokens(Split::Validation))
        text += id == CharTokenizer::kEndOfText
                    ? std::u32string(1, U'|')
                    : std::u32string(1, tokenizer.characters()[std::size_t(id - 1)]);
    return text;
}

}  // namespace

class TestDocumentSplit : public QObject {
    Q_OBJECT

private slots:
    void folderValidatesOnWholeDocuments() {
        QTemporaryDir dir;
        QVERIFY(writeFolder(dir));
        const Corpus corpus = Corpus::load(dir.path().toStdString());
        QCOMPARE(int(corpus.documents().size()), kDocuments);
        const CharTokenizer tokenizer = corpus.buildTokenizer();
        const Dataset data = Dataset::ofCorpus(corpus, tokenizer, 16, 0.1, 7);
        QCOMPARE(data.validationSplit(), chargpt::ValidationSplit::Documents);
        QVERIFY(!data.validationOverlapsTraining());

        // The validation part is the chosen documents, whole, joined by end-of-text.
        const std::vector<std::size_t> chosen = corpus.validationDocuments(0.1, 7);
        QVERIFY(!chosen.empty());
        QVERIFY(chosen.size() < corpus.documents().size());
        std::u32string expected;
        std::size_t characters = 0;
        for (const std::size_t index : chosen) {
            if (!expected.empty()) expected += U'|';
            expected += corpus.documents()[index];
            characters += corpus.documents()[index].size();
        }
        QCOMPARE(validationText(data, tokenizer), expected);
        // About a tenth of the characters: within half the largest document of it.
        const double total = double(corpus.charCount());
        QVERIFY2(std::abs(double(characters) - 0.1 * total) <= 0.5 * double(document(kDocuments - 1).size()),
                 qPrintable(QStringLiteral("%1 of %2").arg(characters).arg(total)));
        // Training is every other document: every token once.
        QCOMPARE(data.size(Split::Train) + data.size(Split::Validation), int64_t(corpus.tokenCount()));
        // The same documents for the same seed, others for another.
        QCOMPARE(corpus.validationDocuments(0.1, 7), chosen);
        std::set<std::vector<std::size_t>> seen{chosen};
        for (uint64_t seed : {1u, 2u, 3u}) seen.insert(corpus.validationDocuments(0.1, seed));
        QVERIFY2(seen.size() > 1, "every seed chose the same documents");
        QVERIFY(validationText(Dataset::ofCorpus(corpus, tokenizer, 16, 0.1, 7), tokenizer) == expected);
    }

    void trainSizeIsTheRunsSplit() {
        // What a preset is fitted to before the data set is built: the
        // training documents the run's seed leaves, not the last-tenth rule.
        QTemporaryDir dir;
        QVERIFY(writeFolder(dir));
        const Corpus corpus = Corpus::load(dir.path().toStdString());
        const CharTokenizer tokenizer = corpus.buildTokenizer();
        std::set<int64_t> sizes;
        for (const uint64_t seed : {1u, 2u, 3u, 7u, 12046u}) {
            const int64_t train = Dataset::ofCorpus(corpus, tokenizer, 16, 0.1, seed).size(Split::Train);
            QCOMPARE(Dataset::trainSize(corpus, 16, 0.1, seed), train);
            sizes.insert(train);
        }
        QVERIFY2(sizes.size() > 1, "every seed left the same training part");
        const int64_t textEnd = Dataset::trainSize(int64_t(corpus.tokenCount()), 16, 0.1);
        QVERIFY(std::any_of(sizes.begin(), sizes.end(), [&](int64_t size) { return size != textEnd; }));
        // One text, and a folder too short for whole documents: the end of the text.
        std::string text;
        for (int i = 0; i < 50; ++i) text += document(i % kDocuments);
        const Corpus one = Corpus::fromUtf8(text, "one text");
        QCOMPARE(Dataset::trainSize(one, 16, 0.1, 7),
                 Dataset::ofCorpus(one, one.buildTokenizer(), 16, 0.1, 7).size(Split::Train));
        QTemporaryDir shortDir;
        for (const char* name : {"a.txt", "b.txt"}) {
            QFile file(shortDir.filePath(QLatin1String(name)));
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write("short text\n");
        }
        const Corpus shortFolder = Corpus::load(shortDir.path().toStdString());
        QCOMPARE(Dataset::trainSize(shortFolder, 16, 0.1, 7),
                 Dataset::ofCorpus(shortFolder, shortFolder.buildTokenizer(), 16, 0.1, 7).size(Split::Train));
    }

    void oneDocumentAtLeast() {
        QTemporaryDir dir;
        QVERIFY(writeFolder(dir));
        const Corpus corpus = Corpus::load(dir.path().toStdString());
        QCOMPARE(corpus.validationDocuments(0.0, 3).size(), std::size_t(1));
        // Never every document: training keeps one.
        QCOMPARE(corpus.validationDocuments(1.0, 3).size(), std::size_t(kDocuments - 1));
    }

    void singleTextSplitsAtNinetyPercent() {
        std::string text;
        for (int i = 0; i < 50; ++i) text += document(i % kDocuments);
        const Corpus corpus = Corpus::fromUtf8(text, "one text");
        QVERIFY(corpus.validationDocuments(0.1, 7).empty());
        const CharTokenizer tokenizer = corpus.buildTokenizer();
        const Dataset data = Dataset::ofCorpus(corpus, tokenizer, 16, 0.1, 7);
        QCOMPARE(data.validationSplit(), chargpt::ValidationSplit::TextEnd);
        const int64_t n = int64_t(corpus.tokenCount());
        QCOMPARE(data.size(Split::Validation), int64_t(std::llround(double(n) * 0.1)));
        QCOMPARE(data.size(Split::Train), n - data.size(Split::Validation));
        const std::vector<int64_t> all = corpus.encode(tokenizer);
        QCOMPARE(data.tokens(Split::Validation),
                 std::vector<int64_t>(all.end() - data.size(Split::Validation), all.end()));
    }

    void folderTooShortForDocumentsSplitsItsEnd() {
        // Two documents shorter than a context each: the end of the text, as before.
        QTemporaryDir dir;
        for (const char* name : {"a.txt", "b.txt"}) {
            QFile file(dir.filePath(QLatin1String(name)));
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write("short text\n");
        }
        const Corpus corpus = Corpus::load(dir.path().toStdString());
        const Dataset data = Dataset::ofCorpus(corpus, corpus.buildTokenizer(), 16, 0.1, 7);
        QCOMPARE(data.validationSplit(), chargpt::ValidationSplit::TextEnd);
    }
};

CHARGPT_TEST_GUILESS_MAIN(TestDocumentSplit)
}  // namespace tst_documentsplit
#include "tst_documentsplit.moc"
