// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/CliArgs.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

using chargpt::Error;

const char* const kUsage = R"(usage:
  chargpt train [CORPUS] [--preset book|fast|tiny] [--steps N] [--time-limit SECONDS]
                       [--batch B] [--lr X] [--threads N] [--seed S] [--out FILE]
                       [--precision fp32|bf16] [--keep-best] [--no-record]
                       [--no-snapshots] [--snapshot-budget MB] [--like nanogpt]
  chargpt ladder [CORPUS] [--json] [--rungs LIST] [--steps N] [--batch B] [--lr X]
                        [--eval-iters N] [--seed S] [--precision fp32|bf16]
                        [--threads N] [--no-record] [--no-snapshots]
  chargpt sample CHECKPOINT [--prompt TEXT | --prompt-file FILE] [--chars N]
                            [--temperature T]
                            [--top-k K] [--top-p P] [--seed S] [--samples N]
                            [--precision fp32|bf16] [--threads N]
                            [--exact-window] [--corpus CORPUS] [--json]
  chargpt info CHECKPOINT
  chargpt attention CHECKPOINT --text TEXT [--layer L] --out FILE.png|FILE.svg
                               [--threads N]
  chargpt surprise CHECKPOINT (--text TEXT | --text-file FILE) [--json]
                              [--out FILE.png|.svg|.html|.csv] [--without PART]
                              [--threads N]
  chargpt ablate CHECKPOINT --corpus CORPUS [--json] [--threads N]
  chargpt heads CHECKPOINT [--corpus CORPUS] [--seed S] [--json] [--threads N]
  chargpt attribute CHECKPOINT --text TEXT --position N [--char CHAR] [--json]
                               [--threads N]
  chargpt patch CHECKPOINT --clean TEXT --corrupted TEXT --target CHAR
                           [--wrong CHAR] [--json] [--threads N]
  chargpt bench [CORPUS] [--json] [--steps N] [--threads N] [--no-reference]
                       [--python PATH] [--only PART,...] [--gui-seconds S]
                       [--views-seconds S] [--library-runs N] [--library-steps N]
  chargpt import STATE_DICT [--corpus CORPUS | --vocab FILE.json | --meta META.pkl]
                 [--heads N] -o OUT.pt
  chargpt export CHECKPOINT --format nanogpt [--dataset NAME] -o DIR
  chargpt export-config [CHECKPOINT] [--preset book|fast|tiny] [--steps N]
                        [--batch B] [--lr X] [--seed S] -o CONFIG.json
  chargpt --version
  chargpt COMMAND --help

CORPUS is a UTF-8 text file or a folder of text files (at most 256 MiB) or a
built-in corpus; train without CORPUS trains on builtin:python. Unless --steps
is given, the preset is fitted to the size of the training text: at most about
20 passes over it (smaller batches and fewer steps, and dropout, for a small
text). train writes FILE
(default chargpt.pt) when it ends, also after Ctrl-C, SIGTERM or SIGHUP, and
prints one JSON object as its last line; FILE is checked before training
(only a regular file is replaced; a symbolic link is written through). The
fast preset multiplies in bfloat16 on CPUs that do so natively (AVX512-BF16
or AMX) and in float32 elsewhere; --precision
overrides the preset. When the validation loss rises for several evaluations
while the training loss falls, train says so once; --keep-best then saves the
weights of the best validation loss instead of the last step's (the
checkpoint's weights_step says which). --preset also takes a rung of the
architecture ladder (ladder-1-bigram ... ladder-7-gpt). ladder trains each
rung in turn, the chapter's model built in order: (1) a bigram model (token
embeddings and the head), (2) + position embeddings and one attention head,
(3) the same without scaling the scores, (4) several heads and a projection,
(5) + the feed-forward, (6) + residual connections and LayerNorms (one
block), (7) the full CharGPT; it records each as a run and prints their
best validation losses beside the floors of the validation text: a uniform
guess (ln V), the entropy of its characters and of its pairs. attention draws every head of layer L (counted
from 0; default the last) for TEXT, cropped to the model's context, as a
grid of heatmaps: query rows, key columns, the masked triangle hatched.
surprise scores every character of TEXT after the first: its loss in bits
(-log2 of the probability the model gave it after the characters before it),
its rank among the model's guesses and the five likeliest; it prints the mean
bits per character, or with --json all of it, and --out writes a picture
(.png, .svg), a page (.html) or a table (.csv). A text longer than the context
is scored in windows that overlap by half. --without PART scores it again with
PART knocked out, named as ablate names it (L2 H3, L1 attention, L1
feed-forward), and gives each character's bits without it and the change.
ablate knocks out (sets to zero) every head alone, then every layer's
attention and feed-forward, and prints the validation loss on the first
16,384 tokens of the fixed validation batches of CORPUS without each, largest
increase first: what each part is worth to the model. heads prints every
head's previous-token score (its mean attention to the character just before)
and induction score (on random characters repeated twice, its attention from
a character's second occurrence to what followed the first), beside what a
head that attends evenly scores. attribute explains the character the model
gives after TEXT's first N + 1 characters (--char picks another than its
likeliest): what each embedding, head, feed-forward and bias adds to its logit
and to its margin over the runner-up, through the final LayerNorm with its
scale frozen there (the parts sum to the logit; the gap is printed), and
gradient x input on each character read. patch runs the corrupted prompt with
one part of the clean prompt's run copied in and prints the share of the
clean logit difference (target minus wrong at the last position) it restores.
sample keeps a key/value cache; once the text is longer than the context it
goes on from the last half of the window, so each character sees at least
half the context. --exact-window recomputes the whole last context for every
character instead, as the book's code does: slower, the same characters.
bench measures, in one run: the machine's matrix-multiply ceiling, training
tokens/s of the book and fast presets (fp32 and bf16) against the seed-style
PyTorch script, generation characters/s, peak memory, the longest stall
of the app's GUI thread while it trains, and the copy index (build time,
checking 500 characters), what the views and recording a run cost the
trainer, and the GUI thread with a run library of --library-runs runs of
--library-steps steps; --only picks some of ceiling, training, generation,
memory, gui, copies, views, runs, timeline, profile, why (one attribution
and each patching sweep on the book preset). Without CORPUS it trains on the
built-in corpus builtin:python.
import reads a state_dict saved in Python by torch.save(model.state_dict(),
path) from the seed's CharGPT (either naming), nanoGPT (a state_dict or
train.py's whole ckpt.pt), minGPT or the lecture's gpt.py, infers its
configuration from the shapes, takes the vocabulary from the corpus it was
trained on (or a JSON vocabulary file, or nanoGPT's meta.pkl, found beside the
checkpoint or in data/DATASET/ when not given) and writes a checkpoint; how
the model computes unlike the book's CharGPT (activation, biases, tied head)
becomes its settings, which info shows. export --format nanogpt writes
DIR/ckpt.pt and DIR/meta.pkl that nanoGPT's sample.py and train.py
(init_from='resume') read, meta.pkl from data/NAME/; only a model nanoGPT
can compute is written: one imported from nanoGPT, or trained with
--like nanogpt. export-config writes the settings
of a checkpoint or a preset for python/train_ddp.py.
--threads N sets the compute threads; 0 (the default) takes OMP_NUM_THREADS
when it is a positive number, otherwise one per core.
  chargpt corpora [NAME] [--json]
  chargpt runs [--json]
  chargpt snapshots RUN [--json]
  chargpt filmstrip RUN [--prompt TEXT] [--chars N] [--seed S] [--temperature T]
                        [--json] [--out FILE.html|FILE.txt] [--threads N]
lists the built-in corpora (name, bytes, characters, vocabulary with
end-of-text, what they hold); wherever a command takes a CORPUS, one of
these names will do. sample --corpus CORPUS marks the spans of the generated
text (8 characters or more) found verbatim in the training part of CORPUS,
split as the checkpoint's training split it; --json prints one JSON object
with the text and them ("copied": null without --corpus).
train records each run as it goes (settings, corpus, every step's loss, the
evaluations, the checkpoint) in the run library, runs.sqlite in the user's
data folder ($XDG_DATA_HOME/CharGPT/CharGPT Studio/, or ~/.local/share/...),
which the app shares; --no-record leaves a run out. runs lists them.
With each run the library keeps its weights at steps 0, 1, 2, 4, 8, ... and at
every evaluation, in bfloat16, within --snapshot-budget MB (64; past it the
kept steps are thinned to stay spread over the whole run, half on a log scale
of the steps and half on a linear one, the first, the best and the newest
always kept; a budget smaller than one snapshot keeps none and says so); out of
room, the weights stop being kept and the losses and the end are still
recorded; --no-snapshots keeps none. snapshots RUN lists a run's steps, and
every command that reads a CHECKPOINT takes RUN@STEP too (e.g. 3@512).
filmstrip RUN samples each of those steps from the same prompt (default:
none, the start of a document), seed (1), temperature (1) and length (120):
each row is what sample RUN@STEP prints with the same options; --out writes
the strip as a page (.html) or as text (.txt).
)";

// Numbers are written in decimal: strtoll and strtod also take leading
// blanks, and strtod hexadecimal ("0x10" would be 16) and "nan(...)"; a value
// is checked against the plain forms first. "inf" and "infinity" pass here and
// are then refused by the range, in the range's words.
static bool isDecimalInteger(const std::string& s) {
    std::size_t i = (!s.empty() && (s[0] == '+' || s[0] == '-')) ? 1 : 0;
    if (i == s.size()) return false;
    for (; i < s.size(); ++i)
        if (s[i] < '0' || s[i] > '9') return false;
    return true;
}

static bool isDecimalNumber(const std::string& s) {
    std::size_t i = (!s.empty() && (s[0] == '+' || s[0] == '-')) ? 1 : 0;
    std::string rest = s.substr(i);
    for (char& c : rest) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (rest == "inf" || rest == "infinity") return true;
    auto digits = [&](std::size_t& at) {
        const std::size_t from = at;
        while (at < s.size() && s[at] >= '0' && s[at] <= '9') ++at;
        return at - from;
    };
    std::size_t mantissa = digits(i);
    if (i < s.size() && s[i] == '.') {
        ++i;
        mantissa += digits(i);
    }
    if (mantissa == 0) return false;
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        ++i;
        if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
        if (digits(i) == 0) return false;
    }
    return i == s.size();
}

std::string Args::text(const std::string& name, const std::string& fallback) const {
    auto it = options.find(name);
    return it == options.end() ? fallback : it->second;
}
// "-o,--out" -> "out".
static std::string longName(const std::string& flags) { return flags.substr(flags.rfind("--") + 2); }

// The spec of the number option `name` of `spec`; asking for an option that is
// not a number of that kind is a mistake in the program.
static const ValueRange& rangeOf(const CommandSpec* spec, const std::string& name, ValueRange::Kind kind) {
    if (spec)
        for (const OptionSpec& o : spec->options)
            if (longName(o.flags) == name && o.range.kind == kind) return o.range;
    throw std::logic_error("chargpt " + std::string(spec ? spec->name : "?") + " has no number option --" + name);
}

std::string numberWords(const ValueRange& range, double value) {
    if (range.kind == ValueRange::Kind::Whole) return std::to_string(static_cast<long long>(value));
    std::ostringstream words;
    words << value;
    return words.str();
}

std::string rangeWords(const ValueRange& range) {
    if (range.kind == ValueRange::Kind::Whole)
        return "from " + std::to_string(range.wholeMin) + " to " + std::to_string(range.wholeMax);
    return "from " + numberWords(range, range.realMin) + " to " + numberWords(range, range.realMax);
}

int64_t Args::integer(const std::string& name, int64_t fallback) const {
    const ValueRange& r = rangeOf(spec, name, ValueRange::Kind::Whole);
    auto it = options.find(name);
    if (it == options.end()) return fallback;
    const int64_t min = r.wholeMin, max = r.wholeMax;
    const std::string range = " (" + rangeWords(r) + ")";
    errno = 0;
    char* end = nullptr;
    const long long v = std::strtoll(it->second.c_str(), &end, 10);
    if (!isDecimalInteger(it->second) || *end != '\0')
        throw Error("--" + name + " expects a whole number" + range + ", not '" + it->second + "'.");
    if (errno == ERANGE || v < min || v > max)
        throw Error("--" + name + " must be between " + std::to_string(min) + " and " + std::to_string(max) +
                    ", not " + it->second + ".");
    return v;
}
double Args::number(const std::string& name, double fallback) const {
    const ValueRange& r = rangeOf(spec, name, ValueRange::Kind::Real);
    auto it = options.find(name);
    if (it == options.end()) return fallback;
    const double min = r.realMin, max = r.realMax;
    const std::string range = " (" + rangeWords(r) + ")";
    char* end = nullptr;
    const double v = std::strtod(it->second.c_str(), &end);
    if (!isDecimalNumber(it->second) || *end != '\0' || std::isnan(v))
        throw Error("--" + name + " expects a number" + range + ", not '" + it->second + "'.");
    if (v < min || v > max) {
        std::ostringstream s;
        s << "--" << name << " must be between " << min << " and " << max << ", not " << it->second << ".";
        throw Error(s.str());
    }
    return v;
}

// The words of the command line, checked before CLI11 reads them, so that the
// first mistake is the one named: an unknown option wherever it stands (also
// last, after an option still waiting for its value), and an option that takes
// a text value never takes the next option as that value (CLI11 would read
// "--out --bogus" as a file named "--bogus"). A value that starts with '-' is
// written "--out=-x"; a negative number ("--layer -1") is a value as it is.
static void checkOptionWords(const CommandSpec& spec, int argc, char** argv) {
    const std::string help = " (see chargpt " + std::string(spec.name) + " --help).";
    auto looksLikeOption = [](const std::string& w) {
        if (w.size() < 2 || w[0] != '-') return false;
        const std::size_t first = w[1] == '-' ? 2 : 1;
        return first < w.size() && std::isalpha(static_cast<unsigned char>(w[first])) != 0;
    };
    // The option a word names, and whether its value is attached ("--out=X", "-oX").
    auto lookup = [&](const std::string& word, bool& attached) -> const OptionSpec* {
        const bool isLong = word.compare(0, 2, "--") == 0;
        const std::string name = isLong ? word.substr(0, word.find('=')) : word.substr(0, 2);
        attached = isLong ? word.find('=') != std::string::npos : word.size() > 2;
        for (const OptionSpec& o : spec.options) {
            std::stringstream flags(o.flags);
            for (std::string flag; std::getline(flags, flag, ',');)
                if (flag == name) return &o;
        }
        return nullptr;
    };
    auto isHelp = [](const std::string& w) { return w == "--help" || w == "-h"; };
    for (int i = 2; i < argc; ++i) {
        const std::string word = argv[i];
        if (word == "--") return;
        if (!looksLikeOption(word) || isHelp(word)) continue;
        bool attached = false;
        const OptionSpec* option = lookup(word, attached);
        if (!option) {
            const std::string name = word.compare(0, 2, "--") == 0 ? word.substr(0, word.find('=')) : word.substr(0, 2);
            throw UsageError("unknown option " + name + " for '" + spec.name + "'" + help);
        }
        if (!option->valueName || attached) continue;
        const std::string longFlag = std::string(option->flags).substr(std::string(option->flags).rfind("--"));
        if (i + 1 >= argc) {
            if (option->numeric()) return;  // the range check says what is expected
            throw UsageError(longFlag + " needs a value (" + option->valueName + ")" + help);
        }
        const std::string next = argv[i + 1];
        if (isHelp(next)) return;
        if (looksLikeOption(next)) {
            bool nextAttached = false;
            if (!lookup(next, nextAttached)) {
                const std::string name =
                    next.compare(0, 2, "--") == 0 ? next.substr(0, next.find('=')) : next.substr(0, 2);
                throw UsageError("unknown option " + name + " for '" + spec.name + "'" + help);
            }
            if (option->numeric()) continue;  // CLI11 leaves it without a value, which the range check refuses
            throw UsageError(longFlag + " needs a value (" + option->valueName + "), not the option " + next +
                             "; a value that starts with '-' is written " + longFlag + "=VALUE" + help);
        }
        ++i;  // its value
    }
}

// Splits `chargpt COMMAND ...` by the command's spec. Returns false when help
// was printed instead (then the command exits 0); throws UsageError.
bool parseArgs(const CommandSpec& spec, int argc, char** argv, Args& args) {
    CLI::App app(spec.summary, std::string("chargpt ") + spec.name);
    app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);  // the last one counts
    app.allow_extras();  // unknown options are refused below, in our words
    app.get_formatter()->column_width(28);
    std::map<std::string, std::string> values;
    std::vector<std::pair<std::string, CLI::Option*>> given;
    if (*spec.positional) app.add_option(spec.positional, args.target, spec.positionalHelp)->type_name("");
    for (const OptionSpec& o : spec.options) {
        const std::string name = longName(o.flags);
        CLI::Option* option = o.valueName ? app.add_option(o.flags, values[name], o.help)->type_name(o.valueName)
                                          : app.add_flag(o.flags, o.help);
        if (o.numeric()) option->expected(0, 1);
        given.emplace_back(name, option);
    }
    checkOptionWords(spec, argc, argv);
    try {
        app.parse(argc - 1, argv + 1);  // argv[1], the command, stands for the program name
    } catch (const CLI::CallForHelp&) {
        std::cout << app.help();
        return false;
    } catch (const CLI::ParseError& e) {
        throw UsageError(std::string(e.what()) + " (see chargpt " + spec.name + " --help).");
    }
    for (const std::string& extra : app.remaining()) {
        if (extra.size() > 1 && extra[0] == '-')
            throw UsageError("unknown option " + extra.substr(0, extra.find('=')) + " for '" + spec.name +
                             "' (see chargpt " + spec.name + " --help).");
        throw UsageError("unexpected argument '" + extra + "'.");
    }
    args.spec = &spec;
    args.command = spec.name;
    args.program = argv[0];
    for (const auto& [name, option] : given)
        if (option->count() > 0) args.options[name] = values.count(name) ? values[name] : "1";
    if (spec.positionalRequired && args.target.empty())
        throw UsageError("'" + args.command + "' needs " + spec.missingPositional + ".");
    // Every number given, in the order of the spec: the first refused is named.
    for (const OptionSpec& o : spec.options) {
        if (o.range.kind == ValueRange::Kind::Whole) args.integer(longName(o.flags), 0);
        if (o.range.kind == ValueRange::Kind::Real) args.number(longName(o.flags), 0);
    }
    return true;
}
