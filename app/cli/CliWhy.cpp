// SPDX-License-Identifier: GPL-3.0-or-later
// "Why this character?": `chargpt attribute` (the direct logit attribution of
// one position's logit, and gradient x input on the characters before it) and
// `chargpt patch` (activation patching from a clean prompt into a corrupted
// one). The computations are model/analysis/Attribution and Patching.
#include <torch/torch.h>

#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/cli/CliArgs.h"
#include "app/cli/CliCommon.h"
#include "app/cli/CliSnapshots.h"
#include "model/analysis/Attribution.h"
#include "model/analysis/Patching.h"
#include "model/io/Checkpoint.h"
#include "model/runtime/Error.h"
#include "model/text/Utf8.h"

using namespace chargpt;

namespace {

// The text of option `option` (which must be given and not empty) as code points.
std::u32string textOption(const Args& args, const std::string& option, const std::string& command,
                          const std::string& what) {
    if (!args.has(option)) throw Error(command + " needs --" + option + " TEXT, " + what + ".");
    const std::u32string text = utf8::decodeOrThrow(args.text(option, ""), "--" + option);
    if (text.empty()) throw Error("--" + option + " is empty: give " + what + ".");
    return text;
}

// Every character of `text` as the model's token; a character it does not
// know is refused, by its position (the positions would shift without it).
std::vector<int64_t> tokensOf(const CharTokenizer& tokenizer, const std::u32string& text, const std::string& option) {
    std::vector<int64_t> tokens;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const int64_t id = tokenizer.id(text[i]);
        if (id < 0)
            throw Error("--" + option + " has '" + utf8::encode(text[i]) + "' at position " + std::to_string(i) +
                        ", a character the model's vocabulary (" + std::to_string(tokenizer.vocabSize()) +
                        " tokens) does not have.");
        tokens.push_back(id);
    }
    return tokens;
}

// One character (or <|e|>) given by option `option`, as the model's token.
int64_t characterOption(const CharTokenizer& tokenizer, const Args& args, const std::string& option) {
    const std::string given = args.text(option, "");
    if (given == CharTokenizer::kEndOfTextText && tokenizer.hasEndOfText()) return CharTokenizer::kEndOfText;
    const std::u32string text = utf8::decodeOrThrow(given, "--" + option);
    if (text.size() != 1)
        throw Error("--" + option + " takes one character (or " + CharTokenizer::kEndOfTextText + "), not '" + given +
                    "'.");
    const int64_t id = tokenizer.id(text[0]);
    if (id < 0) throw Error("--" + option + " '" + given + "' is not a character of the model's vocabulary.");
    return id;
}

// A token as the terminal shows it: quoted, control characters escaped.
std::string shown(const CharTokenizer& tokenizer, int64_t id) {
    return "'" + terminalSafe(tokenizer.tokenText(id), LineBreaks::Escape) + "'";
}

// `text` padded with spaces to `width` characters (code points) on the right.
std::string padded(const std::string& text, std::size_t width) {
    std::size_t characters = 0;
    for (const char c : text) characters += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    return text + std::string(characters < width ? width - characters : 0, ' ');
}

const char* partKey(AttributionPart part) {
    switch (part) {
    case AttributionPart::TokenEmbedding: return "token_embedding";
    case AttributionPart::PositionEmbedding: return "position_embedding";
    case AttributionPart::Head: return "head";
    case AttributionPart::ProjectionBias: return "projection_bias";
    case AttributionPart::FeedForward: return "feed_forward";
    case AttributionPart::FeedForwardBias: return "feed_forward_bias";
    case AttributionPart::FinalNormBias: return "final_norm_bias";
    case AttributionPart::HeadBias: return "head_bias";
    }
    return "";
}

std::string partName(const AttributionRow& row) {
    const std::string layer = "L" + std::to_string(row.layer.value_or(0) + 1);  // for the parts of a layer
    switch (row.part) {
    case AttributionPart::TokenEmbedding: return "token embedding";
    case AttributionPart::PositionEmbedding: return "position embedding";
    case AttributionPart::Head:
        return layer + " H" + std::to_string(row.head.value_or(0) + 1);
    case AttributionPart::ProjectionBias: return layer + " projection bias";
    case AttributionPart::FeedForward: return layer + " feed-forward";
    case AttributionPart::FeedForwardBias: return layer + " feed-forward bias";
    case AttributionPart::FinalNormBias: return "final norm bias";
    case AttributionPart::HeadBias: return "head bias";
    }
    return "";
}

void printAttributionJson(const Checkpoint& checkpoint, const Attribution& a) {
    const CharTokenizer& tokenizer = checkpoint.tokenizer;
    nlohmann::ordered_json out;
    out["step"] = checkpoint.step;
    out["position"] = a.position;
    out["text"] = tokenizer.decode(a.inputs);
    out["char"] = tokenizer.tokenText(a.chosen);
    out["top"] = a.chosenIsTop;
    out["logit"] = jsonFigure(a.logit);
    out["probability"] = jsonFigure(a.probability);
    out["runner_up"] = {{"char", tokenizer.tokenText(a.runnerUp)}, {"logit", jsonFigure(a.runnerUpLogit)}};
    out["margin"] = jsonFigure(a.margin());
    out["final_norm_scale"] = jsonFigure(a.scale);
    nlohmann::ordered_json parts = nlohmann::ordered_json::array();
    for (const AttributionRow& row : a.rows) {
        nlohmann::ordered_json entry;
        entry["part"] = partKey(row.part);
        if (row.layer) entry["layer"] = *row.layer + 1;
        if (row.head) entry["head"] = *row.head + 1;
        entry["logit"] = jsonFigure(row.logit);
        entry["margin"] = jsonFigure(row.margin);
        parts.push_back(std::move(entry));
    }
    out["parts"] = std::move(parts);
    out["sum_logit"] = jsonFigure(a.logitSum());
    out["gap_logit"] = jsonFigure(a.logitGap());
    out["sum_margin"] = jsonFigure(a.marginSum());
    out["gap_margin"] = jsonFigure(a.marginGap());
    nlohmann::ordered_json inputs = nlohmann::ordered_json::array();
    for (std::size_t s = 0; s < a.gradientTimesInput.size(); ++s)
        inputs.push_back({{"position", s},
                          {"char", tokenizer.tokenText(a.inputs[s])},
                          {"value", jsonFigure(a.gradientTimesInput[s])}});
    out["gradient_x_input"] = std::move(inputs);
    printJsonLine(out);
}

void printAttribution(const Checkpoint& checkpoint, const Attribution& a) {
    const CharTokenizer& tokenizer = checkpoint.tokenizer;
    char line[256];
    std::cout << "model at step " << checkpoint.step << "; after \""
              << terminalSafe(tokenizer.decode(a.inputs), LineBreaks::Escape) << "\" (position " << a.position
              << ") it gives " << shown(tokenizer, a.chosen);
    std::snprintf(line, sizeof line, " logit %.4f, probability %.4f%s; runner-up ", a.logit, a.probability,
                  a.chosenIsTop ? " (its top guess)" : "");
    std::cout << line << shown(tokenizer, a.runnerUp);
    std::snprintf(line, sizeof line, " logit %.4f, margin %+.4f\n", a.runnerUpLogit, a.margin());
    std::cout << line;
    std::snprintf(line, sizeof line,
                  "direct logit attribution, the final LayerNorm's scale frozen at %.4f:\n%-22s %10s %10s\n",
                  a.scale, "part", "logit", "margin");
    std::cout << line;
    for (const AttributionRow& row : a.rows) {
        std::snprintf(line, sizeof line, "%-22s %+10.4f %+10.4f\n", partName(row).c_str(), row.logit, row.margin);
        std::cout << line;
    }
    std::snprintf(line, sizeof line, "%-22s %10.4f %10.4f  (the model: %.4f, %.4f; gap %.2g, %.2g)\n", "sum",
                  a.logitSum(), a.marginSum(), a.logit, a.margin(), a.logitGap(), a.marginGap());
    std::cout << line
              << "gradient x input: the chosen logit's gradient on each position's embedding (token plus position), "
                 "dotted with it\nposition  char   value\n";
    for (std::size_t s = 0; s < a.gradientTimesInput.size(); ++s) {
        std::snprintf(line, sizeof line, "%8zu  ", s);
        std::cout << line << padded(shown(tokenizer, a.inputs[s]), 6);
        std::snprintf(line, sizeof line, " %+.4f\n", a.gradientTimesInput[s]);
        std::cout << line;
    }
}

// Restored fractions, `rows` x `columns` row-major, as a JSON list of lists.
nlohmann::ordered_json grid(const std::vector<double>& values, int64_t rows, int64_t columns) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (int64_t r = 0; r < rows; ++r) {
        nlohmann::ordered_json row = nlohmann::ordered_json::array();
        for (int64_t c = 0; c < columns; ++c)
            row.push_back(nlohmann::ordered_json(jsonFigure(values[static_cast<std::size_t>(r * columns + c)])));
        out.push_back(std::move(row));
    }
    return out;
}

std::string fraction(double v) {
    char text[16];
    std::snprintf(text, sizeof text, " %6.2f", v);
    return text;
}

}  // namespace

int runAttribute(const Args& args) {
    const std::u32string text = textOption(args, "text", "attribute", "the text the model reads");
    if (!args.has("position"))
        throw Error("attribute needs --position N: the position (counted from 0) whose next character is explained.");
    const int64_t position = args.integer("position", 0);
    if (position >= static_cast<int64_t>(text.size()))
        throw Error("--position " + std::to_string(position) + " is outside --text, whose positions are 0 to " +
                    std::to_string(text.size() - 1) + ".");
    useThreads(args.integer(settingOption("threads"), 0));
    const Checkpoint checkpoint = loadCheckpointOrSnapshot(args.target);
    // Only the characters the model reads must be known.
    const std::vector<int64_t> tokens =
        tokensOf(checkpoint.tokenizer, text.substr(0, static_cast<std::size_t>(position) + 1), "text");
    const int64_t chosen = args.has("char") ? characterOption(checkpoint.tokenizer, args, "char") : -1;
    const Attribution a = attribute(checkpoint.model, tokens, position, chosen);
    if (args.has("json"))
        printAttributionJson(checkpoint, a);
    else
        printAttribution(checkpoint, a);
    return 0;
}

int runPatch(const Args& args) {
    const std::u32string clean = textOption(args, "clean", "patch", "the clean prompt");
    const std::u32string corrupted = textOption(args, "corrupted", "patch", "the corrupted prompt");
    if (clean.size() != corrupted.size())
        throw Error("--clean and --corrupted must be of the same length: --clean has " + std::to_string(clean.size()) +
                    " characters, --corrupted " + std::to_string(corrupted.size()) + ".");
    if (!args.has("target")) throw Error("patch needs --target CHAR, the character the clean prompt leads to.");
    useThreads(args.integer(settingOption("threads"), 0));
    const Checkpoint checkpoint = loadCheckpointOrSnapshot(args.target);
    const CharTokenizer& tokenizer = checkpoint.tokenizer;
    const int64_t target = characterOption(tokenizer, args, "target");
    const int64_t wrong = args.has("wrong") ? characterOption(tokenizer, args, "wrong") : -1;
    const PatchingRuns runs = preparePatching(checkpoint.model, tokensOf(tokenizer, clean, "clean"),
                                              tokensOf(tokenizer, corrupted, "corrupted"), target, wrong);
    const auto go = [](int64_t, int64_t) { return !gInterrupted.load(); };  // Ctrl-C stops between passes
    const std::vector<double> residual = patchingSweep(checkpoint.model, runs, Patch::Residual, go);
    const std::vector<double> heads = patchingSweep(checkpoint.model, runs, Patch::Head, go);
    const std::vector<double> feedForward = patchingSweep(checkpoint.model, runs, Patch::FeedForward, go);
    if (gInterrupted.load()) throw Error("stopped before every part was patched.");
    const int64_t L = checkpoint.config.n_layer, T = static_cast<int64_t>(clean.size());
    const int64_t nh = checkpoint.config.n_head();
    const bool hasFeedForward = !feedForward.empty();

    if (args.has("json")) {
        nlohmann::ordered_json out;
        out["step"] = checkpoint.step;
        out["clean"] = utf8::encode(clean);
        out["corrupted"] = utf8::encode(corrupted);
        out["target"] = tokenizer.tokenText(runs.target);
        out["wrong"] = tokenizer.tokenText(runs.wrong);
        out["clean_difference"] = jsonFigure(runs.cleanDifference);
        out["corrupted_difference"] = jsonFigure(runs.corruptedDifference);
        out["residual"] = grid(residual, L + 1, T);
        out["heads"] = grid(heads, L, nh);
        out["feed_forward"] = hasFeedForward ? grid(feedForward, L, T) : nlohmann::ordered_json::array();
        printJsonLine(out);
        return 0;
    }
    char line[256];
    std::cout << "model at step " << checkpoint.step << "; logit of " << shown(tokenizer, runs.target) << " minus "
              << shown(tokenizer, runs.wrong) << " at the last position: ";
    std::snprintf(line, sizeof line, "clean %.4f, corrupted %.4f\n", runs.cleanDifference, runs.corruptedDifference);
    std::cout << line
              << "the share of it each patch of the clean run restores (1: all of it, 0: none)\n\n"
                 "residual stream (emb: the embeddings, Ln: after block n), by position:\n"
              << padded("pos clean corrupted", 20);
    for (int64_t l = 0; l <= L; ++l) std::cout << padded(l == 0 ? "    emb" : "     L" + std::to_string(l), 7);
    std::cout << '\n';
    const auto positionRows = [&](const std::vector<double>& values, int64_t columns) {
        for (int64_t t = 0; t < T; ++t) {
            std::snprintf(line, sizeof line, "%3lld ", static_cast<long long>(t));
            const auto at = static_cast<std::size_t>(t);
            std::cout << line << padded(shown(tokenizer, runs.clean[at]), 6)
                      << padded(shown(tokenizer, runs.corrupted[at]), 10);
            for (int64_t l = 0; l < columns; ++l) std::cout << fraction(values[static_cast<std::size_t>(l * T + t)]);
            std::cout << '\n';
        }
    };
    positionRows(residual, L + 1);
    if (L > 0) {
        std::cout << "\neach head's output at every position, by layer:\nlayer ";
        for (int64_t h = 0; h < nh; ++h) std::cout << padded("    H" + std::to_string(h + 1), 7);
        std::cout << '\n';
        for (int64_t l = 0; l < L; ++l) {
            std::cout << padded("L" + std::to_string(l + 1), 6);
            for (int64_t h = 0; h < nh; ++h) std::cout << fraction(heads[static_cast<std::size_t>(l * nh + h)]);
            std::cout << '\n';
        }
    }
    if (hasFeedForward) {
        std::cout << "\neach feed-forward's output, by position:\n" << padded("pos clean corrupted", 20);
        for (int64_t l = 0; l < L; ++l) std::cout << padded("     L" + std::to_string(l + 1), 7);
        std::cout << '\n';
        positionRows(feedForward, L);
    }
    return 0;
}
