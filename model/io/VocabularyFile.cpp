// SPDX-License-Identifier: GPL-3.0-or-later
// The vocabulary of an imported model: a vocabulary file (JSON list or object), or the book's from its corpus.
#include "model/io/PyTorchInterop.h"

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "model/text/BuiltinCorpora.h"
#include "model/text/Corpus.h"
#include "model/runtime/Error.h"
#include "model/text/Utf8.h"

namespace chargpt {

namespace {

// ---- the vocabulary file -------------------------------------------------------

// The parse of a vocabulary file, as nlohmann-json's SAX events: its parser keeps
// its own stack (no recursion on the nesting), and this handler refuses nesting
// deeper than kMaxDepth, so a hostile file gives a message, never a crash. Only
// the top level is kept: a list's entries, or an object's keys and their values.
class VocabularyParse : public nlohmann::json_sax<nlohmann::json> {
public:
    static constexpr std::size_t kMaxDepth = 64;
    enum class Root { Nothing, List, Object, Other };
    enum class Kind { String, Index, Other };
    struct Entry {
        std::string key;   // objects: the token
        std::string text;  // lists: the token, when kind is String
        Kind kind = Kind::Other;
        uint64_t index = 0;  // objects: the index, when kind is Index
    };

    explicit VocabularyParse(std::string name) : name_(std::move(name)) {}

    Root root = Root::Nothing;
    std::vector<Entry> entries;
    std::string error;  // the whole message, when the parse failed

    bool null() override { return value(Kind::Other); }
    bool boolean(bool) override { return value(Kind::Other); }
    bool number_integer(number_integer_t v) override {
        if (v < 0) return value(Kind::Other);
        return value(Kind::Index, {}, static_cast<uint64_t>(v));
    }
    bool number_unsigned(number_unsigned_t v) override { return value(Kind::Index, {}, v); }
    bool number_float(number_float_t, const string_t&) override { return value(Kind::Other); }
    bool string(string_t& v) override { return value(Kind::String, &v); }
    bool binary(binary_t&) override { return value(Kind::Other); }
    bool start_object(std::size_t) override { return open(Root::Object); }
    bool start_array(std::size_t) override { return open(Root::List); }
    bool end_object() override { return close(); }
    bool end_array() override { return close(); }
    bool key(string_t& v) override {
        if (depth_ == 1) {
            entries.emplace_back();
            entries.back().key = v;
        }
        return true;
    }
    bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& e) override {
        // "[json.exception.parse_error.101] parse error at line 1, column 9: syntax error ..."
        std::string what = e.what();
        if (const std::size_t colon = what.find(": "); colon != std::string::npos) what = what.substr(colon + 2);
        const std::size_t byte = position > 0 ? position - 1 : 0;
        if (what.find("end of input") != std::string::npos)
            what = "the text ends before its closing bracket, brace or quote (" + what + ")";
        error = name_ + " is not a valid vocabulary file: " + what + " at byte " + std::to_string(byte) + ".";
        return false;
    }

private:
    bool value(Kind kind, const std::string* text = nullptr, uint64_t index = 0) {
        if (depth_ == 0) {
            root = Root::Other;
        } else if (depth_ == 1) {
            if (root == Root::List) entries.emplace_back();
            if (entries.empty()) return true;  // cannot happen: a value in an object follows its key
            Entry& entry = entries.back();
            entry.kind = kind;
            entry.index = index;
            if (text && root == Root::List) entry.text = *text;
        }
        return true;
    }
    bool open(Root kind) {
        if (depth_ == 0)
            root = kind;
        else
            value(Kind::Other);
        if (++depth_ > kMaxDepth) {
            error = name_ + " is not a valid vocabulary file: its values are nested more than " +
                    std::to_string(kMaxDepth) + " levels deep.";
            return false;
        }
        return true;
    }
    bool close() {
        --depth_;
        return true;
    }

    std::string name_;
    std::size_t depth_ = 0;
};

// A token as JSON writes it, for messages.
std::string quoted(const std::string& text) {
    return nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

CharTokenizer vocabularyFromCorpus(const std::string& path) { return loadCorpusSource(path).buildTokenizer(); }

CharTokenizer readVocabularyFile(const std::string& path) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) throw Error("no such vocabulary file: " + path + ".");
    // The size is checked before anything is read, and no more than that is read
    // even if the file grows meanwhile.
    const auto size = std::filesystem::file_size(path, ec);
    const std::string tooLarge = path + " is too large for a vocabulary file: a vocabulary of at most " +
                                 std::to_string(RunConfig::kMaxVocabulary) + " tokens takes at most " +
                                 std::to_string(kMaxVocabularyFileBytes) + " bytes as JSON.";
    if (!ec && size > kMaxVocabularyFileBytes) throw Error(tooLarge);
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error("cannot read " + path + ".");
    std::string bytes(kMaxVocabularyFileBytes + 1, '\0');
    in.read(bytes.data(), std::streamsize(bytes.size()));
    if (in.bad()) throw Error("cannot read " + path + ".");
    bytes.resize(std::size_t(in.gcount()));
    if (bytes.size() > kMaxVocabularyFileBytes) throw Error(tooLarge);
    // A pickle (its first byte is the protocol's 0x80, which no UTF-8 text
    // starts with): nanoGPT's meta.pkl.
    if (!bytes.empty() && static_cast<unsigned char>(bytes[0]) == 0x80) return readNanoGptMeta(path);
    utf8::decodeOrThrow(bytes, path);
    if (bytes.rfind("\xEF\xBB\xBF", 0) == 0) bytes.erase(0, 3);
    VocabularyParse parse(path);
    const bool parsed = nlohmann::json::sax_parse(bytes, &parse);
    if (!parsed || !parse.error.empty())
        throw Error(parse.error.empty() ? path + " is not a valid vocabulary file." : parse.error);

    using Kind = VocabularyParse::Kind;
    const auto& entries = parse.entries;
    std::vector<std::string> tokens;
    if (parse.root == VocabularyParse::Root::List) {
        for (std::size_t i = 0; i < entries.size(); ++i) {
            if (entries[i].kind != Kind::String)
                throw Error(path + ": entry " + std::to_string(i) + " of the list is not a string.");
            tokens.push_back(entries[i].text);
        }
    } else if (parse.root == VocabularyParse::Root::Object) {
        tokens.assign(entries.size(), std::string());
        std::vector<bool> seen(entries.size(), false);
        for (const auto& entry : entries) {
            if (entry.kind != Kind::Index || entry.index >= entries.size())
                throw Error(path + ": the index of " + quoted(entry.key) + " is not a whole number from 0 to " +
                            std::to_string(entries.size() - 1) + ".");
            const auto i = static_cast<std::size_t>(entry.index);
            if (seen[i]) throw Error(path + ": two tokens have the index " + std::to_string(i) + ".");
            seen[i] = true;
            tokens[i] = entry.key;
        }
    } else {
        throw Error(path + " is not a vocabulary file: it holds neither a JSON list of tokens nor an object "
                           "mapping tokens to indices.");
    }
    if (tokens.empty()) throw Error(path + " holds an empty vocabulary.");
    try {
        return CharTokenizer::fromVocabulary(tokens);
    } catch (const Error& e) {
        throw Error(path + ": " + e.what());
    }
}

}  // namespace chargpt
