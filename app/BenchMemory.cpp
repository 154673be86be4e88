// SPDX-License-Identifier: GPL-3.0-or-later
// The bench's memory figure: the peak resident memory of `chargpt train` on the book preset, run as a child.
#include "app/BenchFigures.h"

#include <sys/resource.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "app/BenchScratch.h"

extern char** environ;

namespace chargpt::bench {

double peakTrainingMemory(const BenchOptions& o) {
    // The child's checkpoint, run library and settings stay in the bench's
    // folder: its run is not one of the user's.
    const std::string folder = scratchFolder(o.scratch, "memory");
    const std::string out = folder + "/book.pt";
    std::vector<std::string> variables;
    for (char** e = environ; *e != nullptr; ++e)
        if (std::strncmp(*e, "XDG_DATA_HOME=", 14) != 0 && std::strncmp(*e, "XDG_CONFIG_HOME=", 16) != 0)
            variables.emplace_back(*e);
    variables.push_back("XDG_DATA_HOME=" + folder);
    variables.push_back("XDG_CONFIG_HOME=" + folder);
    std::vector<char*> envp;
    for (std::string& v : variables) envp.push_back(v.data());
    envp.push_back(nullptr);
    const std::string steps = std::to_string(o.warmup + o.steps);
    // One batch an evaluation: the peak is training's (evaluation keeps no
    // gradients), and the book's 20 batches of each split at the first and
    // the last step took five times as long as the steps themselves.
    const char* const argv[] = {o.self.c_str(), "train", o.corpus.c_str(), "--preset", "book", "--steps",
                                steps.c_str(), "--eval-iters", "1", "--out", out.c_str(), nullptr};
    const pid_t pid = ::fork();
    if (pid == 0) {
        const int null = ::open("/dev/null", O_WRONLY);
        ::dup2(null, STDOUT_FILENO);
        ::dup2(null, STDERR_FILENO);
        ::execve(o.self.c_str(), const_cast<char* const*>(argv), envp.data());
        ::_exit(127);
    }
    int status = 0;
    struct rusage usage {};
    const bool ok = pid > 0 && ::wait4(pid, &status, 0, &usage) == pid && WIFEXITED(status) &&
                    WEXITSTATUS(status) == 0;
    return ok ? double(usage.ru_maxrss) / 1024.0 : std::nan("");
}

}  // namespace chargpt::bench
