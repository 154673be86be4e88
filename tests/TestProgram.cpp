// SPDX-License-Identifier: GPL-3.0-or-later
// The main() of a test program that holds several test files (TestProgram.h).
#include "TestProgram.h"

#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace chargpt::test {
namespace {

std::map<std::string, Main>& programs() {
    static std::map<std::string, Main> registered;  // filled before main(), by each file's static initialiser
    return registered;
}

std::string running;

}  // namespace

bool addProgram(const char* sourceFile, Main main) {
    std::string name = sourceFile;
    if (const auto slash = name.find_last_of('/'); slash != std::string::npos) name.erase(0, slash + 1);
    if (const auto dot = name.find('.'); dot != std::string::npos) name.erase(dot);
    return programs().emplace(name, main).second;
}

QStringList selfArguments() { return {QString::fromStdString(running)}; }

}  // namespace chargpt::test

int main(int argc, char** argv) {
    using namespace chargpt::test;
    const auto found = argc >= 2 ? programs().find(argv[1]) : programs().end();
    if (found == programs().end()) {
        std::fprintf(stderr, "usage: %s TEST [Qt Test options]\nwhere TEST is one of:\n", argc > 0 ? argv[0] : "tests");
        for (const auto& [name, main] : programs()) std::fprintf(stderr, "  %s\n", name.c_str());
        return 2;
    }
    running = found->first;
    // The test sees itself started as its own program: argv[0] is its name, so
    // that Qt's application name (settings, data folders) is the test's, as
    // when each test was a program of its own. The executable is still found
    // through /proc/self/exe (QCoreApplication::applicationFilePath()).
    std::vector<char*> arguments;
    arguments.push_back(running.data());
    for (int i = 2; i < argc; ++i) arguments.push_back(argv[i]);
    arguments.push_back(nullptr);
    return found->second(argc - 1, arguments.data());
}
