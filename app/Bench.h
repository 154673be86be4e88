// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

namespace chargpt {

struct BenchOptions {
    std::string corpus;           // text to train on
    int steps = 10;               // least timed training steps per configuration (and 2 s)
    int warmup = 3;               // untimed steps before them
    int chars = 500;              // characters generated per generation figure
    bool json = false;            // one JSON object as the last line
    std::string python = "/usr/bin/python3";
    std::string reference;        // the seed-style PyTorch script; empty: none
    std::string self;             // this program, for the memory figure
    // The folder every file the bench writes goes into (bench::Scratch, made
    // by runBenchmark): never the user's own run library or settings.
    std::string scratch;
    // Which figures to measure: any of ceiling, training, generation, memory,
    // gui, copies, views, runs, timeline, profile, why, health (empty: all).
    std::vector<std::string> only;
    double guiSeconds = 20.0;     // training time watched for the GUI figure
    double viewsSeconds = 10.0;   // training time of each run of the views figure
    int libraryRuns = 100;        // runs of the generated run library (--only runs)
    int libraryRunSteps = 10000;  // and the steps of each
    bool wants(const std::string& part) const;
};

// `chargpt bench`: every figure measured in this one run, on this machine, with
// the same thread count. Prints a table (and JSON); returns the exit status.
int runBenchmark(const BenchOptions& options);

}  // namespace chargpt
