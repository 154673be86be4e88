// SPDX-License-Identifier: GPL-3.0-or-later
// `chargpt surprise`: scores every character of a text by the model's surprise
// there; prints the mean (or all of it as JSON) and writes a picture, a page or
// a table.
#include <torch/torch.h>

#include <cstdio>
#include <iostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "CliArgs.h"
#include "CliCommon.h"
#include "model/analysis/Surprise.h"
#include "model/io/AtomicFile.h"
#include "model/io/Checkpoint.h"
#include "model/runtime/Error.h"
#include "model/text/Utf8.h"

// Qt after LibTorch: the picture is painted with the widgets' code.
#include <QByteArray>
#include <QFont>
#include <QGuiApplication>
#include <QString>

#include "SurpriseBridge.h"
#include "SurpriseView.h"

using namespace chargpt;

namespace {

int runSurprise(const Args& args) {
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
        std::vector<std::pair<std::string, long long>> first;
        for (int i = 0; i < result.size() && first.size() < 10; ++i)
            if (!result.characters[i].known) first.emplace_back(result.characters[i].character.toStdString(), i);
        reportLeftOut(static_cast<std::size_t>(result.unknown), "character(s)", first);
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
        printJsonLine(summary);
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
        const auto app = paintingApplication(args.program);
        QString error;
        const QString title = QStringLiteral("Surprise of the model at step %1").arg(checkpoint.step);
        QByteArray bytes;
        if (!renderSurprise(QString::fromStdString(out), {result}, title, QGuiApplication::font(), &bytes, &error))
            throw Error(error.toStdString());
        // The one save of every file the CLI writes: only a regular file with one link, or nothing, is replaced.
        writeFileAtomically(out, std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())));
        std::cerr << "chargpt: wrote " << terminalSafe(out) << '\n';
    }
    return 0;
}

}  // namespace

const CommandSpec& surpriseCommand() {
    static const CommandSpec spec =
        {"surprise", "Scores every character of a text by the model's surprise there, in bits; prints the mean.",
         "CHECKPOINT", "a checkpoint", true, "a checkpoint path",
         {{"--text", "TEXT", "the text to score"},
          {"--text-file", "FILE", "read the text from FILE (- for standard input; at most 16 MiB)"},
          {"--json", nullptr, "print one JSON object: the mean and every character's bits, rank and five guesses"},
          {"-o,--out", "FILE.png|.svg|.html|.csv", "also write the coloured text as a picture, a page or a table"},
          {"--threads", "N", kThreadsHelp, true}},
         runSurprise};
    return spec;
}
