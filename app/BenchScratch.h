// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The one folder `chargpt bench` writes into: the PyTorch reference's corpus,
// the memory figure's checkpoint and run library, the app's settings and data
// for the GUI figures, the generated run library. Nothing the bench does lands
// in the user's own folders (their run library, their settings).

#include <string>
#include <sys/types.h>

namespace chargpt::bench {

class Scratch {
public:
    // Makes chargpt-bench-XXXXXX under $TMPDIR (else /tmp), and a watcher: a
    // small process of its own session, immune to the terminal's signals, that
    // waits for this one to end and then removes the folder. So the folder goes
    // when the bench ends, fails (a full disk), is stopped with Ctrl-C or
    // SIGTERM, or is killed. Throws chargpt::Error when it cannot be made.
    Scratch();
    // Removes the folder, then lets the watcher go.
    ~Scratch();
    Scratch(const Scratch&) = delete;
    Scratch& operator=(const Scratch&) = delete;

    const std::string& path() const { return path_; }

private:
    std::string path_;
    int watcherPipe_ = -1;  // the watcher reads the other end until it closes
    pid_t watcher_ = -1;
};

// A new, empty folder inside the folder `scratch` (BenchOptions::scratch),
// named after `what`; throws chargpt::Error when it cannot be made.
std::string scratchFolder(const std::string& scratch, const std::string& what);

}  // namespace chargpt::bench
