// SPDX-License-Identifier: GPL-3.0-or-later
// `chargpt sample`: generates text from a checkpoint, streaming it; with
// --corpus it marks the spans copied verbatim from the training text.
#include <torch/torch.h>

#include <unistd.h>

#include <cmath>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/cli/CliArgs.h"
#include "app/cli/CliCommon.h"
#include "app/cli/CliSampling.h"
#include "app/cli/CliSnapshots.h"
#include "model/generate/BatchSampler.h"
#include "model/io/Checkpoint.h"
#include "model/runtime/Error.h"
#include "model/text/CopyIndex.h"
#include "model/text/Corpus.h"
#include "model/text/Utf8.h"
#include "model/train/Dataset.h"
#include "model/train/RunConfig.h"

using namespace chargpt;

namespace {

// The largest corpus `sample --corpus` marks copies against, in bytes of its
// files. Its index takes about 9 bytes a character beside the corpus read
// (the characters, 4 bytes each, their UTF-8 and a suffix array of 4 bytes a
// byte): about 600 MB for 64 MiB of ASCII.
constexpr std::uintmax_t kMaxCopyCorpusBytes = 64ull << 20;

void refuseLargeCopyCorpus(const std::string& source, std::uintmax_t bytes) {
    if (bytes > kMaxCopyCorpusBytes)
        throw Error("--corpus " + source + " holds " + std::to_string(bytes) +
                    " bytes; copies are marked against a corpus of at most " +
                    std::to_string(kMaxCopyCorpusBytes) + " bytes (64 MiB).");
}

// Each token the checkpoint's vocabulary makes of `corpus`, as Corpus::encode
// makes them (characters it lacks left out, end-of-text between documents),
// with its character (NUL for end-of-text), until `visit` returns false.
template <typename Visit>
void forEachToken(const Corpus& corpus, const CharTokenizer& tokenizer, Visit&& visit) {
    for (std::size_t d = 0; d < corpus.documents().size(); ++d) {
        if (d > 0 && tokenizer.hasEndOfText() && !visit(CharTokenizer::kEndOfText, U'\0')) return;
        for (const char32_t c : corpus.documents()[d]) {
            const int64_t id = tokenizer.id(c);
            if (id >= 0 && !visit(id, c)) return;
        }
    }
}

// The copy index of the text a checkpoint trained on: `source` split as its
// training split it (val_fraction, sequence_len), in its vocabulary
// (characters it lacks left out, as training leaves them out); its rule
// fitted to the corpus by its validation part (CopyIndex::calibrate). The
// training part's UTF-8 is made from the corpus's characters directly, never
// from a copy of all its tokens (8 bytes each, three times over in the data
// set); a corpus too small for two parts goes through the data set itself.
CopyIndex trainingTextIndex(const std::string& source, const Checkpoint& checkpoint) {
    const Corpus corpus = openCorpus(source);
    refuseLargeCopyCorpus(source, corpus.byteCount());
    const CharTokenizer& tokenizer = checkpoint.tokenizer;
    int64_t count = 0;
    forEachToken(corpus, tokenizer, [&count](int64_t, char32_t) { return ++count, true; });
    const int64_t sequence = checkpoint.config.sequence_len;
    const double fraction = checkpoint.config.val_fraction;
    const int64_t training = Dataset::trainSize(count, sequence, fraction);
    // A folder's validation documents are not the end of its text: split by the data set too.
    if (training <= 0 || training >= count ||
        !corpus.validationDocuments(fraction, checkpoint.config.seed).empty()) {
        const Dataset data = Dataset::ofCorpus(corpus, tokenizer, sequence, fraction, checkpoint.config.seed);
        CopyIndex index(data.trainingTokens(), tokenizer);
        index.calibrate(data.tokens(Split::Validation), tokenizer);
        return index;
    }
    // The training part first, the validation part right after it.
    std::size_t bytes = 0;
    int64_t seen = 0;
    forEachToken(corpus, tokenizer, [&](int64_t, char32_t c) {
        bytes += c == U'\0' ? 1 : utf8::encode(c).size();
        return ++seen < training;
    });
    std::string text;
    text.reserve(bytes);
    std::vector<int64_t> heldOut;
    constexpr int64_t kHeldOut = 20000;  // what calibrate() reads
    seen = 0;
    forEachToken(corpus, tokenizer, [&](int64_t id, char32_t c) {
        if (seen < training)
            text += c == U'\0' ? std::string(1, '\0') : utf8::encode(c);
        else
            heldOut.push_back(id);
        return ++seen < training + kHeldOut;
    });
    CopyIndex index = CopyIndex::fromUtf8(std::move(text));
    index.calibrate(heldOut, tokenizer);
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

// Ctrl-C while the copies are marked stops the marking: the text stands,
// its copies unreported. After a Ctrl-C that stopped the generation (the
// signal's default restored, so a second one ends the process), what was
// generated is marked.
std::optional<CopyCheck> markCopies(const std::optional<CopyIndex>& copies, const std::string& generated) {
    if (!copies) return std::nullopt;
    const bool generationStopped = gInterrupted;
    std::optional<CopyCheck> copied = copies->check(std::string_view(generated), 0,
                                                    [generationStopped] { return !generationStopped && gInterrupted; });
    if (!copied) std::cerr << "chargpt: stopped (Ctrl-C) before the copies were marked; none are reported.\n";
    return copied;
}

void printCopied(const CopyCheck& copied, int minLength) {
    char share[32];
    std::snprintf(share, sizeof share, "%.0f%%", 100.0 * (std::isfinite(copied.share()) ? copied.share() : 0.0));
    std::cout << "copied: " << share << " of the " << copied.characters << " characters (" << copied.spans.size()
              << " span(s) of " << minLength << " or more found verbatim in the training text)" << std::endl;
}

// The samples' JSON: `samples` is always a list (one entry for one sample),
// each with its seed, text, character count and copies.
nlohmann::ordered_json sampleJson(uint64_t seed, const std::string& text,
                                  const std::optional<CopyCheck>& copied,
                                  const std::optional<CopyIndex>& copies) {
    nlohmann::ordered_json one;
    one["seed"] = seed;
    one["text"] = text;
    one["characters"] = utf8::decodeOrThrow(text, "the generated text").size();
    one["copied"] = copied ? copiedJson(*copied, copies->minLength()) : nlohmann::ordered_json(nullptr);
    return one;
}

}  // namespace

int runSample(const Args& args) {
    // Every option is checked before the checkpoint is read.
    // By default 500 characters from seed 12046, from all characters, with the shifted window.
    SamplingOptions options = samplingOptions(args, SamplingOptions{});
    const int64_t samples = args.integer("samples", 1);
    const std::string precision = args.text("precision", "");
    if (!precision.empty() && precision != "fp32" && precision != "bf16")
        throw Error("--precision is fp32 or bf16, not '" + precision + "'.");
    const int64_t threads = args.integer(settingOption("threads"), 0);
    const bool json = args.has("json");
    const std::u32string promptText = promptOf(args);

    if (args.has("corpus")) {
        // A corpus file past the budget is refused from its size, before anything is read.
        std::error_code error;
        const std::string source = args.text("corpus", "");
        if (std::filesystem::is_regular_file(source, error)) {
            const std::uintmax_t size = std::filesystem::file_size(source, error);
            if (!error) refuseLargeCopyCorpus(source, size);
        }
    }

    useThreads(threads);
    Checkpoint checkpoint = loadCheckpointOrSnapshot(args.target);
    std::vector<UnknownChar> unknown;
    const std::vector<int64_t> tokens = checkpoint.tokenizer.encode(promptText, &unknown);
    if (!promptText.empty() && tokens.empty()) throw Error("no character of the prompt is in the model's vocabulary.");
    if (!unknown.empty()) {
        std::vector<std::pair<std::string, long long>> first;
        for (std::size_t i = 0; i < unknown.size() && i < 10; ++i)
            first.emplace_back(utf8::encode(unknown[i].codePoint), static_cast<long long>(unknown[i].position));
        reportLeftOut(unknown.size(), "prompt character(s)", first);
    }
    const auto context = static_cast<std::size_t>(checkpoint.config.sequence_len);
    if (tokens.size() > context)
        std::cerr << "chargpt: the prompt has " << tokens.size() << " characters and the model's context is "
                  << context << ": only its last " << context << " characters steer the generation.\n";
    // Before the generation, so that a wrong corpus is refused at once.
    std::optional<CopyIndex> copies;
    if (args.has("corpus")) copies.emplace(trainingTextIndex(args.text("corpus", ""), checkpoint));

    options.bf16 = precision.empty() ? checkpoint.config.bf16 : precision == "bf16";
    // On a terminal, control characters are shown escaped; a file or a pipe gets the text as it is.
    const bool tty = ::isatty(STDOUT_FILENO);
    auto shown = [tty](const std::string& text) { return tty ? terminalSafe(text) : text; };
    const std::string echoed = checkpoint.tokenizer.decode(tokens);
    // One sample streams after the prompt as it is generated; several are
    // each written whole once all are done (Ctrl-C ends them all where they
    // are), under a line naming it and its seed; --json prints one object
    // with them all.
    const bool streamed = samples == 1 && !json;
    if (streamed) std::cout << shown(echoed) << std::flush;
    BatchSampler sampler(checkpoint.model, checkpoint.tokenizer, options, samples);
    std::signal(SIGINT, onStopSignal);
    const std::vector<std::string> texts =
        sampler.generate(tokens, [streamed, &shown](const std::vector<SampleStreamStep>& steps) {
            if (streamed) std::cout << shown(steps.front().step.text) << std::flush;
            return !gInterrupted;
        });
    if (streamed) std::cout << std::endl;
    nlohmann::ordered_json all = nlohmann::ordered_json::array();
    for (int64_t i = 0; i < samples; ++i) {
        const std::string& text = texts[std::size_t(i)];
        const std::optional<CopyCheck> copied = markCopies(copies, text);
        const uint64_t seed = options.seed + uint64_t(i);
        if (json)
            all.push_back(sampleJson(seed, text, copied, copies));
        else if (!streamed)
            std::cout << (i > 0 ? "\n" : "") << "-- sample " << i + 1 << " of " << samples << ", seed "
                      << seed << " --\n"
                      << shown(echoed) << shown(text) << std::endl;
        if (copied && !json) printCopied(*copied, copies->minLength());
    }
    if (json) {
        nlohmann::ordered_json summary;
        summary["prompt"] = echoed;
        summary["samples"] = std::move(all);
        printJsonLine(summary);
    }
    return 0;
}

