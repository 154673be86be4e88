// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/text/Corpus.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <random>

#include "model/runtime/Error.h"
#include "model/nn/ModelConfig.h"
#include "model/text/Utf8.h"

namespace fs = std::filesystem;

namespace chargpt {
namespace {

const char* const kLimitText = "256 MiB";

// Folders nested deeper than this are left out (with a warning).
constexpr int kMaxFolderDepth = 64;

std::string describeNonRegular(mode_t mode) {
    if (S_ISFIFO(mode)) return "a named pipe (FIFO)";
    if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
    if (S_ISSOCK(mode)) return "a socket";
    if (S_ISDIR(mode)) return "a folder";
    return "not a regular file";
}

// Closes a descriptor however the reading ends.
struct Descriptor {
    int fd = -1;
    ~Descriptor() {
        if (fd >= 0) ::close(fd);
    }
};

// "268435457 bytes (over 256 MiB)": a size that shows by how much it is over.
std::string describeSize(std::uintmax_t size) {
    if (size % (1u << 20) == 0) return std::to_string(size >> 20) + " MiB";
    return std::to_string(size) + " bytes (over " + std::to_string(size >> 20) + " MiB)";
}

// Reads a regular file whole. The file is opened without blocking (a FIFO put
// in its place cannot stall the open) and checked on the open descriptor: only
// a regular file of at most kMaxCorpusBytes is read, so a device or a 2 GiB file
// is refused before a byte of it is read or any memory is reserved for it. The
// size is only a first guess: a file that reports 0 bytes but has content (as
// those of /proc do) is read to its end, and one that grows while it is read
// is cut off as soon as it passes the limit.
std::string readFile(const fs::path& path, struct stat* identity = nullptr) {
    Descriptor file;
    file.fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (file.fd < 0) throw Error("cannot open " + path.string() + ": " + std::strerror(errno) + ".");
    struct stat info {};
    if (::fstat(file.fd, &info) != 0)
        throw Error("cannot read " + path.string() + ": " + std::strerror(errno) + ".");
    if (!S_ISREG(info.st_mode))
        throw Error(path.string() + " is " + describeNonRegular(info.st_mode) +
                    ", not a text file: a corpus is a regular file or a folder of them.");
    if (identity) *identity = info;
    const auto tooLarge = [&](std::uintmax_t size) {
        return Error(path.string() + " is " + describeSize(size) + "; corpora up to " + kLimitText + " (" +
                     std::to_string(kMaxCorpusBytes) + " bytes) are supported.");
    };
    const auto size = static_cast<std::uintmax_t>(info.st_size);
    if (size > kMaxCorpusBytes) throw tooLarge(size);
    std::string bytes;
    bytes.reserve(static_cast<std::size_t>(size));
    char buffer[65536];
    for (;;) {
        const ssize_t n = ::read(file.fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) throw Error("cannot read " + path.string() + ": " + std::strerror(errno) + ".");
        if (n == 0) break;
        if (bytes.size() + static_cast<std::size_t>(n) > kMaxCorpusBytes)
            throw Error(path.string() + " grew past " + kLimitText + " while it was read; corpora up to " +
                        kLimitText + " are supported.");
        bytes.append(buffer, static_cast<std::size_t>(n));
    }
    return bytes;
}

bool isHidden(const fs::path& p) {
    const std::string name = p.filename().string();
    return !name.empty() && name[0] == '.';
}

// The files of a folder and its subfolders (hidden entries skipped). Links to
// files are followed; links to folders are not (a loop can never be walked).
// Every entry left out for a reason the user may not expect becomes a warning.
void listFiles(const fs::path& folder, int depth, std::vector<fs::path>& files, std::vector<std::string>& warnings) {
    std::error_code ec;
    fs::directory_iterator it(folder, ec);
    if (ec) {
        warnings.push_back("skipped the folder " + folder.string() + ": " + ec.message() + ".");
        return;
    }
    for (; it != fs::directory_iterator(); it.increment(ec)) {
        if (ec) {
            warnings.push_back("stopped listing " + folder.string() + ": " + ec.message() + ".");
            return;
        }
        const fs::path& path = it->path();
        if (isHidden(path)) continue;
        std::error_code linkEc;
        const fs::file_status own = it->symlink_status(linkEc);
        if (fs::is_symlink(own)) {
            std::error_code targetEc;
            const fs::file_status target = fs::status(path, targetEc);
            if (targetEc) {
                warnings.push_back("skipped: " + path.string() + " is a symbolic link that leads nowhere (" +
                                   targetEc.message() + ").");
            } else if (fs::is_regular_file(target)) {
                files.push_back(path);
            } else if (fs::is_directory(target)) {
                warnings.push_back("skipped: " + path.string() + " links to a folder; links to folders are not followed.");
            } else {
                warnings.push_back("skipped: " + path.string() + " links to something that is not a regular file.");
            }
        } else if (fs::is_directory(own)) {
            if (depth + 1 > kMaxFolderDepth)
                warnings.push_back("skipped: " + path.string() + " is nested more than " +
                                   std::to_string(kMaxFolderDepth) + " folders deep.");
            else
                listFiles(path, depth + 1, files, warnings);
        } else if (fs::is_regular_file(own)) {
            files.push_back(path);
        } else if (linkEc) {
            warnings.push_back("skipped: " + path.string() + ": " + linkEc.message() + ".");
        } else {
            warnings.push_back("skipped: " + path.string() + " is not a regular file (a pipe, device or socket).");
        }
    }
}

bool isUtf16Bom(std::string_view bytes, bool* littleEndian) {
    if (bytes.size() < 2) return false;
    const auto b0 = static_cast<unsigned char>(bytes[0]), b1 = static_cast<unsigned char>(bytes[1]);
    if (b0 == 0xFF && b1 == 0xFE) *littleEndian = true;
    else if (b0 == 0xFE && b1 == 0xFF) *littleEndian = false;
    else return false;
    return true;
}

// UTF-16 with a byte-order mark (the mark itself dropped) to code points.
std::u32string decodeUtf16(std::string_view bytes, bool littleEndian, const std::string& name) {
    if (bytes.size() % 2 != 0)
        throw Error(name + " is UTF-16 text (it starts with a byte-order mark) but has an odd number of bytes: "
                           "it is cut short or not text.");
    auto unit = [&](std::size_t i) {
        const auto a = static_cast<unsigned char>(bytes[i]), b = static_cast<unsigned char>(bytes[i + 1]);
        return static_cast<char32_t>(littleEndian ? (a | (b << 8)) : ((a << 8) | b));
    };
    std::u32string text;
    text.reserve(bytes.size() / 2);
    for (std::size_t i = 2; i < bytes.size(); i += 2) {
        const char32_t u = unit(i);
        if (u >= 0xD800 && u <= 0xDBFF && i + 3 < bytes.size()) {
            const char32_t low = unit(i + 2);
            if (low >= 0xDC00 && low <= 0xDFFF) {
                text.push_back(0x10000 + ((u - 0xD800) << 10) + (low - 0xDC00));
                i += 2;
                continue;
            }
        }
        if (u >= 0xD800 && u <= 0xDFFF)
            throw Error(name + " is not valid UTF-16 text (an unpaired surrogate at byte offset " + std::to_string(i) +
                        ").");
        if (u == 0) throw Error(name + " looks binary, not text (a NUL character at byte offset " + std::to_string(i) + ").");
        text.push_back(u);
    }
    return text;
}

// Whether NUL bytes fall mostly on one parity of offset, as in UTF-16 text.
bool looksLikeUtf16(std::string_view bytes) {
    const std::size_t n = std::min<std::size_t>(bytes.size() & ~std::size_t(1), 4096);
    std::size_t even = 0, odd = 0;
    for (std::size_t i = 0; i < n; ++i)
        if (bytes[i] == 0) ++(i % 2 ? odd : even);
    const std::size_t pairs = n / 2;
    return pairs > 0 && (std::max(even, odd) * 10 >= pairs * 3) && std::min(even, odd) * 10 < pairs;
}

}  // namespace

std::u32string decodeDocument(std::string_view bytes, const std::string& name) {
    if (bytes.empty()) throw Error(name + " is empty.");
    std::u32string text;
    bool littleEndian = true;
    if (bytes.size() >= 4 && (bytes.substr(0, 4) == std::string_view("\xFF\xFE\0\0", 4) ||
                              bytes.substr(0, 4) == std::string_view("\0\0\xFE\xFF", 4)))
        throw Error(name + " is UTF-32 text, which is not supported: save it as UTF-8.");
    if (isUtf16Bom(bytes, &littleEndian)) {
        // A file saved as "Unicode" by Windows Notepad: converted, the mark dropped.
        text = decodeUtf16(bytes, littleEndian, name);
    } else {
        if (const void* nul = std::memchr(bytes.data(), 0, bytes.size())) {
            const std::string offset = std::to_string(static_cast<const char*>(nul) - bytes.data());
            if (looksLikeUtf16(bytes))
                throw Error(name + " looks like UTF-16 text without a byte-order mark (a NUL byte at byte offset " +
                            offset + "): save it as UTF-8, or as UTF-16 with a byte-order mark.");
            throw Error(name + " looks binary, not text (a NUL byte at byte offset " + offset +
                        "; UTF-16 text without a byte-order mark has them too: save it as UTF-8).");
        }
        std::size_t skipped = 0;
        if (bytes.size() >= 3 && bytes.substr(0, 3) == "\xEF\xBB\xBF") {
            bytes.remove_prefix(3);
            skipped = 3;
        }
        std::size_t offset = 0;
        if (!utf8::decode(bytes, text, offset))
            throw Error(name + " is not valid UTF-8 text (invalid byte sequence at byte offset " +
                        std::to_string(offset + skipped) + ").");
    }
    // CRLF -> LF: a Windows file trains the same model as its Unix twin.
    std::size_t kept = 0;
    for (std::size_t i = 0; i < text.size(); ++i)
        if (!(text[i] == U'\r' && i + 1 < text.size() && text[i + 1] == U'\n')) text[kept++] = text[i];
    text.resize(kept);
    const bool blank = std::all_of(text.begin(), text.end(), [](char32_t c) {
        return c == U' ' || c == U'\t' || c == U'\n' || c == U'\r' || c == U'\v' || c == U'\f' ||
               c == 0x3000 || c == 0xA0 || c == 0xFEFF;
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
    if (ec || !fs::exists(status)) {
        std::error_code linkEc;
        if (fs::is_symlink(fs::symlink_status(path, linkEc))) {
            if (ec && ec.value() == ELOOP)
                throw Error(pathText + " is a loop of symbolic links (" + ec.message() + ").");
            throw Error(pathText + " is a symbolic link to something that does not exist.");
        }
        if (ec && ec != std::errc::no_such_file_or_directory)
            throw Error("cannot open " + pathText + ": " + ec.message() + ".");
        throw Error("no such file or folder: " + pathText + ".");
    }

    if (fs::is_regular_file(status)) {
        struct stat identity {};
        Corpus corpus = fromUtf8(readFile(path, &identity), pathText);
        corpus.files_.push_back({static_cast<std::uint64_t>(identity.st_dev), static_cast<std::uint64_t>(identity.st_ino)});
        return corpus;
    }
    if (!fs::is_directory(status)) {
        struct stat info {};
        const mode_t mode = ::stat(path.c_str(), &info) == 0 ? info.st_mode : 0;
        throw Error(pathText + " is " + describeNonRegular(mode) +
                    ", not a text file: a corpus is a regular file or a folder of them.");
    }

    Corpus corpus;
    corpus.name_ = pathText;
    corpus.folder_ = true;
    struct stat folderInfo {};
    if (::stat(path.c_str(), &folderInfo) == 0)
        corpus.files_.push_back({static_cast<std::uint64_t>(folderInfo.st_dev), static_cast<std::uint64_t>(folderInfo.st_ino)});
    std::vector<fs::path> files;
    listFiles(path, 0, files, corpus.warnings_);
    std::sort(files.begin(), files.end());

    std::size_t leftOut = 0;
    for (const fs::path& file : files) {
        if (leftOut > 0) {
            ++leftOut;
            continue;
        }
        try {
            const std::uintmax_t size = fs::file_size(file, ec);
            if (!ec && size <= kMaxCorpusBytes && corpus.bytes_ + size > kMaxCorpusBytes) {
                leftOut = 1;
                continue;
            }
            struct stat identity {};
            std::string bytes = readFile(file, &identity);
            if (corpus.bytes_ + bytes.size() > kMaxCorpusBytes) {
                leftOut = 1;
                continue;
            }
            corpus.documents_.push_back(decodeDocument(bytes, file.string()));
            corpus.bytes_ += bytes.size();
            corpus.files_.push_back({static_cast<std::uint64_t>(identity.st_dev), static_cast<std::uint64_t>(identity.st_ino)});
        } catch (const Error& e) {
            corpus.warnings_.push_back(std::string("skipped: ") + e.what());
        }
    }
    if (leftOut > 0)
        corpus.warnings_.push_back("the folder holds more than " + std::string(kLimitText) + " of text; the last " +
                                   std::to_string(leftOut) + " file(s) in path order were left out.");
    if (corpus.documents_.empty()) {
        std::string message = "the folder " + pathText + " has no usable text file";
        if (!corpus.warnings_.empty()) message += " (" + corpus.warnings_.front() + ")";
        throw Error(message + ".");
    }
    return corpus;
}

bool Corpus::holds(const std::string& pathText) const {
    auto known = [&](const struct stat& info) {
        return std::any_of(files_.begin(), files_.end(), [&](const FileId& id) {
            return id.device == static_cast<std::uint64_t>(info.st_dev) &&
                   id.inode == static_cast<std::uint64_t>(info.st_ino);
        });
    };
    struct stat info {};
    if (::stat(pathText.c_str(), &info) == 0 && known(info)) return true;
    if (!folder_) return false;
    // Inside the folder: one of the folders above the file (links resolved) is the corpus.
    std::error_code ec;
    const fs::path real = fs::weakly_canonical(fs::absolute(fs::path(pathText), ec), ec);
    if (ec) return false;
    for (fs::path p = real.parent_path(); !p.empty(); p = p.parent_path()) {
        if (::stat(p.c_str(), &info) == 0 && S_ISDIR(info.st_mode) && known(info)) return true;
        if (p == p.root_path()) break;
    }
    return false;
}

std::size_t Corpus::charCount() const {
    std::size_t n = 0;
    for (const auto& d : documents_) n += d.size();
    return n;
}

std::size_t Corpus::tokenCount() const {
    return documents_.empty() ? 0 : charCount() + documents_.size() - 1;
}

CharTokenizer Corpus::buildTokenizer() const {
    // One pass over the characters, marking each code point seen: no copy of
    // a document, nor a sort of one (a 200 MB text took seconds and 800 MB).
    std::vector<bool> seen(0x110000, false);
    std::u32string all;
    for (const auto& d : documents_)
        for (const char32_t c : d)
            if (c < seen.size() && !seen[c]) {
                seen[c] = true;
                all.push_back(c);
            }
    CharTokenizer tokenizer = CharTokenizer::fromText(all);
    constexpr int64_t kMaxVocabularySize = ModelConfig::kMaxVocabulary;
    if (tokenizer.vocabSize() > kMaxVocabularySize)
        throw Error(name_ + " has " + std::to_string(tokenizer.characters().size()) +
                    " distinct characters; a vocabulary holds at most " + std::to_string(kMaxVocabularySize - 1) +
                    " (" + std::to_string(kMaxVocabularySize) + " tokens with end-of-text).");
    return tokenizer;
}

std::vector<uint16_t> Corpus::encodeStored(const CharTokenizer& tokenizer) const {
    std::vector<std::size_t> order(documents_.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    return encodeStored(tokenizer, order);
}

std::vector<uint16_t> Corpus::encodeStored(const CharTokenizer& tokenizer,
                                           const std::vector<std::size_t>& order) const {
    if (tokenizer.vocabSize() > int64_t(1) << 16)
        throw Error("a vocabulary of " + std::to_string(tokenizer.vocabSize()) + " tokens does not fit 16 bits.");
    // The ids of the Basic Multilingual Plane looked up in a table, the rest searched.
    std::vector<int32_t> table(0x10000, -1);
    for (std::size_t i = 0; i < tokenizer.characters().size(); ++i)
        if (tokenizer.characters()[i] < table.size())
            table[tokenizer.characters()[i]] = int32_t(tokenizer.id(tokenizer.characters()[i]));
    std::size_t reserve = order.size();
    for (const std::size_t index : order) reserve += documents_.at(index).size();
    std::vector<uint16_t> tokens;
    tokens.reserve(reserve);
    for (std::size_t i = 0; i < order.size(); ++i) {
        if (i > 0 && tokenizer.hasEndOfText()) tokens.push_back(uint16_t(CharTokenizer::kEndOfText));
        for (const char32_t c : documents_[order[i]]) {
            const int64_t id = c < table.size() ? table[c] : tokenizer.id(c);
            if (id >= 0) tokens.push_back(uint16_t(id));
        }
    }
    if (tokens.capacity() - tokens.size() > tokens.size() / 8)
        tokens.shrink_to_fit();  // many characters the vocabulary lacks were left out
    return tokens;
}

std::vector<std::size_t> Corpus::validationDocuments(double share, std::uint64_t seed) const {
    const std::size_t count = documents_.size();
    if (count < 2) return {};
    // Fisher-Yates on the generator's raw output: std::shuffle and the
    // standard distributions differ between standard libraries.
    std::vector<std::size_t> order(count);
    for (std::size_t i = 0; i < count; ++i) order[i] = i;
    std::mt19937_64 rng(seed);
    for (std::size_t i = count - 1; i > 0; --i) std::swap(order[i], order[std::size_t(rng() % (i + 1))]);
    const double wanted = std::max(0.0, share) * double(charCount());
    std::vector<std::size_t> chosen;
    double characters = 0.0;
    // Documents in the shuffled order while the next one brings the share
    // closer to `wanted` (the first always).
    for (std::size_t i = 0; i + 1 < count; ++i) {
        const double next = characters + double(documents_[order[i]].size());
        if (!chosen.empty() && std::abs(next - wanted) >= std::abs(characters - wanted)) break;
        chosen.push_back(order[i]);
        characters = next;
    }
    std::sort(chosen.begin(), chosen.end());
    return chosen;
}

std::vector<int64_t> Corpus::encode(const CharTokenizer& tokenizer) const {
    const std::vector<uint16_t> stored = encodeStored(tokenizer);
    return std::vector<int64_t>(stored.begin(), stored.end());
}

}  // namespace chargpt
