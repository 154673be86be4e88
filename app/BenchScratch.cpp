// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/BenchScratch.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <vector>

#include "model/runtime/Error.h"

namespace chargpt::bench {

namespace {

std::string temporaryRoot() {
    const char* tmpdir = std::getenv("TMPDIR");
    if (tmpdir != nullptr && *tmpdir == '/') return tmpdir;
    return "/tmp";
}

std::string madeFolder(const std::string& pattern) {
    std::vector<char> name(pattern.begin(), pattern.end());
    name.push_back('\0');
    if (::mkdtemp(name.data()) == nullptr)
        throw Error("cannot make a folder for the bench's files in " + pattern.substr(0, pattern.rfind('/')) + ": " +
                    std::strerror(errno) + ".");
    return name.data();
}

}  // namespace

Scratch::Scratch() : path_(madeFolder(temporaryRoot() + "/chargpt-bench-XXXXXX")) {
    int ends[2];
    if (::pipe2(ends, O_CLOEXEC) != 0) return;  // no watcher: the destructor still removes the folder
    // Everything the watcher needs is made before fork: after it, the child
    // (of a process with LibTorch's threads) calls only what is safe there.
    const char* const argv[] = {"/bin/sh", "-c", "cat >/dev/null 2>&1; exec rm -rf -- \"$1\" 2>/dev/null", "sh",
                                path_.c_str(), nullptr};
    struct sigaction ignore {};
    ignore.sa_handler = SIG_IGN;
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::setsid();
        for (const int s : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE}) ::sigaction(s, &ignore, nullptr);
        if (::dup2(ends[0], STDIN_FILENO) < 0) ::_exit(127);
        ::execv(argv[0], const_cast<char* const*>(argv));
        ::_exit(127);
    }
    ::close(ends[0]);
    if (pid < 0) {
        ::close(ends[1]);
        return;
    }
    watcherPipe_ = ends[1];
    watcher_ = pid;
}

Scratch::~Scratch() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
    if (watcherPipe_ >= 0) ::close(watcherPipe_);
    if (watcher_ > 0) ::waitpid(watcher_, nullptr, 0);
}

std::string scratchFolder(const std::string& scratch, const std::string& what) {
    return madeFolder(scratch + "/" + what + "-XXXXXX");
}

}  // namespace chargpt::bench
