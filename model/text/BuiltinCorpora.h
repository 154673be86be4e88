// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

#include "model/text/Corpus.h"

namespace chargpt {

// The corpora that need no file: "builtin:tang300" (300 Tang poems) and
// "builtin:song100" (100 Song lyrics), Debian's fortunes-zh converted when the
// library is built and compiled into it, and "builtin:python", the modules of
// the installed Python standard library one after another.
std::vector<std::string> builtinCorpusNames();
// The corpus a new user trains on, in the app and with `chargpt train`: the
// Python library, large enough that the default preset learns from it instead
// of memorising it (README, "The first run").
constexpr const char* kDefaultCorpus = "builtin:python";
// Whether `source` is one of builtinCorpusNames().
bool isBuiltinSource(const std::string& source);
// One line saying what a built-in corpus holds (English); "" for another name.
std::string builtinCorpusDescription(const std::string& source);

// The folder of the installed Python standard library (the newest
// /usr/lib/python3.* holding os.py), or "" when there is none.
std::string pythonLibraryPath();

// The UTF-8 text of a built-in corpus. Throws chargpt::Error for an unknown
// name, or for builtin:python when the library is not installed.
std::string builtinCorpusText(const std::string& source);

// A built-in corpus by name, or else a file or folder (Corpus::load). An
// unknown "builtin:" name that is no file either is refused with the names.
Corpus loadCorpusSource(const std::string& source);

}  // namespace chargpt
