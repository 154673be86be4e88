// SPDX-License-Identifier: GPL-3.0-or-later
// The copy index: which spans of a generated text occur verbatim in the
// training text (planted copies, near misses, CJK, the ends of the text,
// documents never joined, the share, empty queries, the training split).
#include <torch/torch.h>

#include "TestProgram.h"

#include <chrono>
#include <cmath>
#include <optional>
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

// For each start of `query`, the longest run found in `text`, the slow way
// (never across a NUL of either).
std::vector<std::size_t> longestRunsByBruteForce(const std::u32string& text, const std::u32string& query) {
    std::vector<std::size_t> runs(query.size(), 0);
    for (std::size_t j = 0; j < query.size(); ++j)
        for (std::size_t s = 0; s < text.size() && runs[j] < query.size() - j; ++s) {
            std::size_t k = 0;
            while (j + k < query.size() && s + k < text.size() && text[s + k] != U'\0' &&
                   query[j + k] != U'\0' && text[s + k] == query[j + k])
                ++k;
            runs[j] = std::max(runs[j], k);
        }
    return runs;
}

// The characters inside runs of at least `least`.
std::vector<bool> copiedOf(const std::vector<std::size_t>& runs, std::size_t least) {
    std::vector<bool> copied(runs.size(), false);
    for (std::size_t j = 0; j < runs.size(); ++j)
        if (runs[j] >= least)
            for (std::size_t k = 0; k < runs[j]; ++k) copied[j + k] = true;
    return copied;
}

std::vector<bool> markedBy(const CopyCheck& check, std::size_t length) {
    std::vector<bool> marked(length, false);
    for (const CopyCheck::Span& span : check.spans)
        for (std::size_t k = 0; k < span.length; ++k) marked[span.start + k] = true;
    return marked;
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

    // Long runs, where a search per character used to compare all of them:
    // texts made of a few repeated blocks (so runs of hundreds of characters
    // match, and end), with multi-byte characters and separators in the text
    // and the query, against the search character by character, for several
    // rules (a run of exactly the rule's length, twice it, and more).
    void matchesBruteForceOnLongRuns() {
        std::mt19937 rng(7);
        const std::u32string alphabet = U"ab\u00e9\u6625\U0001F600";  // 1, 1, 2, 3 and 4 bytes of UTF-8
        for (int round = 0; round < 16; ++round) {
            const bool repetitive = round % 2 == 0;
            auto block = [&](std::size_t length, int letters) {
                std::u32string b;
                for (std::size_t i = 0; i < length; ++i) b += alphabet[rng() % letters];
                return b;
            };
            const int letters = 1 + round % 4;  // the query draws on one more
            const std::u32string a = block(40 + rng() % 80, letters), b = block(5 + rng() % 20, letters);
            std::u32string text, query;
            for (int i = 0; i < 20; ++i) {
                text += repetitive ? (rng() % 3 ? a : b) : block(1 + rng() % 60, letters);
                if (rng() % 7 == 0) text += U'\0';
            }
            for (int i = 0; i < 8; ++i) {
                // Pieces of the text, cut at random, joined by chance letters or a separator.
                const std::size_t from = rng() % text.size(), length = rng() % 200;
                query += text.substr(from, length);
                query += rng() % 9 == 0 ? std::u32string(1, U'\0') : block(rng() % 3, letters + 1);
            }
            const CopyIndex index = CopyIndex::fromUtf8(chargpt::utf8::encode(text));
            const std::vector<std::size_t> runs = longestRunsByBruteForce(text, query);
            for (const int least : {1, 3, 8, 17, 64}) {
                const std::vector<bool> expected = copiedOf(runs, std::size_t(least));
                QVERIFY2(markedBy(index.check(std::u32string_view(query), least), query.size()) == expected,
                         qPrintable(QStringLiteral("round %1, rule %2").arg(round).arg(least)));
            }
        }
    }

    // The rule fitted on lengths capped at the longest rule tried: the same
    // rule as spans recomputed for each length (a held-out text whose runs
    // are all long, and one whose runs are of every length).
    void calibrateMatchesTheSpansOfEachRule() {
        std::mt19937 rng(5);
        for (int round = 0; round < 6; ++round) {
            std::u32string training;
            for (int i = 0; i < 3000; ++i) training += char32_t(U'a' + rng() % (2 + round));
            std::u32string heldOut;
            while (heldOut.size() < 2000)
                heldOut += training.substr(rng() % 2500, 10 + rng() % (20 * (round + 1)));
            const chargpt::CharTokenizer tokenizer = chargpt::CharTokenizer::fromText(training + heldOut);
            CopyIndex index(tokenizer.encode(training), tokenizer);
            const int fitted = index.calibrate(tokenizer.encode(heldOut), tokenizer);
            int expected = chargpt::kMinCopyLength;
            for (; expected < chargpt::kMaxCopyLength; ++expected) {
                const CopyCheck chance = index.check(std::u32string_view(heldOut), expected);
                if (double(chance.copied) <= chargpt::kChanceCopyShare * double(heldOut.size())) break;
            }
            QCOMPARE(fitted, expected);
        }
    }

    // 200,000 characters of one letter against a 1 MiB text of that letter:
    // every character copied, by runs as long as the rest of the text. A
    // search per character that read each run to its end took about 25 s
    // (170 s for `chargpt sample --chars 200000` on a busy machine); reading at
    // most twice the rule's length takes well under a second.
    void longRunsAreCheckedInLinearTime() {
        const CopyIndex index = CopyIndex::fromUtf8(std::string(1u << 20, 'a'));
        const std::string query(200000, 'a');
        const auto start = std::chrono::steady_clock::now();
        const CopyCheck check = index.check(std::string_view(query), chargpt::kMaxCopyLength);
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        QCOMPARE(check.spans.size(), std::size_t(1));
        QCOMPARE(check.copied, query.size());
        QVERIFY2(seconds < 10.0, qPrintable(QStringLiteral("%1 s").arg(seconds)));
        qInfo("200,000 characters of one letter checked in %.3f s", seconds);
    }

    // A check asks its stop every kStopEvery characters and ends when told:
    // Ctrl-C in `chargpt sample` stops the marking at once.
    void checkStopsWhenAsked() {
        const CopyIndex index = CopyIndex::fromUtf8(std::string(1u << 16, 'a'));
        const std::string query(10 * CopyIndex::kStopEvery, 'a');
        std::size_t asked = 0;
        const std::optional<CopyCheck> all = index.check(std::string_view(query), 0, [&asked] {
            ++asked;
            return false;
        });
        QVERIFY(all.has_value());
        QCOMPARE(all->copied, query.size());
        QCOMPARE(asked, std::size_t(10));
        asked = 0;
        const std::optional<CopyCheck> stopped = index.check(std::string_view(query), 0, [&asked] {
            return ++asked == 3;  // stop at the third question
        });
        QVERIFY(!stopped.has_value());
        QCOMPARE(asked, std::size_t(3));
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
