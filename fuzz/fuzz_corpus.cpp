// SPDX-License-Identifier: GPL-3.0-or-later
// Corpus decoding from raw file bytes: chargpt::Corpus::fromUtf8 and chargpt::utf8.
// Checked for every input:
//  - utf8::decode accepts exactly the bytes that are well-formed UTF-8 (checked
//    against an independent byte-by-byte validator), re-encoding gives the bytes
//    back, and on failure the offset is where the first bad sequence starts;
//  - Corpus::fromUtf8 either throws chargpt::Error with a message, or returns one
//    document equal to the bytes with the BOM dropped and each CRLF turned into LF;
//    nothing else is thrown.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

#include "fuzz/FuzzCheck.h"
#include "model/text/CharTokenizer.h"
#include "model/text/Corpus.h"
#include "model/runtime/Error.h"
#include "model/text/Utf8.h"

namespace {

// Length of the well-formed UTF-8 sequence at s[i] (Unicode table 3-7), 0 if none.
std::size_t wellFormedLength(std::string_view s, std::size_t i) {
    auto at = [&](std::size_t k) -> int { return i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : -1; };
    auto in = [](int b, int lo, int hi) { return b >= lo && b <= hi; };
    const int b0 = at(0);
    if (in(b0, 0x00, 0x7F)) return 1;
    if (in(b0, 0xC2, 0xDF)) return in(at(1), 0x80, 0xBF) ? 2 : 0;
    if (b0 == 0xE0) return in(at(1), 0xA0, 0xBF) && in(at(2), 0x80, 0xBF) ? 3 : 0;
    if (in(b0, 0xE1, 0xEC) || in(b0, 0xEE, 0xEF))
        return in(at(1), 0x80, 0xBF) && in(at(2), 0x80, 0xBF) ? 3 : 0;
    if (b0 == 0xED) return in(at(1), 0x80, 0x9F) && in(at(2), 0x80, 0xBF) ? 3 : 0;
    if (b0 == 0xF0) return in(at(1), 0x90, 0xBF) && in(at(2), 0x80, 0xBF) && in(at(3), 0x80, 0xBF) ? 4 : 0;
    if (in(b0, 0xF1, 0xF3)) return in(at(1), 0x80, 0xBF) && in(at(2), 0x80, 0xBF) && in(at(3), 0x80, 0xBF) ? 4 : 0;
    if (b0 == 0xF4) return in(at(1), 0x80, 0x8F) && in(at(2), 0x80, 0xBF) && in(at(3), 0x80, 0xBF) ? 4 : 0;
    return 0;
}

// Offset of the first ill-formed sequence, or npos when all of `s` is well formed.
std::size_t firstInvalid(std::string_view s) {
    std::size_t i = 0;
    while (i < s.size()) {
        const std::size_t n = wellFormedLength(s, i);
        if (n == 0) return i;
        i += n;
    }
    return std::string_view::npos;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);

    // --- the UTF-8 decoder against the reference validator ---
    std::u32string decoded;
    std::size_t errorOffset = 0;
    const bool ok = chargpt::utf8::decode(bytes, decoded, errorOffset);
    const std::size_t expectedError = firstInvalid(bytes);
    FUZZ_CHECK(ok == (expectedError == std::string_view::npos));
    if (ok) {
        FUZZ_CHECK(chargpt::utf8::encode(decoded) == bytes);
        for (char32_t c : decoded) FUZZ_CHECK(c <= 0x10FFFF && !(c >= 0xD800 && c <= 0xDFFF));
    } else {
        FUZZ_CHECK(errorOffset == expectedError);
    }

    // --- a corpus file of these bytes ---
    // A UTF-16 byte-order mark (never valid UTF-8) makes the corpus convert from UTF-16.
    const bool utf16 = size >= 2 && ((data[0] == 0xFF && data[1] == 0xFE) || (data[0] == 0xFE && data[1] == 0xFF));
    try {
        const chargpt::Corpus corpus = chargpt::Corpus::fromUtf8(bytes, "fuzz.txt");
        if (utf16) {
            // Converted: one document of valid characters that the tokens spell.
            FUZZ_CHECK(corpus.documents().size() == 1);
            const std::u32string& document = corpus.documents().front();
            FUZZ_CHECK(!document.empty());
            for (char32_t c : document) FUZZ_CHECK(c <= 0x10FFFF && !(c >= 0xD800 && c <= 0xDFFF));
            const chargpt::CharTokenizer tokenizer = corpus.buildTokenizer();
            FUZZ_CHECK(tokenizer.decode(corpus.encode(tokenizer)) == chargpt::utf8::encode(document));
            return 0;
        }
        FUZZ_CHECK(ok);
        FUZZ_CHECK(std::memchr(bytes.data(), 0, bytes.size()) == nullptr);
        FUZZ_CHECK(corpus.documents().size() == 1);
        FUZZ_CHECK(corpus.byteCount() == size);
        std::string_view body = bytes;
        if (body.substr(0, 3) == "\xEF\xBB\xBF") body.remove_prefix(3);
        std::string expected;
        for (std::size_t i = 0; i < body.size(); ++i)
            if (!(body[i] == '\r' && i + 1 < body.size() && body[i + 1] == '\n')) expected += body[i];
        const std::u32string& document = corpus.documents().front();
        FUZZ_CHECK(!document.empty());
        FUZZ_CHECK(chargpt::utf8::encode(document) == expected);
        FUZZ_CHECK(corpus.charCount() == document.size());
        // Every character of the corpus has a token, and the tokens spell the text.
        const chargpt::CharTokenizer tokenizer = corpus.buildTokenizer();
        const std::vector<int64_t> tokens = corpus.encode(tokenizer);
        FUZZ_CHECK(tokens.size() == document.size());
        FUZZ_CHECK(tokenizer.decode(tokens) == expected);
    } catch (const chargpt::Error& e) {
        FUZZ_CHECK(std::strlen(e.what()) > 0);
        FUZZ_CHECK(std::string(e.what()).find("fuzz.txt") != std::string::npos);  // names the file
        if (!ok && !utf16 && std::memchr(bytes.data(), 0, bytes.size()) == nullptr)  // says where
            FUZZ_CHECK(std::string(e.what()).find("byte offset " + std::to_string(expectedError)) != std::string::npos);
    }
    return 0;
}
