// SPDX-License-Identifier: GPL-3.0-or-later
// The copy index: which spans of a generated text occur verbatim in the
// training text (planted copies, near misses, CJK, the ends of the text,
// documents never joined, the share, empty queries, the training split).
#include <torch/torch.h>

#include "TestProgram.h"

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "model/runtime/Error.h"
#include "model/text/CharTokenizer.h"
#include "model/text/CopyIndex.h"
#include "model/text/Corpus.h"
#include "model/text/Utf8.h"
#include "model/train/Dataset.h"

namespace tst_copyindex {

using chargpt::CopyCheck;
using chargpt::CopyIndex;

namespace {

using Spans = std::vector<std::pair<std::size_t, std::size_t>>;

Spans spansOf(const CopyCheck& check) {
    Spans spans;
    for (const CopyCheck::Span& span : check.spans) spans.emplace_back(span.start, span.length);
    return spans;
}

// Documents joined by end-of-text, indexed from token ids as the app does.
CopyIndex indexOf(const std::vector<std::u32string>& documents) {
    std::u32string all;
    for (const auto& document : documents) all += document;
    const chargpt::CharTokenizer tokenizer = chargpt::CharTokenizer::fromText(all);
    std::vector<int64_t> tokens;
    for (std::size_t i = 0; i < documents.size(); ++i) {
        if (i > 0) tokens.push_back(chargpt::CharTokenizer::kEndOfText);
        const std::vector<int64_t> ids = tokenizer.encode(documents[i]);
        tokens.insert(tokens.end(), ids.begin(), ids.end());
    }
    return CopyIndex(tokens, tokenizer);
}

}  // namespace

class TestCopyIndex : public QObject {
    Q_OBJECT

private slots:
    void rule() { QCOMPARE(chargpt::kMinCopyLength, 8); }

    // The rule fitted to a corpus: held-out text that repeats the training
    // text's runs by chance (here every line begins with the same 16
    // characters of indentation and keyword) needs a longer run than that to
    // count as copied; text of its own keeps 8.
    void calibrateToTheCorpus() {
        std::mt19937_64 rng(3);
        const std::u32string letters = U"abcdefghijklmnopqrstuvwxyz";
        auto line = [&] {
            std::u32string text = U"        return x";  // 16 characters every line has
            for (int i = 0; i < 20; ++i) text += letters[rng() % letters.size()];
            return text + U"\n";
        };
        std::u32string training, heldOut;
        for (int i = 0; i < 200; ++i) training += line();
        for (int i = 0; i < 20; ++i) heldOut += line();
        const chargpt::CharTokenizer tokenizer = chargpt::CharTokenizer::fromText(training + heldOut);
        CopyIndex index(tokenizer.encode(training), tokenizer);
        QCOMPARE(index.minLength(), chargpt::kMinCopyLength);
        const int fitted = index.calibrate(tokenizer.encode(heldOut), tokenizer);
        QCOMPARE(index.minLength(), fitted);
        // The shared 16 characters plus "\n" before them: runs of 17 turn up in
        // every line; a few random letters more than that, rarely.
        QVERIFY2(fitted > 17 && fitted < 24, qPrintable(QString::number(fitted)));
        // At the fitted rule, the held-out text is at most 5% copied; one less, more.
        QVERIFY(index.check(std::u32string_view(heldOut)).share() <= chargpt::kChanceCopyShare);
        QVERIFY(index.check(std::u32string_view(heldOut), fitted - 1).share() > chargpt::kChanceCopyShare);
        // A planted copy of a whole line still counts.
        const std::u32string copiedLine = training.substr(37 * 3, 37);
        QVERIFY(index.check(std::u32string_view(copiedLine)).copied >= 30);

        // Held-out text of its own: 8 stays.
        std::u32string fresh;
        for (int i = 0; i < 400; ++i) fresh += letters[rng() % letters.size()];
        const chargpt::CharTokenizer all = chargpt::CharTokenizer::fromText(training + heldOut + fresh);
        CopyIndex other(all.encode(training), all);
        QCOMPARE(other.calibrate(all.encode(fresh), all), chargpt::kMinCopyLength);
    }

    void plantedCopiesAndNearMisses() {
        const CopyIndex index = indexOf({U"The cat sat on the mat.\nA dog ran far away from home.\n"});
        // "cat sat on" (10 characters) is copied; "ran far" (7) is a near miss.
        const std::u32string query = U"xxcat sat onyyran farzz";
        const CopyCheck check = index.check(std::u32string_view(query));
        QCOMPARE(spansOf(check), (Spans{{2, 10}}));
        QCOMPARE(check.characters, query.size());
        QCOMPARE(check.copied, std::size_t(10));
        QCOMPARE(check.share(), 10.0 / 23.0);
        QCOMPARE(index.longestMatch("ran farzz"), std::size_t(7));
        QCOMPARE(index.longestMatch("cat sat onyy"), std::size_t(10));
        // Exactly 8 counts; 7 does not.
        QCOMPARE(spansOf(index.check(std::string_view("qA dog raq"))), (Spans{{1, 8}}));
        QVERIFY(index.check(std::string_view("qA dog rq")).spans.empty());
        // The threshold is a parameter.
        QCOMPARE(spansOf(index.check(std::string_view("yyran farzz"), 7)), (Spans{{2, 7}}));
        QVERIFY(index.check(std::string_view("xxcat sat onyy"), 11).spans.empty());
    }

    void cjk() {
        const CopyIndex index = indexOf({U"床前明月光，疑是地上霜。举头望明月，低头思故乡。"});
        const CopyCheck check = index.check(std::string_view("春眠明月光，疑是地上霜不觉晓"));
        QCOMPARE(spansOf(check), (Spans{{2, 9}}));
        QCOMPARE(check.characters, std::size_t(14));
        // 霝 (U+971D) and 霜 (U+971C) share their first two UTF-8 bytes: the
        // match stops before the character, never inside it.
        QCOMPARE(index.longestMatch("明月光，疑是地上霝"), std::size_t(8));
        QCOMPARE(spansOf(index.check(std::string_view("明月光，疑是地上霝"))), (Spans{{0, 8}}));
        QVERIFY(index.check(std::string_view("明月光，疑是地上霝"), 9).spans.empty());
    }

    void spansAtTheEnds() {
        const std::u32string text = U"abcdefghijklmnopqrstuvwxyz";
        const CopyIndex index = indexOf({text});
        // The first 8 characters of the text, a stranger, its last 9.
        const std::u32string query = text.substr(0, 8) + U"#" + text.substr(text.size() - 9);
        const CopyCheck check = index.check(std::u32string_view(query));
        QCOMPARE(spansOf(check), (Spans{{0, 8}, {9, 9}}));
        QCOMPARE(check.copied, std::size_t(17));
        // The whole text, and the whole query copied.
        const CopyCheck whole = index.check(std::u32string_view(text));
        QCOMPARE(spansOf(whole), (Spans{{0, 26}}));
        QCOMPARE(whole.share(), 1.0);
    }

    void endOfTextIsNeverBridged() {
        const CopyIndex index = indexOf({U"abcdefgh", U"ijklmnop"});
        QCOMPARE(index.longestMatch("efghijkl"), std::size_t(4));
        QVERIFY(index.check(std::string_view("efghijkl")).spans.empty());
        // Each document is copied; the two touch in the query and make one span.
        QCOMPARE(spansOf(index.check(std::string_view("abcdefghijklmnop"))), (Spans{{0, 16}}));
        // A NUL in the query separates as end-of-text does, and is never copied.
        const std::string withNul("abcdefgh\0ijklmnop", 17);
        const CopyCheck check = index.check(std::string_view(withNul));
        QCOMPARE(spansOf(check), (Spans{{0, 8}, {9, 8}}));
        QCOMPARE(check.copied, std::size_t(16));
        QCOMPARE(check.characters, std::size_t(17));
        // The same index from UTF-8 with NUL separators.
        const CopyIndex fromBytes = CopyIndex::fromUtf8(std::string("abcdefgh\0ijklmnop", 17));
        QCOMPARE(fromBytes.longestMatch("efghijkl"), std::size_t(4));
        QCOMPARE(fromBytes.byteCount(), std::size_t(17));
    }

    void shareArithmetic() {
        // Overlapping runs from two places merge into one span.
        const CopyIndex index = indexOf({U"0123456789", U"56789abcdef"});
        const CopyCheck merged = index.check(std::string_view("0123456789abcdef"));
        QCOMPARE(spansOf(merged), (Spans{{0, 16}}));
        QCOMPARE(merged.share(), 1.0);
        // 8 of 20, then 8 + 11 of 40.
        const CopyCheck some = index.check(std::string_view("....01234567........"));
        QCOMPARE(some.copied, std::size_t(8));
        QCOMPARE(some.share(), 0.4);
        const CopyCheck two = index.check(std::string_view("01234567....................56789abcdef."));
        QCOMPARE(spansOf(two), (Spans{{0, 8}, {28, 11}}));
        QCOMPARE(two.characters, std::size_t(40));
        QCOMPARE(two.share(), 19.0 / 40.0);
        // Nothing copied.
        const CopyCheck none = index.check(std::string_view("zzzzzzzzzzzz"));
        QVERIFY(none.spans.empty());
        QCOMPARE(none.share(), 0.0);
    }

    void emptyQueryAndEmptyIndex() {
        const CopyIndex index = indexOf({U"abcdefghij"});
        const CopyCheck empty = index.check(std::string_view(""));
        QVERIFY(empty.spans.empty());
        QCOMPARE(empty.characters, std::size_t(0));
        QVERIFY(std::isnan(empty.share()));
        const CopyIndex nothing;
        const CopyCheck check = nothing.check(std::string_view("abcdefghij"));
        QVERIFY(check.spans.empty());
        QCOMPARE(check.share(), 0.0);
        QCOMPARE(nothing.longestMatch("abc"), std::size_t(0));
    }

    void refusesBadInput() {
        const CopyIndex index = indexOf({U"abcdefghij"});
        QVERIFY_THROWS_EXCEPTION(chargpt::Error, index.check(std::string_view("ab\xff")));
        QVERIFY_THROWS_EXCEPTION(chargpt::Error, CopyIndex::fromUtf8("ab\xc3"));
        const chargpt::CharTokenizer tokenizer = chargpt::CharTokenizer::fromText(U"ab");
        QVERIFY_THROWS_EXCEPTION(chargpt::Error, CopyIndex({1, 2, 3}, tokenizer));
    }

    // Against a search character by character, on small alphabets where long
    // and repeated matches abound.
    void matchesBruteForce() {
        std::mt19937 rng(12046);
        for (int round = 0; round < 40; ++round) {
            const int alphabet = 2 + round % 4;
            std::u32string text, query;
            for (int i = 0; i < 300; ++i)
                text += (rng() % 40 == 0) ? U'\0' : char32_t(U'a' + rng() % alphabet);
            for (int i = 0; i < 60; ++i) query += char32_t(U'a' + rng() % (alphabet + 1));
            const CopyIndex index = CopyIndex::fromUtf8(chargpt::utf8::encode(text));
            std::vector<bool> copied(query.size(), false);
            for (std::size_t j = 0; j < query.size(); ++j) {
                std::size_t best = 0;
                for (std::size_t s = 0; s < text.size(); ++s) {
                    std::size_t k = 0;
                    while (j + k < query.size() && s + k < text.size() && text[s + k] != U'\0' &&
                           text[s + k] == query[j + k])
                        ++k;
                    best = std::max(best, k);
                }
                QCOMPARE(index.longestMatch(chargpt::utf8::encode(query.substr(j))), best);
                if (best >= 8)
                    for (std::size_t k = 0; k < best; ++k) copied[j + k] = true;
            }
            const CopyCheck check = index.check(std::u32string_view(query));
            std::vector<bool> marked(query.size(), false);
            for (const CopyCheck::Span& span : check.spans)
                for (std::size_t k = 0; k < span.length; ++k) marked[span.start + k] = true;
            QCOMPARE(marked, copied);
        }
    }

    // The index of the app and the CLI: the training part of the split only.
    void trainingPartOnly() {
        std::u32string text;
        for (int i = 0; i < 90; ++i) text += U"train line " + chargpt::utf8::decodeOrThrow(std::to_string(i), "n") + U"\n";
        const std::u32string held = U"VALIDATION ONLY TEXT here\n";
        const chargpt::Corpus corpus = chargpt::Corpus::fromUtf8(chargpt::utf8::encode(text + held), "split");
        const chargpt::CharTokenizer tokenizer = corpus.buildTokenizer();
        const std::vector<int64_t> tokens = corpus.encode(tokenizer);
        const chargpt::Dataset data(tokens, 16, 0.05);
        const std::vector<int64_t> training = data.trainingTokens();
        QCOMPARE(int64_t(training.size()), data.size(chargpt::Split::Train));
        QVERIFY(std::equal(training.begin(), training.end(), tokens.begin()));
        const CopyIndex index(training, tokenizer);
        QVERIFY(index.check(std::string_view("train line 42\ntrain")).share() == 1.0);
        QVERIFY(index.check(std::string_view("VALIDATION ONLY")).spans.empty());
    }
};

CHARGPT_TEST_GUILESS_MAIN(TestCopyIndex)
}  // namespace tst_copyindex
#include "tst_copyindex.moc"
