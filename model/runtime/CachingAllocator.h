// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>

namespace chargpt {

// LibTorch's CPU tensors come from malloc. A training step frees and allocates
// the same activation sizes (megabytes each) every step; glibc serves them from
// a heap whose freed space it keeps and fragments (the book preset peaked 150 MB
// above what it had live), and handing large blocks back to the system instead
// costs a page fault for every 4 KiB touched (a step became almost twice as
// slow). This allocator keeps freed large blocks by size and gives them to the
// next request of that size, so a step reuses the previous step's memory: no
// fragmentation, no page faults after the first step. Cached memory is bounded;
// beyond the bound the blocks freed longest ago go back to the system.
//
// Installs it as LibTorch's CPU allocator (once per process; tensors allocated
// before keep their own deleter).
void installCachingAllocator();

// Bytes held in the cache, not in any tensor.
std::size_t cachedAllocatorBytes();
// Gives every cached block back to the system.
void releaseCachedAllocatorMemory();

}  // namespace chargpt
