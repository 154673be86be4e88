// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/text/BuiltinCorpora.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

#include "model/runtime/Error.h"

namespace chargpt {

namespace builtin_text {
// Generated at build time by resources/embed_corpus.cmake.
extern const char tang300[];
extern const char song100[];
}  // namespace builtin_text

namespace {

constexpr const char* kPrefix = "builtin:";
namespace fs = std::filesystem;

std::string readFile(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (!in && !in.eof()) throw Error("cannot read " + path.string() + ".");
    return text.str();
}

// The library's own modules (not its tests or packages), in name order, each
// ending with a newline and followed by a blank line.
std::string pythonLibraryText(const std::string& folder) {
    std::vector<fs::path> files;
    std::error_code error;
    for (const fs::directory_entry& entry : fs::directory_iterator(folder, error)) {
        const std::string name = entry.path().filename().string();
        if (name.empty() || name[0] == '.' || entry.path().extension() != ".py") continue;
        std::error_code ignored;
        if (entry.is_regular_file(ignored)) files.push_back(entry.path());
    }
    if (error) throw Error("cannot list " + folder + ": " + error.message() + ".");
    std::sort(files.begin(), files.end());
    std::string text;
    for (const fs::path& file : files) {
        text += readFile(file);
        if (text.empty() || text.back() != '\n') text += '\n';
        text += '\n';
    }
    return text;
}

}  // namespace

std::vector<std::string> builtinCorpusNames() {
    return {"builtin:tang300", "builtin:song100", "builtin:python"};
}

bool isBuiltinSource(const std::string& source) {
    const std::vector<std::string> names = builtinCorpusNames();
    return std::find(names.begin(), names.end(), source) != names.end();
}

std::string builtinCorpusDescription(const std::string& source) {
    if (source == "builtin:tang300") return "300 Tang poems (Debian's fortunes-zh), classical Chinese";
    if (source == "builtin:song100") return "100 Song lyrics (Debian's fortunes-zh), classical Chinese";
    if (source == "builtin:python")
        return "the top-level modules of the installed Python standard library, one after another";
    return {};
}

std::string pythonLibraryPath() {
    std::vector<std::string> names;
    std::error_code error;
    for (const fs::directory_entry& entry : fs::directory_iterator("/usr/lib", error)) {
        const std::string name = entry.path().filename().string();
        std::error_code ignored;
        if (name.rfind("python3.", 0) == 0 && entry.is_directory(ignored)) names.push_back(name);
    }
    // The newest first, as names sort (python3.9 before python3.11, as ever).
    std::sort(names.rbegin(), names.rend());
    for (const std::string& name : names) {
        const std::string path = "/usr/lib/" + name;
        std::error_code ignored;
        if (fs::exists(path + "/os.py", ignored)) return path;
    }
    return {};
}

std::string builtinCorpusText(const std::string& source) {
    if (source == "builtin:tang300") return builtin_text::tang300;
    if (source == "builtin:song100") return builtin_text::song100;
    if (source == "builtin:python") {
        const std::string folder = pythonLibraryPath();
        if (folder.empty()) throw Error("the Python standard library is not installed.");
        return pythonLibraryText(folder);
    }
    throw Error("there is no built-in corpus '" + source +
                "' (builtin:tang300, builtin:song100 or builtin:python).");
}

Corpus loadCorpusSource(const std::string& source) {
    if (!isBuiltinSource(source)) {
        std::error_code ignored;
        if (source.rfind(kPrefix, 0) == 0 && !fs::exists(source, ignored))
            builtinCorpusText(source);  // says which exist
        return Corpus::load(source);
    }
    const std::string text = builtinCorpusText(source);
    if (source == "builtin:python") return Corpus::fromUtf8(text, pythonLibraryPath());
    return Corpus::fromUtf8(text, source.substr(std::string(kPrefix).size()));
}

}  // namespace chargpt
