// SPDX-License-Identifier: GPL-3.0-or-later
// `chargpt surprise`: scores every character of a text by the model's surprise
// there; prints the mean (or all of it as JSON) and writes a picture, a page or
// a table.
#include <torch/torch.h>

#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/cli/CliArgs.h"
#include "app/cli/CliCommon.h"
#include "app/cli/CliSnapshots.h"
#include "model/analysis/Surprise.h"
#include "model/io/AtomicFile.h"
#include "model/io/Checkpoint.h"
#include "model/runtime/Error.h"
#include "model/text/Utf8.h"

// Qt after LibTorch: the picture is painted with the widgets' code.
#include <QByteArray>
#include <QFont>
#include <QGuiApplication>
#include <QSize>
#include <QString>

#include "app/SurpriseBridge.h"
#include "widgets/InsideData.h"
#include "widgets/SurpriseExport.h"
#include "widgets/SurpriseView.h"

using namespace chargpt;

namespace {

// The longest text listed character by character: `--json` (about 200 bytes
// a character) and `--out` (a picture, a page or a table). Without them, the
// mean is scored over up to kMaxSurpriseCharacters.
constexpr std::size_t kMaxListedCharacters = 100000;

// `--json` one character at a time: the same line printJsonLine prints of the
// whole object, without the whole object in memory.
void printSurpriseJson(const SurpriseText& result, int64_t step) {
    const bool compared = !result.without.isEmpty();
    nlohmann::ordered_json summary;
    summary["mean_bits"] = jsonFigure(result.meanBits);
    summary["characters_scored"] = result.scored;
    summary["unknown_characters"] = result.unknown;
    summary["step"] = step;
    if (compared) {
        summary["without"] = result.without.toStdString();
        summary["mean_bits_without"] = jsonFigure(result.withoutMeanBits);
    }
    summary["characters"] = nlohmann::ordered_json::array();
    const auto dump = [](const nlohmann::ordered_json& value) {
        return terminalSafe(value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    };
    std::string head = dump(summary);
    head.resize(head.size() - 2);  // the empty list's "]}"
    std::cout << head;
    bool first = true;
    for (const SurpriseChar& c : result.characters) {
        nlohmann::ordered_json entry;
        entry["char"] = c.character.toStdString();
        entry["known"] = c.known;
        entry["bits"] =
            c.scored() ? nlohmann::ordered_json(jsonFigure(c.bits)) : nlohmann::ordered_json(nullptr);
        entry["rank"] = c.scored() ? nlohmann::ordered_json(c.rank) : nlohmann::ordered_json(nullptr);
        if (compared)
            entry["bits_without"] = c.scored() && std::isfinite(c.withoutBits)
                                        ? nlohmann::ordered_json(jsonFigure(c.withoutBits))
                                        : nlohmann::ordered_json(nullptr);
        nlohmann::ordered_json top = nlohmann::ordered_json::array();
        for (qsizetype g = 0; g < c.guesses.size() && g < c.probabilities.size(); ++g)
            top.push_back({{"char", c.guesses[g].toStdString()}, {"p", jsonFigure(c.probabilities[g])}});
        entry["top"] = std::move(top);
        std::cout << (first ? "" : ",") << dump(entry);
        first = false;
    }
    std::cout << "]}" << std::endl;
}

}  // namespace

int runSurprise(const Args& args) {
    if (args.has("text") && args.has("text-file")) throw Error("give --text or --text-file, not both.");
    if (!args.has("text") && !args.has("text-file"))
        throw Error("surprise needs --text TEXT or --text-file FILE, the text to score.");
    const std::string out = args.text("out", "");
    const std::string suffix = args.has("out") ? suffixOf(out) : std::string();
    const bool picture = suffix == ".png" || suffix == ".svg";
    if (args.has("out")) {
        if (!picture && suffix != ".html" && suffix != ".csv")
            throw Error("--out must name a .png, .svg, .html or .csv file, not '" + out + "'.");
        checkSaveTarget(out);
    }
    const bool json = args.has("json");
    // --without PART: named as `chargpt ablate` and the Inside tab name it.
    const std::string partName = args.text("without", "");
    const std::optional<KnockoutPart> without =
        args.has("without") ? knockoutPartNamed(QString::fromStdString(partName)) : std::nullopt;
    if (args.has("without") && !without)
        throw Error(
            "--without takes a part as ablate names it: L2 H3 (a head), L1 attention or L1 feed-forward "
            "(layers and heads from 1), not '" +
            partName + "'.");
    const bool fromFile = args.has("text-file");
    const std::string bytes = fromFile
                                  ? readPromptFile(args.text("text-file", ""), "text file", "--text-file")
                                  : args.text("text", "");
    const std::u32string text = utf8::decodeOrThrow(bytes, fromFile ? "the text file" : "--text");
    if (text.empty())
        throw Error(std::string(fromFile ? "the text file" : "--text") +
                    " is empty: give the text to score.");
    if (text.size() > kMaxSurpriseCharacters)
        throw Error("the text has " + std::to_string(text.size()) + " characters; surprise scores at most " +
                    std::to_string(kMaxSurpriseCharacters) + ".");
    // What lists every character is refused past its budget before the model is read.
    if ((json || args.has("out")) && text.size() > kMaxListedCharacters)
        throw Error("the text has " + std::to_string(text.size()) + " characters; " +
                    (json ? std::string("--json") : "--out " + out) + " lists at most " +
                    std::to_string(kMaxListedCharacters) + " (the mean alone is scored over up to " +
                    std::to_string(kMaxSurpriseCharacters) + ").");
    std::unique_ptr<QGuiApplication> app;
    if (picture) {
        app = paintingApplication(args.program);
        SurpriseText laidOut;  // the characters alone decide the picture's size
        laidOut.characters.resize(static_cast<qsizetype>(text.size()));
        for (std::size_t i = 0; i < text.size(); ++i)
            laidOut.characters[static_cast<qsizetype>(i)].character = QString::fromUcs4(&text[i], 1);
        const QSize size = surprisePictureSize({laidOut}, QGuiApplication::font());
        if (size.height() > ViewExport::kMaxPictureSide)
            throw Error("--out " + out + " would be " + std::to_string(size.width()) + " x " +
                        std::to_string(size.height()) + " pixels; a picture is at most " +
                        std::to_string(ViewExport::kMaxPictureSide) +
                        " pixels tall: score a shorter text, or write .html or .csv.");
    }
    useThreads(args.integer(settingOption("threads"), 0));

    const Checkpoint checkpoint = loadCheckpointOrSnapshot(args.target);
    if (without) {
        const int64_t layers = checkpoint.config.n_layer, heads = checkpoint.config.n_head();
        if (layers == 0)
            throw Error(
                "the model has no layers (n_layer 0, a rung of the architecture ladder): it has no heads, "
                "attention or feed-forward to knock out.");
        if (without->layer >= layers)
            throw Error("--without " + partName + ": the model has layers L1 to L" + std::to_string(layers) +
                        ".");
        if (without->kind == KnockoutKind::Head && without->head >= heads)
            throw Error("--without " + partName + ": each layer of the model has heads H1 to H" +
                        std::to_string(heads) + ".");
    }
    const SurpriseResult scored = computeSurprise(checkpoint.model, checkpoint.tokenizer, text);
    if (!scored.unknown.empty()) {
        std::vector<std::pair<std::string, long long>> first;
        for (std::size_t i = 0; i < scored.unknown.size() && first.size() < 10; ++i)
            first.emplace_back(utf8::encode(scored.unknown[i].codePoint),
                               static_cast<long long>(scored.unknown[i].position));
        reportLeftOut(scored.unknown.size(), "character(s)", first);
    }
    if (scored.scored == 0)
        throw Error(
            "the text has fewer than two characters the model knows: nothing to score (the first "
            "character has nothing before it).");

    // Every character's value, for what lists them or compares.
    SurpriseText result;
    if (json || args.has("out") || without) {
        result = surpriseTextOf(checkpoint, text, scored);
        if (without) addKnockedOut(result, checkpoint, text, *without);
    }
    if (json) {
        printSurpriseJson(result, checkpoint.step);
    } else {
        char line[160];
        std::snprintf(line, sizeof line,
                      "%.4f bits per character over %lld character%s scored (model at step %lld)",
                      scored.meanBits, static_cast<long long>(scored.scored), scored.scored == 1 ? "" : "s",
                      static_cast<long long>(checkpoint.step));
        std::cout << line;
        if (!scored.unknown.empty())
            std::cout << "; " << scored.unknown.size() << " unknown character(s) left out";
        std::cout << std::endl;
        if (without) {
            std::snprintf(line, sizeof line, "%.4f bits per character without %s (%+.4f)",
                          result.withoutMeanBits, result.without.toStdString().c_str(),
                          result.withoutMeanBits - scored.meanBits);
            std::cout << line << std::endl;
        }
    }

    if (args.has("out")) {
        if (!app) app = paintingApplication(args.program);
        result.label = fromFile ? QString::fromStdString(args.text("text-file", "")) : QStringLiteral("text");
        QString error;
        QString title = QStringLiteral("Surprise of the model at step %1").arg(checkpoint.step);
        if (without) title += QStringLiteral(", and the change without %1").arg(result.without);
        QByteArray bytes;
        if (!renderSurprise(QString::fromStdString(out), {result}, title, QGuiApplication::font(), &bytes,
                            &error))
            throw Error(error.toStdString());
        // The one save of every file the CLI writes: only a regular file with one link, or nothing, is
        // replaced.
        writeFileAtomically(out, std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())));
        std::cerr << "chargpt: wrote " << terminalSafe(out) << '\n';
    }
    return 0;
}

