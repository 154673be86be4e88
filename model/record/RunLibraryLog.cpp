// SPDX-License-Identifier: GPL-3.0-or-later
// The run library's write-ahead log looked at on opening: what a damaged header or frame would lose without a word.
#include <sqlite3.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

#include "model/record/RunLibraryDetail.h"

namespace chargpt::runlibrary {

namespace fs = std::filesystem;

namespace {

uint32_t big(const unsigned char* p) {
    return uint32_t(p[0]) << 24 | uint32_t(p[1]) << 16 | uint32_t(p[2]) << 8 | uint32_t(p[3]);
}
uint32_t little(const unsigned char* p) {
    return uint32_t(p[3]) << 24 | uint32_t(p[2]) << 16 | uint32_t(p[1]) << 8 | uint32_t(p[0]);
}

// SQLite's checksum of `size` bytes (a multiple of 8) going on from `s`, in
// 32-bit words of the byte order the log's magic names.
void checksum(const unsigned char* bytes, std::size_t size, bool bigEndian, uint32_t s[2]) {
    for (std::size_t at = 0; at + 8 <= size; at += 8) {
        s[0] += (bigEndian ? big(bytes + at) : little(bytes + at)) + s[1];
        s[1] += (bigEndian ? big(bytes + at + 4) : little(bytes + at + 4)) + s[0];
    }
}

// True when `wal` holds committed frames SQLite will not apply. SQLite reads a
// log up to its first frame that is not sound (its salts are not the log's,
// or its checksum, which goes on from the frame before, fails) and takes the
// rest for a write that never ended; the next write then writes over it. So a
// damaged header loses every frame, and a damaged frame loses every commit
// from it on: the log is damaged when its header is not one SQLite takes, or
// when a commit frame of its own salts lies at or past a frame that is not
// sound. Frames after a log was started anew have other salts, and a write
// that never ended has no commit frame: neither is damage. The log is read
// once, a frame at a time, into a buffer of its page size (at most 64 KiB,
// checked before the buffer is made).
bool damagedLog(const std::string& wal) {
    std::error_code ec;
    if (!fs::is_regular_file(fs::symlink_status(wal, ec)) || fs::file_size(wal, ec) <= 32 || ec) return false;
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(wal.c_str(), "rb"), &std::fclose);
    if (!file) return false;
    unsigned char h[32];
    if (std::fread(h, 1, sizeof h, file.get()) != sizeof h) return false;
    const uint32_t magic = big(h), page = big(h + 8);
    if ((magic & ~1u) != 0x377f0682u || big(h + 4) != 3007000u || page < 512 || page > 65536 || (page & (page - 1)) != 0)
        return true;
    const bool bigEndian = (magic & 1) != 0;
    uint32_t s[2] = {0, 0};
    checksum(h, 24, bigEndian, s);
    if (s[0] != big(h + 24) || s[1] != big(h + 28)) return true;
    std::vector<unsigned char> frame(24 + std::size_t(page));
    bool unsound = false;
    while (std::fread(frame.data(), 1, frame.size(), file.get()) == frame.size()) {
        const unsigned char* f = frame.data();
        const bool ours = big(f + 8) == big(h + 16) && big(f + 12) == big(h + 20);
        if (!unsound) {
            uint32_t next[2] = {s[0], s[1]};
            checksum(f, 8, bigEndian, next);
            checksum(f + 24, page, bigEndian, next);
            if (ours && big(f) != 0 && next[0] == big(f + 16) && next[1] == big(f + 20)) {
                s[0] = next[0];
                s[1] = next[1];
                continue;
            }
            unsound = true;
        }
        if (ours && big(f + 4) != 0) return true;  // a commit SQLite will not apply
    }
    return false;
}

}  // namespace

// Looked at again under the write lock, which any writer holds to start a
// log or write to it, so that a frame being written is not taken for a
// damaged one; when the lock is not had in 1 s, the log is left for the next
// opening to look at.
void keepDamagedLog(sqlite3* db, const std::string& path, std::string* note) {
    if (!damagedLog(path + "-wal")) return;
    sqlite3_busy_timeout(db, 1000);
    const bool locked = sqlite3_exec(db, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) == SQLITE_OK;
    sqlite3_busy_timeout(db, 5000);
    if (!locked) return;
    if (damagedLog(path + "-wal")) {
        const std::string aside = asideName(path);
        std::error_code ec;
        fs::copy_file(path, aside, ec);
        if (!ec) fs::copy_file(path + "-wal", aside + "-wal", ec);
        *note = "The run library " + path + " has a damaged write-ahead log (" + path +
                "-wal): the runs written last may be missing; " +
                (ec ? "its copy could not be kept (" + ec.message() + ")."
                    : "a copy of both was kept as " + aside + " and " + aside + "-wal.");
    }
    sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
}

}  // namespace chargpt::runlibrary
