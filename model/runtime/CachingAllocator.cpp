// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/runtime/CachingAllocator.h"

#include <c10/core/Allocator.h>
#include <c10/core/CPUAllocator.h>
#include <sys/mman.h>

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <unordered_map>
#include <vector>

namespace chargpt {

namespace {

// Every block starts with a header of one cache line that records its size;
// the data that follows is 64-byte aligned, as LibTorch's own allocator gives.
constexpr std::size_t kHeader = 64;
// Below this size malloc is fine (small blocks, no page faults to speak of).
constexpr std::size_t kMinCached = 256 * 1024;
constexpr std::size_t kPage = 4096;
// The most the cache holds when nothing uses it.
constexpr std::size_t kMaxCached = 256u * 1024 * 1024;
constexpr uint64_t kMapped = 0x4D41505045444D45ull;  // marks an mmap'ed block

struct Header {
    std::size_t bytes;  // the whole mapping, header included (0: from malloc)
    uint64_t tag;
};

class Cache {
public:
    void* take(std::size_t bytes) {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            auto it = free_.find(bytes);
            if (it != free_.end() && !it->second.empty()) {
                void* block = it->second.back().block;  // the most recently freed
                it->second.pop_back();
                cached_ -= bytes;
                return block;
            }
        }
        void* block = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        return block == MAP_FAILED ? nullptr : block;
    }

    void give(void* block, std::size_t bytes) {
        std::vector<std::pair<void*, std::size_t>> evicted;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            if (bytes > kMaxCached) {
                evicted.emplace_back(block, bytes);
            } else {
                free_[bytes].push_back({block, ++clock_});
                cached_ += bytes;
                // Over the bound, the blocks freed longest ago go: sizes that a
                // model in use no longer asks for (another preset, an evaluation).
                while (cached_ > kMaxCached) evicted.push_back(evictOldest());
            }
        }
        for (auto [b, n] : evicted) ::munmap(b, n);
    }

    std::size_t cached() {
        std::lock_guard<std::mutex> lock(mutex_);
        return cached_;
    }

    void release() {
        std::unordered_map<std::size_t, std::vector<Entry>> blocks;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            blocks.swap(free_);
            cached_ = 0;
        }
        for (auto& [bytes, list] : blocks)
            for (const Entry& e : list) ::munmap(e.block, bytes);
    }

private:
    struct Entry {
        void* block;
        uint64_t freedAt;
    };

    // Called with the mutex held and the cache not empty.
    std::pair<void*, std::size_t> evictOldest() {
        std::vector<Entry>* oldestList = nullptr;
        std::size_t oldestBytes = 0;
        for (auto& [bytes, list] : free_)
            if (!list.empty() && (!oldestList || list.front().freedAt < oldestList->front().freedAt)) {
                oldestList = &list;
                oldestBytes = bytes;
            }
        const Entry e = oldestList->front();
        oldestList->erase(oldestList->begin());
        cached_ -= oldestBytes;
        return {e.block, oldestBytes};
    }

    std::mutex mutex_;
    std::unordered_map<std::size_t, std::vector<Entry>> free_;  // by size, oldest first
    std::size_t cached_ = 0;
    uint64_t clock_ = 0;
};

Cache& cache() {
    static Cache* c = new Cache;  // never destroyed: tensors may outlive static destructors
    return *c;
}

void deleteBlock(void* data) {
    if (!data) return;
    auto* header = reinterpret_cast<Header*>(static_cast<char*>(data) - kHeader);
    if (header->tag == kMapped)
        cache().give(header, header->bytes);
    else
        std::free(header);
}

class CachingAllocator final : public c10::Allocator {
public:
    c10::DataPtr allocate(std::size_t n) const override {
        void* data = allocateRaw(n);
        return {data, data, &deleteBlock, c10::Device(c10::DeviceType::CPU)};
    }
    c10::DeleterFnPtr raw_deleter() const override { return &deleteBlock; }

private:
    static void* allocateRaw(std::size_t n) {
        const std::size_t needed = n + kHeader;
        void* base = nullptr;
        Header header{0, 0};
        if (needed >= kMinCached) {
            const std::size_t bytes = (needed + kPage - 1) / kPage * kPage;
            base = cache().take(bytes);
            header = {bytes, kMapped};
        } else if (::posix_memalign(&base, kHeader, needed) != 0) {
            base = nullptr;
        }
        if (!base) throw std::bad_alloc();  // LibTorch reports it as out of memory
        std::memcpy(base, &header, sizeof header);
        return static_cast<char*>(base) + kHeader;
    }
};

}  // namespace

void installCachingAllocator() {
    static std::once_flag once;
    std::call_once(once, [] {
        static CachingAllocator allocator;
        c10::SetCPUAllocator(&allocator, /*priority=*/1);
    });
}

std::size_t cachedAllocatorBytes() { return cache().cached(); }

void releaseCachedAllocatorMemory() { cache().release(); }

}  // namespace chargpt
