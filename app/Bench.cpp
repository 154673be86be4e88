// SPDX-License-Identifier: GPL-3.0-or-later
// `chargpt bench`: the run, each wanted figure measured in turn and announced on standard error, then reported.
#include "app/Bench.h"
#include "app/BenchFigures.h"
#include "app/BenchScratch.h"

#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <string>

#include "model/runtime/CpuTier.h"
#include "model/text/BuiltinCorpora.h"
#include "model/text/Corpus.h"

namespace chargpt {

namespace {

void announceRun(const BenchOptions& o, int threads) {
    std::cerr << "chargpt bench: " << tierLine(cpuTierChoice()) << "; " << threads
              << " threads; per configuration " << o.warmup << " untimed steps, then at least " << o.steps
              << " timed steps and 2 s" << (o.reference.empty() ? "" : ", with the PyTorch reference") << '\n';
}

StepProfile profilePreset(const BenchOptions& o, const char* name, const RunConfig& config, const Corpus& corpus,
                          int steps) {
    std::cerr << "  profiling " << steps << " steps of " << name << " (" << (config.bf16 ? "bf16" : "fp32")
              << ", its default here) by operator...\n";
    return profileTrainingSteps(config, corpus, o.warmup, steps);
}

double measureMemory(const BenchOptions& o) {
    std::cerr << "  peak memory of book training...\n";
    return o.self.empty() ? std::nan("") : bench::peakTrainingMemory(o);
}

bench::CopiesFigure measureCopyIndex(const BenchOptions& o, const Corpus& corpus, const CharTokenizer& tokenizer,
                                     const RunConfig& book) {
    std::cerr << "  copy index...\n";
    return bench::measureCopies(corpus, tokenizer, book, o.chars);
}

bench::GuiFigure measureGui(const BenchOptions& o) {
    std::cerr << "  the app's GUI thread while it trains (" << o.guiSeconds << " s)...\n";
    return bench::guiStall(o);
}

bench::ViewsFigure measureViews(const BenchOptions& o) {
    std::cerr << "  the app training with and without the views (" << 2 * bench::kViewsRuns << " runs of "
              << o.viewsSeconds << " s)...\n";
    return bench::viewsCost(o);
}

bench::RunsFigure measureRuns(const BenchOptions& o, const Corpus& corpus, int vocabSize) {
    std::cerr << "  recording runs: the fast preset with and without recording (" << 2 * bench::kRecordRuns
              << " runs), then the app with a library of " << o.libraryRuns << " runs of " << o.libraryRunSteps
              << " steps (" << o.guiSeconds << " s)...\n";
    return bench::runsCost(o, corpus, vocabSize);
}

bench::TimelineFigure measureTimeline(const BenchOptions& o, const Corpus& corpus, int vocabSize) {
    std::cerr << "  the timeline: runs of the fast and book presets moved through in the app, then the fast preset with "
                 "and without snapshots...\n";
    return bench::timelineCost(o, corpus, vocabSize);
}

bench::WhyFigure measureWhyFigure(const Corpus& corpus, const CharTokenizer& tokenizer, const RunConfig& book) {
    std::cerr << "  why this character: an attribution and the patching sweeps of book...\n";
    return bench::measureWhy(book, corpus, tokenizer);
}

}  // namespace

bool BenchOptions::wants(const std::string& part) const {
    return only.empty() || std::find(only.begin(), only.end(), part) != only.end();
}

int runBenchmark(const BenchOptions& options) {
    const bench::Scratch scratch;
    BenchOptions o = options;
    o.scratch = scratch.path();
    bench::Figures f;
    f.threads = at::get_num_threads();
    f.tier = cpuTierChoice();
    f.bf16Skipped = bench::bf16Skipped();
    const Corpus corpus = loadCorpusSource(o.corpus);
    const CharTokenizer tokenizer = corpus.buildTokenizer();
    const bench::CorpusFile referenceCorpus(o.reference.empty() ? std::string() : o.corpus, o.scratch);
    announceRun(o, f.threads);

    f.ceilings = bench::measureCeilings(o);
    if (o.wants("training"))
        f.training = bench::measureTrainingFigures(o, corpus, tokenizer.vocabSize(), referenceCorpus.path());
    f.book = *RunConfig::preset("book");
    f.book.vocab_size = tokenizer.vocabSize();
    f.fast = *RunConfig::preset("fast");
    f.fast.vocab_size = tokenizer.vocabSize();
    if (o.wants("profile")) {
        f.profile = profilePreset(o, "book", f.book, corpus, 5);
        f.fastProfile = profilePreset(o, "fast", f.fast, corpus, 40);  // steps of a few ms each
    }
    if (o.wants("generation")) f.generation = bench::measureGenerationFigure(o, f.book, tokenizer);
    if (o.wants("memory")) f.peakMiB = measureMemory(o);
    if (o.wants("copies")) f.copies = measureCopyIndex(o, corpus, tokenizer, f.book);
    if (o.wants("gui")) f.gui = measureGui(o);
    if (o.wants("views")) f.views = measureViews(o);
    if (o.wants("runs")) f.runs = measureRuns(o, corpus, tokenizer.vocabSize());
    if (o.wants("timeline")) f.timeline = measureTimeline(o, corpus, tokenizer.vocabSize());
    if (o.wants("why")) f.why = measureWhyFigure(corpus, tokenizer, f.book);
    if (o.wants("health")) {
        std::cerr << "  the training health: the fast and book presets trained with it measured...\n";
        f.health = {bench::measureHealth(f.fast, "fast", corpus, 200), bench::measureHealth(f.book, "book", corpus, 50)};
    }

    bench::printReport(o, f);
    if (o.json) bench::printJson(o, f);
    return 0;
}

}  // namespace chargpt
