// SPDX-License-Identifier: GPL-3.0-or-later
// The words of every `chargpt` command: its summary, its positional argument,
// its options and the range of each number (app/cli/CliArgs.h). What runs a
// command is the command runner's (app/cli/CliMain.cpp, one run function a
// command, in the command's file). Nothing here includes LibTorch: the
// launcher (app/cli/CliLauncher.cpp) reads the command line with it.
#include "app/cli/CliCommands.h"

#include <climits>
#include <cstdint>
#include <exception>
#include <iostream>
#include <string>
#include <string_view>

#include "app/cli/CliSettingOptions.h"
#include "app/cli/TerminalText.h"
#include "model/nn/ModelConfig.h"
#include "model/runtime/CpuTier.h"
#include "model/runtime/Error.h"

namespace {

// The seed's range, also for the seeds of the commands that sample. Their
// other numbers (bench's and lr-find's --steps, sample's --seed default) are
// the command's own, not a run's settings: no field holds them, and their
// range and help are written once, in their command's options below.
const ValueRange kSeed = fieldRange("seed");

const CommandSpec& trainSpec() {
    static const CommandSpec spec = {
        "train",
        "Trains a model on CORPUS and saves it, also after Ctrl-C, SIGTERM or SIGHUP; prints one JSON object "
        "as "
        "its last line.",
        "CORPUS",
        "a UTF-8 text file, a folder of text files (at most 256 MiB) or a built-in corpus (default "
        "builtin:python)",
        false,
        "",
        {{"--preset", "book|fast|tiny",
          "the settings to start from (default fast; a rung of the ladder too, "
          "ladder-1-bigram ... ladder-7-gpt)"},
         trainOption("max_steps", "N", ", fitted to a small text",
                     "training steps; 0 for none, when --time-limit alone ends the run"),
         {"--like", "nanogpt",
          "compute as nanoGPT's GPT does (head tied to the token embedding, biases on q, k "
          "and v, none on the head), so that export --format nanogpt can write the model"},
         trainOption("time_limit_s", "SECONDS", "; without --steps the clock alone ends the run"),
         trainOption("batch_size", "B", ", fitted to a small text"),
         trainOption("learning_rate", "X"),
         trainOption("dropout", "P", ", raised for a small text"),
         trainOption("weight_decay", "W", ", raised for a small text"),
         trainOption("eval_iters", "N"),
         threadsOption(),
         trainOption("seed", "S"),
         {"-o,--out", "FILE", "the checkpoint to write (default chargpt.pt)"},
         {"--precision", "fp32|bf16", "multiply in float32 or bfloat16 (default: the preset's)"},
         {"--keep-best", nullptr,
          "save the weights of the lowest validation loss instead of the last step's (also after Ctrl-C)"},
         {"--no-record", nullptr, "leave the run out of the run library (chargpt runs)"},
         {"--no-snapshots", nullptr, "keep no weights with the run (chargpt snapshots lists those kept)"},
         {"--snapshot-budget", "MB", "the most the run's kept weights take in the run library (default 64)",
          wholeRange(1, 1 << 20)}}};
    return spec;
}

const CommandSpec& ladderSpec() {
    static const CommandSpec spec = {
        "ladder",
        "Trains every rung of the architecture ladder on CORPUS, from a bigram model to the full CharGPT, "
        "records each as a run and prints each rung's best validation loss beside the floors of the "
        "validation text.",
        "CORPUS",
        "a UTF-8 text file, a folder of text files or a built-in corpus (default builtin:python)",
        false,
        "",
        {{"--json", nullptr, "print one JSON object instead of the table"},
         {"--rungs", "LIST", "the rungs to train, e.g. 1,2,7 or 1-3 (default all, 1-7)"},
         ladderOption("max_steps", "N", ", fitted to a small text; 0: that default",
                      "training steps of every rung"),
         ladderOption("batch_size", "B", ", fitted to a small text"),
         ladderOption("learning_rate", "X"),
         ladderOption("eval_iters", "N"),
         ladderOption("seed", "S"),
         {"--precision", "fp32|bf16",
          "multiply in float32 or bfloat16 (default: bf16 where the CPU does so natively)"},
         threadsOption(),
         {"--no-record", nullptr, "leave the runs out of the run library (chargpt runs)"},
         {"--no-snapshots", nullptr, "keep no weights with the runs"}}};
    return spec;
}

const CommandSpec& benchSpec() {
    static const CommandSpec spec = {
        "bench",
        "Measures training and generation speed, memory and GUI stalls.",
        "CORPUS",
        "the text to train on (default: the built-in corpus builtin:python)",
        false,
        "",
        {{"--json", nullptr, "print one JSON object as the last line"},
         {"--steps", "N", "training steps per measurement", wholeRange(1, 100000)},
         threadsOption(),
         {"--no-reference", nullptr, "do not run the seed-style PyTorch script"},
         {"--python", "PATH", "the Python that runs the reference script"},
         {"--only", "PART,...",
          "some of ceiling, training, generation, memory, gui, copies, views, runs, timeline, profile, why, "
          "health"},
         {"--gui-seconds", "S", "seconds the GUI stall measurement trains (default 20)",
          realRange(1.0, 3600.0)},
         {"--views-seconds", "S", "seconds each run of the views measurement trains (default 10)",
          realRange(1.0, 3600.0)},
         {"--library-runs", "N", "runs in the generated run library of the runs measurement (default 100)",
          wholeRange(1, 100000)},
         {"--library-steps", "N", "steps of each of those runs (default 10000)", wholeRange(1, 10000000)}}};
    return spec;
}

const CommandSpec& sampleSpec() {
    static const CommandSpec spec = {
        "sample",
        "Generates text from a checkpoint, streaming the characters as they come.",
        "CHECKPOINT",
        "a checkpoint written by train or import",
        true,
        "a checkpoint path",
        {{"--prompt", "TEXT", "the text to continue (default: none)"},
         {"--prompt-file", "FILE", "read the prompt from FILE (- for standard input; at most 16 MiB)"},
         {"--chars", "N", "characters to generate (default 500)", wholeRange(0, 10'000'000)},
         {"--temperature", "T", "0 always picks the most likely character (default 1)",
          realRange(0.0, 100.0)},
         {"--top-k", "K", "sample among the K most likely characters; 0 (the default) all",
          wholeRange(0, chargpt::ModelConfig::kMaxVocabulary)},
         {"--top-p", "P", "sample among the most likely characters that make up P (default 1)",
          realRange(1e-6, 1.0)},
         {"--seed", "S", "random seed (default 12046)", kSeed},
         {"--samples", "N",
          "samples of the prompt to write, decoded together (they share each read of the weights); sample i "
          "draws from seed S + i - 1, so it writes what --seed S + i - 1 alone writes (default 1)",
          wholeRange(1, 64)},
         {"--precision", "fp32|bf16",
          "multiply with the weights in float32 or rounded to bfloat16 (default: the precision the model "
          "trained "
          "in)"},
         threadsOption(),
         {"--exact-window", nullptr,
          "recompute the whole last context for every character, as the book's code does (slower, the same "
          "characters)"},
         {"--corpus", "CORPUS",
          "the corpus the model trained on (a file, a folder or a built-in name): report the spans of the "
          "text "
          "copied verbatim from its training part"},
         {"--json", nullptr,
          "print one JSON object instead of the text: prompt, and samples, always a list (one sample without "
          "--samples), each with its seed, text, characters and copied"}}};
    return spec;
}

const CommandSpec& surpriseSpec() {
    static const CommandSpec spec = {
        "surprise",
        "Scores every character of a text by the model's surprise there, in bits; prints the mean.",
        "CHECKPOINT",
        "a checkpoint",
        true,
        "a checkpoint path",
        {{"--text", "TEXT", "the text to score"},
         {"--text-file", "FILE", "read the text from FILE (- for standard input; at most 16 MiB)"},
         {"--json", nullptr,
          "print one JSON object: the mean and every character's bits, rank and five guesses"},
         {"-o,--out", "FILE.png|.svg|.html|.csv",
          "also write the coloured text as a picture, a page or a table"},
         {"--without", "PART",
          "also score the text with PART knocked out, named as ablate names it (L2 H3, L1 attention, L1 "
          "feed-forward), and give the change"},
         threadsOption()}};
    return spec;
}

const CommandSpec& ablateSpec() {
    static const CommandSpec spec = {
        "ablate",
        "Knocks out every head alone, and every layer's attention and feed-forward, and prints the "
        "validation "
        "loss without each, largest increase first.",
        "CHECKPOINT",
        "a checkpoint",
        true,
        "a checkpoint path",
        {{"--corpus", "CORPUS", "the corpus the model trained on (a file, a folder or a built-in name)"},
         {"--json", nullptr, "print one JSON object: the baseline and every part's loss and increase"},
         threadsOption()}};
    return spec;
}

const CommandSpec& headsSpec() {
    static const CommandSpec spec = {
        "heads",
        "Prints every head's previous-token score and induction score (random tokens repeated twice), beside "
        "what a head that attends evenly would score.",
        "CHECKPOINT",
        "a checkpoint",
        true,
        "a checkpoint path",
        {{"--corpus", "CORPUS", "measure the previous-token score on this corpus's validation part"},
         {"--seed", "N", "of the random tokens of the induction test (default 1234)", kSeed},
         {"--json", nullptr, "print one JSON object: both scores of every head and their chance values"},
         threadsOption()}};
    return spec;
}

const CommandSpec& attributeSpec() {
    static const CommandSpec spec = {
        "attribute",
        "Explains one character the model gives after a text: what each embedding, head, feed-forward and "
        "bias adds "
        "to its logit and to its margin over the runner-up (direct logit attribution, the final LayerNorm's "
        "scale "
        "frozen), and gradient x input on each character before it.",
        "CHECKPOINT",
        "a checkpoint or RUN@STEP",
        true,
        "a checkpoint path",
        {{"--text", "TEXT", "the text the model reads"},
         {"--position", "N",
          "the position (counted from 0) whose next character is explained; the model reads "
          "the text up to it",
          wholeRange(0, chargpt::ModelConfig::kMaxContext)},
         {"--char", "CHAR", "the character explained (default: the model's likeliest)"},
         {"--json", nullptr,
          "print one JSON object: every part's share of the logit and margin, the sums and "
          "their gap, and gradient x input"},
         threadsOption()}};
    return spec;
}

const CommandSpec& patchSpec() {
    static const CommandSpec spec = {
        "patch",
        "Activation patching: runs a corrupted prompt with one part of a clean prompt's run copied in (the "
        "residual "
        "stream at each layer and position, each head's output, each feed-forward's output at each position) "
        "and "
        "prints the share of the clean logit difference each patch restores.",
        "CHECKPOINT",
        "a checkpoint or RUN@STEP",
        true,
        "a checkpoint path",
        {{"--clean", "TEXT", "the clean prompt"},
         {"--corrupted", "TEXT", "the corrupted prompt, as long as the clean one"},
         {"--target", "CHAR", "the character the clean prompt leads to"},
         {"--wrong", "CHAR",
          "the character it is measured against (default: the corrupted run's likeliest other "
          "than the target)"},
         {"--json", nullptr,
          "print one JSON object: both runs' logit differences and every patch's restored share"},
         threadsOption()}};
    return spec;
}

const CommandSpec& attentionSpec() {
    static const CommandSpec spec = {
        "attention",
        "Draws every head of one layer for TEXT as a grid of heatmaps.",
        "CHECKPOINT",
        "a checkpoint",
        true,
        "a checkpoint path",
        {{"--text", "TEXT", "the characters whose attention is drawn (cropped to the context)"},
         {"--layer", "L", "the layer, counted from 0 (default the last)", wholeRange(INT32_MIN, INT32_MAX)},
         {"-o,--out", "FILE.png|FILE.svg", "the picture to write"},
         threadsOption()}};
    return spec;
}

const CommandSpec& infoSpec() {
    static const CommandSpec spec =
        {"info", "Prints the settings and training state of a checkpoint.", "CHECKPOINT", "a checkpoint", true,
         "a checkpoint path", {}};
    return spec;
}

const CommandSpec& importSpec() {
    static const CommandSpec spec =
        {"import", "Reads a model saved by torch.save (the seed's or the book's CharGPT, nanoGPT, minGPT, the "
         "lecture's gpt.py) and writes a checkpoint.",
         "STATE_DICT", "the file torch.save wrote: a state_dict or nanoGPT's ckpt.pt", true, "a state_dict path",
         {{"--corpus", "CORPUS",
           "the text the model was trained on, for its vocabulary (a file, a folder or a built-in name)"},
          {"--vocab", "FILE.json", "the vocabulary as a JSON list or token-to-index object"},
          {"--meta", "META.pkl", "nanoGPT's vocabulary (default: the meta.pkl sample.py would read)"},
          {"--heads", "N", "heads per layer of a nanoGPT or minGPT state_dict that does not say (n_head)",
           wholeRange(1, 4096)},
          {"-o,--out", "OUT.pt", "the checkpoint to write"}}};
    return spec;
}

const CommandSpec& exportSpec() {
    static const CommandSpec spec =
        {"export", "Writes a checkpoint in another project's format: nanoGPT's ckpt.pt and meta.pkl.", "CHECKPOINT",
         "a checkpoint written by train or import", true, "a checkpoint path",
         {{"--format", "nanogpt", "the project whose files are written"},
          {"--dataset", "NAME", "config['dataset'] in ckpt.pt: sample.py reads data/NAME/meta.pkl (default chargpt)"},
          {"-o,--out", "DIR", "the folder to write ckpt.pt and meta.pkl into"}}};
    return spec;
}

const CommandSpec& exportConfigSpec() {
    static const CommandSpec spec = {
        "export-config",
        "Writes the settings of a checkpoint or a preset for python/train_ddp.py.",
        "CHECKPOINT",
        "a checkpoint whose settings are written (default: the preset's)",
        false,
        "",
        {{"--preset", "book|fast|tiny", "the settings to start from (default fast)"},
         exportOption("max_steps", "N", "training steps"),
         exportOption("batch_size", "B"),
         exportOption("learning_rate", "X"),
         exportOption("seed", "S"),
         {"-o,--out", "CONFIG.json", "the file to write"}}};
    return spec;
}

const CommandSpec& corporaSpec() {
    static const CommandSpec spec =
        {"corpora", "Lists the built-in corpora: name, bytes, characters, vocabulary and what they hold.", "NAME",
         "one built-in corpus (default: all)", false, "",
         {{"--json", nullptr, "print one JSON object"}}};
    return spec;
}

const CommandSpec& runsSpec() {
    static const CommandSpec spec =
        {"runs", "Lists the runs of the run library, newest first: when, how long, steps, best validation loss.",
         "", "", false, "",
         {{"--json", nullptr, "print one JSON object with every run, its figures, checkpoints and settings"}}};
    return spec;
}

const CommandSpec& snapshotsSpec() {
    static const CommandSpec spec =
        {"snapshots", "Lists the steps at which the run library keeps a run's weights; RUN@STEP reads one wherever a "
         "command takes a CHECKPOINT.",
         "RUN", "the run's id (chargpt runs lists them)", true, "a run id",
         {{"--json", nullptr, "print one JSON object with each step, its size and the validation loss there"}}};
    return spec;
}

const CommandSpec& filmstripSpec() {
    static const CommandSpec spec = {
        "filmstrip",
        "Samples every step at which the run library keeps a run's weights, from the same prompt, seed, "
        "temperature and length: noise, then characters, then words, then lines.",
        "RUN",
        "the run's id (chargpt runs lists them)",
        true,
        "a run id",
        {{"--prompt", "TEXT", "the text every sample continues (default: none, the start of a document)"},
         {"--chars", "N", "characters each sample generates at most (default 120)", wholeRange(1, 10'000)},
         {"--seed", "S", "random seed, the same for every step (default 1)", kSeed},
         {"--temperature", "T", "0 always picks the most likely character (default 1)",
          realRange(0.0, 100.0)},
         threadsOption(),
         {"--json", nullptr,
          "print one JSON object: the prompt, the options and each step's val loss and text"},
         {"-o,--out", "FILE.html|FILE.txt", "also write the strip as a page (a row per step) or as text"}}};
    return spec;
}

const CommandSpec& floorsSpec() {
    static const CommandSpec spec =
        {"floors", "Prints the validation loss of n-gram models of CORPUS (n = 1 to 5, interpolated Kneser-Ney fitted to "
         "its training part): the floors a transformer trained on it should pass.",
         "CORPUS", "a UTF-8 text file, a folder of text files or a built-in corpus (default builtin:python)", false, "",
         {{"--max-order", "N", "the longest n-gram (default 5)", wholeRange(1, 5)},
          {"--json", nullptr, "print one JSON object"}}};
    return spec;
}

const CommandSpec& learningRateSpec() {
    static const CommandSpec spec = {
        "lr-find",
        "Sweeps the learning rate of a new model from 1e-5 to 1 over a few hundred steps, prints the "
        "smoothed training loss against it and suggests a rate (a tenth of the rate at the lowest loss). The "
        "run being "
        "trained is never touched; nothing is recorded.",
        "CORPUS",
        "a UTF-8 text file, a folder of text files or a built-in corpus (default builtin:python)",
        false,
        "",
        {{"--preset", "book|fast|tiny", "the model and batch to sweep (default fast)"},
         {"--steps", "N", "steps of the sweep at most (default 200)", wholeRange(10, 100000)},
         trainOption("batch_size", "B"),
         trainOption("seed", "S"),
         threadsOption(),
         {"--json", nullptr, "print one JSON object with every step's rate and loss"}}};
    return spec;
}

using SpecEntry = const CommandSpec& (*)();
constexpr SpecEntry kCommands[] = {
    trainSpec, ladderSpec, benchSpec, sampleSpec, surpriseSpec, ablateSpec, headsSpec, attributeSpec, patchSpec, attentionSpec, infoSpec, importSpec, exportSpec, exportConfigSpec, corporaSpec, runsSpec, snapshotsSpec,
    filmstripSpec, floorsSpec, learningRateSpec,
};

}  // namespace

const CommandSpec* findCommand(const std::string& name) {
    for (const SpecEntry entry : kCommands)
        if (name == entry().name) return &entry();
    return nullptr;
}

std::vector<const CommandSpec*> allCommands() {
    std::vector<const CommandSpec*> all;
    for (const SpecEntry entry : kCommands) all.push_back(&entry());
    return all;
}

CommandLine readCommandLine(int argc, char** argv) {
    CommandLine line;
    if (argc < 2 || std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h" ||
        std::string(argv[1]) == "help") {
        (argc < 2 ? std::cerr : std::cout) << kUsage;
        line.status = argc < 2 ? 2 : 0;
        return line;
    }
    // A tier CHARGPT_CPU names that this CPU or build lacks (or no tier at
    // all) stops every command, --version included, before anything runs.
    const chargpt::TierChoice& tier = chargpt::cpuTierChoice();
    if (!tier.refusal.empty()) {
        std::cerr << "chargpt: " << terminalSafe(tier.refusal, LineBreaks::Escape) << '\n';
        line.status = 2;
        return line;
    }
    const std::string command = argv[1];
    if (command == "--version" || command == "-V") {
        std::cout << "chargpt " << CHARGPT_VERSION << '\n' << chargpt::tierLine(tier) << '\n';
        return line;
    }
    const CommandSpec* spec = findCommand(command);
    if (!spec) {
        std::cerr << "chargpt: unknown command '" << terminalSafe(command, LineBreaks::Escape) << "'.\n\n" << kUsage;
        line.status = 2;
        return line;
    }
    try {
        if (parseArgs(*spec, argc, argv, line.args)) line.spec = spec;  // otherwise its --help was printed
    } catch (const UsageError& e) {
        std::cerr << "chargpt: " << terminalSafe(e.what()) << '\n';
        line.status = 2;
    } catch (const std::exception& e) {
        std::cerr << "chargpt: " << terminalSafe(e.what()) << '\n';
        line.status = 1;
    }
    return line;
}
