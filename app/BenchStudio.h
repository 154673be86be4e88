// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The bench's measurements of the app: chargpt-studio run beside the bench
// (its GUI thread, the views' cost) and the run library (what recording costs,
// the app with a large library). `chargpt bench --only gui,views,runs`.

#include <cmath>
#include <string>

#include "app/Bench.h"
#include "model/text/Corpus.h"

namespace chargpt::bench {

// The longest GUI-thread stall of chargpt-studio (beside this program) while it
// trains, from its --measure-stall mode, offscreen, with settings of its own.
struct GuiFigure {
    double stallMs = std::nan("");
    double afterTabChangeMs = std::nan(""), otherwiseMs = std::nan("");
    double seconds = std::nan("");
    double steps = std::nan("");
};

// What the views cost the trainer: the app's training speed (the trainer's own
// tokens/s) with every view following the model and a tab change every second,
// against the same app with the views not following it; runs alternated,
// medians of kViewsRuns each.
struct ViewsFigure {
    double withViews = std::nan(""), withoutViews = std::nan("");
    double ratio() const { return withViews / withoutViews; }
};
constexpr int kViewsRuns = 3;

// What recording a run costs the trainer, and the app's GUI thread with a
// large run library: the fast preset trained with a RunRecorder writing to a
// library of its own and without one, alternated, medians of kRecordRuns
// each, with the time spent in the recorder measured by its own clock; then
// a library of o.libraryRuns runs of o.libraryRunSteps steps, generated, and
// the app's longest stall with it (its Runs tab shown once a second, three
// runs compared).
struct RunsFigure {
    double withRecording = std::nan(""), withoutRecording = std::nan("");
    double recorderShare = std::nan("");  // time in the recorder / time of the timed steps
    double generateSeconds = std::nan(""), libraryMiB = std::nan("");
    GuiFigure gui;
    double ratio() const { return withRecording / withoutRecording; }
};
constexpr int kRecordRuns = 3;

// chargpt-studio beside this program (or in bin/ beside libexec/); empty when none.
std::string studioProgram(const BenchOptions& o);
// The standard output of chargpt-studio run with `arguments`, offscreen, with
// settings of its own and the data folder `dataHome` (one of its own when
// empty) and, unless empty, `corpus` as the corpus it opens; empty when it
// cannot run or fails.
std::string studioRun(const BenchOptions& o, const std::string& arguments, const std::string& dataHome,
                      const std::string& corpus = std::string());

GuiFigure guiStall(const BenchOptions& o);
ViewsFigure viewsCost(const BenchOptions& o);
RunsFigure runsCost(const BenchOptions& o, const Corpus& corpus, int vocabSize);

}  // namespace chargpt::bench
