// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The figures of one bench run and the functions that measure and report them
// (the files Bench*.cpp); Bench.cpp runs them in order.

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "app/Bench.h"
#include "app/BenchProfile.h"
#include "app/BenchStudio.h"
#include "model/runtime/CpuTier.h"
#include "model/train/RunConfig.h"

namespace chargpt {

class CharTokenizer;
class Corpus;

namespace bench {

// BenchSpeed.cpp: the matrix-multiply ceiling, training and generation speed.

struct Ceilings {
    double fp32 = std::nan(""), bf16 = std::nan("");  // GFLOP/s of a 2048^3 matrix multiply
    double of(bool inBf16) const { return inBf16 ? bf16 : fp32; }
};
// Both when o wants the ceiling or training (whose table compares each configuration with its precision's);
// bf16 only where the CPU tier multiplies it natively (bf16Skipped()).
Ceilings measureCeilings(const BenchOptions& o);
// Why bf16 is not measured: the CPU tier in force has no native bf16, so LibTorch
// would emulate it (minutes for one figure, and no figure of the tier's own);
// empty where it has.
std::string bf16Skipped();

// FLOPs of one trained token: 6 per parameter (forward and backward) plus the
// attention products, counted as nanoGPT counts them.
double flopsPerToken(const RunConfig& c);

struct TrainFigure {
    std::string name;
    RunConfig config;
    // The ceilings measured just before and just after this configuration
    // trained, averaged: what the machine gave while it ran. Its fractions of
    // the ceiling are of these, so that another program's load, which lowers
    // both alike, does not move them the way a ceiling measured minutes apart
    // would.
    Ceilings ceilings;
    double tokensPerSecond = std::nan("");
    double referenceTokensPerSecond = std::nan("");
    double modelGflops() const { return tokensPerSecond * flopsPerToken(config) / 1e9; }
};
// The book and fast presets, fp32 and (unless bf16Skipped()) bf16, each beside
// the PyTorch reference trained on `referenceCorpus` (a file) for as many steps.
std::vector<TrainFigure> measureTrainingFigures(const BenchOptions& o, const Corpus& corpus, int vocabSize,
                                                const std::string& referenceCorpus);
// The figure of that name; null when it was not measured.
const TrainFigure* trainFigureNamed(const std::vector<TrainFigure>& figures, const std::string& name);

// Generation of o.chars characters by `book` (untrained), chars/s: greedy, in
// the preset's precision here (bf16: its weights rounded to bf16) and, with the
// key/value cache, in fp32 too; and kBatchedSamples samples at temperature 1
// decoded together, chars/s in all. Where the preset is fp32 (a tier without
// native bf16), one stream and the samples also with the decoder's weights in
// bf16 (`chargpt sample --precision bf16`: half the bytes to read, widened to
// fp32 to multiply), to show what that precision would gain there.
constexpr int kBatchedSamples = 16;
struct GenerationFigure {
    bool bf16 = false;  // the precision of every figure but cachedFp32, cachedBf16 and batchedBf16
    double cachedFp32 = std::nan(""), cached = std::nan(""), exactWindow = std::nan(""), recompute = std::nan("");
    double batched = std::nan("");
    double cachedBf16 = std::nan(""), batchedBf16 = std::nan("");  // measured where bf16 is false
    double reference = std::nan("");  // the PyTorch reference, which recomputes in fp32
};
GenerationFigure measureGenerationFigure(const BenchOptions& o, const RunConfig& book, const CharTokenizer& tokenizer);

// BenchReference.cpp: the seed-style PyTorch script (o.reference), run by o.python.

// A built-in corpus written to a file in the folder `scratch` for the PyTorch
// reference, which reads a file; removed with this object.
class CorpusFile {
public:
    CorpusFile(const std::string& source, const std::string& scratch);
    ~CorpusFile();
    CorpusFile(const CorpusFile&) = delete;
    CorpusFile& operator=(const CorpusFile&) = delete;
    const std::string& path() const { return path_; }

private:
    std::string path_, temporary_;
};
// The reference's training tokens/s for `steps` timed steps; NaN without a reference.
double referenceTraining(const RunConfig& c, const BenchOptions& o, const std::string& corpusFile, int steps);
// The reference's greedy generation of o.chars characters by `c`, chars/s; NaN when it fails.
double referenceGeneration(const RunConfig& c, const BenchOptions& o);

// BenchMemory.cpp: peak resident memory (MiB) of `chargpt train` on the book
// preset, in a child; NaN when it fails.
double peakTrainingMemory(const BenchOptions& o);

// BenchCopies.cpp: the copy index of the corpus's training part (as the book
// preset splits it): its build time and memory, and the median time of
// checking 500 characters, copied verbatim from the training text (the worst
// case: a match runs on from every character) and taken from the validation
// text (what a model that does not copy writes).
struct CopiesFigure {
    double buildSeconds = std::nan(""), memoryMiB = std::nan(""), megabytes = std::nan("");
    double copiedMs = std::nan(""), unseenMs = std::nan(""), unseenShare = std::nan("");
    double calibrateSeconds = std::nan("");
    int minLength = 0;  // the rule fitted to the corpus (CopyIndex::calibrate)
    double slowerCheckMs() const { return std::max(copiedMs, unseenMs); }
};
constexpr double kCopyCheckTargetMs = 50.0;
CopiesFigure measureCopies(const Corpus& corpus, const CharTokenizer& tokenizer, const RunConfig& config, int chars);

// BenchWhy.cpp: "why this character?" on the book preset (untrained) over a
// full context of the corpus: the median of 7 attributions of the last
// position (with gradient x input), and each patching sweep once (residual
// stream layer x position, heads layer x head, feed-forward layer x position).
struct WhyFigure {
    int positions = 0;
    double attributionMs = std::nan("");
    double gap = 0.0;  // the largest |logit - sum of the parts| of those attributions
    double residualSweepS = std::nan(""), headSweepS = std::nan(""), feedForwardSweepS = std::nan("");
    double slowestSweepS() const { return std::max({residualSweepS, headSweepS, feedForwardSweepS}); }
};
constexpr double kAttributionTargetMs = 200.0;
constexpr double kPatchingSweepTargetS = 10.0;
WhyFigure measureWhy(const RunConfig& book, const Corpus& corpus, const CharTokenizer& tokenizer);
// BenchHealth.cpp: what measuring the training health costs a preset, as a
// share of its step time (the target: at most 2%).
struct HealthFigure {
    std::string preset;
    int64_t steps = 0, every = 0, measured = 0;
    double stepMs = std::nan(""), measureMs = std::nan(""), share = std::nan("");
    double firstMs = std::nan("");  // the first measurement of the run, once
};
constexpr double kHealthShareTarget = 0.02;
HealthFigure measureHealth(const RunConfig& preset, const std::string& name, const Corpus& corpus, int64_t steps);

// Every figure of a run; those not wanted stay unknown (NaN, empty).
struct Figures {
    int threads = 0;
    TierChoice tier;          // every figure's CPU tier
    std::string bf16Skipped;  // bf16Skipped() of the run
    Ceilings ceilings;
    std::vector<TrainFigure> training;
    RunConfig book;  // the book preset on this corpus: profile, generation, memory, copies
    StepProfile profile;      // the book preset's step
    RunConfig fast;           // the fast preset on this corpus: its profile
    StepProfile fastProfile;  // the fast preset's step
    GenerationFigure generation;
    double peakMiB = std::nan("");
    CopiesFigure copies;
    GuiFigure gui;
    ViewsFigure views;
    RunsFigure runs;
    TimelineFigure timeline;
    WhyFigure why;
    std::vector<HealthFigure> health;
};

// BenchReport.cpp: the wanted figures as a table on standard output.
void printReport(const BenchOptions& o, const Figures& f);
// BenchJson.cpp: every figure as one JSON object, on one line of standard output.
void printJson(const BenchOptions& o, const Figures& f);

}  // namespace bench
}  // namespace chargpt
