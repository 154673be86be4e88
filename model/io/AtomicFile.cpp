// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/io/AtomicFile.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <filesystem>

#include "model/runtime/Error.h"

namespace chargpt {

void removeStaleTemporaries(const std::string& dir, const std::string& name) {
    namespace fs = std::filesystem;
    const std::string prefix = "." + name + ".tmp-";
    std::error_code ec;
    fs::directory_iterator it(fs::path(dir), ec), end;
    for (; !ec && it != end; it.increment(ec)) {
        const std::string entry = it->path().filename().string();
        if (entry.size() <= prefix.size() || entry.compare(0, prefix.size(), prefix) != 0) continue;
        const std::string rest = entry.substr(prefix.size());
        struct stat info {};
        if (::lstat(it->path().c_str(), &info) != 0 || !S_ISREG(info.st_mode)) continue;
        const double age = std::difftime(std::time(nullptr), info.st_mtime);
        bool stale = false;
        const std::size_t dash = rest.find('-');
        if (dash != std::string::npos && dash > 0 && rest.size() == dash + 7 &&
            std::all_of(rest.begin(), rest.begin() + static_cast<std::ptrdiff_t>(dash),
                        [](char c) { return c >= '0' && c <= '9'; }) && dash < 10) {
            const long pid = std::stol(rest.substr(0, dash));
            const bool gone = pid > 0 && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH;
            stale = gone && age > 60.0;
        } else if (rest.size() == 6) {
            stale = age > 3600.0;
        }
        if (stale) ::unlink(it->path().c_str());
    }
}

void writeFileAtomically(const std::string& path, std::string_view bytes) {
    namespace fs = std::filesystem;
    const fs::path target(path);
    const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
    std::error_code ec;
    if (fs::is_directory(target, ec)) throw Error("cannot save to " + path + ": it is a folder.");
    removeStaleTemporaries(dir.string(), target.filename().string());
    std::string tmp =
        (dir / ("." + target.filename().string() + ".tmp-" + std::to_string(::getpid()) + "-XXXXXX")).string();
    const int fd = ::mkstemp(tmp.data());
    if (fd < 0) throw Error("cannot save to " + path + ": " + std::strerror(errno) + ".");
    auto fail = [&](const std::string& what) {
        const int err = errno;
        ::close(fd);
        ::unlink(tmp.c_str());
        throw Error("cannot save to " + path + ": " + what + " failed (" + std::strerror(err) +
                    "); the previous file is unchanged.");
    };
    ::fchmod(fd, 0644);  // mkstemp makes it 0600; before the fsync, so the mode is on disk too
    std::size_t written = 0;
    while (written < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
        if (n < 0) {
            if (errno == EINTR) continue;
            fail("writing");
        }
        written += static_cast<std::size_t>(n);
    }
    if (::fsync(fd) != 0) fail("flushing to disk");
    if (::close(fd) != 0) {
        const int err = errno;
        ::unlink(tmp.c_str());
        throw Error("cannot save to " + path + ": " + std::strerror(err) + ".");
    }
    if (::rename(tmp.c_str(), path.c_str()) != 0) {
        const int err = errno;
        ::unlink(tmp.c_str());
        throw Error("cannot save to " + path + ": " + std::strerror(err) + "; the previous file is unchanged.");
    }
    // The rename itself must reach the disk for the new file to survive a crash.
    const int dirFd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
    if (dirFd >= 0) {
        ::fsync(dirFd);
        ::close(dirFd);
    }
}

}  // namespace chargpt
