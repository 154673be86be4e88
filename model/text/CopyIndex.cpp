// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/text/CopyIndex.h"

#include <divsufsort.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "model/runtime/Error.h"
#include "model/text/Utf8.h"

namespace chargpt {

namespace {

constexpr std::size_t kMaxIndexedBytes = static_cast<std::size_t>(std::numeric_limits<int32_t>::max());

bool isContinuation(unsigned char byte) { return (byte & 0xC0) == 0x80; }

}  // namespace

double CopyCheck::share() const {
    if (characters == 0) return std::numeric_limits<double>::quiet_NaN();
    return static_cast<double>(copied) / static_cast<double>(characters);
}

CopyIndex::CopyIndex(const std::vector<int64_t>& tokens, const CharTokenizer& tokenizer) {
    // Each token's UTF-8 once; end-of-text becomes NUL, which no text holds.
    std::vector<std::string> bytesOf(static_cast<std::size_t>(tokenizer.vocabSize()));
    if (tokenizer.hasEndOfText()) bytesOf[0] = std::string(1, '\0');
    const std::size_t first = std::size_t(tokenizer.firstCharacterId());
    for (std::size_t i = 0; i < tokenizer.characters().size(); ++i)
        bytesOf[i + first] = utf8::encode(tokenizer.characters()[i]);
    std::size_t total = 0;
    for (const int64_t id : tokens) {
        if (id < 0 || id >= tokenizer.vocabSize())
            throw Error("token " + std::to_string(id) + " is not in the vocabulary of " +
                        std::to_string(tokenizer.vocabSize()) + " tokens.");
        total += bytesOf[static_cast<std::size_t>(id)].size();
    }
    if (total > kMaxIndexedBytes)
        throw Error("the training text is too large to index for copies (" + std::to_string(total) +
                    " bytes of UTF-8; at most 2 GiB).");
    std::string text;
    text.reserve(total);
    for (const int64_t id : tokens) text += bytesOf[static_cast<std::size_t>(id)];
    *this = build(std::move(text));  // valid UTF-8: each token's own
}

CopyIndex CopyIndex::fromUtf8(std::string text) {
    if (text.size() > kMaxIndexedBytes)
        throw Error("the training text is too large to index for copies (" + std::to_string(text.size()) +
                    " bytes; at most 2 GiB).");
    // Checked a megabyte at a time, each part cut before a character's first
    // byte, so that checking takes no memory the size of the text.
    constexpr std::size_t kPart = 1u << 20;
    std::u32string decoded;
    for (std::size_t begin = 0; begin < text.size();) {
        std::size_t end = std::min(text.size(), begin + kPart);
        while (end < text.size() && end > begin && isContinuation(static_cast<unsigned char>(text[end])))
            --end;
        if (end == begin)
            end = std::min(text.size(), begin + kPart);  // continuation bytes only: invalid anyway
        decoded.clear();
        std::size_t offset = 0;
        if (!utf8::decode(std::string_view(text).substr(begin, end - begin), decoded, offset))
            throw Error("the training text is not valid UTF-8 at byte " + std::to_string(begin + offset) +
                        ".");
        begin = end;
    }
    decoded = std::u32string();
    return build(std::move(text));
}

CopyIndex CopyIndex::build(std::string text) {
    CopyIndex index;
    index.text_ = std::move(text);
    const auto n = static_cast<int32_t>(index.text_.size());
    if (n > 0) {
        index.suffixes_.resize(static_cast<std::size_t>(n));
        if (divsufsort(reinterpret_cast<const sauchar_t*>(index.text_.data()), index.suffixes_.data(), n) != 0)
            throw Error("could not build the index of the training text (out of memory?).");
    }
    return index;
}

std::size_t CopyIndex::longestMatchBytes(std::string_view query) const {
    // The suffixes sorted; find where `query` would be inserted, keeping the
    // common prefix with the nearest suffix below (low) and above (high). No
    // suffix between two others shares less with the query than the smaller
    // of theirs, so each comparison starts past min(low, high) bytes. The
    // longest match in the whole text is with one of the two neighbours of
    // the insertion point, the last suffixes compared on either side.
    const auto* text = reinterpret_cast<const unsigned char*>(text_.data());
    const auto* q = reinterpret_cast<const unsigned char*>(query.data());
    const std::size_t n = text_.size(), m = query.size();
    std::size_t lo = 0, hi = suffixes_.size();
    std::size_t low = 0, high = 0;
    while (lo < hi) {
        const std::size_t mid = lo + (hi - lo) / 2;
        const auto start = static_cast<std::size_t>(suffixes_[mid]);
        const std::size_t length = n - start;
        const unsigned char* s = text + start;
        std::size_t k = std::min(low, high);
        while (k < m && k < length && q[k] == s[k]) ++k;
        if (k == m || (k < length && q[k] < s[k])) {
            hi = mid;  // query <= suffix
            high = k;
        } else {
            lo = mid + 1;  // suffix < query
            low = k;
        }
    }
    return std::max(low, high);
}

std::size_t CopyIndex::longestMatch(std::string_view query) const {
    std::size_t bytes = longestMatchBytes(query.substr(0, std::min(query.size(), query.find('\0'))));
    while (bytes > 0 && bytes < query.size() && isContinuation(static_cast<unsigned char>(query[bytes]))) --bytes;
    std::size_t characters = 0;
    for (std::size_t i = 0; i < bytes; ++i)
        if (!isContinuation(static_cast<unsigned char>(query[i]))) ++characters;
    return characters;
}

bool CopyIndex::matchLengths(std::u32string_view query, std::size_t least, std::size_t cap,
                             const CopyStop& stop, std::vector<std::size_t>& lengths) const {
    lengths.assign(query.size(), 0);
    if (query.empty() || suffixes_.empty()) return true;
    // The UTF-8 of the query and where each character starts in it.
    std::string bytes;
    std::vector<std::size_t> offsets;
    offsets.reserve(query.size() + 1);
    for (const char32_t c : query) {
        offsets.push_back(bytes.size());
        bytes += utf8::encode(c);
    }
    offsets.push_back(bytes.size());
    // Each search reads at most twice the cap: a run of n >= cap characters
    // at j means a run of at least n - k >= cap at j + k (its own tail), so
    // the next n - cap positions hold the cap without a search of their own.
    // Every search compares at most `reach` characters, whatever the text.
    const std::size_t reach = 2 * cap;
    std::size_t segmentEnd = 0;  // the next NUL (a separator) or the end
    std::size_t covered = 0;     // positions before this hold runs of at least `cap`
    for (std::size_t j = 0; j < query.size(); ++j) {
        if (j % kStopEvery == 0 && stop && stop()) return false;
        if (query[j] == U'\0') continue;
        if (segmentEnd <= j) {
            segmentEnd = j;
            while (segmentEnd < query.size() && query[segmentEnd] != U'\0') ++segmentEnd;
        }
        // At least `least` characters must fit before the separator.
        if (segmentEnd - j < least) continue;
        if (j < covered) {
            lengths[j] = cap;
            continue;
        }
        const std::size_t limit = std::min(segmentEnd, j + reach);
        const std::string_view rest(bytes.data() + offsets[j], offsets[limit] - offsets[j]);
        const std::size_t matched = longestMatchBytes(rest);
        // Whole characters only: back off a match that ends inside one.
        const std::size_t begin = offsets[j];
        auto end = std::upper_bound(offsets.begin() + static_cast<std::ptrdiff_t>(j),
                                    offsets.begin() + static_cast<std::ptrdiff_t>(limit) + 1, begin + matched);
        const std::size_t characters = static_cast<std::size_t>(end - offsets.begin()) - 1 - j;
        lengths[j] = std::min(characters, cap);
        if (characters >= cap) covered = j + (characters - cap) + 1;
    }
    return true;
}

namespace {

// The union of the runs of at least `least` characters: maximal spans, a run
// that starts inside or right after a span joining it.
CopyCheck spansOf(const std::vector<std::size_t>& lengths, std::size_t least) {
    CopyCheck result;
    result.characters = lengths.size();
    std::size_t spanStart = 0, spanEnd = 0;  // the span being grown; empty when equal
    for (std::size_t j = 0; j < lengths.size(); ++j) {
        const std::size_t matched = lengths[j];
        if (matched < least) continue;
        if (spanEnd > spanStart && j <= spanEnd) {
            spanEnd = std::max(spanEnd, j + matched);
        } else {
            if (spanEnd > spanStart) result.spans.push_back({spanStart, spanEnd - spanStart});
            spanStart = j;
            spanEnd = j + matched;
        }
    }
    if (spanEnd > spanStart) result.spans.push_back({spanStart, spanEnd - spanStart});
    for (const CopyCheck::Span& span : result.spans) result.copied += span.length;
    return result;
}

}  // namespace

std::optional<CopyCheck> CopyIndex::check(std::u32string_view query, int minLength,
                                          const CopyStop& stop) const {
    const std::size_t least = static_cast<std::size_t>(std::max(1, minLength > 0 ? minLength : minLength_));
    // Capped at the shortest run that counts: the spans are the same (see matchLengths).
    std::vector<std::size_t> lengths;
    if (!matchLengths(query, least, least, stop, lengths)) return std::nullopt;
    return spansOf(lengths, least);
}

CopyCheck CopyIndex::check(std::u32string_view query, int minLength) const {
    return *check(query, minLength, {});
}

int CopyIndex::calibrate(const std::vector<int64_t>& heldOut, const CharTokenizer& tokenizer) {
    constexpr std::size_t kSample = 20000;
    std::u32string text;
    for (const int64_t id : heldOut) {
        if (text.size() >= kSample) break;
        if (id == tokenizer.endOfTextId())
            text += U'\0';
        else if (id >= tokenizer.firstCharacterId() && id < tokenizer.vocabSize())
            text += tokenizer.characters()[static_cast<std::size_t>(id - tokenizer.firstCharacterId())];
    }
    minLength_ = kMinCopyLength;
    // Capped at the longest rule tried: every rule's spans come from the same lengths.
    std::vector<std::size_t> lengths;
    matchLengths(text, kMinCopyLength, kMaxCopyLength, {}, lengths);
    if (text.empty()) return minLength_;
    for (int least = kMinCopyLength; least <= kMaxCopyLength; ++least) {
        minLength_ = least;
        const CopyCheck chance = spansOf(lengths, static_cast<std::size_t>(least));
        if (double(chance.copied) <= kChanceCopyShare * double(text.size())) break;
    }
    return minLength_;
}

CopyCheck CopyIndex::check(std::string_view query, int minLength) const {
    return check(std::u32string_view(utf8::decodeOrThrow(query, "the text to check for copies")), minLength);
}

std::optional<CopyCheck> CopyIndex::check(std::string_view query, int minLength, const CopyStop& stop) const {
    return check(std::u32string_view(utf8::decodeOrThrow(query, "the text to check for copies")), minLength,
                 stop);
}

}  // namespace chargpt
