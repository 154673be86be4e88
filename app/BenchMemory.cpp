// SPDX-License-Identifier: GPL-3.0-or-later
// The bench's memory figure: the peak resident memory of `chargpt train` on the book preset, run as a child.
#include "BenchFigures.h"

#include <sys/resource.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <string>

namespace chargpt::bench {

double peakTrainingMemory(const BenchOptions& o) {
    char tmpl[] = "/tmp/chargpt-bench-XXXXXX";
    const int fd = ::mkstemp(tmpl);
    if (fd < 0) return std::nan("");
    ::close(fd);
    const pid_t pid = ::fork();
    if (pid == 0) {
        const int null = ::open("/dev/null", O_WRONLY);
        ::dup2(null, STDOUT_FILENO);
        ::dup2(null, STDERR_FILENO);
        ::execl(o.self.c_str(), o.self.c_str(), "train", o.corpus.c_str(), "--preset", "book", "--steps",
                std::to_string(o.warmup + o.steps).c_str(), "--out", tmpl, static_cast<char*>(nullptr));
        ::_exit(127);
    }
    int status = 0;
    struct rusage usage {};
    const bool ok = pid > 0 && ::wait4(pid, &status, 0, &usage) == pid && WIFEXITED(status) &&
                    WEXITSTATUS(status) == 0;
    ::unlink(tmpl);
    return ok ? double(usage.ru_maxrss) / 1024.0 : std::nan("");
}

}  // namespace chargpt::bench
