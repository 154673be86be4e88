// SPDX-License-Identifier: GPL-3.0-or-later
// The bench's table: every wanted figure as lines of text on standard output.
#include "app/BenchFigures.h"

#include <cmath>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>

namespace chargpt::bench {

namespace {

std::string number(double v, int precision = 0) {
    if (!std::isfinite(v)) return "-";
    std::ostringstream s;
    s.setf(std::ios::fixed);
    s.precision(precision);
    s << v;
    return s.str();
}

void printCeiling(const Ceilings& ceilings) {
    std::cout << "matrix multiply 2048^3: fp32 " << number(ceilings.fp32, 1) << " GFLOP/s, bf16 "
              << number(ceilings.bf16, 1) << " GFLOP/s\n\n";
}

void printTraining(const std::vector<TrainFigure>& figures) {
    std::cout << "training           tokens/s   model GFLOP/s   of fp32 ceiling   of its precision's   PyTorch seed-style"
                 "   ratio\n";
    for (const auto& f : figures) {
        const double gflops = f.modelGflops();
        char line[256];
        std::snprintf(line, sizeof line, "%-14s %12s %15s %16s%% %19s%% %20s %7s\n", f.name.c_str(),
                      number(f.tokensPerSecond).c_str(), number(gflops, 1).c_str(),
                      number(100.0 * gflops / f.ceilings.fp32, 1).c_str(),
                      number(100.0 * gflops / f.ceilings.of(f.config.bf16), 1).c_str(),
                      number(f.referenceTokensPerSecond).c_str(),
                      number(f.tokensPerSecond / f.referenceTokensPerSecond, 2).c_str());
        std::cout << line;
    }
    if (!figures.empty())
        std::cout << "(each beside the ceilings measured just before and after it trained: fp32";
    for (const auto& f : figures) std::cout << " " << number(f.ceilings.fp32, 1);
    if (!figures.empty()) std::cout << " GFLOP/s)\n";
}

// Printed whenever both book figures were measured.
void printBookDefault(const std::vector<TrainFigure>& figures, const RunConfig& book) {
    const TrainFigure* bookDefault = trainFigureNamed(figures, std::string("book ") + (book.bf16 ? "bf16" : "fp32"));
    const TrainFigure* bookFp32 = trainFigureNamed(figures, "book fp32");
    if (bookDefault && bookFp32)
        std::cout << "book in its default precision here (" << (book.bf16 ? "bf16" : "fp32") << "): "
                  << number(bookDefault->tokensPerSecond) << " tokens/s = "
                  << number(bookDefault->tokensPerSecond / bookFp32->referenceTokensPerSecond, 2)
                  << " x the PyTorch seed-style fp32 reference\n";
}

void printProfile(const char* name, const StepProfile& profile, const RunConfig& config) {
    std::cout << "\n" << name << " step (" << (config.bf16 ? "bf16" : "fp32") << ", batch " << config.batch_size << "): "
              << number(profile.stepMs, 1) << " ms; self time by operator, per step:\n";
    double listed = 0.0;
    for (std::size_t i = 0; i < profile.operators.size() && i < 15; ++i) {
        const OperatorTime& op = profile.operators[i];
        char line[256];
        std::snprintf(line, sizeof line, "  %-44s %8s ms %6s%% %7s calls\n", op.name.c_str(),
                      number(op.msPerStep, 1).c_str(), number(100.0 * op.msPerStep / profile.stepMs, 1).c_str(),
                      number(op.callsPerStep).c_str());
        std::cout << line;
        listed += op.msPerStep;
    }
    double all = 0.0;
    for (const auto& op : profile.operators) all += op.msPerStep;
    std::cout << "  (other operators " << number(all - listed, 1) << " ms; outside any operator "
              << number(profile.stepMs - all, 1) << " ms)\n";
}

void printGeneration(const GenerationFigure& g, const RunConfig& book, int chars) {
    const std::string precision = g.bf16 ? "bf16" : "fp32";
    std::cout << "\ngeneration (book, " << chars << " characters, context " << book.sequence_len << ", weights in "
              << precision << " unless said)        chars/s   / recompute   / PyTorch seed-style\n";
    auto generationLine = [&](const std::string& name, double rate) {
        char line[256];
        std::snprintf(line, sizeof line, "%-56s %12s %13s %20s\n", name.c_str(), number(rate).c_str(),
                      number(rate / g.recompute, 1).c_str(), number(rate / g.reference, 1).c_str());
        std::cout << line;
    };
    if (g.bf16) generationLine("greedy, key/value cache, window shifted by half, fp32", g.cachedFp32);
    generationLine("greedy, key/value cache, window shifted by half", g.cached);
    generationLine("greedy, key/value cache, exact sliding window", g.exactWindow);
    generationLine("greedy, full recompute at every step", g.recompute);
    generationLine(std::to_string(kBatchedSamples) + " samples of one prompt decoded together, in all", g.batched);
    if (!g.bf16) {  // the decoder's bf16 weights, widened to fp32 where the tier has no bf16 products
        generationLine("the same one stream, weights in bf16 (widened to fp32)", g.cachedBf16);
        generationLine("the same " + std::to_string(kBatchedSamples) + " samples, weights in bf16 (widened)",
                       g.batchedBf16);
    }
    generationLine("PyTorch seed-style (greedy, full recompute, fp32)", g.reference);
}

void printHealth(const std::vector<HealthFigure>& health) {
    std::cout << "\ntraining health measured every few steps (per-layer gradients, updates, dead units, head "
                 "entropy), as a share of the step time; target "
              << number(100.0 * kHealthShareTarget, 0) << "%\n";
    for (const HealthFigure& h : health)
        std::cout << "  " << h.preset << ": " << h.measured << " of " << h.steps << " steps measured (every "
                  << h.every << "), " << number(h.measureMs, 2) << " ms each (the first, once a run: "
                  << number(h.firstMs, 1) << " ms) against " << number(h.stepMs, 2) << " ms a step: "
                  << number(100.0 * h.share, 2) << "% of the step time, share / target = "
                  << number(h.share / kHealthShareTarget, 3) << "\n";
}

void printCopies(const CopiesFigure& copies, int chars) {
    std::cout << "\ncopy index of the training text (" << number(copies.megabytes, 1) << " MB): built in "
              << number(copies.buildSeconds, 2) << " s, " << number(copies.memoryMiB, 1) << " MiB; rule fitted in "
              << number(copies.calibrateSeconds, 2) << " s: spans of " << copies.minLength << " characters or more\n"
              << "checking " << chars << " characters (median of 21): copied text " << number(copies.copiedMs, 2)
              << " ms, validation text " << number(copies.unseenMs, 2) << " ms ("
              << number(100.0 * copies.unseenShare, 1) << "% copied); target " << number(kCopyCheckTargetMs)
              << " ms, slower / target = " << number(copies.slowerCheckMs() / kCopyCheckTargetMs, 3) << "\n";
}

void printGui(const GuiFigure& gui) {
    std::cout << "longest GUI-thread stall while the app trains (" << number(gui.seconds, 1) << " s, "
              << number(gui.steps) << " steps, a tab change every second): " << number(gui.stallMs)
              << " ms; within 300 ms of a tab change " << number(gui.afterTabChangeMs) << " ms, otherwise "
              << number(gui.otherwiseMs) << " ms\n";
}

void printViews(const ViewsFigure& views, double viewsSeconds) {
    std::cout << "the app's training speed (median of " << kViewsRuns << " runs of " << number(viewsSeconds, 0)
              << " s each, alternated): every view following the model " << number(views.withViews)
              << " tokens/s, none " << number(views.withoutViews) << " tokens/s; with / without = "
              << number(views.ratio(), 3) << "\n";
}

void printRuns(const RunsFigure& runs, const BenchOptions& o) {
    std::cout << "recording a run (fast preset, median of " << kRecordRuns << " alternated): "
              << number(runs.withRecording) << " tokens/s recorded, " << number(runs.withoutRecording)
              << " not; recorded / not = " << number(runs.ratio(), 3) << "; time in the recorder "
              << number(100.0 * runs.recorderShare, 3) << "% of the training time\n"
              << "a run library of " << o.libraryRuns << " runs of " << o.libraryRunSteps << " steps ("
              << number(runs.libraryMiB, 1) << " MiB, written in " << number(runs.generateSeconds, 1)
              << " s): the app's longest GUI-thread stall " << number(runs.gui.stallMs) << " ms ("
              << number(runs.gui.seconds, 1) << " s of training, the Runs tab shown once a second)\n";
}

void printScrub(const char* preset, const ScrubFigure& s, double targetMs) {
    std::cout << "  " << preset << " (run trained in " << number(s.trainSeconds, 1) << " s, " << number(s.keptSteps)
              << " kept steps, " << number(s.moves) << " moves): median " << number(s.medianMs, 1)
              << " ms (on the page, not yet painted, " << number(s.arrivedMedianMs, 1) << " ms), p90 "
              << number(s.p90Ms, 1) << " ms, max " << number(s.maxMs, 1) << " ms; target " << number(targetMs)
              << " ms, max / target = " << number(s.maxMs / targetMs, 2) << "; longest GUI-thread stall "
              << number(s.stallMs) << " ms, target " << number(kScrubStallTargetMs) << " ms\n";
}

void printTimeline(const TimelineFigure& t) {
    std::cout << "\nthe timeline moved to each kept step of a past run (chargpt-studio --measure-scrub, 3 passes): "
                 "from the move to the Attention tab showing the step\n";
    printScrub("book", t.book, kScrubTargetBookMs);
    printScrub("fast", t.fast, kScrubTargetFastMs);
    std::cout << "keeping snapshots (fast preset recorded, median of " << kKeepingRuns << " alternated, "
              << kKeepingTimedSteps << " timed steps): " << number(t.withKeptWeights) << " tokens/s with, "
              << number(t.withoutKeptWeights)
              << " without; cost 1 - with / without = " << number(100.0 * (1.0 - t.ratio()), 2)
              << "%, target " << number(100.0 * kKeepingCostTarget, 0) << "%; time in the recorder "
              << number(100.0 * t.recorderShareWith, 3) << "% of the training time with, "
              << number(100.0 * t.recorderShareWithout, 3) << "% without\n";
}

void printWhy(const WhyFigure& w) {
    std::cout << "\nwhy this character (book, untrained, " << w.positions << " positions): one attribution "
              << number(w.attributionMs, 1) << " ms (largest gap " << w.gap << "), target "
              << number(kAttributionTargetMs) << " ms, ratio " << number(w.attributionMs / kAttributionTargetMs, 3)
              << "\npatching sweeps: residual stream " << number(w.residualSweepS, 2) << " s, heads "
              << number(w.headSweepS, 2) << " s, feed-forwards " << number(w.feedForwardSweepS, 2)
              << " s; target " << number(kPatchingSweepTargetS) << " s each, slowest / target = "
              << number(w.slowestSweepS() / kPatchingSweepTargetS, 3) << "\n";
}

}  // namespace

void printReport(const BenchOptions& o, const Figures& f) {
    // Every figure below is of this tier.
    std::cout << tierLine(f.tier) << "\n";
    if (!f.bf16Skipped.empty()) std::cout << "bf16 not measured: " << f.bf16Skipped << "\n";
    std::cout << "\n";
    if (o.wants("ceiling")) printCeiling(f.ceilings);
    if (o.wants("training")) printTraining(f.training);
    printBookDefault(f.training, f.book);
    if (o.wants("profile")) {
        printProfile("book", f.profile, f.book);
        printProfile("fast", f.fastProfile, f.fast);
    }
    if (o.wants("generation")) printGeneration(f.generation, f.book, o.chars);
    if (o.wants("copies")) printCopies(f.copies, o.chars);
    if (o.wants("memory")) std::cout << "\npeak resident memory of book training: " << number(f.peakMiB) << " MiB\n";
    if (o.wants("gui")) printGui(f.gui);
    if (o.wants("views")) printViews(f.views, o.viewsSeconds);
    if (o.wants("runs")) printRuns(f.runs, o);
    if (o.wants("timeline")) printTimeline(f.timeline);
    if (o.wants("why")) printWhy(f.why);
    if (o.wants("health")) printHealth(f.health);
}

}  // namespace chargpt::bench
