// SPDX-License-Identifier: GPL-3.0-or-later
// `chargpt bench`: its options read into BenchOptions; the measurements are
// app/Bench*.cpp's.
#include <torch/torch.h>

#include <unistd.h>

#include <iostream>
#include <sstream>
#include <string>

#include "app/Bench.h"
#include "app/cli/CliArgs.h"
#include "app/cli/CliCommon.h"
#include "model/runtime/Error.h"

using namespace chargpt;

namespace {

int runBench(const Args& args) {
    useThreads(args.integer("threads", 0, 0, kMaxThreads));
    BenchOptions options;
    // Without a corpus, the built-in one.
    options.corpus = args.target.empty() ? std::string("builtin:python") : args.target;
    options.steps = static_cast<int>(args.integer("steps", options.steps, 1, 100000));
    options.json = args.has("json");
    options.python = args.text("python", options.python);
    options.guiSeconds = args.number("gui-seconds", options.guiSeconds, 1.0, 3600.0);
    options.viewsSeconds = args.number("views-seconds", options.viewsSeconds, 1.0, 3600.0);
    options.libraryRuns = static_cast<int>(args.integer("library-runs", options.libraryRuns, 1, 100000));
    options.libraryRunSteps = static_cast<int>(args.integer("library-steps", options.libraryRunSteps, 1, 10000000));
    if (args.has("only")) {
        std::stringstream parts(args.text("only", ""));
        for (std::string part; std::getline(parts, part, ',');) {
            if (part != "ceiling" && part != "training" && part != "generation" && part != "memory" && part != "gui" &&
                part != "copies" && part != "views" && part != "runs" && part != "profile")
                throw Error("--only takes ceiling, training, generation, memory, gui, copies, views, runs or profile "
                            "(comma-separated), "
                            "not '" + part + "'.");
            options.only.push_back(part);
        }
    }
    if (!args.has("no-reference") && (options.wants("training") || options.wants("generation"))) {
        options.reference = CHARGPT_SOURCE_DIR "/bench/seed_reference.py";
        if (::access(options.reference.c_str(), R_OK) != 0 || ::access(options.python.c_str(), X_OK) != 0) {
            std::cerr << "chargpt: no PyTorch reference (" << options.python << ", " << options.reference
                      << "); its columns stay empty.\n";
            options.reference.clear();
        }
    }
    char self[4096];
    const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) options.self.assign(self, static_cast<std::size_t>(n));
    return runBenchmark(options);
}

}  // namespace

const CommandSpec& benchCommand() {
    static const CommandSpec spec =
        {"bench", "Measures training and generation speed, memory and GUI stalls.", "CORPUS",
         "the text to train on (default: the built-in corpus builtin:python)", false, "",
         {{"--json", nullptr, "print one JSON object as the last line"},
          {"--steps", "N", "training steps per measurement", true},
          {"--threads", "N", kThreadsHelp, true},
          {"--no-reference", nullptr, "do not run the seed-style PyTorch script"},
          {"--python", "PATH", "the Python that runs the reference script"},
          {"--only", "PART,...", "some of ceiling, training, generation, memory, gui, copies, views, runs, profile"},
          {"--gui-seconds", "S", "seconds the GUI stall measurement trains (default 20)", true},
          {"--views-seconds", "S", "seconds each run of the views measurement trains (default 10)", true},
          {"--library-runs", "N", "runs in the generated run library of the runs measurement (default 100)", true},
          {"--library-steps", "N", "steps of each of those runs (default 10000)", true}},
         runBench};
    return spec;
}
