// SPDX-License-Identifier: GPL-3.0-or-later
// nanoGPT's files beside its checkpoints: the vocabulary of meta.pkl, and where sample.py finds it.
#include "model/io/PyTorchInterop.h"
#include "model/io/NanoGptMeta.h"

#include <filesystem>
#include <fstream>
#include <map>

#include "model/io/Pickle.h"
#include "model/runtime/Error.h"
#include "model/text/Utf8.h"

namespace chargpt {

namespace {

// meta.pkl is a plain pickle: any storage it names is refused.
class NoStorages final : public pickle::StorageSource {
public:
    torch::Tensor storage(const std::string&, torch::ScalarType) override {
        throw pickle::Malformed("it names a tensor's storage, which meta.pkl never holds");
    }
};

std::string readSmallFile(const std::string& path, std::size_t limit) {
    namespace fs = std::filesystem;
    std::error_code error;
    const fs::file_status status = fs::status(path, error);
    if (error || !fs::exists(status)) throw Error("no such file: " + path + ".");
    if (!fs::is_regular_file(status)) throw Error(path + " is not a regular file.");
    const auto size = fs::file_size(path, error);
    if (error) throw Error(path + " cannot be read.");
    if (size > limit)
        throw Error(path + " holds " + std::to_string(size) + " bytes; a vocabulary's meta.pkl takes at most " +
                    std::to_string(limit) + ".");
    std::ifstream in(path, std::ios::binary);
    std::string bytes(static_cast<std::size_t>(size), '\0');
    if (!in || !in.read(bytes.data(), std::streamsize(size))) throw Error(path + " cannot be read.");
    return bytes;
}

}  // namespace

CharTokenizer readNanoGptMeta(const std::string& path) {
    const std::string bytes = readSmallFile(path, kMaxVocabularyFileBytes);
    const std::string foreign = pickle::foreignCode(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
    if (!foreign.empty())
        throw Error(path + " is not nanoGPT's meta.pkl: " + foreign + ". Nothing in it was run.");
    pickle::Budget budget;
    budget.maxValues = std::size_t(RunConfig::kMaxVocabulary) * 8 + 64;  // two dicts of keys and values
    budget.maxDepth = 8;
    NoStorages none;
    pickle::Unpickled file;
    try {
        file = pickle::unpickle(bytes.data(), bytes.size(), none, budget);
    } catch (const pickle::Malformed& e) {
        throw Error(path + " cannot be read as nanoGPT's meta.pkl (" + std::string(e.what()) + ").");
    }
    using Kind = pickle::Value::Kind;
    const pickle::Value& root = file.root();
    const std::string what = path + " is not nanoGPT's meta.pkl ";
    if (root.kind != Kind::Dict) throw Error(what + "(it holds " + pickle::kindName(root.kind) + ", not a dict).");
    const pickle::Value* itos = root.find("itos");
    const pickle::Value* stoi = root.find("stoi");
    const pickle::Value* size = root.find("vocab_size");
    if (!itos || itos->kind != Kind::Dict || !stoi || stoi->kind != Kind::Dict)
        throw Error(what + "(it has no itos and stoi dicts).");
    // itos: id -> character, every id from 0 once.
    std::map<int64_t, std::string> characters;
    for (const auto& [key, value] : itos->entries) {
        if (key->kind != Kind::Int || value->kind != Kind::String)
            throw Error(what + "(its itos maps something other than a number to a character).");
        if (!characters.emplace(key->integer, value->text).second)
            throw Error(what + "(its itos has id " + std::to_string(key->integer) + " twice).");
    }
    const int64_t count = int64_t(characters.size());
    if (count < 2 || characters.begin()->first != 0 || characters.rbegin()->first != count - 1)
        throw Error(what + "(its itos does not number its characters 0 to " + std::to_string(count - 1) + ").");
    if (size && (size->kind != Kind::Int || size->integer != count))
        throw Error(path + " disagrees with itself: vocab_size " +
                    (size->kind == Kind::Int ? std::to_string(size->integer) : std::string("is not a number")) +
                    " but itos has " + std::to_string(count) + " characters.");
    if (int64_t(stoi->entries.size()) != count)
        throw Error(path + " disagrees with itself: stoi has " + std::to_string(stoi->entries.size()) +
                    " characters and itos " + std::to_string(count) + ".");
    for (const auto& [key, value] : stoi->entries) {
        if (key->kind != Kind::String || value->kind != Kind::Int)
            throw Error(what + "(its stoi maps something other than a character to a number).");
        auto it = characters.find(value->integer);
        if (it == characters.end() || it->second != key->text)
            throw Error(path + " disagrees with itself: stoi and itos give character id " +
                        std::to_string(value->integer) + " different characters.");
    }
    std::vector<std::string> list;
    for (const auto& entry : characters) list.push_back(entry.second);
    try {
        // Single characters in code-point order, as prepare.py's sorted(set(data)) makes them.
        return CharTokenizer::fromVocabulary(list);  // <|e|> first: exported by CharGPT Studio
    } catch (const Error& e) {
        throw Error(path + "'s vocabulary cannot be used: " + std::string(e.what()) +
                    " (nanoGPT's prepare.py writes the sorted distinct characters of the text).");
    }
}

std::string findNanoGptMeta(const std::string& checkpointPath, const std::string& dataset) {
    namespace fs = std::filesystem;
    const fs::path folder = fs::path(checkpointPath).parent_path();
    std::vector<fs::path> candidates = {folder / "meta.pkl"};
    // sample.py: os.path.join('data', checkpoint['config']['dataset'], 'meta.pkl'),
    // from nanoGPT's folder, which holds out-*/ckpt.pt.
    const bool plainName = !dataset.empty() && dataset != "." && dataset != ".." &&
                           dataset.find_first_of("/\\") == std::string::npos && dataset.find('\0') == std::string::npos;
    if (plainName) {
        candidates.push_back((folder.empty() ? fs::path("..") : folder / "..") / "data" / dataset / "meta.pkl");
        candidates.push_back(fs::path("data") / dataset / "meta.pkl");
    }
    for (const fs::path& candidate : candidates) {
        std::error_code error;
        if (fs::is_regular_file(candidate, error)) return candidate.string();
    }
    if (dataset.empty()) {  // the one data/*/meta.pkl above, if only one
        std::error_code error;
        const fs::path data = (folder.empty() ? fs::path("..") : folder / "..") / "data";
        std::string found;
        int count = 0;
        fs::directory_iterator it(data, error), end;
        for (int seen = 0; !error && it != end && seen < 256; it.increment(error), ++seen) {
            std::error_code entryError;
            const fs::path meta = it->path() / "meta.pkl";
            if (fs::is_regular_file(meta, entryError)) {
                found = meta.string();
                ++count;
            }
        }
        if (count == 1) return found;
    }
    return {};
}

}  // namespace chargpt
