// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/text/CharTokenizer.h"

namespace chargpt {

// The shortest run of characters that counts as copied: 8 characters. Shorter
// runs (a common word, "def __init__" cut short, a line of a poem's metre) turn
// up verbatim in any text of the same kind by chance; from 8 on, in a small
// corpus, they mostly come from it.
constexpr int kMinCopyLength = 8;
// A corpus whose own held-out text repeats longer runs by chance (code: its
// indentation, keywords and idioms) gets a longer rule, fitted by
// CopyIndex::calibrate() up to this length.
constexpr int kMaxCopyLength = 64;
// The share of held-out text allowed to count as copied by chance.
constexpr double kChanceCopyShare = 0.05;

// The copied parts of a text: maximal spans of characters (code points), in
// order, disjoint and not touching, and the share of the text's characters
// they cover.
struct CopyCheck {
    struct Span {
        std::size_t start = 0;   // in characters of the query
        std::size_t length = 0;  // in characters
    };
    std::vector<Span> spans;
    std::size_t characters = 0;  // of the query
    std::size_t copied = 0;      // characters inside the spans
    // copied / characters; NaN for an empty query.
    double share() const;
};

// Asked now and then while a text is checked (every CopyIndex::kStopEvery
// characters): true stops the check (Ctrl-C in `chargpt sample`).
using CopyStop = std::function<bool()>;

// An index of a training text that answers "which spans of this text occur
// verbatim in the training text". Built once per corpus and split; read-only
// afterwards, so one index may serve several threads at once.
//
// The rule: for each character of the query, the longest run starting there
// that occurs somewhere in the training text; a character is copied when it
// lies in such a run of at least kMinCopyLength characters. The spans are the
// union of those runs. A run never crosses an end-of-text between two
// documents (nor the end of the training text): those are separate texts.
//
// How: a suffix array (libdivsufsort) over the UTF-8 bytes of the training
// text, with a NUL byte for each end-of-text token (corpora never hold NUL:
// they are refused as binary). A query binary-searches the suffix array once
// per character start; the longest match lies beside where the query would
// be inserted. Only whether a run reaches the rule's length matters, so each
// search reads at most twice that length of the query, and a run that goes
// on past the rule's length answers for the positions inside it without a
// search: checking is linear in the query's length (at most about 2 x 4 x
// the rule's length x log2 of the text's size byte comparisons a character,
// far fewer in practice), however long the runs. Memory: the text's bytes
// and 4 bytes per byte for the suffix array (int32: corpora are at most 256
// MiB, their UTF-8 at most 384 MiB). Measured by the bench's `copies` part on
// a busy 2-core machine: the training part of builtin:python (4.3 MB)
// indexes in 1.3 s into 20 MiB; checking 500 characters takes about 0.5 ms,
// copied or not (the target is 50 ms); 200,000 characters of one letter
// against a 1 MiB text of that letter, every character copied, take 0.03 s
// (34 s when each search read its run to the end).
class CopyIndex {
public:
    // How often, in characters of the query, check() asks its CopyStop.
    static constexpr std::size_t kStopEvery = 1024;

    // An index of nothing: every query has no copies.
    CopyIndex() = default;
    // The training text as token ids of `tokenizer` (Dataset::trainingTokens()):
    // CharTokenizer::kEndOfText separates documents. Throws chargpt::Error for
    // an id the tokenizer lacks or a text past 2 GiB of UTF-8.
    CopyIndex(const std::vector<int64_t>& tokens, const CharTokenizer& tokenizer);
    // A training text as UTF-8 (a NUL byte separates documents). Throws
    // chargpt::Error for invalid UTF-8 or a text past 2 GiB.
    static CopyIndex fromUtf8(std::string text);

    // Bytes of UTF-8 indexed (NUL separators included).
    std::size_t byteCount() const { return text_.size(); }
    // Memory held: the text and the suffix array.
    std::size_t memoryBytes() const { return text_.capacity() + suffixes_.capacity() * sizeof(int32_t); }

    // The rule fitted to this corpus: the shortest run, from kMinCopyLength up
    // to kMaxCopyLength, at which at most kChanceCopyShare of a held-out text
    // of the same corpus (its validation part, which the model never trains
    // on, as tokens of `tokenizer`; its first 20,000 characters) counts as
    // copied. What turns up that often in text the model never saw says
    // nothing about memorising. Measured (`chargpt bench --only copies`):
    // builtin:tang300 10, builtin:song100 20, builtin:python the cap, 64 (at
    // 8, 90% of its validation text would count as copied; at 64, 7%).
    // Returns the length, which minLength() gives from then on.
    int calibrate(const std::vector<int64_t>& heldOut, const CharTokenizer& tokenizer);
    // The shortest copied run: kMinCopyLength until calibrate() says more.
    int minLength() const { return minLength_; }

    // The copied spans of `query` (UTF-8; invalid UTF-8 throws chargpt::Error),
    // runs of at least `minLength` characters (0: minLength()).
    CopyCheck check(std::string_view query, int minLength = 0) const;
    CopyCheck check(std::u32string_view query, int minLength = 0) const;
    // The same, asking `stop` every kStopEvery characters: nothing when it
    // says stop.
    std::optional<CopyCheck> check(std::string_view query, int minLength, const CopyStop& stop) const;
    std::optional<CopyCheck> check(std::u32string_view query, int minLength, const CopyStop& stop) const;
    // The longest prefix of `query` (UTF-8, whole characters) that occurs in
    // the training text, in characters.
    std::size_t longestMatch(std::string_view query) const;

private:
    // Sorts the suffixes of `text`, known to be valid UTF-8.
    static CopyIndex build(std::string text);
    // Bytes of the longest common prefix of `query` with any suffix.
    std::size_t longestMatchBytes(std::string_view query) const;
    // For each character of `query`, the longest run starting there that
    // occurs in the training text, in characters, never past a NUL of the
    // query (a separator), capped at `cap` (at least `least`); 0 where fewer
    // than `least` characters fit. Capped lengths give the same spans for any
    // rule up to `cap`: a run of n > cap characters at j makes runs of at
    // least cap at j + 1 ... j + n - cap (its tails), whose capped runs reach
    // its end. False, with nothing filled in, when `stop` says stop.
    bool matchLengths(std::u32string_view query, std::size_t least, std::size_t cap, const CopyStop& stop,
                      std::vector<std::size_t>& lengths) const;

    std::string text_;
    std::vector<int32_t> suffixes_;
    int minLength_ = kMinCopyLength;
};

}  // namespace chargpt
