// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/io/AtomicFile.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
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

namespace {

std::string describeKind(mode_t mode) {
    if (S_ISDIR(mode)) return "a folder";
    if (S_ISFIFO(mode)) return "a named pipe (FIFO)";
    if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a regular file";
}

[[noreturn]] void refuse(const std::string& path, const std::string& why) {
    throw Error("cannot save to " + path + ": " + why);
}

// The file a save to `path` replaces, and what it is now.
struct Target {
    std::string file;  // `path`, or the file its symbolic link finally leads to
    std::string dir;   // the folder that holds `file`
    std::string name;  // the last component of `file`
    bool exists = false;
    struct stat info {};
};

// Resolves `path` and applies every refusal that needs no writing: only a
// regular file with one link, or nothing, may be replaced.
Target resolveTarget(const std::string& path) {
    namespace fs = std::filesystem;
    if (path.empty()) refuse(path, "no file name was given.");
    Target t;
    t.file = path;
    struct stat own {};
    if (::lstat(path.c_str(), &own) != 0) {
        if (errno != ENOENT) refuse(path, std::string(std::strerror(errno)) + ".");
    } else if (S_ISLNK(own.st_mode)) {
        // Written through, as editors do: the link stays and its file is replaced.
        char* resolved = ::realpath(path.c_str(), nullptr);
        if (!resolved) {
            if (errno == ELOOP) refuse(path, "it is a loop of symbolic links; nothing was written.");
            if (errno == ENOENT)
                refuse(path, "it is a symbolic link to something that does not exist; nothing was written.");
            refuse(path, "cannot follow its symbolic link (" + std::string(std::strerror(errno)) + ").");
        }
        t.file = resolved;
        std::free(resolved);
    }
    const fs::path file(t.file);
    t.dir = file.has_parent_path() ? file.parent_path().string() : std::string(".");
    t.name = file.filename().string();
    if (::stat(t.file.c_str(), &t.info) == 0) {
        t.exists = true;
        if (!S_ISREG(t.info.st_mode)) {
            const std::string via = t.file == path ? "" : " (through the symbolic link, " + t.file + ")";
            refuse(path, "it is " + describeKind(t.info.st_mode) + via +
                             "; only a regular file is replaced, so nothing was written.");
        }
        if (t.info.st_nlink > 1)
            refuse(path, "it has " + std::to_string(t.info.st_nlink) +
                             " hard links; replacing it would leave the other names with the old contents "
                             "and writing it in place could leave it half-written, so nothing was written "
                             "(save under another name, or remove the other links first).");
    } else if (errno != ENOENT) {
        refuse(path, std::string(std::strerror(errno)) + ".");
    }
    if (t.name.empty() || t.name == "." || t.name == "..") refuse(path, "it names a folder, not a file.");
    return t;
}

// A new, exclusively created temporary file beside the target: 0600, a random name.
int createTemporary(const std::string& path, const Target& t, std::string& tmp) {
    tmp = (std::filesystem::path(t.dir) / ("." + t.name + ".tmp-" + std::to_string(::getpid()) + "-XXXXXX")).string();
    const int fd = ::mkostemp(tmp.data(), O_CLOEXEC);
    if (fd < 0) {
        const int err = errno;
        struct stat dirInfo {};
        if (err == ENOENT && ::stat(t.dir.c_str(), &dirInfo) != 0)
            refuse(path, "the folder " + t.dir + " does not exist (" + std::strerror(err) + ").");
        refuse(path, "cannot create a file in " + t.dir + ": " + std::strerror(err) + ".");
    }
    return fd;
}

// The previous file's owner (where this process may set it) and permission
// bits; set-user and set-group bits only when the owner was kept.
void copyOwnerAndMode(int fd, const Target& t) {
    mode_t mode = 0644;
    if (t.exists) {
        mode = t.info.st_mode & 07777;
        struct stat now {};
        bool ownerKept = ::fstat(fd, &now) == 0 && now.st_uid == t.info.st_uid && now.st_gid == t.info.st_gid;
        if (!ownerKept) {
            if (::fchown(fd, t.info.st_uid, t.info.st_gid) == 0)
                ownerKept = true;
            else
                (void)::fchown(fd, static_cast<uid_t>(-1), t.info.st_gid);  // a group of ours, at least
        }
        if (!ownerKept) mode &= 0777;
    }
    ::fchmod(fd, mode);  // before the fsync, so the mode is on disk too
}

}  // namespace

void checkSaveTarget(const std::string& path, std::uintmax_t expectedBytes) {
    const Target t = resolveTarget(path);
    std::string tmp;
    const int fd = createTemporary(path, t, tmp);
    struct statvfs space {};
    const bool known = ::fstatvfs(fd, &space) == 0;
    ::close(fd);
    ::unlink(tmp.c_str());
    if (!known) return;
    const std::uintmax_t room = static_cast<std::uintmax_t>(space.f_bavail) * space.f_frsize;
    if (room == 0 || room < expectedBytes) {
        std::string what = "the disk holding " + t.dir + " is full";
        if (room > 0) what += " (" + std::to_string(room >> 20) + " MiB free, about " +
                              std::to_string((expectedBytes + (1u << 20) - 1) >> 20) + " MiB needed)";
        refuse(path, what + ".");
    }
}

void writeFileAtomically(const std::string& path, std::string_view bytes) {
    const Target t = resolveTarget(path);
    removeStaleTemporaries(t.dir, t.name);
    std::string tmp;
    const int fd = createTemporary(path, t, tmp);
    auto fail = [&](const std::string& what) {
        const int err = errno;
        ::close(fd);
        ::unlink(tmp.c_str());
        throw Error("cannot save to " + path + ": " + what + " failed (" + std::strerror(err) +
                    "); the previous file is unchanged.");
    };
    copyOwnerAndMode(fd, t);
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
        throw Error("cannot save to " + path + ": " + std::strerror(err) + "; the previous file is unchanged.");
    }
    // What was checked first may have changed while the bytes were written:
    // the rename happens only over a regular file with one link, or nothing.
    struct stat now {};
    if (::lstat(t.file.c_str(), &now) == 0 && (!S_ISREG(now.st_mode) || now.st_nlink > 1)) {
        ::unlink(tmp.c_str());
        refuse(path, "it became " + (S_ISREG(now.st_mode) ? std::string("a file with several hard links")
                                                          : describeKind(now.st_mode)) +
                         " while it was being saved; nothing was replaced.");
    }
    if (::rename(tmp.c_str(), t.file.c_str()) != 0) {
        const int err = errno;
        ::unlink(tmp.c_str());
        throw Error("cannot save to " + path + ": " + std::strerror(err) + "; the previous file is unchanged.");
    }
    // The rename itself must reach the disk for the new file to survive a crash.
    const int dirFd = ::open(t.dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dirFd >= 0) {
        ::fsync(dirFd);
        ::close(dirFd);
    }
}

}  // namespace chargpt
