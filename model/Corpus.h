// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "CharTokenizer.h"

namespace chargpt {

// A training text: one document (a file) or several (a folder of files), decoded
// to code points. Documents are joined by the end-of-text token when encoded.
class Corpus {
public:
    // A UTF-8 text file, or a folder whose regular text files (recursively,
    // in path order, hidden entries skipped) become documents. Throws
    // chargpt::Error saying what is wrong and where.
    static Corpus load(const std::string& path);
    // One document from UTF-8 bytes; `name` is used in messages.
    static Corpus fromUtf8(std::string_view bytes, const std::string& name);

    const std::vector<std::u32string>& documents() const { return documents_; }
    const std::string& name() const { return name_; }
    std::size_t byteCount() const { return bytes_; }
    std::size_t charCount() const;
    // Files of a folder that were left out (binary or not UTF-8), with why.
    const std::vector<std::string>& warnings() const { return warnings_; }

    // The vocabulary of all documents.
    CharTokenizer buildTokenizer() const;
    // All documents, each followed by end-of-text except the last.
    std::vector<int64_t> encode(const CharTokenizer& tokenizer) const;

private:
    std::string name_;
    std::size_t bytes_ = 0;
    std::vector<std::u32string> documents_;
    std::vector<std::string> warnings_;
};

// Decodes one file's bytes as a corpus document: refuses empty or whitespace-only
// text, NUL bytes (binary) and invalid UTF-8 with the byte offset; drops a
// UTF-8 byte-order mark and turns CRLF into LF.
std::u32string decodeDocument(std::string_view bytes, const std::string& name);

}  // namespace chargpt
