// SPDX-License-Identifier: GPL-3.0-or-later
// `chargpt train`: trains a model on a corpus and saves it, also when a stop
// signal ends the run; its last line is a JSON summary.
#include <torch/torch.h>

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <limits>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "app/cli/CliArgs.h"
#include "app/cli/CliCommon.h"
#include "model/io/AtomicFile.h"
#include "model/io/Checkpoint.h"
#include "model/record/RunRecorder.h"
#include "model/runtime/CachingAllocator.h"
#include "model/runtime/Device.h"
#include "model/runtime/Error.h"
#include "model/session/TrainingSession.h"
#include "model/text/BuiltinCorpora.h"
#include "model/text/Corpus.h"
#include "model/train/Dataset.h"
#include "model/train/Ladder.h"
#include "model/train/Learning.h"
#include "model/train/RunConfig.h"
#include "model/train/RunFields.h"
#include "model/train/Trainer.h"

using namespace chargpt;

namespace {

// The checkpoint train writes, checked before the corpus is read and again
// before the first step: a target that cannot be written (a missing or
// read-only folder, a folder, a device, /proc, a full disk) or that is the
// corpus itself must not be found only after the training.
void checkTrainOutput(const std::string& out, const Corpus* corpus, std::uintmax_t expectedBytes) {
    if (corpus && corpus->holds(out))
        throw Error("--out " + out + " is the corpus " + corpus->name() +
                    " (or one of its files, or lies in its folder): saving there would overwrite the text "
                    "being trained on; give another --out.");
    checkSaveTarget(out, expectedBytes);
}

// "3.2", "12", "0.05": passes over the text for a line on the terminal.
std::string formatPasses(double passes) {
    char text[32];
    std::snprintf(text, sizeof text, passes >= 10 ? "%.0f" : passes >= 0.1 ? "%.1f" : "%.2f", passes);
    return text;
}
}  // namespace

int runTrain(const Args& args) {
    const std::string presetName = args.text("preset", "fast");
    auto preset = RunConfig::preset(presetName);
    if (!preset)
        throw Error("unknown preset '" + presetName + "' (book, fast, tiny or a rung of the ladder, ladder-1-bigram to " +
                    kLadder[kLadderRungs - 1].name + ").");
    if (args.has("like")) {  // the preset's shapes with another project's arithmetic
        if (args.text("like", "") != "nanogpt") throw Error("--like takes nanogpt, not '" + args.text("like", "") + "'.");
        preset->setNanoGptArithmetic();
    }
    // Every option is checked before the corpus is read (the numbers as the
    // command line was read); the preset is fitted to the corpus after.
    const std::string givenPrecision = args.text("precision", "fp32");
    if (givenPrecision != "fp32" && givenPrecision != "bf16")
        throw Error("--precision is fp32 or bf16, not '" + givenPrecision + "'.");
    const bool keepBest = args.has("keep-best");
    const bool record = !args.has("no-record");
    const bool snapshots = !args.has("no-snapshots");
    const int64_t keptBudget = args.integer("snapshot-budget", RunRecorder::kDefaultKeptBudget >> 20) << 20;
    const std::string out = args.text("out", "chargpt.pt");
    const int threads = useThreads(args.integer(settingOption("threads"), 0));
    checkTrainOutput(out, nullptr, 0);
    const auto seed =
        static_cast<uint64_t>(args.integer(settingOption("seed"), static_cast<int64_t>(preset->seed)));

    const std::string source = args.target.empty() ? std::string(kDefaultCorpus) : args.target;
    Corpus corpus = openCorpus(source);
    // The training part as the run's seed splits it (a folder validates on whole documents).
    const int64_t trainTokens = Dataset::trainSize(corpus, preset->sequence_len, preset->val_fraction, seed);
    // The preset fitted to the text, unless the steps are given.
    const bool stepsGiven = args.has(settingOption("max_steps"));
    RunConfig config = stepsGiven ? *preset : *RunConfig::preset(presetName, trainTokens);
    // Every setting given, by its field's option (RunFields.h), as the settings
    // panel edits it (the learning rate lowers the floor of its decay); the
    // threads are the program's (useThreads above).
    for (const RunField& field : runFields()) {
        if (!field.option || std::string_view(field.key) == "threads") continue;
        const std::string name = settingOption(field.key);
        if (!args.has(name)) continue;
        if (field.kind == FieldKind::Integer)
            field.setInteger(config, args.integer(name, 0));
        else if (field.kind == FieldKind::Real)
            field.editReal(config, args.number(name, 0.0));
    }
    // Without --steps a time limit alone ends the run.
    if (args.has(settingOption("time_limit_s")) && !stepsGiven) config.max_steps = 0;
    config.bf16 = args.text("precision", config.bf16 ? "bf16" : "fp32") == "bf16";

    TrainingSession session(config, corpus);
    if (session.data().validationOverlapsTraining())
        std::cerr << "chargpt: the corpus is small, so validation reuses the end of the training text.\n";
    Trainer& trainer = session.trainer();
    const CharTokenizer& tokenizer = session.tokenizer();
    config = session.config();
    // Weights and the optimizer's two moments, in float32.
    checkTrainOutput(out, &corpus, static_cast<std::uintmax_t>(config.parameterCount()) * 12);
    // From here on Ctrl-C, SIGTERM or SIGHUP stops training and the model is saved.
    catchStopSignals();
    std::cerr << "chargpt: " << presetName << " preset, " << config.parameterCount() << " parameters, "
              << tokenizer.vocabSize() << " tokens in the vocabulary, " << corpus.charCount()
              << " characters, " << threads << " threads, on " << computeDeviceName() << "\n";
    const double plannedPasses = trainer.passes(config.max_steps - trainer.step());
    if (config.max_steps > 0)
        std::cerr << "chargpt: " << config.max_steps << " steps of " << config.batch_size << " x "
                  << config.sequence_len << " characters pass " << formatPasses(plannedPasses)
                  << " times over the " << session.data().size(Split::Train) << " characters of training text\n";
    if (plannedPasses > kManyPasses)
        std::cerr << "chargpt: warning: this run passes about " << formatPasses(plannedPasses)
                  << " times over its training text (more than " << formatPasses(kManyPasses)
                  << "): the model will likely memorise it rather than learn from it; fewer steps, a larger "
                     "text or --keep-best help.\n";

    const bool tty = ::isatty(STDERR_FILENO);
    auto lastPrint = std::chrono::steady_clock::now() - std::chrono::hours(1);
    double lastVal = std::numeric_limits<double>::quiet_NaN();
    auto printProgress = [&](const StepFigures& s, bool force) {
        const auto now = std::chrono::steady_clock::now();
        const double since = std::chrono::duration<double>(now - lastPrint).count();
        if (!force && since < (tty ? 0.2 : 10.0)) return;
        lastPrint = now;
        char line[256];
        const std::string total = s.totalSteps > 0 ? "/" + std::to_string(s.totalSteps) : "";
        std::snprintf(line, sizeof line, "step %lld%s  %s passes  loss %s  val %s  %.0f tok/s  %s elapsed  ETA %s",
                      static_cast<long long>(s.step), total.c_str(), formatPasses(s.passes).c_str(),
                      std::isfinite(s.loss) ? std::to_string(s.loss).substr(0, 6).c_str() : "-",
                      std::isfinite(lastVal) ? std::to_string(lastVal).substr(0, 6).c_str() : "-",
                      s.tokensPerSecond, formatDuration(s.elapsedSeconds).c_str(),
                      formatDuration(s.etaSeconds).c_str());
        if (tty)
            std::cerr << "\r\033[K" << line << std::flush;
        else
            std::cerr << line << '\n';
    };
    // The run goes into the run library as it trains (`chargpt runs` lists it).
    RunRecorder recorder(record ? openRunLibraryForRecording() : nullptr,
                         runStartOf(session, corpus, source, RunOrigin::Cli, presetName));
    if (snapshots) recorder.keepWeights(keptWeightsOf(session), keptBudget);
    const bool unrecorded = !recorder.problem().empty();
    if (unrecorded)
        std::cerr << "chargpt: warning: this run is not recorded: " << terminalSafe(recorder.problem()) << '\n';
    else if (recorder.recording())
        std::cerr << "chargpt: recording this run as run " << *recorder.runId()
                  << " (chargpt runs lists them)\n";
    // What the library stops keeping (its weights, or the whole recording) is
    // said when it happens, once each.
    bool toldLeftOut = false, toldStopped = unrecorded;
    auto tellRecording = [&] {
        if (!toldLeftOut && !recorder.leftOut().empty()) {
            toldLeftOut = true;
            if (tty) std::cerr << '\n';
            std::cerr << "chargpt: warning: " << terminalSafe(recorder.leftOut()) << '\n';
        }
        if (!toldStopped && !recorder.problem().empty()) {
            toldStopped = true;
            if (tty) std::cerr << '\n';
            std::cerr << "chargpt: warning: the run library stopped recording this run: "
                      << terminalSafe(recorder.problem()) << '\n';
        }
    };
    trainer.onStep = [&](const StepFigures& s) {
        if (gInterrupted) trainer.stop();
        recorder.step(s);
        tellRecording();
        printProgress(s, false);
    };
    bool toldOverfitting = false;
    trainer.onEval = [&](const StepFigures& s) {
        recorder.evaluation(s);
        tellRecording();
        lastVal = s.valLoss;
        printProgress(s, true);
        if (tty) std::cerr << '\n';
        if (s.overfittingSince && !toldOverfitting) {
            toldOverfitting = true;
            const std::string since = std::to_string(*s.overfittingSince);
            std::cerr << "chargpt: validation loss has risen since step " << since
                      << " while training loss falls: the model is memorising its training text"
                      << (keepBest ? " (--keep-best keeps the weights of step " + since + ")"
                                   : " (--keep-best would keep the weights of step " + since + ")")
                      << '\n';
        }
    };

    const TrainResult result = trainer.run();
    if (tty) std::cerr << '\n';
    releaseCachedAllocatorMemory();

    // The best weights go back in only when asked, and only when they differ.
    if (keepBest && trainer.bestStep() && *trainer.bestStep() != trainer.weightsStep() && trainer.restoreBest())
        std::cerr << "chargpt: kept the weights of step " << trainer.weightsStep() << " (validation loss "
                  << std::to_string(trainer.bestValLoss()).substr(0, 6) << ")\n";
    saveCheckpoint(out, session.checkpoint());  // a first Ctrl-C now waits for it
    std::error_code absoluteError;
    const std::filesystem::path written = std::filesystem::absolute(out, absoluteError);
    recorder.checkpoint(trainer.weightsStep(), absoluteError ? out : written.string());
    recorder.finish(result);
    tellRecording();
    restoreStopSignals();
    if (gStopSignal != 0) std::cerr << "chargpt: " << stopSignalName(gStopSignal) << " received.\n";
    std::cerr << "chargpt: " << toString(result.reason) << " after " << result.last.step << " steps; saved "
              << terminalSafe(out) << '\n';
    if (result.reason == EndReason::NonFiniteLoss)
        std::cerr << "chargpt: " << terminalSafe(result.message) << '\n';

    nlohmann::ordered_json summary;
    summary["steps"] = result.last.step;
    summary["seconds"] = jsonFigure(result.last.elapsedSeconds);
    summary["tokens_per_s"] = jsonFigure(result.last.tokensPerSecond);
    summary["train_loss"] = jsonFigure(result.last.evalTrainLoss);
    summary["val_loss"] = jsonFigure(result.last.valLoss);
    summary["last_batch_loss"] = jsonFigure(result.last.loss);
    summary["stop_reason"] = toString(result.reason);
    summary["best_step"] = trainer.bestStep() ? nlohmann::json(*trainer.bestStep()) : nlohmann::json(nullptr);
    summary["best_val_loss"] = jsonFigure(trainer.bestValLoss());
    summary["weights_step"] = trainer.weightsStep();
    summary["passes"] = jsonFigure(result.last.passes);
    summary["overfitting_since"] =
        result.last.overfittingSince ? nlohmann::json(*result.last.overfittingSince) : nlohmann::json(nullptr);
    summary["parameters"] = config.parameterCount();
    summary["threads"] = threads;
    summary["checkpoint"] = out;
    summary["corpus"] = source;
    summary["run"] = recorder.runId() ? nlohmann::json(*recorder.runId()) : nlohmann::json(nullptr);
    printJsonLine(summary);
    return result.reason == EndReason::NonFiniteLoss ? 3 : 0;
}

