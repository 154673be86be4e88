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

int runBench(const Args& args) {
    useThreads(args.integer(settingOption("threads"), 0));
    BenchOptions options;
    // Without a corpus, the built-in one.
    options.corpus = args.target.empty() ? std::string("builtin:python") : args.target;
    options.steps = static_cast<int>(args.integer("steps", options.steps));
    options.json = args.has("json");
    options.python = args.text("python", options.python);
    options.guiSeconds = args.number("gui-seconds", options.guiSeconds);
    options.viewsSeconds = args.number("views-seconds", options.viewsSeconds);
    options.libraryRuns = static_cast<int>(args.integer("library-runs", options.libraryRuns));
    options.libraryRunSteps = static_cast<int>(args.integer("library-steps", options.libraryRunSteps));
    if (args.has("only")) {
        std::stringstream parts(args.text("only", ""));
        for (std::string part; std::getline(parts, part, ',');) {
            if (part != "ceiling" && part != "training" && part != "generation" && part != "memory" && part != "gui" &&
                part != "copies" && part != "views" && part != "runs" && part != "timeline" && part != "profile" &&
                part != "why" && part != "health")
                throw Error("--only takes ceiling, training, generation, memory, gui, copies, views, runs, timeline, "
                            "profile, why or health (comma-separated), "
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

