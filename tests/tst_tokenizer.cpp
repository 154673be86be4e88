// SPDX-License-Identifier: GPL-3.0-or-later
// CharTokenizer and utf8: vocabulary layout, round trips, unknown characters,
// checkpoint vocabularies and invalid UTF-8.
#include <torch/torch.h>

#include "model/text/CharTokenizer.h"
#include "model/runtime/Error.h"
#include "model/text/Utf8.h"

#include "TestProgram.h"

#include <string>
#include <vector>

namespace tst_tokenizer {

using chargpt::CharTokenizer;

}  // namespace tst_tokenizer
Q_DECLARE_METATYPE(std::vector<std::string>)
namespace tst_tokenizer {

namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }

std::u32string decodeValid(const std::string& utf8) {
    std::u32string out;
    std::size_t offset = 0;
    if (!chargpt::utf8::decode(utf8, out, offset))
        qFatal("test text is not valid UTF-8 at %zu", offset);
    return out;
}

}  // namespace

class TestTokenizer : public QObject {
    Q_OBJECT

private slots:
    void vocabularyLayout();
    void roundTrip_data();
    void roundTrip();
    void unknownCharacters();
    void fromVocabularyAcceptsOwnList();
    void withoutEndOfTextKeepsIds();
    void fromVocabularyRejects_data();
    void fromVocabularyRejects();
    void utf8Valid_data();
    void utf8Valid();
    void utf8Invalid_data();
    void utf8Invalid();
    void utf8DecodeOrThrow();
};

void TestTokenizer::vocabularyLayout() {
    const CharTokenizer t = CharTokenizer::fromText(U"hello world");
    // Distinct characters: ' ', d, e, h, l, o, r, w (sorted by code point).
    QCOMPARE(t.vocabSize(), 9);
    QCOMPARE(CharTokenizer::kEndOfText, 0);
    QCOMPARE(q(CharTokenizer::kEndOfTextText), QStringLiteral("<|e|>"));

    const std::vector<std::string> vocab = t.vocabulary();
    const std::vector<std::string> expected = {"<|e|>", " ", "d", "e", "h", "l", "o", "r", "w"};
    QCOMPARE(vocab.size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) QCOMPARE(q(vocab[i]), q(expected[i]));

    QVERIFY(t.characters() == std::u32string(U" dehlorw"));
    QCOMPARE(t.id(U' '), 1);
    QCOMPARE(t.id(U'w'), 8);
    QCOMPARE(t.id(U'z'), -1);
    QCOMPARE(q(t.tokenText(0)), QStringLiteral("<|e|>"));
    QCOMPARE(q(t.tokenText(3)), QStringLiteral("e"));

    // Decoding end-of-text shows the marker.
    QCOMPARE(q(t.decode({4, 3, 0, 8})), QStringLiteral("he<|e|>w"));

    // Chinese and astral characters are sorted by code point too.
    const CharTokenizer c = CharTokenizer::fromText(U"月光a\U0001F600床a");
    QVERIFY(c.characters() == std::u32string(U"a光床月\U0001F600"));
    QCOMPARE(c.vocabSize(), 6);
    QCOMPARE(q(c.tokenText(5)), q("\xF0\x9F\x98\x80"));
}

void TestTokenizer::roundTrip_data() {
    QTest::addColumn<QByteArray>("text");
    QTest::newRow("ascii") << QByteArray("The quick brown fox jumps over the lazy dog.\n\tdef f(x): return x + 1\n");
    QTest::newRow("chinese") << QByteArray("床前明月光，疑是地上霜。\n举头望明月，低头思故乡。");
    QTest::newRow("mixed+emoji") << QByteArray("abc 床 \xF0\x9F\x98\x80 \xC3\xA9t\xC3\xA9 \xF4\x8F\xBF\xBF");
}

void TestTokenizer::roundTrip() {
    QFETCH(QByteArray, text);
    const std::string utf8 = text.toStdString();
    const std::u32string cps = decodeValid(utf8);
    const CharTokenizer t = CharTokenizer::fromText(cps);

    std::vector<chargpt::UnknownChar> unknown;
    const std::vector<int64_t> ids = t.encode(cps, &unknown);
    QVERIFY(unknown.empty());
    QCOMPARE(ids.size(), cps.size());  // one token per code point
    for (int64_t id : ids) {
        QVERIFY(id >= 1);
        QVERIFY(id < t.vocabSize());
    }
    QCOMPARE(q(t.decode(ids)), q(utf8));
    QVERIFY(t.encodeUtf8(utf8) == ids);
    QCOMPARE(q(chargpt::utf8::encode(cps)), q(utf8));

    // Ids follow the sorted order of the characters.
    for (std::size_t i = 0; i < cps.size(); ++i) {
        QCOMPARE(t.id(cps[i]), ids[i]);
        QVERIFY(t.characters()[static_cast<std::size_t>(ids[i] - 1)] == cps[i]);
    }
}

void TestTokenizer::unknownCharacters() {
    const CharTokenizer t = CharTokenizer::fromText(U"abc");
    std::vector<chargpt::UnknownChar> unknown;
    const std::vector<int64_t> ids = t.encode(U"ab床cx", &unknown);
    QCOMPARE(ids, (std::vector<int64_t>{1, 2, 3}));
    QCOMPARE(unknown.size(), std::size_t(2));
    QCOMPARE(unknown[0].position, std::size_t(2));  // code points, not bytes
    QCOMPARE(static_cast<uint32_t>(unknown[0].codePoint), uint32_t(0x5E8A));
    QCOMPARE(unknown[1].position, std::size_t(4));
    QCOMPARE(static_cast<uint32_t>(unknown[1].codePoint), uint32_t('x'));

    // Through UTF-8, positions are still counted in code points.
    unknown.clear();
    const std::vector<int64_t> ids2 = t.encodeUtf8("床前a\xF0\x9F\x98\x80" "b", &unknown);
    QCOMPARE(ids2, (std::vector<int64_t>{1, 2}));
    QCOMPARE(unknown.size(), std::size_t(3));
    QCOMPARE(unknown[0].position, std::size_t(0));
    QCOMPARE(unknown[1].position, std::size_t(1));
    QCOMPARE(static_cast<uint32_t>(unknown[1].codePoint), uint32_t(0x524D));
    QCOMPARE(unknown[2].position, std::size_t(3));
    QCOMPARE(static_cast<uint32_t>(unknown[2].codePoint), uint32_t(0x1F600));

    // Without a report vector the unknown characters are still left out.
    QCOMPARE(t.encode(U"zzaz"), (std::vector<int64_t>{1}));
}

void TestTokenizer::fromVocabularyAcceptsOwnList() {
    const CharTokenizer t = CharTokenizer::fromText(U"床前明月光，疑是地上霜。 abc\n");
    const CharTokenizer back = CharTokenizer::fromVocabulary(t.vocabulary());
    QVERIFY(back == t);
    QCOMPARE(back.vocabSize(), t.vocabSize());
    QVERIFY(back.vocabulary() == t.vocabulary());
}

// nanoGPT's, minGPT's and the lecture's vocabularies: the sorted characters from 0.
void TestTokenizer::withoutEndOfTextKeepsIds() {
    const CharTokenizer t = CharTokenizer::fromText(U"hello\n").withoutEndOfText();
    QVERIFY(!t.hasEndOfText());
    QCOMPARE(t.endOfTextId(), int64_t(-1));
    QCOMPARE(t.vocabSize(), int64_t(5));  // \n e h l o
    QCOMPARE(t.id(U'\n'), int64_t(0));
    QCOMPARE(t.id(U'o'), int64_t(4));
    QCOMPARE(t.tokenText(0), std::string("\n"));
    QCOMPARE(t.decode(t.encodeUtf8("hole")), std::string("hole"));
    const CharTokenizer back = CharTokenizer::fromVocabulary(t.vocabulary());
    QVERIFY(back == t);
    QVERIFY(!(back == CharTokenizer::fromText(U"hello\n")));
    QCOMPARE(back.vocabulary().front(), std::string("\n"));
}

void TestTokenizer::fromVocabularyRejects_data() {
    QTest::addColumn<std::vector<std::string>>("vocabulary");
    QTest::newRow("empty list") << std::vector<std::string>{};
    QTest::newRow("no end-of-text, unsorted") << std::vector<std::string>{"b", "a"};
    QTest::newRow("end-of-text not first") << std::vector<std::string>{"a", "<|e|>", "b"};
    QTest::newRow("unsorted") << std::vector<std::string>{"<|e|>", "b", "a"};
    QTest::newRow("unsorted chinese") << std::vector<std::string>{"<|e|>", "床", "a"};
    QTest::newRow("duplicate") << std::vector<std::string>{"<|e|>", "a", "a", "b"};
    QTest::newRow("multi-character") << std::vector<std::string>{"<|e|>", "a", "bc"};
    QTest::newRow("two chinese characters") << std::vector<std::string>{"<|e|>", "床前"};
    QTest::newRow("empty entry") << std::vector<std::string>{"<|e|>", "", "a"};
    QTest::newRow("end-of-text twice") << std::vector<std::string>{"<|e|>", "<|e|>"};
    QTest::newRow("invalid utf-8 entry") << std::vector<std::string>{"<|e|>", "a", "\xFF"};
}

void TestTokenizer::fromVocabularyRejects() {
    QFETCH(std::vector<std::string>, vocabulary);
    try {
        CharTokenizer::fromVocabulary(vocabulary);
        QFAIL("fromVocabulary accepted a bad list");
    } catch (const chargpt::Error& e) {
        QVERIFY2(std::string(e.what()).size() > 0, "empty message");
    }
}

void TestTokenizer::utf8Valid_data() {
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<int>("codePoints");
    QTest::newRow("empty") << QByteArray() << 0;
    QTest::newRow("ascii") << QByteArray("abc\n") << 4;
    QTest::newRow("two-byte") << QByteArray("\xC3\xA9\xDF\xBF") << 2;  // U+00E9, U+07FF
    QTest::newRow("three-byte") << QByteArray("床前\xEF\xBF\xBF") << 3;  // ..., U+FFFF
    QTest::newRow("four-byte") << QByteArray("\xF0\x9F\x98\x80\xF4\x8F\xBF\xBF") << 2;  // U+10FFFF
    QTest::newRow("around surrogates") << QByteArray("\xED\x9F\xBF\xEE\x80\x80") << 2;  // D7FF, E000
}

void TestTokenizer::utf8Valid() {
    QFETCH(QByteArray, bytes);
    QFETCH(int, codePoints);
    std::u32string out;
    std::size_t offset = 12345;
    QVERIFY(chargpt::utf8::decode(bytes.toStdString(), out, offset));
    QCOMPARE(static_cast<int>(out.size()), codePoints);
    QCOMPARE(q(chargpt::utf8::encode(out)), QString::fromUtf8(bytes));
    QCOMPARE(QByteArray::fromStdString(chargpt::utf8::encode(out)), bytes);
    // Agrees with Qt's decoder.
    const QString viaQt = QString::fromUtf8(bytes);
    QCOMPARE(static_cast<int>(viaQt.toUcs4().size()), codePoints);
    for (int i = 0; i < codePoints; ++i)
        QCOMPARE(static_cast<uint32_t>(out[static_cast<std::size_t>(i)]), static_cast<uint32_t>(viaQt.toUcs4()[i]));
}

void TestTokenizer::utf8Invalid_data() {
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<int>("offset");
    QTest::newRow("overlong 2-byte '/'") << QByteArray("ab\xC0\xAF") << 2;
    QTest::newRow("overlong 2-byte C1") << QByteArray("\xC1\xBF") << 0;
    QTest::newRow("overlong 3-byte") << QByteArray("x\xE0\x80\xAFy") << 1;
    QTest::newRow("overlong 4-byte") << QByteArray("\xF0\x80\x80\xAF") << 0;
    QTest::newRow("lone continuation") << QByteArray("abc\x80" "def") << 3;
    QTest::newRow("continuation after char") << QByteArray("床\xBF") << 3;
    QTest::newRow("high surrogate") << QByteArray("x\xED\xA0\x80") << 1;
    QTest::newRow("low surrogate") << QByteArray("xy\xED\xBF\xBF") << 2;
    QTest::newRow("truncated at end") << QByteArray("xy\xE4\xB8") << 2;
    QTest::newRow("truncated before ascii") << QByteArray("\xE4\xB8" "a") << 0;
    QTest::newRow("truncated 4-byte") << QByteArray("ab\xF0\x9F\x98") << 2;
    QTest::newRow("above U+10FFFF") << QByteArray("\xF4\x90\x80\x80") << 0;
    QTest::newRow("F5 lead byte") << QByteArray("a\xF5\x80\x80\x80") << 1;
    QTest::newRow("FF byte") << QByteArray("床前\xFF") << 6;
    QTest::newRow("after valid multibyte") << QByteArray("\xF0\x9F\x98\x80\xC3") << 4;
}

void TestTokenizer::utf8Invalid() {
    QFETCH(QByteArray, bytes);
    QFETCH(int, offset);
    std::u32string out;
    std::size_t errorOffset = 9999;
    QVERIFY(!chargpt::utf8::decode(bytes.toStdString(), out, errorOffset));
    QCOMPARE(static_cast<int>(errorOffset), offset);
}

void TestTokenizer::utf8DecodeOrThrow() {
    QVERIFY(chargpt::utf8::decodeOrThrow("床a", "poem.txt") == std::u32string(U"床a"));
    try {
        chargpt::utf8::decodeOrThrow(std::string(1234, 'a') + "\xFF", "poem.txt");
        QFAIL("decodeOrThrow accepted invalid UTF-8");
    } catch (const chargpt::Error& e) {
        const QString message = QString::fromStdString(e.what());
        QVERIFY2(message.contains("poem.txt"), qPrintable(message));
        QVERIFY2(message.contains("1234"), qPrintable(message));
    }
}

CHARGPT_TEST_GUILESS_MAIN(TestTokenizer)
}  // namespace tst_tokenizer
#include "tst_tokenizer.moc"
