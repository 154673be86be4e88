// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/CliCommon.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "model/runtime/Error.h"
#include "model/runtime/Runtime.h"
#include "model/text/BuiltinCorpora.h"
#include "model/train/RunFields.h"

#include <QGuiApplication>
#include "app/StudioIdentity.h"
#include <QString>
#include <QtGlobal>

using namespace chargpt;

std::atomic<bool> gInterrupted{false};
std::atomic<int> gStopSignal{0};

namespace {
constexpr int kStopSignals[] = {SIGINT, SIGTERM, SIGHUP};
}

extern "C" void onStopSignal(int sig) {
    gStopSignal = sig;
    gInterrupted = true;
    std::signal(sig, SIG_DFL);
}

void catchStopSignals() {
    for (const int sig : kStopSignals) {
        struct sigaction old {};
        if (::sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
        std::signal(sig, onStopSignal);
    }
}

void restoreStopSignals() {
    for (const int sig : kStopSignals) {
        struct sigaction old {};
        if (::sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
        std::signal(sig, SIG_DFL);
    }
}

const char* stopSignalName(int sig) {
    switch (sig) {
        case SIGINT: return "SIGINT";
        case SIGTERM: return "SIGTERM";
        case SIGHUP: return "SIGHUP";
        default: return "a signal";
    }
}

int useThreads(int64_t asked) {
    const ThreadChoice choice = applyThreads(static_cast<int>(asked));
    if (choice.capped) std::cerr << "chargpt: " << choice.message("--threads " + std::to_string(asked)) << '\n';
    return choice.applied;
}

std::string settingOption(std::string_view key) { return std::string(runField(key)->option + 2); }

std::string readPromptFile(const std::string& path, const std::string& what, const std::string& option) {
    constexpr std::size_t kMaxPromptBytes = 16u << 20;
    int fd = STDIN_FILENO;
    if (path != "-") {
        fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
        if (fd < 0) throw Error("cannot open the " + what + " " + path + ": " + std::strerror(errno) + ".");
        struct stat info {};
        const bool known = ::fstat(fd, &info) == 0;
        if (!known || !S_ISREG(info.st_mode)) {
            const int err = errno;
            ::close(fd);
            if (!known) throw Error("cannot read the " + what + " " + path + ": " + std::strerror(err) + ".");
            const std::string kind = S_ISFIFO(info.st_mode)                          ? "a named pipe (FIFO)"
                                     : S_ISCHR(info.st_mode) || S_ISBLK(info.st_mode) ? "a device"
                                     : S_ISSOCK(info.st_mode)                         ? "a socket"
                                     : S_ISDIR(info.st_mode)                          ? "a folder"
                                                                                      : "not a regular file";
            throw Error("the " + what + " " + path + " is " + kind +
                        "; give a regular file, or - to read standard input (" + option + " - < " + path + ").");
        }
    }
    std::string text;
    char buffer[65536];
    for (;;) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            const int err = errno;
            if (fd != STDIN_FILENO) ::close(fd);
            throw Error("cannot read the " + what + " " + path + ": " + std::strerror(err) + ".");
        }
        if (n == 0) break;
        text.append(buffer, static_cast<std::size_t>(n));
        if (text.size() > kMaxPromptBytes) {
            if (fd != STDIN_FILENO) ::close(fd);
            throw Error("the " + what + " " + path + " is larger than 16 MiB.");
        }
    }
    if (fd != STDIN_FILENO) ::close(fd);
    return text;
}

void refuseNulInPrompt(const std::string& prompt) {
    if (const void* nul = std::memchr(prompt.data(), 0, prompt.size()))
        throw Error("the prompt has a NUL character at byte offset " +
                    std::to_string(static_cast<const char*>(nul) - prompt.data()) + "; a prompt is text.");
}

Corpus openCorpus(const std::string& source) {
    Corpus corpus = loadCorpusSource(source);
    for (const auto& warning : corpus.warnings()) std::cerr << "chargpt: " << terminalSafe(warning) << '\n';
    return corpus;
}

void reportLeftOut(std::size_t count, const std::string& what,
                   const std::vector<std::pair<std::string, long long>>& first) {
    std::cerr << "chargpt: left out " << count << ' ' << what << " the model never saw:";
    for (std::size_t i = 0; i < first.size() && i < 10; ++i)
        std::cerr << " '" << terminalSafe(first[i].first, LineBreaks::Escape) << "' (position " << first[i].second << ")";
    std::cerr << (count > 10 ? " ...\n" : "\n");
}

nlohmann::json jsonFigure(double v) {
    if (!std::isfinite(v)) return nullptr;
    char text[32];
    std::snprintf(text, sizeof text, "%.6g", v);
    return std::strtod(text, nullptr);
}

void printJsonLine(const nlohmann::ordered_json& object) {
    // Bad UTF-8 becomes U+FFFD and C0 controls are escaped by the JSON writer;
    // what it keeps raw (DEL, C1 controls, bidirectional controls) becomes
    // \\u escapes, which read back as the same characters.
    std::cout << terminalSafe(object.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)) << std::endl;
}

std::string suffixOf(const std::string& path) {
    std::string suffix = std::filesystem::path(path).extension().string();
    for (char& c : suffix) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return suffix;
}

namespace {

// Qt's own warnings about the environment (a headless machine has no
// XDG_RUNTIME_DIR) say nothing about the drawing; the rest go to stderr as ours.
void qtMessages(QtMsgType type, const QMessageLogContext&, const QString& message) {
    if (type == QtDebugMsg || type == QtInfoMsg || message.startsWith(QLatin1String("QStandardPaths:")))
        return;
    std::cerr << "chargpt: " << terminalSafe(message.toStdString()) << '\n';
}

}  // namespace

std::unique_ptr<QGuiApplication> paintingApplication(char* programName) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    qInstallMessageHandler(qtMessages);
    static int qtArgc = 1;
    static char* qtArgv[] = {programName, nullptr};
    return std::make_unique<QGuiApplication>(qtArgc, qtArgv);
}

std::shared_ptr<chargpt::RunLibrary> openRunLibraryForRecording() {
    const std::string path = runLibraryPath();
    if (path.empty()) {
        std::cerr << "chargpt: warning: there is no data folder (is HOME set?), so this run is not recorded.\n";
        return nullptr;
    }
    try {
        std::string setAside;
        std::shared_ptr<chargpt::RunLibrary> library = chargpt::RunLibrary::open(path, &setAside);
        if (!setAside.empty()) std::cerr << "chargpt: " << terminalSafe(setAside) << '\n';
        return library;
    } catch (const std::exception& e) {
        std::cerr << "chargpt: warning: this run is not recorded: " << terminalSafe(e.what()) << '\n';
        return nullptr;
    }
}

std::unique_ptr<chargpt::RunLibrary> openRunLibraryToRead() {
    const std::string path = runLibraryPath();
    if (path.empty()) throw chargpt::Error("there is no data folder (is HOME set?), so there is no run library.");
    std::string setAside;
    auto library = chargpt::RunLibrary::open(path, &setAside);
    if (!setAside.empty()) std::cerr << "chargpt: " << terminalSafe(setAside) << '\n';
    return library;
}

std::string formatDuration(double seconds) {
    // Past a million hours (a file's 1e308 s) lround has no answer.
    if (!std::isfinite(seconds) || seconds < 0 || seconds >= 3.6e9) return "?";
    const long s = std::lround(seconds);
    char buf[32];
    if (s >= 3600)
        std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", s / 3600, (s / 60) % 60, s % 60);
    else
        std::snprintf(buf, sizeof buf, "%ld:%02ld", s / 60, s % 60);
    return buf;
}
