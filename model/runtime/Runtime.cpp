// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/runtime/Runtime.h"

#include "model/runtime/CachingAllocator.h"

#include <ATen/Parallel.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif
#include <link.h>
#include <limits.h>
#include <sched.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>

namespace chargpt {

namespace {

bool spacesOnly(const char* s) {
    while (std::isspace(static_cast<unsigned char>(*s))) ++s;
    return *s == '\0';
}

const char* skipSpaces(const char* s) {
    while (std::isspace(static_cast<unsigned char>(*s))) ++s;
    return s;
}

// libgomp's own reading of OMP_WAIT_POLICY: ACTIVE or PASSIVE in any case,
// spaces around.
bool validWaitPolicy(const char* v) {
    v = skipSpaces(v);
    if (::strncasecmp(v, "active", 6) == 0) return spacesOnly(v + 6);
    if (::strncasecmp(v, "passive", 7) == 0) return spacesOnly(v + 7);
    return false;
}

// And of GOMP_SPINCOUNT: INFINITE or INFINITY, or a whole number with an
// optional k, M, G or T.
bool validSpinCount(const char* v) {
    v = skipSpaces(v);
    if (::strncasecmp(v, "infinite", 8) == 0 || ::strncasecmp(v, "infinity", 8) == 0) return spacesOnly(v + 8);
    errno = 0;
    char* end = nullptr;
    (void)std::strtoull(v, &end, 10);
    if (errno != 0 || end == v) return false;
    const char* rest = skipSpaces(end);
    if (*rest == '\0') return true;
    switch (std::tolower(static_cast<unsigned char>(*rest))) {
    case 'k': case 'm': case 'g': case 't': return spacesOnly(rest + 1);
    default: return false;
    }
}

// Drops `name` when it holds a value OpenMP ignores; true when a value is left.
bool keepValid(const char* name, bool (*valid)(const char*), const char* program, const char* takes) {
    const char* value = std::getenv(name);
    if (value == nullptr) return false;
    if (valid(value)) return true;
    std::fprintf(stderr, "%s: %s is set to a value OpenMP does not take (%s): it is ignored, and threads spin %d times, then sleep.\n",
                 program, name, takes, kOpenMPSpins);
    ::unsetenv(name);
    return false;
}

// The dynamic loader named in the program's own headers (PT_INTERP), or null.
int findInterpreter(dl_phdr_info* info, std::size_t, void* out) {
    for (int i = 0; i < info->dlpi_phnum; ++i)
        if (info->dlpi_phdr[i].p_type == PT_INTERP)
            *static_cast<const char**>(out) = reinterpret_cast<const char*>(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
    return 1;  // the first object is the program itself
}

// The file this process runs, as a path (empty when it cannot be read or the
// file is gone), and whether it is the dynamic loader rather than the program:
// so it is when started as `ld.so ./program`.
std::string runningFile(bool& isLoader) {
    isLoader = false;
    char buffer[PATH_MAX + 1];
    const ssize_t n = ::readlink("/proc/self/exe", buffer, PATH_MAX);
    if (n <= 0) return {};
    std::string path(buffer, static_cast<std::size_t>(n));
    const std::string deleted = " (deleted)";
    if (path.size() > deleted.size() && path.compare(path.size() - deleted.size(), deleted.size(), deleted) == 0) return {};
    const char* interpreter = nullptr;
    ::dl_iterate_phdr(findInterpreter, &interpreter);
    if (interpreter != nullptr) {
        char* resolved = ::realpath(interpreter, nullptr);
        if (resolved != nullptr) {
            isLoader = path == resolved;
            std::free(resolved);
        }
    }
    return path;
}

}  // namespace

void reexecWithShortOpenMPSpin(char** argv, const char* program) {
    const bool policySet = keepValid("OMP_WAIT_POLICY", validWaitPolicy, program, "ACTIVE or PASSIVE");
    const bool spinSet = keepValid("GOMP_SPINCOUNT", validSpinCount, program, "a whole number or INFINITE");
    if (policySet || spinSet) return;  // the user's choice
    const std::string advice = std::string("set OMP_WAIT_POLICY=PASSIVE GOMP_SPINCOUNT=") + std::to_string(kOpenMPSpins) +
                               " in the environment, or OpenMP threads busy-wait between steps.";
    bool isLoader = false;
    const std::string self = runningFile(isLoader);
    if (isLoader) {
        std::fprintf(stderr, "%s: started through the dynamic loader, it cannot restart itself with a short OpenMP spin: %s\n",
                     program, advice.c_str());
        return;
    }
    if (::setenv("GOMP_SPINCOUNT", std::to_string(kOpenMPSpins).c_str(), 1) != 0 ||
        ::setenv("OMP_WAIT_POLICY", "PASSIVE", 1) != 0)
        return;
    // By its own name, so that the process keeps it (executing /proc/self/exe
    // names it "exe"); the link itself only when the file is gone.
    ::execv(self.empty() ? "/proc/self/exe" : self.c_str(), argv);
    const int error = errno;
    std::fprintf(stderr, "%s: could not restart with a short OpenMP spin (%s): %s\n", program, std::strerror(error),
                 advice.c_str());
    ::unsetenv("GOMP_SPINCOUNT");
    ::unsetenv("OMP_WAIT_POLICY");
}

int environmentThreads() {
    const char* text = std::getenv("OMP_NUM_THREADS");
    if (text == nullptr || *text == '\0') return 0;
    char* end = nullptr;
    errno = 0;
    const long n = std::strtol(text, &end, 10);
    // A plain positive number only: a list ("4,2") or a word leaves the choice to us.
    if (errno != 0 || *end != '\0' || n < 1 || n > 1024) return 0;
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

bool cpuHasFastBf16() {
#if defined(__x86_64__) || defined(__i386__)
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    if (__get_cpuid_max(0, nullptr) < 7) return false;
    __cpuid_count(7, 0, eax, ebx, ecx, edx);
    const bool amxBf16 = (edx >> 22) & 1u;
    __cpuid_count(7, 1, eax, ebx, ecx, edx);
    const bool avx512Bf16 = (eax >> 5) & 1u;
    return amxBf16 || avx512Bf16;
#else
    return false;
#endif
}

double physicalMemoryBytes() {
    const long pages = ::sysconf(_SC_PHYS_PAGES), pageSize = ::sysconf(_SC_PAGESIZE);
    return pages > 0 && pageSize > 0 ? double(pages) * double(pageSize) : 0.0;
}

}  // namespace chargpt
