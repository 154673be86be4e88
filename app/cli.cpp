// SPDX-License-Identifier: GPL-3.0-or-later
// `chargpt`: train, sample and inspect CharGPT models from a terminal.
#include <torch/torch.h>

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
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "Bench.h"
#include "CliArgs.h"
#include "model/nn/CharGPT.h"
#include "model/io/Checkpoint.h"
#include "model/io/ConfigJson.h"
#include "model/text/BuiltinCorpora.h"
#include "model/text/Corpus.h"
#include "model/train/Dataset.h"
#include "model/runtime/Error.h"
#include "model/runtime/Device.h"
#include "model/train/RunConfig.h"
#include "model/io/PyTorchInterop.h"
#include "model/runtime/Runtime.h"
#include "model/generate/Sampler.h"
#include "model/train/Trainer.h"
#include "model/train/TrainingSession.h"
#include "model/text/Utf8.h"

// Qt after LibTorch: only `attention` uses it, to paint with the widgets' code.
#include <QFont>
#include <QGuiApplication>
#include <QPainter>
#include <QSize>
#include <QString>
#include <QtGlobal>

#include "AttentionBridge.h"
#include "AttentionGrid.h"
#include "AttentionHeatmap.h"

using namespace chargpt;

namespace {

std::atomic<bool> gInterrupted{false};

// More threads than this only thrash, whatever the machine.
constexpr int64_t kMaxThreads = 1024;

// A prompt too long for the command line (the system caps one argument at
// 128 KiB): read from a file, "-" for standard input, at most 16 MiB.
std::string readPromptFile(const std::string& path) {
    constexpr std::size_t kMaxPromptBytes = 16u << 20;
    std::FILE* file = path == "-" ? stdin : std::fopen(path.c_str(), "rb");
    if (!file) throw Error("cannot open the prompt file " + path + ": " + std::strerror(errno) + ".");
    std::string text;
    char buffer[65536];
    std::size_t n = 0;
    while ((n = std::fread(buffer, 1, sizeof buffer, file)) > 0) {
        text.append(buffer, n);
        if (text.size() > kMaxPromptBytes) {
            if (file != stdin) std::fclose(file);
            throw Error("the prompt file " + path + " is larger than 16 MiB.");
        }
    }
    const bool failed = std::ferror(file) != 0;
    if (file != stdin) std::fclose(file);
    if (failed) throw Error("cannot read the prompt file " + path + ".");
    return text;
}

extern "C" void onInterrupt(int) {
    gInterrupted = true;
    std::signal(SIGINT, SIG_DFL);  // a second Ctrl-C ends the process at once
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

int runTrain(const Args& args) {
    const std::string presetName = args.text("preset", "fast");
    auto preset = RunConfig::preset(presetName);
    if (!preset) throw Error("unknown preset '" + presetName + "' (book, fast or tiny).");
    RunConfig config = *preset;
    if (args.has("steps")) config.max_steps = args.integer("steps", 0, 1, int64_t(1) << 40);
    if (args.has("time-limit")) {
        config.time_limit_s = args.number("time-limit", 0, 1e-3, 1e9);
        if (!args.has("steps")) config.max_steps = 0;  // the clock alone ends the run
    }
    config.batch_size = args.integer("batch", config.batch_size, 1, 1 << 20);
    config.setLearningRate(args.number("lr", config.learning_rate, 1e-12, 1e6));
    config.seed = static_cast<uint64_t>(args.integer("seed", static_cast<int64_t>(config.seed), 0, INT64_MAX));
    const std::string precision = args.text("precision", config.bf16 ? "bf16" : "fp32");
    if (precision != "fp32" && precision != "bf16") throw Error("--precision is fp32 or bf16, not '" + precision + "'.");
    config.bf16 = precision == "bf16";
    const std::string out = args.text("out", "chargpt.pt");
    const int threads = useThreads(args.integer("threads", 0, 0, kMaxThreads));

    Corpus corpus = loadCorpusSource(args.target);
    for (const auto& warning : corpus.warnings()) std::cerr << "chargpt: " << warning << '\n';
    TrainingSession session(config, corpus);
    if (session.data().validationOverlapsTraining())
        std::cerr << "chargpt: the corpus is small, so validation reuses the end of the training text.\n";
    Trainer& trainer = session.trainer();
    const CharTokenizer& tokenizer = session.tokenizer();
    config = session.config();
    // From here on Ctrl-C stops training and the model is saved; a second one ends at once.
    std::signal(SIGINT, onInterrupt);
    std::cerr << "chargpt: " << presetName << " preset, " << config.parameterCount() << " parameters, "
              << tokenizer.vocabSize() << " tokens in the vocabulary, " << corpus.charCount()
              << " characters, " << threads << " threads, on " << computeDeviceName() << "\n";

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
        std::snprintf(line, sizeof line, "step %lld%s  loss %.4f  val %s  %.0f tok/s  %s elapsed  ETA %s",
                      static_cast<long long>(s.step), total.c_str(), s.loss,
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
    trainer.onEval = [&](const TrainSnapshot& s) {
        lastVal = s.valLoss;
        printProgress(s, true);
        if (tty) std::cerr << '\n';
    };

    const TrainResult result = trainer.run();
    if (tty) std::cerr << '\n';

    saveCheckpoint(out, session.checkpoint());  // a first Ctrl-C now waits for it
    std::signal(SIGINT, SIG_DFL);
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
    summary["parameters"] = config.parameterCount();
    summary["threads"] = threads;
    summary["checkpoint"] = out;
    // A path that is not UTF-8 is written with U+FFFD in place of its bad bytes.
    std::cout << summary.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << std::endl;
    return result.reason == StopReason::NonFiniteLoss ? 3 : 0;
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
    if (args.has("prompt") && args.has("prompt-file")) throw Error("give --prompt or --prompt-file, not both.");
    std::string prompt = args.text("prompt", "");
    if (args.has("prompt-file")) prompt = readPromptFile(args.text("prompt-file", ""));
    const std::u32string promptText = utf8::decodeOrThrow(prompt, "the prompt");

    useThreads(threads);
    Checkpoint checkpoint = loadCheckpoint(args.target);
    std::vector<UnknownChar> unknown;
    const std::vector<int64_t> tokens = checkpoint.tokenizer.encode(promptText, &unknown);
    if (!prompt.empty() && tokens.empty()) throw Error("no character of the prompt is in the model's vocabulary.");
    if (!unknown.empty()) {
        std::cerr << "chargpt: left out " << unknown.size() << " prompt character(s) the model never saw:";
        for (std::size_t i = 0; i < unknown.size() && i < 10; ++i)
            std::cerr << " '" << utf8::encode(unknown[i].codePoint) << "' (position " << unknown[i].position << ")";
        std::cerr << (unknown.size() > 10 ? " ...\n" : "\n");
    }
    const auto context = static_cast<std::size_t>(checkpoint.config.sequence_len);
    if (tokens.size() > context)
        std::cerr << "chargpt: the prompt has " << tokens.size() << " characters and the model's context is "
                  << context << ": only its last " << context << " characters steer the generation.\n";

    std::cout << checkpoint.tokenizer.decode(tokens) << std::flush;
    Sampler sampler(checkpoint.model, checkpoint.tokenizer, options);
    std::signal(SIGINT, onInterrupt);
    sampler.generate(tokens, [](const SampleStep& step) {
        std::cout << step.text << std::flush;
        return !gInterrupted;
    });
    std::cout << std::endl;
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
              << "step            " << c.step << '\n'
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
            std::cerr << " '" << probe.unknownCharacters[i].toStdString() << "' (position "
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
            if (part != "ceiling" && part != "training" && part != "generation" && part != "memory" && part != "gui")
                throw Error("--only takes ceiling, training, generation, memory or gui (comma-separated), not '" +
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
