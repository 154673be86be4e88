// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace chargpt {

// Replaces the file at `path` by `bytes` so that a reader, a crash or a full
// disk sees either the previous file whole or the new one whole: the bytes go
// to a temporary file ".NAME.tmp-PID-XXXXXX" beside the file replaced (created
// exclusively with a random name, mode 0600 until written), which is flushed,
// given the previous file's permission bits (and owner, where the process may
// set it; 0644 for a new file), synced and renamed over it; then the folder is
// synced so that the rename survives a power cut. Before writing, the
// temporaries of saves killed half-way that are now stale are removed (see
// removeStaleTemporaries).
//
// What is replaced: only a regular file, or nothing (a new file). A folder, a
// device, a named pipe or a socket is refused before anything is written. A
// symbolic link is written through: the file it finally leads to is replaced
// and the link stays (as editors and QSaveFile do); a link that leads nowhere
// or a loop of links is refused. A file with more than one hard link is
// refused: replacing it would cut its other names off from the new contents,
// and writing it in place would give up the all-or-nothing guarantee, so
// nothing is written and the message says so.
//
// Throws chargpt::Error "cannot save to PATH: ..." saying what failed; the
// previous file is then unchanged and no temporary file is left.
void writeFileAtomically(const std::string& path, std::string_view bytes);

// Checks, before the work whose result will be saved to `path`, that
// writeFileAtomically(path, ...) can succeed: the same refusals as the save
// itself, then a temporary file is created exclusively in the target's folder
// and removed (so a missing, read-only or full folder is found now), and when
// `expectedBytes` is not 0, the disk must have that much room. Throws
// chargpt::Error "cannot save to PATH: ..."; writes nothing that stays.
void checkSaveTarget(const std::string& path, std::uintmax_t expectedBytes = 0);

// A save killed half-way (power cut, SIGKILL) leaves its temporary file behind.
// This removes, in `dir`, the temporaries of the file `name` whose process is
// gone and that have not changed for a minute (a process of another PID
// namespace sharing the folder could still be writing a fresh one), and those
// of the older pattern ".NAME.tmp-XXXXXX", which names no process, once they
// are an hour old. Nothing else is touched; errors are ignored.
void removeStaleTemporaries(const std::string& dir, const std::string& name);

}  // namespace chargpt
