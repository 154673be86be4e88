// SPDX-License-Identifier: GPL-3.0-or-later
#include "Corpus.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "Error.h"
#include "Utf8.h"

namespace fs = std::filesystem;

namespace chargpt {
namespace {

constexpr std::uintmax_t kMaxCorpusBytes = 256ull << 20;  // tokens take 8 bytes each in memory

const char* const kLimitText = "256 MiB";

std::string readFile(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error("cannot open " + path.string() + ": " + std::strerror(errno) + ".");
    std::string bytes;
    in.seekg(0, std::ios::end);
    const std::streamoff size = in.tellg();
    if (size > 0) {
        bytes.resize(static_cast<std::size_t>(size));
        in.seekg(0);
        in.read(bytes.data(), size);
        if (!in) throw Error("cannot read " + path.string() + ".");
    }
    return bytes;
}

bool isHidden(const fs::path& p) {
    const std::string name = p.filename().string();
    return !name.empty() && name[0] == '.';
}

}  // namespace

std::u32string decodeDocument(std::string_view bytes, const std::string& name) {
    if (bytes.empty()) throw Error(name + " is empty.");
    if (const void* nul = std::memchr(bytes.data(), 0, bytes.size()))
        throw Error(name + " looks binary, not text (a NUL byte at byte offset " +
                    std::to_string(static_cast<const char*>(nul) - bytes.data()) + ").");
    std::size_t skipped = 0;
    if (bytes.size() >= 3 && bytes.substr(0, 3) == "\xEF\xBB\xBF") {
        bytes.remove_prefix(3);
        skipped = 3;
    }
    std::u32string text;
    std::size_t offset = 0;
    if (!utf8::decode(bytes, text, offset))
        throw Error(name + " is not valid UTF-8 text (invalid byte sequence at byte offset " +
                    std::to_string(offset + skipped) + ").");
    // CRLF -> LF: a Windows file trains the same model as its Unix twin.
    std::size_t kept = 0;
    for (std::size_t i = 0; i < text.size(); ++i)
        if (!(text[i] == U'\r' && i + 1 < text.size() && text[i + 1] == U'\n')) text[kept++] = text[i];
    text.resize(kept);
    const bool blank = std::all_of(text.begin(), text.end(), [](char32_t c) {
        return c == U' ' || c == U'\t' || c == U'\n' || c == U'\r' || c == U'\v' || c == U'\f' ||
               c == 0x3000 || c == 0xA0;
    });
    if (blank) throw Error(name + " has only whitespace, nothing to learn from.");
    return text;
}

Corpus Corpus::fromUtf8(std::string_view bytes, const std::string& name) {
    Corpus corpus;
    corpus.name_ = name;
    corpus.bytes_ = bytes.size();
    corpus.documents_.push_back(decodeDocument(bytes, name));
    return corpus;
}

Corpus Corpus::load(const std::string& pathText) {
    const fs::path path(pathText);
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (ec || !fs::exists(status)) throw Error("no such file or folder: " + pathText + ".");

    if (fs::is_regular_file(status)) {
        const std::uintmax_t size = fs::file_size(path, ec);
        if (!ec && size > kMaxCorpusBytes)
            throw Error(pathText + " is " + std::to_string(size >> 20) + " MiB; corpora up to " +
                        kLimitText + " are supported.");
        return fromUtf8(readFile(path), pathText);
    }
    if (!fs::is_directory(status))
        throw Error(pathText + " is not a regular file or a folder (a device, pipe or socket?).");

    std::vector<fs::path> files;
    fs::recursive_directory_iterator it(path, fs::directory_options::skip_permission_denied, ec);
    if (ec) throw Error("cannot read the folder " + pathText + ": " + ec.message() + ".");
    for (; it != fs::recursive_directory_iterator(); it.increment(ec)) {
        if (ec) break;
        const fs::directory_entry& entry = *it;
        if (isHidden(entry.path())) {
            if (entry.is_directory(ec)) it.disable_recursion_pending();
            continue;
        }
        if (entry.is_regular_file(ec) && !entry.is_symlink(ec)) files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());

    Corpus corpus;
    corpus.name_ = pathText;
    for (const fs::path& file : files) {
        try {
            const std::uintmax_t size = fs::file_size(file, ec);
            if (!ec && corpus.bytes_ + size > kMaxCorpusBytes)
                throw Error(std::string("the folder holds more than ") + kLimitText +
                            " of text; the rest was left out");
            std::string bytes = readFile(file);
            corpus.documents_.push_back(decodeDocument(bytes, file.string()));
            corpus.bytes_ += bytes.size();
        } catch (const Error& e) {
            corpus.warnings_.push_back(std::string("skipped: ") + e.what());
        }
    }
    if (corpus.documents_.empty()) {
        std::string message = "the folder " + pathText + " has no usable text file";
        if (!corpus.warnings_.empty()) message += " (" + corpus.warnings_.front() + ")";
        throw Error(message + ".");
    }
    return corpus;
}

std::size_t Corpus::charCount() const {
    std::size_t n = 0;
    for (const auto& d : documents_) n += d.size();
    return n;
}

CharTokenizer Corpus::buildTokenizer() const {
    std::u32string all;
    for (const auto& d : documents_) {
        std::u32string distinct = CharTokenizer::fromText(d).characters();
        all += distinct;
    }
    return CharTokenizer::fromText(all);
}

std::vector<int64_t> Corpus::encode(const CharTokenizer& tokenizer) const {
    std::vector<int64_t> tokens;
    tokens.reserve(charCount() + documents_.size());
    for (std::size_t i = 0; i < documents_.size(); ++i) {
        if (i > 0) tokens.push_back(CharTokenizer::kEndOfText);
        std::vector<int64_t> part = tokenizer.encode(documents_[i]);
        tokens.insert(tokens.end(), part.begin(), part.end());
    }
    return tokens;
}

}  // namespace chargpt
