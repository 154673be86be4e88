// SPDX-License-Identifier: GPL-3.0-or-later
#include "Bench.h"
#include "BenchProfile.h"
#include "BenchStudio.h"
#include "BenchTools.h"

#include <torch/torch.h>

#include <sys/resource.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/generate/Sampler.h"
#include "model/nn/CharGPT.h"
#include "model/runtime/Error.h"
#include "model/runtime/Runtime.h"
#include "model/text/BuiltinCorpora.h"
#include "model/text/CopyIndex.h"
#include "model/text/Corpus.h"
#include "model/train/Dataset.h"
#include "model/train/Trainer.h"
#include "model/train/TrainingSession.h"

namespace chargpt {

// Every helper below is the bench's own; those that more than one file of
// measurements shares are BenchTools.h's (BenchTools.cpp).
namespace bench {

double matmulGflops(torch::ScalarType type) {
    torch::NoGradGuard noGrad;
    const int64_t n = 2048;
    auto a = torch::randn({n, n}).to(type), b = torch::randn({n, n}).to(type);
    torch::mm(a, b);  // warm-up: thread pool, oneDNN primitives
    std::vector<double> rates;
    for (int i = 0; i < 5; ++i) {
        const auto start = Clock::now();
        torch::mm(a, b);
        rates.push_back(2.0 * n * n * n / seconds(start, Clock::now()) / 1e9);
    }
    return median(rates);
}

// FLOPs of one trained token: 6 per parameter (forward and backward) plus the
// attention products, counted as nanoGPT counts them.
double flopsPerToken(const RunConfig& c) {
    return 6.0 * double(c.parameterCount()) +
           12.0 * double(c.n_layer) * double(c.n_head()) * double(c.head_size) * double(c.sequence_len);
}

struct TrainFigure {
    std::string name;
    RunConfig config;
    double tokensPerSecond = std::nan("");
    double referenceTokensPerSecond = std::nan("");
};

// A built-in corpus written to a temporary file for the PyTorch reference,
// which reads a file; removed with this object.
class CorpusFile {
public:
    explicit CorpusFile(const std::string& source) : path_(source) {
        if (!isBuiltinSource(source)) return;
        char name[] = "/tmp/chargpt-bench-corpus-XXXXXX";
        const int fd = ::mkstemp(name);
        if (fd < 0) throw Error("cannot create a temporary file for the reference's corpus.");
        const std::string text = builtinCorpusText(source);
        std::size_t written = 0;
        while (written < text.size()) {
            const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
            if (n <= 0) break;
            written += std::size_t(n);
        }
        ::close(fd);
        path_ = temporary_ = name;
        if (written != text.size()) throw Error("cannot write a temporary file for the reference's corpus.");
    }
    ~CorpusFile() {
        if (!temporary_.empty()) ::unlink(temporary_.c_str());
    }
    CorpusFile(const CorpusFile&) = delete;
    CorpusFile& operator=(const CorpusFile&) = delete;
    const std::string& path() const { return path_; }

private:
    std::string path_, temporary_;
};

std::string referenceArgs(const RunConfig& c) {
    std::ostringstream s;
    s << " --emb " << c.emb_size << " --head " << c.head_size << " --layers " << c.n_layer << " --context "
      << c.sequence_len << " --dropout " << c.dropout << " --batch " << c.batch_size << " --threads "
      << at::get_num_threads();
    return s.str();
}

double referenceTraining(const RunConfig& c, const BenchOptions& o, const std::string& corpusFile,
                         int steps) {
    if (o.reference.empty()) return std::nan("");
    const std::string command = quote(o.python) + " " + quote(o.reference) + " train " + quote(corpusFile) +
                                referenceArgs(c) + " --steps " + std::to_string(steps) + " --warmup " +
                                std::to_string(o.warmup) + (c.bf16 ? " --bf16" : "") + " 2>/dev/null";
    return lastJsonNumber(capture(command), "tokens_per_s");
}

enum class Generation { Cached, CachedExactWindow, Recompute };

double measureGeneration(const RunConfig& config, const CharTokenizer& tokenizer, Generation how, int chars) {
    torch::manual_seed(config.seed);
    CharGPT model(config);
    SamplingOptions options;
    options.temperature = 0.0;
    options.maxNewChars = chars;
    options.stopAtEndOfText = false;
    options.candidates = 0;
    options.useCache = how != Generation::Recompute;
    options.exactWindow = how == Generation::CachedExactWindow;
    Sampler sampler(model, tokenizer, options);
    const auto start = Clock::now();
    sampler.generate({});
    return double(chars) / seconds(start, Clock::now());
}

// Peak resident memory (MiB) of `chargpt train` on the book preset, in a child.
double peakTrainingMemory(const BenchOptions& o) {
    char tmpl[] = "/tmp/chargpt-bench-XXXXXX";
    const int fd = ::mkstemp(tmpl);
    if (fd < 0) return std::nan("");
    ::close(fd);
    const pid_t pid = ::fork();
    if (pid == 0) {
        const int null = ::open("/dev/null", O_WRONLY);
        ::dup2(null, STDOUT_FILENO);
        ::dup2(null, STDERR_FILENO);
        ::execl(o.self.c_str(), o.self.c_str(), "train", o.corpus.c_str(), "--preset", "book", "--steps",
                std::to_string(o.warmup + o.steps).c_str(), "--out", tmpl, static_cast<char*>(nullptr));
        ::_exit(127);
    }
    int status = 0;
    struct rusage usage {};
    const bool ok = pid > 0 && ::wait4(pid, &status, 0, &usage) == pid && WIFEXITED(status) &&
                    WEXITSTATUS(status) == 0;
    ::unlink(tmpl);
    return ok ? double(usage.ru_maxrss) / 1024.0 : std::nan("");
}

std::string number(double v, int precision = 0) {
    if (!std::isfinite(v)) return "-";
    std::ostringstream s;
    s.setf(std::ios::fixed);
    s.precision(precision);
    s << v;
    return s.str();
}

// A figure for the JSON summary: three decimals, null when unknown.
nlohmann::json jsonFigure(double v) {
    if (!std::isfinite(v)) return nullptr;
    return std::round(v * 1000.0) / 1000.0;
}

// The copy index of the corpus's training part (as the book preset splits it):
// its build time and memory, and the median time of checking 500 characters,
// copied verbatim from the training text (the worst case: a match runs on
// from every character) and taken from the validation text (what a model that
// does not copy writes).
struct CopiesFigure {
    double buildSeconds = std::nan(""), memoryMiB = std::nan(""), megabytes = std::nan("");
    double copiedMs = std::nan(""), unseenMs = std::nan(""), unseenShare = std::nan("");
    double calibrateSeconds = std::nan("");
    int minLength = 0;  // the rule fitted to the corpus (CopyIndex::calibrate)
};

CopiesFigure measureCopies(const Corpus& corpus, const CharTokenizer& tokenizer, const RunConfig& config, int chars) {
    CopiesFigure figure;
    const std::vector<int64_t> all = corpus.encode(tokenizer);
    const Dataset data(all, config.sequence_len, config.val_fraction);
    const std::vector<int64_t> training = data.trainingTokens();
    const auto start = Clock::now();
    CopyIndex index(training, tokenizer);
    figure.buildSeconds = seconds(start, Clock::now());
    const auto calibrated = Clock::now();
    figure.minLength = index.calibrate(data.tokens(Split::Validation), tokenizer);
    figure.calibrateSeconds = seconds(calibrated, Clock::now());
    figure.memoryMiB = double(index.memoryBytes()) / (1024.0 * 1024.0);
    figure.megabytes = double(index.byteCount()) / 1e6;
    auto textOf = [&](std::size_t from) {
        std::u32string text;
        for (std::size_t i = from; i < from + std::size_t(chars) && i < all.size(); ++i)
            text += all[i] == CharTokenizer::kEndOfText ? U'\n' : tokenizer.characters()[std::size_t(all[i] - 1)];
        return text;
    };
    // The median of 21 windows spread over a part of the text.
    auto timeChecks = [&](std::size_t begin, std::size_t end, double* share) {
        if (end < begin + std::size_t(chars)) return std::nan("");
        std::vector<double> times;
        double shares = 0.0;
        for (int i = 0; i < 21; ++i) {
            const std::u32string text = textOf(begin + (end - begin - std::size_t(chars)) * std::size_t(i) / 20);
            const auto from = Clock::now();
            const CopyCheck check = index.check(std::u32string_view(text));
            times.push_back(seconds(from, Clock::now()) * 1000.0);
            shares += check.share() / 21.0;
        }
        if (share) *share = shares;
        return median(times);
    };
    figure.copiedMs = timeChecks(0, training.size(), nullptr);
    figure.unseenMs = timeChecks(training.size(), all.size(), &figure.unseenShare);
    return figure;
}

}  // namespace bench

using namespace bench;

bool BenchOptions::wants(const std::string& part) const {
    return only.empty() || std::find(only.begin(), only.end(), part) != only.end();
}

int runBenchmark(const BenchOptions& o) {
    const int threads = at::get_num_threads();
    const Corpus corpus = loadCorpusSource(o.corpus);
    const CharTokenizer tokenizer = corpus.buildTokenizer();
    const CorpusFile referenceCorpus(o.reference.empty() ? std::string() : o.corpus);
    std::cerr << "chargpt bench: " << threads << " threads; per configuration " << o.warmup
              << " untimed steps, then at least " << o.steps << " timed steps and 2 s" << (o.reference.empty() ? "" : ", with the PyTorch reference") << '\n';

    const double fp32Ceiling = o.wants("ceiling") || o.wants("training") ? matmulGflops(torch::kFloat32) : std::nan("");
    const double bf16Ceiling = o.wants("ceiling") ? matmulGflops(torch::kBFloat16) : std::nan("");

    std::vector<TrainFigure> figures;
    if (o.wants("training"))
    for (const char* preset : {"book", "fast"})
        for (bool bf16 : {false, true}) {
            TrainFigure f;
            f.name = std::string(preset) + (bf16 ? " bf16" : " fp32");
            f.config = *RunConfig::preset(preset);
            f.config.vocab_size = tokenizer.vocabSize();
            f.config.bf16 = bf16;
            std::cerr << "  training " << f.name << "...\n";
            int steps = o.steps;
            f.tokensPerSecond = measureTraining(f.config, corpus, o, steps);
            f.referenceTokensPerSecond = referenceTraining(f.config, o, referenceCorpus.path(), steps);
            figures.push_back(f);
        }

    RunConfig book = *RunConfig::preset("book");
    book.vocab_size = tokenizer.vocabSize();
    constexpr int kProfiledSteps = 5;
    StepProfile profile;
    if (o.wants("profile")) {
        std::cerr << "  profiling " << kProfiledSteps << " steps of book (" << (book.bf16 ? "bf16" : "fp32")
                  << ", its default here) by operator...\n";
        profile = profileTrainingSteps(book, corpus, o.warmup, kProfiledSteps);
    }
    double cached = std::nan(""), exactWindow = std::nan(""), recompute = std::nan("");
    double referenceGeneration = std::nan("");
    if (o.wants("generation")) {
        std::cerr << "  generating...\n";
        // The median of three runs: 500 cached characters take a third of a
        // second, so one pause of the machine would otherwise decide the figure.
        auto median3 = [&](Generation how) {
            double r[3];
            for (double& x : r) x = measureGeneration(book, tokenizer, how, o.chars);
            std::sort(r, r + 3);
            return r[1];
        };
        cached = median3(Generation::Cached);
        exactWindow = median3(Generation::CachedExactWindow);
        recompute = median3(Generation::Recompute);
    }
    if (o.wants("generation") && !o.reference.empty())
        referenceGeneration = lastJsonNumber(capture(quote(o.python) + " " + quote(o.reference) + " generate" +
                                                referenceArgs(book) + " --vocab " +
                                                std::to_string(book.vocab_size) + " --chars " +
                                                std::to_string(o.chars) + " 2>/dev/null"),
                                        "chars_per_s");
    double peakMiB = std::nan("");
    if (o.wants("memory")) {
        std::cerr << "  peak memory of book training...\n";
        peakMiB = o.self.empty() ? std::nan("") : peakTrainingMemory(o);
    }
    CopiesFigure copies;
    if (o.wants("copies")) {
        std::cerr << "  copy index...\n";
        copies = measureCopies(corpus, tokenizer, book, o.chars);
    }
    GuiFigure gui;
    if (o.wants("gui")) {
        std::cerr << "  the app's GUI thread while it trains (" << o.guiSeconds << " s)...\n";
        gui = guiStall(o);
    }
    ViewsFigure views;
    if (o.wants("views")) {
        std::cerr << "  the app training with and without the views (" << 2 * kViewsRuns << " runs of "
                  << o.viewsSeconds << " s)...\n";
        views = viewsCost(o);
    }

    RunsFigure runs;
    if (o.wants("runs")) {
        std::cerr << "  recording runs: the fast preset with and without recording (" << 2 * kRecordRuns
                  << " runs), then the app with a library of " << o.libraryRuns << " runs of " << o.libraryRunSteps
                  << " steps (" << o.guiSeconds << " s)...\n";
        runs = runsCost(o, corpus, tokenizer.vocabSize());
    }

    if (o.wants("ceiling"))
        std::cout << "matrix multiply 2048^3: fp32 " << number(fp32Ceiling, 1) << " GFLOP/s, bf16 "
                  << number(bf16Ceiling, 1) << " GFLOP/s\n\n";
    if (o.wants("training")) {
        std::cout << "training           tokens/s   model GFLOP/s   of fp32 ceiling   PyTorch seed-style   ratio\n";
        for (const auto& f : figures) {
            const double gflops = f.tokensPerSecond * flopsPerToken(f.config) / 1e9;
            char line[256];
            std::snprintf(line, sizeof line, "%-14s %12s %15s %16s%% %20s %7s\n", f.name.c_str(),
                          number(f.tokensPerSecond).c_str(), number(gflops, 1).c_str(),
                          number(100.0 * gflops / fp32Ceiling, 1).c_str(), number(f.referenceTokensPerSecond).c_str(),
                          number(f.tokensPerSecond / f.referenceTokensPerSecond, 2).c_str());
            std::cout << line;
        }
    }
    auto figureNamed = [&figures](const std::string& name) -> const TrainFigure* {
        for (const auto& f : figures)
            if (f.name == name) return &f;
        return nullptr;
    };
    const TrainFigure* bookDefault = figureNamed(std::string("book ") + (book.bf16 ? "bf16" : "fp32"));
    const TrainFigure* bookFp32 = figureNamed("book fp32");
    if (bookDefault && bookFp32)
        std::cout << "book in its default precision here (" << (book.bf16 ? "bf16" : "fp32") << "): "
                  << number(bookDefault->tokensPerSecond) << " tokens/s = "
                  << number(bookDefault->tokensPerSecond / bookFp32->referenceTokensPerSecond, 2)
                  << " x the PyTorch seed-style fp32 reference\n";
    if (o.wants("profile")) {
        std::cout << "\nbook step (" << (book.bf16 ? "bf16" : "fp32") << ", batch " << book.batch_size << "): "
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
    if (o.wants("generation")) {
        std::cout << "\ngeneration (book, greedy, " << o.chars << " characters, context " << book.sequence_len
                  << ")                 chars/s   / recompute   / PyTorch seed-style\n";
        auto generationLine = [&](const char* name, double rate) {
            char line[256];
            std::snprintf(line, sizeof line, "%-48s %12s %13s %20s\n", name, number(rate).c_str(),
                          number(rate / recompute, 1).c_str(), number(rate / referenceGeneration, 1).c_str());
            std::cout << line;
        };
        generationLine("key/value cache, window shifted by half", cached);
        generationLine("key/value cache, exact sliding window", exactWindow);
        generationLine("full recompute at every step", recompute);
        generationLine("PyTorch seed-style (full recompute)", referenceGeneration);
    }
    constexpr double kCopyCheckTargetMs = 50.0;
    const double slowerCheckMs = std::max(copies.copiedMs, copies.unseenMs);
    if (o.wants("copies"))
        std::cout << "\ncopy index of the training text (" << number(copies.megabytes, 1) << " MB): built in "
                  << number(copies.buildSeconds, 2) << " s, " << number(copies.memoryMiB, 1) << " MiB; rule fitted in "
                  << number(copies.calibrateSeconds, 2) << " s: spans of " << copies.minLength << " characters or more\n"
                  << "checking " << o.chars << " characters (median of 21): copied text " << number(copies.copiedMs, 2)
                  << " ms, validation text " << number(copies.unseenMs, 2) << " ms ("
                  << number(100.0 * copies.unseenShare, 1) << "% copied); target " << number(kCopyCheckTargetMs)
                  << " ms, slower / target = " << number(slowerCheckMs / kCopyCheckTargetMs, 3) << "\n";
    if (o.wants("memory")) std::cout << "\npeak resident memory of book training: " << number(peakMiB) << " MiB\n";
    if (o.wants("gui"))
        std::cout << "longest GUI-thread stall while the app trains (" << number(gui.seconds, 1) << " s, "
                  << number(gui.steps) << " steps, a tab change every second): " << number(gui.stallMs)
                  << " ms; within 300 ms of a tab change " << number(gui.afterTabChangeMs) << " ms, otherwise "
                  << number(gui.otherwiseMs) << " ms\n";
    if (o.wants("views"))
        std::cout << "the app's training speed (median of " << kViewsRuns << " runs of " << number(o.viewsSeconds, 0)
                  << " s each, alternated): every view following the model " << number(views.withViews)
                  << " tokens/s, none " << number(views.withoutViews) << " tokens/s; with / without = "
                  << number(views.ratio(), 3) << "\n";
    if (o.wants("runs"))
        std::cout << "recording a run (fast preset, median of " << kRecordRuns << " alternated): "
                  << number(runs.withRecording) << " tokens/s recorded, " << number(runs.withoutRecording)
                  << " not; recorded / not = " << number(runs.ratio(), 3) << "; time in the recorder "
                  << number(100.0 * runs.recorderShare, 3) << "% of the training time\n"
                  << "a run library of " << o.libraryRuns << " runs of " << o.libraryRunSteps << " steps ("
                  << number(runs.libraryMiB, 1) << " MiB, written in " << number(runs.generateSeconds, 1)
                  << " s): the app's longest GUI-thread stall " << number(runs.gui.stallMs) << " ms ("
                  << number(runs.gui.seconds, 1) << " s of training, the Runs tab shown once a second)\n";

    if (o.json) {
        nlohmann::ordered_json summary;
        summary["threads"] = threads;
        summary["matmul_fp32_gflops"] = jsonFigure(fp32Ceiling);
        summary["matmul_bf16_gflops"] = jsonFigure(bf16Ceiling);
        nlohmann::ordered_json training = nlohmann::ordered_json::object();
        for (const auto& f : figures) {
            const double gflops = f.tokensPerSecond * flopsPerToken(f.config) / 1e9;
            training[f.name] = {{"tokens_per_s", jsonFigure(f.tokensPerSecond)},
                                {"model_gflops", jsonFigure(gflops)},
                                {"fraction_of_fp32_ceiling", jsonFigure(gflops / fp32Ceiling)},
                                {"reference_tokens_per_s", jsonFigure(f.referenceTokensPerSecond)},
                                {"ratio", jsonFigure(f.tokensPerSecond / f.referenceTokensPerSecond)}};
        }
        summary["training"] = std::move(training);
        summary["book_default_precision"] = book.bf16 ? "bf16" : "fp32";
        summary["book_default_vs_fp32_reference"] =
            jsonFigure(bookDefault && bookFp32 ? bookDefault->tokensPerSecond / bookFp32->referenceTokensPerSecond
                                               : std::nan(""));
        nlohmann::ordered_json operators = nlohmann::ordered_json::array();
        for (const auto& op : profile.operators)
            operators.push_back({{"name", op.name}, {"ms_per_step", jsonFigure(op.msPerStep)},
                                 {"calls_per_step", jsonFigure(op.callsPerStep)}});
        summary["profile_book"] = {{"step_ms", jsonFigure(profile.stepMs)}, {"operators", std::move(operators)}};
        summary["generation"] = {{"cached_chars_per_s", jsonFigure(cached)},
                                 {"cached_exact_window_chars_per_s", jsonFigure(exactWindow)},
                                 {"recompute_chars_per_s", jsonFigure(recompute)},
                                 {"reference_chars_per_s", jsonFigure(referenceGeneration)}};
        summary["copies"] = {{"index_build_s", jsonFigure(copies.buildSeconds)},
                             {"index_mib", jsonFigure(copies.memoryMiB)},
                             {"min_length", copies.minLength},
                             {"calibrate_s", jsonFigure(copies.calibrateSeconds)},
                             {"check_copied_ms", jsonFigure(copies.copiedMs)},
                             {"check_validation_ms", jsonFigure(copies.unseenMs)},
                             {"validation_share_copied", jsonFigure(copies.unseenShare)},
                             {"target_ms", kCopyCheckTargetMs},
                             {"ratio_to_target", jsonFigure(slowerCheckMs / kCopyCheckTargetMs)}};
        summary["peak_rss_mib_book_training"] = jsonFigure(peakMiB);
        summary["gui_longest_stall_ms"] = jsonFigure(gui.stallMs);
        summary["gui_stall_after_tab_change_ms"] = jsonFigure(gui.afterTabChangeMs);
        summary["gui_stall_otherwise_ms"] = jsonFigure(gui.otherwiseMs);
        summary["views"] = {{"tokens_per_s_with_views", jsonFigure(views.withViews)},
                            {"tokens_per_s_without_views", jsonFigure(views.withoutViews)},
                            {"ratio", jsonFigure(views.ratio())}};
        summary["runs"] = {{"tokens_per_s_recorded", jsonFigure(runs.withRecording)},
                           {"tokens_per_s_not_recorded", jsonFigure(runs.withoutRecording)},
                           {"ratio", jsonFigure(runs.ratio())},
                           {"recorder_share_of_step_time", jsonFigure(runs.recorderShare)},
                           {"library_runs", o.libraryRuns},
                           {"library_run_steps", o.libraryRunSteps},
                           {"library_mib", jsonFigure(runs.libraryMiB)},
                           {"library_write_s", jsonFigure(runs.generateSeconds)},
                           {"gui_longest_stall_ms", jsonFigure(runs.gui.stallMs)}};
        std::cout << summary.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << std::endl;
    }
    return 0;
}

}  // namespace chargpt
