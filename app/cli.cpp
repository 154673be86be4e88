// SPDX-License-Identifier: GPL-3.0-or-later
// `chargpt`: train, sample and inspect CharGPT models from a terminal.
#include <torch/torch.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "Bench.h"
#include "CliArgs.h"
#include "model/analysis/Surprise.h"
#include "model/nn/CharGPT.h"
#include "model/io/AtomicFile.h"
#include "model/io/Checkpoint.h"
#include "model/io/ConfigJson.h"
#include "model/text/BuiltinCorpora.h"
#include "model/text/Corpus.h"
#include "model/text/CopyIndex.h"
#include "model/train/Dataset.h"
#include "model/train/Learning.h"
#include "model/runtime/Error.h"
#include "model/runtime/Device.h"
#include "model/train/RunConfig.h"
#include "model/io/PyTorchInterop.h"
#include "model/runtime/Runtime.h"
#include "model/generate/Sampler.h"
#include "model/train/Trainer.h"
#include "model/train/TrainingSession.h"
#include "model/text/Utf8.h"

// Qt after LibTorch: only `attention` and `surprise` use it, to paint with the widgets' code.
#include <QFont>
#include <QGuiApplication>
#include <QPainter>
#include <QSize>
#include <QString>
#include <QtGlobal>

#include "AttentionBridge.h"
#include "AttentionGrid.h"
#include "AttentionHeatmap.h"
#include "SurpriseBridge.h"
#include "SurpriseView.h"

using namespace chargpt;

namespace {

std::atomic<bool> gInterrupted{false};

// More threads than this only thrash, whatever the machine.
constexpr int64_t kMaxThreads = 1024;

// A prompt too long for the command line (the system caps one argument at
// 128 KiB): read from a file, "-" for standard input, at most 16 MiB. The file
// is opened without blocking and must be a regular file: a FIFO with no
// writer would block forever, a device never ends. Its size is not trusted
// (files of /proc report 0 bytes): it is read to its end, up to the cap.
// `what` names the file in messages, `option` the option that gave it.
std::string readPromptFile(const std::string& path, const std::string& what = "prompt file",
                           const std::string& option = "--prompt-file") {
    constexpr std::size_t kMaxPromptBytes = 16u << 20;
    int fd = STDIN_FILENO;
    if (path != "-") {
        fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
        if (fd < 0) throw Error("cannot open the " + what + " " + path + ": " + std::strerror(errno) + ".");
        struct stat info {};
        const bool known = ::fstat(fd, &info) == 0;
        if (!known || !S_ISREG(info.st_mode)) {
            const int err = errno;
            ::close(fd);
            if (!known) throw Error("cannot read the " + what + " " + path + ": " + std::strerror(err) + ".");
            const std::string kind = S_ISFIFO(info.st_mode)                          ? "a named pipe (FIFO)"
                                     : S_ISCHR(info.st_mode) || S_ISBLK(info.st_mode) ? "a device"
                                     : S_ISSOCK(info.st_mode)                         ? "a socket"
                                     : S_ISDIR(info.st_mode)                          ? "a folder"
                                                                                      : "not a regular file";
            throw Error("the " + what + " " + path + " is " + kind +
                        "; give a regular file, or - to read standard input (" + option + " - < " + path + ").");
        }
    }
    std::string text;
    char buffer[65536];
    for (;;) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            const int err = errno;
            if (fd != STDIN_FILENO) ::close(fd);
            throw Error("cannot read the " + what + " " + path + ": " + std::strerror(err) + ".");
        }
        if (n == 0) break;
        text.append(buffer, static_cast<std::size_t>(n));
        if (text.size() > kMaxPromptBytes) {
            if (fd != STDIN_FILENO) ::close(fd);
            throw Error("the " + what + " " + path + " is larger than 16 MiB.");
        }
    }
    if (fd != STDIN_FILENO) ::close(fd);
    return text;
}

// Text shown on a terminal with its control characters escaped, so that the
// bytes of a prompt (or of what a model learned) cannot move the cursor,
// recolour the screen or send the terminal commands: C0 controls other than
// newline and tab, DEL and C1 controls become \xHH or \uHHHH. `text` is UTF-8.
std::string terminalSafe(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    char escape[16];
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7F) {
            std::snprintf(escape, sizeof escape, "\\x%02X", c);
            out += escape;
        } else if (c == 0xC2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
                   static_cast<unsigned char>(text[i + 1]) <= 0x9F) {
            std::snprintf(escape, sizeof escape, "\\u%04X", static_cast<unsigned char>(text[i + 1]));
            out += escape;
            ++i;
        } else {
            out += static_cast<char>(c);
        }
    }
    return out;
}

// A prompt is text: a NUL byte in it is refused (it is never part of a
// vocabulary, since corpora with NUL bytes are refused as binary).
void refuseNulInPrompt(const std::string& prompt) {
    if (const void* nul = std::memchr(prompt.data(), 0, prompt.size()))
        throw Error("the prompt has a NUL character at byte offset " +
                    std::to_string(static_cast<const char*>(nul) - prompt.data()) + "; a prompt is text.");
}

// SIGINT, SIGTERM and SIGHUP while `train` runs: the run stops after its
// current step and the model is saved, the same for all three (a terminal
// closed, a service manager or `kill` stopping it must not lose the run). A
// second signal of the same kind ends the process at once. A signal that was
// ignored when the program started (nohup, a background job) stays ignored.
constexpr int kStopSignals[] = {SIGINT, SIGTERM, SIGHUP};
std::atomic<int> gStopSignal{0};

extern "C" void onStopSignal(int sig) {
    gStopSignal = sig;
    gInterrupted = true;
    std::signal(sig, SIG_DFL);
}

void catchStopSignals() {
    for (const int sig : kStopSignals) {
        struct sigaction old {};
        if (::sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
        std::signal(sig, onStopSignal);
    }
}

void restoreStopSignals() {
    for (const int sig : kStopSignals) {
        struct sigaction old {};
        if (::sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
        std::signal(sig, SIG_DFL);
    }
}

const char* stopSignalName(int sig) {
    switch (sig) {
        case SIGINT: return "SIGINT";
        case SIGTERM: return "SIGTERM";
        case SIGHUP: return "SIGHUP";
        default: return "a signal";
    }
}

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

// A figure of the JSON summary: six significant digits, null when unknown.
nlohmann::json jsonFigure(double v) {
    if (!std::isfinite(v)) return nullptr;
    char text[32];
    std::snprintf(text, sizeof text, "%.6g", v);
    return std::strtod(text, nullptr);
}

std::string formatDuration(double seconds) {
    if (!std::isfinite(seconds)) return "?";
    const long s = std::lround(seconds);
    char buf[32];
    if (s >= 3600)
        std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", s / 3600, (s / 60) % 60, s % 60);
    else
        std::snprintf(buf, sizeof buf, "%ld:%02ld", s / 60, s % 60);
    return buf;
}

// Applies --threads (0: automatic) by the one rule, capped at the machine's
// cores, and says so when it was capped.
int useThreads(int64_t asked) {
    const ThreadChoice choice = applyThreads(static_cast<int>(asked));
    if (choice.capped) std::cerr << "chargpt: " << choice.message("--threads " + std::to_string(asked)) << '\n';
    return choice.applied;
}

// "3.2", "12", "0.05": passes over the text for a line on the terminal.
std::string formatPasses(double passes) {
    char text[32];
    std::snprintf(text, sizeof text, passes >= 10 ? "%.0f" : passes >= 0.1 ? "%.1f" : "%.2f", passes);
    return text;
}

int runTrain(const Args& args) {
    const std::string presetName = args.text("preset", "fast");
    auto preset = RunConfig::preset(presetName);
    if (!preset) throw Error("unknown preset '" + presetName + "' (book, fast or tiny).");
    // Every option is checked before the corpus is read; the preset is fitted
    // to the corpus after.
    if (args.has("steps")) args.integer("steps", 0, 1, int64_t(1) << 40);
    if (args.has("time-limit")) args.number("time-limit", 0, 1e-3, 1e9);
    args.integer("batch", 1, 1, 1 << 20);
    args.number("lr", 1.0, 1e-12, 1e6);
    args.integer("seed", 0, 0, INT64_MAX);
    const std::string givenPrecision = args.text("precision", "fp32");
    if (givenPrecision != "fp32" && givenPrecision != "bf16")
        throw Error("--precision is fp32 or bf16, not '" + givenPrecision + "'.");
    const bool keepBest = args.has("keep-best");
    const std::string out = args.text("out", "chargpt.pt");
    const int threads = useThreads(args.integer("threads", 0, 0, kMaxThreads));
    checkTrainOutput(out, nullptr, 0);

    const std::string source = args.target.empty() ? std::string(kDefaultCorpus) : args.target;
    Corpus corpus = loadCorpusSource(source);
    for (const auto& warning : corpus.warnings()) std::cerr << "chargpt: " << warning << '\n';
    const int64_t trainTokens =
        Dataset::trainSize(static_cast<int64_t>(corpus.tokenCount()), preset->sequence_len, preset->val_fraction);
    // The preset fitted to the text, unless the steps are given.
    RunConfig config = args.has("steps") ? *preset : *RunConfig::preset(presetName, trainTokens);
    if (args.has("steps")) config.max_steps = args.integer("steps", 0, 1, int64_t(1) << 40);
    if (args.has("time-limit")) {
        config.time_limit_s = args.number("time-limit", 0, 1e-3, 1e9);
        if (!args.has("steps")) config.max_steps = 0;  // the clock alone ends the run
    }
    config.batch_size = args.integer("batch", config.batch_size, 1, 1 << 20);
    config.setLearningRate(args.number("lr", config.learning_rate, 1e-12, 1e6));
    config.seed = static_cast<uint64_t>(args.integer("seed", static_cast<int64_t>(config.seed), 0, INT64_MAX));
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
    auto printProgress = [&](const TrainSnapshot& s, bool force) {
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
    trainer.onStep = [&](const TrainSnapshot& s) {
        if (gInterrupted) trainer.stop();
        printProgress(s, false);
    };
    bool toldOverfitting = false;
    trainer.onEval = [&](const TrainSnapshot& s) {
        lastVal = s.valLoss;
        printProgress(s, true);
        if (tty) std::cerr << '\n';
        if (s.overfittingSince >= 0 && !toldOverfitting) {
            toldOverfitting = true;
            const std::string since = std::to_string(s.overfittingSince);
            std::cerr << "chargpt: validation loss has risen since step " << since
                      << " while training loss falls: the model is memorising its training text"
                      << (keepBest ? " (--keep-best keeps the weights of step " + since + ")"
                                   : " (--keep-best would keep the weights of step " + since + ")")
                      << '\n';
        }
    };

    const TrainResult result = trainer.run();
    if (tty) std::cerr << '\n';

    // The best weights go back in only when asked, and only when they differ.
    if (keepBest && trainer.bestStep() >= 0 && trainer.bestStep() != trainer.weightsStep() && trainer.restoreBest())
        std::cerr << "chargpt: kept the weights of step " << trainer.weightsStep() << " (validation loss "
                  << std::to_string(trainer.bestValLoss()).substr(0, 6) << ")\n";
    saveCheckpoint(out, session.checkpoint());  // a first Ctrl-C now waits for it
    restoreStopSignals();
    if (gStopSignal != 0) std::cerr << "chargpt: " << stopSignalName(gStopSignal) << " received.\n";
    std::cerr << "chargpt: " << toString(result.reason) << " after " << result.last.step << " steps; saved "
              << out << '\n';
    if (result.reason == StopReason::NonFiniteLoss) std::cerr << "chargpt: " << result.message << '\n';

    nlohmann::ordered_json summary;
    summary["steps"] = result.last.step;
    summary["seconds"] = jsonFigure(result.last.elapsedSeconds);
    summary["tokens_per_s"] = jsonFigure(result.last.tokensPerSecond);
    summary["train_loss"] = jsonFigure(result.last.evalTrainLoss);
    summary["val_loss"] = jsonFigure(result.last.valLoss);
    summary["last_batch_loss"] = jsonFigure(result.last.loss);
    summary["stop_reason"] = toString(result.reason);
    summary["best_step"] = trainer.bestStep() >= 0 ? nlohmann::json(trainer.bestStep()) : nlohmann::json(nullptr);
    summary["best_val_loss"] = jsonFigure(trainer.bestValLoss());
    summary["weights_step"] = trainer.weightsStep();
    summary["passes"] = jsonFigure(result.last.passes);
    summary["overfitting_since"] =
        result.last.overfittingSince >= 0 ? nlohmann::json(result.last.overfittingSince) : nlohmann::json(nullptr);
    summary["parameters"] = config.parameterCount();
    summary["threads"] = threads;
    summary["checkpoint"] = out;
    summary["corpus"] = source;
    // A path that is not UTF-8 is written with U+FFFD in place of its bad bytes.
    std::cout << summary.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << std::endl;
    return result.reason == StopReason::NonFiniteLoss ? 3 : 0;
}

// The copy index of the text a checkpoint trained on: `source` split as its
// training split it (val_fraction, sequence_len), in its vocabulary
// (characters it lacks left out, as training leaves them out); its rule
// fitted to the corpus by its validation part (CopyIndex::calibrate).
CopyIndex trainingTextIndex(const std::string& source, const Checkpoint& checkpoint) {
    const Corpus corpus = loadCorpusSource(source);
    for (const auto& warning : corpus.warnings()) std::cerr << "chargpt: " << warning << '\n';
    const Dataset data(corpus.encode(checkpoint.tokenizer), checkpoint.config.sequence_len,
                       checkpoint.config.val_fraction);
    CopyIndex index(data.trainingTokens(), checkpoint.tokenizer);
    index.calibrate(data.tokens(Split::Validation), checkpoint.tokenizer);
    return index;
}

// "copied" of sample's JSON: the share, the spans as [start, length] in
// characters of the generated text, and the rule's shortest span.
nlohmann::ordered_json copiedJson(const CopyCheck& check, int minLength) {
    nlohmann::ordered_json spans = nlohmann::ordered_json::array();
    for (const CopyCheck::Span& span : check.spans) spans.push_back({span.start, span.length});
    nlohmann::ordered_json copied;
    copied["share"] = jsonFigure(check.share());
    copied["spans"] = std::move(spans);
    copied["min_length"] = minLength;
    return copied;
}

int runSample(const Args& args) {
    // Every option is checked before the checkpoint is read.
    SamplingOptions options;
    options.maxNewChars = args.integer("chars", 500, 0, 10'000'000);
    options.temperature = args.number("temperature", 1.0, 0.0, 100.0);
    options.topK = args.integer("top-k", 0, 0, RunConfig::kMaxVocabulary);
    options.topP = args.number("top-p", 1.0, 1e-6, 1.0);
    options.seed = static_cast<uint64_t>(args.integer("seed", 12046, 0, INT64_MAX));
    options.candidates = 0;
    options.exactWindow = args.has("exact-window");
    const int64_t threads = args.integer("threads", 0, 0, kMaxThreads);
    const bool json = args.has("json");
    if (args.has("prompt") && args.has("prompt-file")) throw Error("give --prompt or --prompt-file, not both.");
    std::string prompt = args.text("prompt", "");
    if (args.has("prompt-file")) prompt = readPromptFile(args.text("prompt-file", ""));
    refuseNulInPrompt(prompt);
    const std::u32string promptText = utf8::decodeOrThrow(prompt, "the prompt");

    useThreads(threads);
    Checkpoint checkpoint = loadCheckpoint(args.target);
    std::vector<UnknownChar> unknown;
    const std::vector<int64_t> tokens = checkpoint.tokenizer.encode(promptText, &unknown);
    if (!prompt.empty() && tokens.empty()) throw Error("no character of the prompt is in the model's vocabulary.");
    if (!unknown.empty()) {
        std::cerr << "chargpt: left out " << unknown.size() << " prompt character(s) the model never saw:";
        for (std::size_t i = 0; i < unknown.size() && i < 10; ++i)
            std::cerr << " '" << terminalSafe(utf8::encode(unknown[i].codePoint)) << "' (position "
                      << unknown[i].position << ")";
        std::cerr << (unknown.size() > 10 ? " ...\n" : "\n");
    }
    const auto context = static_cast<std::size_t>(checkpoint.config.sequence_len);
    if (tokens.size() > context)
        std::cerr << "chargpt: the prompt has " << tokens.size() << " characters and the model's context is "
                  << context << ": only its last " << context << " characters steer the generation.\n";
    // Before the generation, so that a wrong corpus is refused at once.
    std::optional<CopyIndex> copies;
    if (args.has("corpus")) copies.emplace(trainingTextIndex(args.text("corpus", ""), checkpoint));

    // On a terminal, control characters are shown escaped; a file or a pipe gets the text as it is.
    const bool tty = ::isatty(STDOUT_FILENO);
    const std::string echoed = checkpoint.tokenizer.decode(tokens);
    if (!json) std::cout << (tty ? terminalSafe(echoed) : echoed) << std::flush;
    Sampler sampler(checkpoint.model, checkpoint.tokenizer, options);
    std::signal(SIGINT, onStopSignal);
    std::string generated;
    sampler.generate(tokens, [tty, json, &generated](const SampleStep& step) {
        generated += step.text;
        if (!json) std::cout << (tty ? terminalSafe(step.text) : step.text) << std::flush;
        return !gInterrupted;
    });
    std::optional<CopyCheck> copied;
    if (copies) copied = copies->check(std::string_view(generated));
    if (json) {
        nlohmann::ordered_json summary;
        summary["prompt"] = echoed;
        summary["text"] = generated;
        summary["characters"] = utf8::decodeOrThrow(generated, "the generated text").size();
        summary["copied"] = copied ? copiedJson(*copied, copies->minLength()) : nlohmann::ordered_json(nullptr);
        std::cout << summary.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << std::endl;
        return 0;
    }
    std::cout << std::endl;
    if (copied) {
        char share[32];
        std::snprintf(share, sizeof share, "%.0f%%", 100.0 * (std::isfinite(copied->share()) ? copied->share() : 0.0));
        std::cout << "copied: " << share << " of the " << copied->characters << " characters ("
                  << copied->spans.size() << " span(s) of " << copies->minLength()
                  << " or more found verbatim in the training text)" << std::endl;
    }
    return 0;
}

int runInfo(const Args& args) {
    const Checkpoint c = loadCheckpoint(args.target);
    const RunConfig& g = c.config;
    auto last = [](const std::vector<float>& v) {
        return v.empty() ? std::string("-") : std::to_string(v.back()).substr(0, 6);
    };
    std::cout << "checkpoint      " << args.target << '\n'
              << "parameters      " << g.parameterCount() << '\n'
              << "vocabulary      " << g.vocab_size << " tokens (end-of-text + " << g.vocab_size - 1
              << " characters)\n"
              << "emb_size        " << g.emb_size << '\n'
              << "head_size       " << g.head_size << " (" << g.n_head() << " heads)\n"
              << "n_layer         " << g.n_layer << '\n'
              << "sequence_len    " << g.sequence_len << '\n'
              << "dropout         " << g.dropout << '\n'
              << "batch_size      " << g.batch_size << '\n'
              << "learning_rate   " << g.learning_rate << '\n'
              << "step            " << c.step << '\n';
    if (c.weightsStep != c.step)
        std::cout << "weights_step    " << c.weightsStep
                  << " (the weights of the best validation loss, put back after step " << c.step << ")\n";
    std::cout
              << "tokens_seen     " << c.tokensSeen << '\n'
              << "train_loss      " << last(c.history.evalTrainLoss) << " (last evaluation)\n"
              << "val_loss        " << last(c.history.evalValLoss) << " (last evaluation)\n"
              << "evaluations     " << c.history.evalSteps.size() << '\n';
    return 0;
}

int runImport(const Args& args) {
    if (args.has("corpus") == args.has("vocab"))
        throw Error("import needs the vocabulary: either --corpus PATH (the text the model was trained on) or "
                    "--vocab FILE.json.");
    if (!args.has("out")) throw Error("import needs -o OUT.pt, the checkpoint to write.");
    const std::string out = args.text("out", "");
    checkSaveTarget(out);
    const std::string source = args.has("corpus") ? args.text("corpus", "") : args.text("vocab", "");
    const CharTokenizer vocabulary =
        args.has("corpus") ? vocabularyFromCorpus(source) : readVocabularyFile(source);
    const std::string described = (args.has("corpus") ? "the corpus " : "the vocabulary file ") + source;
    Checkpoint checkpoint = importStateDict(args.target, vocabulary, described, *RunConfig::preset("book"));
    saveCheckpoint(out, checkpoint);
    const RunConfig& c = checkpoint.config;
    std::cerr << "chargpt: imported " << args.target << ": " << c.n_layer << " layers, " << c.n_head()
              << " heads of " << c.head_size << ", width " << c.emb_size << ", context " << c.sequence_len << ", "
              << c.vocab_size << " tokens, " << c.parameterCount() << " parameters; wrote " << out << '\n';
    return 0;
}

int runExportConfig(const Args& args) {
    if (!args.has("out")) throw Error("export-config needs -o CONFIG.json.");
    checkSaveTarget(args.text("out", ""));  // before the checkpoint is read
    RunConfig config;
    if (!args.target.empty()) {
        if (args.has("preset")) throw Error("give a checkpoint or --preset, not both.");
        config = loadCheckpoint(args.target).config;
    } else {
        const std::string presetName = args.text("preset", "fast");
        auto preset = RunConfig::preset(presetName);
        if (!preset) throw Error("unknown preset '" + presetName + "' (book, fast or tiny).");
        config = *preset;
    }
    config.max_steps = args.integer("steps", config.max_steps, 1, int64_t(1) << 40);
    config.batch_size = args.integer("batch", config.batch_size, 1, 1 << 20);
    config.setLearningRate(args.number("lr", config.learning_rate, 1e-12, 1e6));
    config.seed = static_cast<uint64_t>(args.integer("seed", static_cast<int64_t>(config.seed), 0, INT64_MAX));
    if (const ConfigProblem problem = config.validate()) throw Error(problem.message());
    writeConfigJson(args.text("out", ""), config);
    std::cerr << "chargpt: wrote " << args.text("out", "") << '\n';
    return 0;
}

// `chargpt corpora`: the built-in corpora (or the one named) with their
// figures as loadCorpusSource reads them; vocabulary counts end-of-text.
int runCorpora(const Args& args) {
    std::vector<std::string> names = builtinCorpusNames();
    if (!args.target.empty()) {
        if (!isBuiltinSource(args.target)) builtinCorpusText(args.target);  // says which exist
        names = {args.target};
    }
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    bool allRead = true;
    if (!args.has("json"))
        std::cout << "name                   bytes   characters   vocabulary   description\n";
    for (const std::string& name : names) {
        nlohmann::ordered_json entry;
        entry["name"] = name;
        try {
            const Corpus corpus = loadCorpusSource(name);
            const int64_t vocabulary = corpus.buildTokenizer().vocabSize();
            entry["bytes"] = corpus.byteCount();
            entry["characters"] = corpus.charCount();
            entry["vocabulary"] = vocabulary;
            entry["description"] = builtinCorpusDescription(name);
            if (!args.has("json")) {
                char line[160];
                std::snprintf(line, sizeof line, "%-16s %11zu %12zu %12lld   ", name.c_str(), corpus.byteCount(),
                              corpus.charCount(), static_cast<long long>(vocabulary));
                std::cout << line << builtinCorpusDescription(name) << '\n';
            }
        } catch (const Error& e) {
            // builtin:python without Python: the others are still listed.
            allRead = false;
            entry["bytes"] = entry["characters"] = entry["vocabulary"] = nullptr;
            entry["description"] = builtinCorpusDescription(name);
            entry["error"] = e.what();
            if (!args.has("json")) std::cout << name << "   (not available: " << e.what() << ")\n";
        }
        list.push_back(std::move(entry));
    }
    if (args.has("json")) {
        nlohmann::ordered_json out;
        out["corpora"] = std::move(list);
        std::cout << out.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << std::endl;
    }
    return allRead ? 0 : 1;
}

// Pixels: wide enough for the title and legend line of AttentionGrid::paintLayer.
constexpr int kMinimumGridWidth = 760;

// Qt's own warnings about the environment (a headless machine has no
// XDG_RUNTIME_DIR) say nothing about the drawing; the rest go to stderr as ours.
void qtMessages(QtMsgType type, const QMessageLogContext&, const QString& message) {
    if (type == QtDebugMsg || type == QtInfoMsg || message.startsWith(QLatin1String("QStandardPaths:")))
        return;
    std::cerr << "chargpt: " << message.toStdString() << '\n';
}

// Lower-case suffix of a path, with its dot ("" when it has none).
std::string suffixOf(const std::string& path) {
    std::string suffix = std::filesystem::path(path).extension().string();
    for (char& c : suffix) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return suffix;
}

int runAttention(const Args& args, char* programName) {
    if (!args.has("text"))
        throw Error("attention needs --text TEXT, the characters whose attention is drawn.");
    if (!args.has("out")) throw Error("attention needs --out FILE.png or --out FILE.svg.");
    const std::string out = args.text("out", "");
    const std::string suffix = suffixOf(out);
    if (suffix != ".png" && suffix != ".svg")
        throw Error("--out must name a .png or .svg file, not '" + out + "'.");
    const std::string text = args.text("text", "");
    utf8::decodeOrThrow(text, "--text");
    if (text.empty()) throw Error("--text is empty: give the characters whose attention is drawn.");
    useThreads(args.integer("threads", 0, 0, kMaxThreads));

    const Checkpoint checkpoint = loadCheckpoint(args.target);
    const int layers = static_cast<int>(checkpoint.config.n_layer);
    const int layer = static_cast<int>(args.integer("layer", layers - 1, INT32_MIN, INT32_MAX));

    const AttentionProbe probe = computeAttention(checkpoint, QString::fromStdString(text), layer);
    if (!probe.unknownPositions.isEmpty()) {
        std::cerr << "chargpt: left out " << probe.unknownPositions.size()
                  << " character(s) of --text the model never saw:";
        for (qsizetype i = 0; i < probe.unknownPositions.size() && i < 10; ++i)
            std::cerr << " '" << terminalSafe(probe.unknownCharacters[i].toStdString()) << "' (position "
                      << probe.unknownPositions[i] << ")";
        std::cerr << (probe.unknownPositions.size() > 10 ? " ...\n" : "\n");
    }
    if (probe.croppedCharacters > 0)
        std::cerr << "chargpt: --text is longer than the model's context; drawing its last "
                  << checkpoint.config.sequence_len << " characters.\n";

    // Painting text needs a QGuiApplication, never a window: without a platform
    // chosen by the user, render offscreen, so that the command works on a
    // headless machine and a file does not depend on the screen it ran on.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    qInstallMessageHandler(qtMessages);
    int qtArgc = 1;
    char* qtArgv[] = {programName, nullptr};
    QGuiApplication app(qtArgc, qtArgv);

    const LayerAttention& heads = probe.attention.layers.first();
    const QFont font = QGuiApplication::font();
    // The grid's title and legend share one line above the heads: a few heads
    // over a short text would give them too narrow a line.
    QSize size = AttentionGrid::exportSize(heads);
    size.setWidth(std::max(size.width(), kMinimumGridWidth));
    QString error;
    const bool written = exportPainting(
        QString::fromStdString(out), size,
        [&](QPainter& painter, const QRectF& target) {
            AttentionGrid::paintLayer(painter, target, layer, heads, font);
        },
        &error);
    if (!written) throw Error(error.toStdString());
    std::cerr << "chargpt: wrote " << out << ": layer " << layer << ", " << heads.heads.size() << " heads, "
              << probe.text.toStdU32String().size() << " characters\n";
    return 0;
}


// A QGuiApplication to paint with, offscreen unless the user chose a platform
// (see runAttention).
std::unique_ptr<QGuiApplication> paintingApplication(char* programName) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    qInstallMessageHandler(qtMessages);
    static int qtArgc = 1;
    static char* qtArgv[] = {programName, nullptr};
    return std::make_unique<QGuiApplication>(qtArgc, qtArgv);
}

int runSurprise(const Args& args, char* programName) {
    if (args.has("text") && args.has("text-file")) throw Error("give --text or --text-file, not both.");
    if (!args.has("text") && !args.has("text-file"))
        throw Error("surprise needs --text TEXT or --text-file FILE, the text to score.");
    const std::string out = args.text("out", "");
    if (args.has("out")) {
        const std::string suffix = suffixOf(out);
        if (suffix != ".png" && suffix != ".svg" && suffix != ".html" && suffix != ".csv")
            throw Error("--out must name a .png, .svg, .html or .csv file, not '" + out + "'.");
        checkSaveTarget(out);
    }
    const bool fromFile = args.has("text-file");
    const std::string bytes =
        fromFile ? readPromptFile(args.text("text-file", ""), "text file", "--text-file") : args.text("text", "");
    const std::u32string text = utf8::decodeOrThrow(bytes, fromFile ? "the text file" : "--text");
    if (text.empty()) throw Error(std::string(fromFile ? "the text file" : "--text") + " is empty: give the text to score.");
    if (text.size() > kMaxSurpriseCharacters)
        throw Error("the text has " + std::to_string(text.size()) + " characters; surprise scores at most " +
                    std::to_string(kMaxSurpriseCharacters) + ".");
    useThreads(args.integer("threads", 0, 0, kMaxThreads));

    const Checkpoint checkpoint = loadCheckpoint(args.target);
    SurpriseText result = computeSurpriseText(checkpoint, QString::fromStdU32String(text));
    if (result.unknown > 0) {
        std::cerr << "chargpt: left out " << result.unknown << " character(s) the model never saw:";
        int named = 0;
        for (int i = 0; i < result.size() && named < 10; ++i)
            if (!result.characters[i].known) {
                std::cerr << " '" << terminalSafe(result.characters[i].character.toStdString()) << "' (position " << i
                          << ")";
                ++named;
            }
        std::cerr << (result.unknown > 10 ? " ...\n" : "\n");
    }
    if (result.scored == 0)
        throw Error("the text has fewer than two characters the model knows: nothing to score (the first "
                    "character has nothing before it).");
    result.label = fromFile ? QString::fromStdString(args.text("text-file", "")) : QStringLiteral("text");

    if (args.has("json")) {
        nlohmann::ordered_json summary;
        summary["mean_bits"] = jsonFigure(result.meanBits);
        summary["characters_scored"] = result.scored;
        summary["unknown_characters"] = result.unknown;
        summary["step"] = checkpoint.step;
        nlohmann::ordered_json characters = nlohmann::ordered_json::array();
        for (const SurpriseChar& c : result.characters) {
            nlohmann::ordered_json entry;
            entry["char"] = c.character.toStdString();
            entry["known"] = c.known;
            entry["bits"] = c.scored() ? nlohmann::ordered_json(jsonFigure(c.bits)) : nlohmann::ordered_json(nullptr);
            entry["rank"] = c.scored() ? nlohmann::ordered_json(c.rank) : nlohmann::ordered_json(nullptr);
            nlohmann::ordered_json top = nlohmann::ordered_json::array();
            for (qsizetype g = 0; g < c.guesses.size() && g < c.probabilities.size(); ++g)
                top.push_back({{"char", c.guesses[g].toStdString()}, {"p", jsonFigure(c.probabilities[g])}});
            entry["top"] = std::move(top);
            characters.push_back(std::move(entry));
        }
        summary["characters"] = std::move(characters);
        std::cout << summary.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << std::endl;
    } else {
        char line[160];
        std::snprintf(line, sizeof line, "%.4f bits per character over %d character%s scored (model at step %lld)",
                      result.meanBits, result.scored, result.scored == 1 ? "" : "s",
                      static_cast<long long>(checkpoint.step));
        std::cout << line;
        if (result.unknown > 0) std::cout << "; " << result.unknown << " unknown character(s) left out";
        std::cout << std::endl;
    }

    if (args.has("out")) {
        const auto app = paintingApplication(programName);
        QString error;
        const QString title = QStringLiteral("Surprise of the model at step %1").arg(checkpoint.step);
        if (!exportSurprise(QString::fromStdString(out), {result}, title, QGuiApplication::font(), &error))
            throw Error(error.toStdString());
        std::cerr << "chargpt: wrote " << out << '\n';
    }
    return 0;
}

}  // namespace

int runBench(const Args& args) {
    useThreads(args.integer("threads", 0, 0, kMaxThreads));
    BenchOptions options;
    // Without a corpus, the built-in one.
    options.corpus = args.target.empty() ? std::string("builtin:python") : args.target;
    options.steps = static_cast<int>(args.integer("steps", options.steps, 1, 100000));
    options.json = args.has("json");
    options.python = args.text("python", options.python);
    options.guiSeconds = args.number("gui-seconds", options.guiSeconds, 1.0, 3600.0);
    if (args.has("only")) {
        std::stringstream parts(args.text("only", ""));
        for (std::string part; std::getline(parts, part, ',');) {
            if (part != "ceiling" && part != "training" && part != "generation" && part != "memory" && part != "gui" &&
                part != "copies")
                throw Error("--only takes ceiling, training, generation, memory, gui or copies (comma-separated), not '" +
                            part + "'.");
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

int main(int argc, char** argv) {
    reexecWithPassiveOpenMP(argv);
    if (argc < 2 || std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h" ||
        std::string(argv[1]) == "help") {
        (argc < 2 ? std::cerr : std::cout) << kUsage;
        return argc < 2 ? 2 : 0;
    }
    const std::string command = argv[1];
    if (command == "--version" || command == "-V") {
        std::cout << "chargpt " << CHARGPT_VERSION << '\n';
        return 0;
    }
    const CommandSpec* spec = findCommand(command);
    if (!spec) {
        std::cerr << "chargpt: unknown command '" << command << "'.\n\n" << kUsage;
        return 2;
    }
    try {
        Args args;
        if (!parseArgs(*spec, argc, argv, args)) return 0;  // --help
        if (command == "train") return runTrain(args);
        if (command == "bench") return runBench(args);
        if (command == "sample") return runSample(args);
        if (command == "info") return runInfo(args);
        if (command == "import") return runImport(args);
        if (command == "export-config") return runExportConfig(args);
        if (command == "attention") return runAttention(args, argv[0]);
        if (command == "surprise") return runSurprise(args, argv[0]);
        if (command == "corpora") return runCorpora(args);
        return 2;
    } catch (const UsageError& e) {
        std::cerr << "chargpt: " << e.what() << '\n';
        return 2;
    } catch (const Error& e) {
        std::cerr << "chargpt: " << e.what() << '\n';
    } catch (const c10::Error& e) {
        const std::string what = e.what();
        std::cerr << "chargpt: internal error: " << what.substr(0, what.find('\n')) << '\n';
    } catch (const std::exception& e) {
        std::cerr << "chargpt: " << e.what() << '\n';
    }
    return 1;
}
