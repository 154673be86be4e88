// SPDX-License-Identifier: GPL-3.0-or-later
// `chargpt ladder`: trains every rung of the architecture ladder on a corpus,
// records each as a run, and prints a table of their best validation losses
// beside the floors of the validation text (or one JSON object).
#include <torch/torch.h>

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/cli/CliArgs.h"
#include "app/cli/CliCommon.h"
#include "model/record/LadderRuns.h"
#include "model/runtime/Device.h"
#include "model/runtime/Error.h"
#include "model/text/BuiltinCorpora.h"
#include "model/text/Corpus.h"

using namespace chargpt;

namespace {

// "1,2,7" or "1-3,7": the rungs in the order given, each once.
std::vector<int> rungsOf(const std::string& text) {
    std::vector<int> rungs;
    std::set<int> seen;
    const std::string help = "--rungs takes rung numbers from 1 to " + std::to_string(kLadderRungs) +
                             ", separated by commas, with ranges such as 1-3; not '" + text + "'.";
    std::size_t at = 0;
    auto number = [&](std::size_t& i) {
        if (i >= text.size() || text[i] < '1' || text[i] > '9') throw Error(help);
        int n = 0;
        for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i)
            if (n <= kLadderRungs) n = n * 10 + (text[i] - '0');
        if (n > kLadderRungs) throw Error(help);
        return n;
    };
    while (true) {
        const int first = number(at);
        int last = first;
        if (at < text.size() && text[at] == '-') last = number(++at);
        if (last < first) throw Error(help);
        for (int n = first; n <= last; ++n)
            if (seen.insert(n).second) rungs.push_back(n);
        if (at == text.size()) break;
        if (text[at] != ',') throw Error(help);
        ++at;
    }
    return rungs;
}

std::string figure(double v, int decimals = 3) {
    if (!std::isfinite(v)) return "-";
    char text[32];
    std::snprintf(text, sizeof text, "%.*f", decimals, v);
    return text;
}

// 1234567 -> "1,234,567".
std::string grouped(int64_t n) {
    std::string digits = std::to_string(n), out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

void printTable(const LadderReport& report, const std::string& source) {
    std::cout << "The ladder on " << terminalSafe(source, LineBreaks::Escape) << ": " << grouped(report.vocabSize)
              << " tokens in the vocabulary, losses in nats on the validation part ("
              << grouped(report.validationTokens) << " characters)\n\n";
    std::cout << "rung  model                   parameters   first val   best val   at step   time\n";
    for (const LadderRow& row : report.rows) {
        char line[256];
        std::snprintf(line, sizeof line, "%4d  %-22s %11s %11s %10s %9s %6.0f s", row.rung.number,
                      row.rung.title, grouped(row.parameters).c_str(), figure(row.firstValLoss).c_str(),
                      figure(row.bestValLoss).c_str(),
                      row.bestStep ? std::to_string(*row.bestStep).c_str() : "-", row.elapsedSeconds);
        std::cout << line;
        if (row.reason == EndReason::NonFiniteLoss) std::cout << "  (the loss stopped being finite)";
        if (row.reason == EndReason::Stopped) std::cout << "  (stopped)";
        std::cout << '\n';
    }
    std::cout << "\nfloors of the validation text:\n"
              << "      uniform guess, ln V                      " << figure(report.floors.uniform) << '\n'
              << "      unigram: its characters' entropy         " << figure(report.floors.unigram) << '\n'
              << "      bigram: given one character, its pairs'  " << figure(report.floors.bigram) << '\n';
    if (report.stopped) std::cout << "\nstopped: the rungs after the last one shown were not trained.\n";
}

nlohmann::ordered_json jsonOf(const LadderReport& report, const std::string& source, int threads) {
    nlohmann::ordered_json out;
    out["corpus"] = source;
    out["vocab_size"] = report.vocabSize;
    out["training_characters"] = report.trainingTokens;
    out["validation_characters"] = report.validationTokens;
    out["floors"] = {{"uniform", jsonFigure(report.floors.uniform)},
                     {"unigram", jsonFigure(report.floors.unigram)},
                     {"bigram", jsonFigure(report.floors.bigram)}};
    nlohmann::ordered_json rungs = nlohmann::ordered_json::array();
    for (const LadderRow& row : report.rows) {
        nlohmann::ordered_json r;
        r["rung"] = row.rung.number;
        r["preset"] = row.rung.name;
        r["title"] = row.rung.title;
        r["parameters"] = row.parameters;
        r["first_val_loss"] = jsonFigure(row.firstValLoss);
        r["best_val_loss"] = jsonFigure(row.bestValLoss);
        r["best_step"] = row.bestStep ? nlohmann::json(*row.bestStep) : nlohmann::json(nullptr);
        r["last_train_loss"] = jsonFigure(row.lastTrainLoss);
        r["last_val_loss"] = jsonFigure(row.lastValLoss);
        r["steps"] = row.step;
        r["batch_size"] = row.config.batch_size;
        r["seconds"] = jsonFigure(row.elapsedSeconds);
        r["tokens_per_s"] = jsonFigure(row.tokensPerSecond);
        r["stop_reason"] = toString(row.reason);
        r["run"] = row.runId ? nlohmann::json(*row.runId) : nlohmann::json(nullptr);
        rungs.push_back(std::move(r));
    }
    out["rungs"] = std::move(rungs);
    out["stopped"] = report.stopped;
    out["threads"] = threads;
    return out;
}

}  // namespace

int runLadder(const Args& args) {
    // Every option is checked before the corpus is read.
    LadderOptions options;
    if (args.has("rungs")) options.rungs = rungsOf(args.text("rungs", ""));
    const std::string precision = args.text("precision", "");
    if (!precision.empty() && precision != "fp32" && precision != "bf16")
        throw Error("--precision is fp32 or bf16, not '" + precision + "'.");
    if (!precision.empty()) options.bf16 = precision == "bf16";
    options.steps = args.integer(settingOption("max_steps"), 0);
    options.batchSize = args.integer(settingOption("batch_size"), 0);
    options.learningRate = args.number(settingOption("learning_rate"), 0.0);
    options.evalIters = args.integer(settingOption("eval_iters"), 0);
    if (args.has(settingOption("seed")))
        options.seed = static_cast<uint64_t>(args.integer(settingOption("seed"), 0));
    options.keepWeights = !args.has("no-snapshots");
    const bool json = args.has("json");
    const int threads = useThreads(args.integer(settingOption("threads"), 0));

    options.source = args.target.empty() ? std::string(kDefaultCorpus) : args.target;
    const Corpus corpus = openCorpus(options.source);
    options.origin = RunOrigin::Cli;
    if (!args.has("no-record")) options.library = openRunLibraryForRecording();
    options.session.control = std::make_shared<TrainerControl>();  // Ctrl-C stops the rung that trains
    catchStopSignals();

    const bool tty = ::isatty(STDERR_FILENO);
    const int count = options.rungs.empty() ? kLadderRungs : static_cast<int>(options.rungs.size());
    int done = 0;
    auto lastPrint = std::chrono::steady_clock::now();
    LadderHooks hooks;
    hooks.started = [&](const LadderReport& r) {
        std::cerr << "chargpt: the ladder on " << terminalSafe(options.source) << ", " << r.vocabSize
                  << " tokens in the vocabulary, " << threads << " threads, on " << computeDeviceName() << '\n';
        if (r.validationOverlapsTraining)
            std::cerr << "chargpt: the corpus is small, so validation reuses the end of the training text.\n";
    };
    hooks.rungStarts = [&](const LadderRung& rung, const TrainingSession& session) {
        const RunConfig& c = session.config();
        std::cerr << "chargpt: rung " << ++done << "/" << count << ", " << rung.name << " (" << rung.title
                  << "): " << c.parameterCount() << " parameters, " << c.max_steps << " steps of " << c.batch_size
                  << " x " << c.sequence_len << '\n';
    };
    hooks.step = [&](const LadderRung&, const StepFigures& s) {
        if (gInterrupted) options.session.control->stop();
        const auto now = std::chrono::steady_clock::now();
        if (!tty || now - lastPrint < std::chrono::milliseconds(200)) return;
        lastPrint = now;
        std::cerr << "\r\033[Kstep " << s.step << "/" << s.totalSteps << "  loss " << figure(s.loss) << std::flush;
    };
    hooks.rungEnds = [&](const LadderRow& row) {
        if (tty) std::cerr << "\r\033[K";
        std::cerr << "chargpt: " << row.rung.name << ": best validation loss " << figure(row.bestValLoss)
                  << " at step " << (row.bestStep ? std::to_string(*row.bestStep) : std::string("-")) << ", "
                  << figure(row.elapsedSeconds, 0) << " s"
                  << (row.runId ? ", run " + std::to_string(*row.runId) : std::string()) << '\n';
        if (!row.recordingProblem.empty())
            std::cerr << "chargpt: warning: the run library stopped recording it: "
                      << terminalSafe(row.recordingProblem) << '\n';
        if (row.reason == EndReason::NonFiniteLoss)
            std::cerr << "chargpt: " << terminalSafe(row.message) << '\n';
    };
    const LadderReport report = trainLadder(corpus, options, hooks);
    restoreStopSignals();
    if (gStopSignal != 0) std::cerr << "chargpt: " << stopSignalName(gStopSignal) << " received.\n";
    if (json)
        printJsonLine(jsonOf(report, options.source, threads));
    else
        printTable(report, options.source);
    return 0;
}
