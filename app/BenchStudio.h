// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The bench's measurements of the app: chargpt-studio run beside the bench
// (its GUI thread, the views' cost), the run library (what recording costs,
// the app with a large library) and the timeline (moving to a kept step, what
// keeping snapshots costs). `chargpt bench --only gui,views,runs,timeline`.

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

// The timeline of a past run (BenchTimeline.cpp): a run of a preset trained
// by `chargpt train` into a run library of the bench's own, opened by
// `chargpt-studio --measure-scrub`, which moves the timeline to each kept step
// (three passes) and times the Attention tab showing it.
struct ScrubFigure {
    double trainSeconds = std::nan("");  // preparing the run
    double keptSteps = std::nan(""), moves = std::nan("");
    double medianMs = std::nan(""), p90Ms = std::nan(""), maxMs = std::nan("");
    double arrivedMedianMs = std::nan("");  // to the step's attention on the page, before it is painted
    double stallMs = std::nan("");  // the longest GUI-thread stall while moving
};
// The two presets' runs, and what keeping snapshots costs the trainer: the
// fast preset recorded with its snapshots kept and without, alternated,
// medians of kKeepingRuns each, with the recorder's own time.
struct TimelineFigure {
    ScrubFigure fast, book;
    double withKeptWeights = std::nan(""), withoutKeptWeights = std::nan("");
    double recorderShareWith = std::nan(""), recorderShareWithout = std::nan("");
    double ratio() const { return withKeptWeights / withoutKeptWeights; }
};
constexpr int kKeepingRuns = 3;
constexpr int kScrubRunSteps = 260;       // kept: 0, 1, 2, 4, ..., 256, the evaluation at 250, and 260
constexpr int kKeepingTimedSteps = 300;   // timed steps of each run of the snapshot cost
constexpr double kScrubTargetBookMs = 300.0, kScrubTargetFastMs = 100.0, kScrubStallTargetMs = 50.0;
constexpr double kKeepingCostTarget = 0.01;  // of the training time

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
TimelineFigure timelineCost(const BenchOptions& o, const Corpus& corpus, int vocabSize);

}  // namespace chargpt::bench
