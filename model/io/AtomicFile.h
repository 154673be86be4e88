// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace chargpt {

// Replaces the file at `path` by `bytes` so that a reader, a crash or a full
// disk sees either the previous file whole or the new one whole: the bytes go
// to a temporary file ".NAME.tmp-PID-XXXXXX" beside the target (created
// exclusively, mode 0644), which is flushed, synced and renamed over `path`;
// then the folder is synced so that the rename survives a power cut. Before
// writing, the temporaries of saves killed half-way that are now stale are
// removed (see removeStaleTemporaries). Throws chargpt::Error
// "cannot save to PATH: ..." saying what failed; the previous file is then
// unchanged and no temporary file is left.
void writeFileAtomically(const std::string& path, std::string_view bytes);

// A save killed half-way (power cut, SIGKILL) leaves its temporary file behind.
// This removes, in `dir`, the temporaries of the file `name` whose process is
// gone and that have not changed for a minute (a process of another PID
// namespace sharing the folder could still be writing a fresh one), and those
// of the older pattern ".NAME.tmp-XXXXXX", which names no process, once they
// are an hour old. Nothing else is touched; errors are ignored.
void removeStaleTemporaries(const std::string& dir, const std::string& name);

}  // namespace chargpt
