// SPDX-License-Identifier: GPL-3.0-or-later
#include "Runtime.h"

#include "CachingAllocator.h"

#include <ATen/Parallel.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <mutex>
#include <thread>

namespace chargpt {

void reexecWithPassiveOpenMP(char** argv) {
    if (std::getenv("OMP_WAIT_POLICY") != nullptr) return;
    if (::setenv("OMP_WAIT_POLICY", "PASSIVE", 1) != 0) return;
    ::execv("/proc/self/exe", argv);
    // execv failed: carry on with the busy-waiting default.
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

int initThreads(int threads) {
    static std::once_flag once;
    std::call_once(once, [threads] {
        int n = threads;
        if (n <= 0) n = environmentThreads();
        if (n <= 0) n = static_cast<int>(std::thread::hardware_concurrency());
        at::set_num_threads(std::max(n, 1));
        installCachingAllocator();
    });
    return at::get_num_threads();
}

double physicalMemoryBytes() {
    const long pages = ::sysconf(_SC_PHYS_PAGES), pageSize = ::sysconf(_SC_PAGESIZE);
    return pages > 0 && pageSize > 0 ? double(pages) * double(pageSize) : 0.0;
}

}  // namespace chargpt
