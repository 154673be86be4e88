// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/runtime/OpenMPSpin.h"

#include <limits.h>
#include <strings.h>
#include <sys/auxv.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

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

// The value of `name` in `envp` (the last one, as getenv reads it), or null.
const char* valueIn(char** envp, const char* name) {
    const std::size_t n = std::strlen(name);
    const char* value = nullptr;
    for (char** e = envp; e != nullptr && *e != nullptr; ++e)
        if (std::strncmp(*e, name, n) == 0 && (*e)[n] == '=') value = *e + n + 1;
    return value;
}

// Takes the entries of `envp` that `drop` says out, in place (the C library
// adopts this array as the process's environment after the .preinit_array).
void dropInPlace(char** envp, bool (*drop)(const char*, const void*), const void* what) {
    char** to = envp;
    for (char** e = envp; e != nullptr && *e != nullptr; ++e)
        if (!drop(*e, what)) *to++ = *e;
    if (to != nullptr) *to = nullptr;
}

struct Variable {
    const char* name;
    bool (*valid)(const char*);
    const char* takes;
    const char* ours;  // NAME=value
};

char ourSpinCount[32];

}  // namespace

char** environmentWithShortSpin(char** envp, const char* program) {
    std::snprintf(ourSpinCount, sizeof ourSpinCount, "GOMP_SPINCOUNT=%d", kOpenMPSpins);
    static const Variable variables[] = {
        {"OMP_WAIT_POLICY", validWaitPolicy, "ACTIVE or PASSIVE", "OMP_WAIT_POLICY=PASSIVE"},
        {"GOMP_SPINCOUNT", validSpinCount, "a whole number or INFINITE", ourSpinCount},
    };
    struct Dropped {
        const Variable* variables;
        bool which[2];
    } dropped{variables, {false, false}};
    const auto isDropped = [](const char* entry, const void* what) {
        const Dropped& d = *static_cast<const Dropped*>(what);
        for (int v = 0; v < 2; ++v) {
            const std::size_t length = std::strlen(d.variables[v].name);
            if (d.which[v] && std::strncmp(entry, d.variables[v].name, length) == 0 && entry[length] == '=') return true;
        }
        return false;
    };
    for (int i = 0; i < 2; ++i) {
        const char* value = valueIn(envp, variables[i].name);
        if (value == nullptr) continue;
        if (variables[i].valid(value)) return nullptr;  // the user's choice
        dropped.which[i] = true;
        ::dprintf(2, "%s: %s is set to a value OpenMP does not take (%s): it is ignored, and threads spin %d times, then sleep.\n",
                  program, variables[i].name, variables[i].takes, kOpenMPSpins);
    }
    dropInPlace(envp, isDropped, &dropped);  // whatever happens next
    // The environment again, with ours.
    std::size_t n = 0;
    for (char** e = envp; e != nullptr && *e != nullptr; ++e) ++n;
    char** environment = static_cast<char**>(std::malloc((n + 3) * sizeof(char*)));
    if (environment == nullptr) return nullptr;
    if (n > 0) std::memcpy(environment, envp, n * sizeof(char*));
    environment[n++] = const_cast<char*>(variables[0].ours);
    environment[n++] = const_cast<char*>(variables[1].ours);
    environment[n] = nullptr;
    return environment;
}

void shortOpenMPSpinBeforeLibraries(int argc, char** argv, char** envp, const char* program, ParallelWork needed) {
    if (needed != nullptr && !needed(argc, argv)) return;
    char** environment = environmentWithShortSpin(envp, program);
    if (environment == nullptr) return;
    char advice[160];
    std::snprintf(advice, sizeof advice,
                  "set OMP_WAIT_POLICY=PASSIVE GOMP_SPINCOUNT=%d in the environment, or OpenMP threads busy-wait between steps.",
                  kOpenMPSpins);
    if (::getauxval(AT_BASE) == 0) {
        std::free(environment);
        ::dprintf(2, "%s: started through the dynamic loader, it cannot restart itself with a short OpenMP spin: %s\n",
                  program, advice);
        return;
    }
    // By its own name, so that the process keeps it (executing /proc/self/exe
    // names it "exe"); the link itself only when the file is gone.
    char self[PATH_MAX + 1];
    const ssize_t length = ::readlink("/proc/self/exe", self, PATH_MAX);
    const char* deleted = " (deleted)";
    const std::size_t deletedLength = std::strlen(deleted);
    if (length <= 0 || (std::size_t(length) > deletedLength &&
                        std::memcmp(self + length - deletedLength, deleted, deletedLength) == 0))
        std::strcpy(self, "/proc/self/exe");
    else
        self[length] = '\0';
    ::execve(self, argv, environment);
    const int error = errno;
    std::free(environment);
    ::dprintf(2, "%s: could not restart with a short OpenMP spin (%s): %s\n", program, std::strerror(error), advice);
}

}  // namespace chargpt
