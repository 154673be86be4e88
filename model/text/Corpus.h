// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/text/CharTokenizer.h"

namespace chargpt {

// The largest corpus, in bytes of its files (a file or a folder's files
// together): its tokens take 8 bytes each in memory. Larger files are refused
// from their size alone, before any byte is read.
constexpr std::uintmax_t kMaxCorpusBytes = 256ull << 20;

// A training text: one document (a file) or several (a folder of files), decoded
// to code points. Documents are joined by the end-of-text token when encoded.
class Corpus {
public:
    // A UTF-8 (or UTF-16 with a byte-order mark) text file, or a folder whose
    // regular text files (recursively, in path order, hidden entries skipped,
    // links to files followed, links to folders not) become documents. Throws
    // chargpt::Error saying what is wrong and where; a pipe or a device is
    // refused without being read.
    static Corpus load(const std::string& path);
    // One document from UTF-8 bytes; `name` is used in messages.
    static Corpus fromUtf8(std::string_view bytes, const std::string& name);

    const std::vector<std::u32string>& documents() const { return documents_; }
    const std::string& name() const { return name_; }
    std::size_t byteCount() const { return bytes_; }
    std::size_t charCount() const;
    // Tokens of encode(): the characters plus one end-of-text between documents.
    std::size_t tokenCount() const;
    // Files of a folder that were left out (binary or not UTF-8), with why.
    const std::vector<std::string>& warnings() const { return warnings_; }

    // Whether writing `path` would overwrite the corpus: it is (symbolic links
    // followed) one of the files read, the same file through a hard link, or it
    // lies inside the corpus folder. A save to such a path is refused.
    bool holds(const std::string& path) const;

    // The vocabulary of all documents. Throws chargpt::Error when it would have
    // more than ModelConfig::kMaxVocabulary (65,536) tokens.
    CharTokenizer buildTokenizer() const;
    // All documents, each followed by end-of-text except the last.
    std::vector<int64_t> encode(const CharTokenizer& tokenizer) const;
    // The same ids in 16 bits each (a vocabulary holds at most 65,536 tokens),
    // encoded straight from the documents: a quarter of encode()'s memory and
    // no copy of a document, for what holds a whole corpus (model/train/Dataset).
    std::vector<uint16_t> encodeStored(const CharTokenizer& tokenizer) const;
    // The same for the documents at `order` (indices into documents()), in that order.
    std::vector<uint16_t> encodeStored(const CharTokenizer& tokenizer,
                                       const std::vector<std::size_t>& order) const;

    // The documents a run validates on when the corpus has several (a folder):
    // whole documents, drawn in an order shuffled by `seed` (the same on every
    // machine), as many as bring their characters closest to `share` of all;
    // at least one, never all. Ascending; empty for a single document, whose validation part
    // is the end of its text (model/train/Dataset).
    std::vector<std::size_t> validationDocuments(double share, std::uint64_t seed) const;

private:
    std::string name_;
    std::size_t bytes_ = 0;
    std::vector<std::u32string> documents_;
    std::vector<std::string> warnings_;
    struct FileId {
        std::uint64_t device, inode;
    };
    std::vector<FileId> files_;  // every file read, and the folder when the corpus is one
    bool folder_ = false;
};

// Decodes one file's bytes as a corpus document: refuses empty or whitespace-only
// text, NUL bytes (binary, or UTF-16 without a byte-order mark), UTF-32 and
// invalid UTF-8 with the byte offset; converts UTF-16 with a byte-order mark;
// drops a UTF-8 byte-order mark and turns CRLF into LF.
std::u32string decodeDocument(std::string_view bytes, const std::string& name);

}  // namespace chargpt
