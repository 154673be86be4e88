// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/runtime/Runtime.h"

#include "model/runtime/CachingAllocator.h"
#include "model/runtime/CpuTier.h"

#include <ATen/Parallel.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>

namespace chargpt {

int environmentThreads() {
    const char* text = std::getenv("OMP_NUM_THREADS");
    if (text == nullptr || *text == '\0') return 0;
    char* end = nullptr;
    errno = 0;
    const long n = std::strtol(text, &end, 10);
    // A plain positive number only: a list ("4,2") or a word leaves the choice to us.
    if (errno != 0 || *end != '\0' || n < 1 || n > kMaxThreads) return 0;
    return static_cast<int>(n);
}

int machineCores() {
#ifdef __linux__
    cpu_set_t set;
    CPU_ZERO(&set);
    if (::sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return CPU_COUNT(&set);
#endif
    return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

ThreadChoice chooseThreads(int requested, int cores) {
    ThreadChoice c;
    c.requested = std::max(requested, 0);
    c.cores = std::max(cores, 1);
    c.wanted = c.requested;
    if (c.wanted == 0) {
        c.wanted = environmentThreads();
        c.fromEnvironment = c.wanted > 0;
    }
    if (c.wanted == 0) c.wanted = c.cores;
    c.capped = c.wanted > c.cores;
    c.applied = std::min(c.wanted, c.cores);
    return c;
}

std::string ThreadChoice::message(const std::string& asked) const {
    if (!capped) return {};
    const std::string what = fromEnvironment ? "OMP_NUM_THREADS=" + std::to_string(wanted) : asked;
    return what + " is more than this machine's " + std::to_string(cores) + (cores == 1 ? " core" : " cores") +
           ": using " + std::to_string(applied) + (applied == 1 ? " thread." : " threads.");
}

ThreadChoice applyThreads(int threads) {
    static std::once_flag once;
    static ThreadChoice choice;
    std::call_once(once, [threads] {
        choice = chooseThreads(threads, machineCores());
        at::set_num_threads(choice.applied);
        installCachingAllocator();
    });
    ThreadChoice inForce = choice;
    inForce.applied = at::get_num_threads();
    return inForce;
}

int initThreads(int threads) { return applyThreads(threads).applied; }

namespace {

// Raises this thread's nice value to `target` (never lowers it: that needs
// privileges and the thread may have been lowered on purpose).
bool niceThisThread(int target) {
#ifdef __linux__
    const auto tid = static_cast<id_t>(::syscall(SYS_gettid));
    errno = 0;
    const int now = ::getpriority(PRIO_PROCESS, tid);
    if (errno != 0) return false;
    if (now >= target) return true;
    return ::setpriority(PRIO_PROCESS, tid, target) == 0;
#else
    (void)target;
    return false;
#endif
}

}  // namespace

bool lowerComputePriority(int increment) {
    errno = 0;
    const int base = ::getpriority(PRIO_PROCESS, 0);  // the process's (main thread's) value
    if (errno != 0) return false;
    const int target = std::min(base + std::max(increment, 0), 19);
    bool ok = niceThisThread(target);
    // One chunk per intra-op thread: each of them runs exactly one call. Threads
    // started later by this thread inherit its value.
    const int64_t n = at::get_num_threads();
    std::atomic<bool> all{true};
    at::parallel_for(0, n, 1, [&](int64_t, int64_t) {
        if (!niceThisThread(target)) all = false;
    });
    return ok && all;
}

bool cpuHasFastBf16() { return tierHasNativeBf16(cpuTier()); }

double physicalMemoryBytes() {
    const long pages = ::sysconf(_SC_PHYS_PAGES), pageSize = ::sysconf(_SC_PAGESIZE);
    return pages > 0 && pageSize > 0 ? double(pages) * double(pageSize) : 0.0;
}

}  // namespace chargpt
