// SPDX-License-Identifier: GPL-3.0-or-later
// `chargpt filmstrip RUN`: a sample from each of the weights the run library
// keeps of a run, all from the same prompt, seed, temperature and length, as
// text blocks, one JSON line, or a page or text file (model/generate/Filmstrip.h).
#include <torch/torch.h>

#include <unistd.h>

#include <csignal>
#include <cstdint>
#include <iostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/cli/CliArgs.h"
#include "app/cli/CliCommon.h"
#include "app/cli/CliSampling.h"
#include "app/cli/CliSnapshots.h"
#include "model/generate/Filmstrip.h"
#include "model/io/AtomicFile.h"
#include "model/record/RunLibrary.h"
#include "model/runtime/Error.h"
#include "model/text/Utf8.h"

// Qt after LibTorch: the page and the text are the widgets' exports.
#include <QByteArray>
#include <QString>

#include "app/FilmstripBridge.h"
#include "widgets/FilmstripExport.h"

using namespace chargpt;

namespace {

nlohmann::ordered_json frameJson(const FilmstripFrame& frame) {
    nlohmann::ordered_json entry;
    entry["step"] = frame.step;
    entry["val_loss"] = jsonFigure(frame.valLoss);
    entry["text"] = frame.sampled() ? nlohmann::ordered_json(frame.text) : nlohmann::ordered_json(nullptr);
    entry["skipped"] = frame.sampled() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(frame.skipped);
    return entry;
}

}  // namespace

int runFilmstrip(const Args& args) {
    // Every word is checked before the run library is read.
    const int64_t id = runIdOf(args.target);
    // Each frame is what `chargpt sample RUN@STEP` gives for the same words:
    // top-k and top-p off, the shifted window; 120 characters from seed 1.
    SamplingOptions defaults;
    defaults.maxNewChars = 120;
    defaults.seed = 1;
    const SamplingOptions options = samplingOptions(args, defaults);
    const bool json = args.has("json");
    const std::string out = args.text("out", "");
    if (args.has("out")) {
        const std::string suffix = suffixOf(out);
        if (suffix != ".html" && suffix != ".htm" && suffix != ".txt")
            throw Error("--out must name a .html or .txt file, not '" + out + "'.");
        checkSaveTarget(out);
    }
    const std::u32string promptText = promptOf(args);
    useThreads(args.integer(settingOption("threads"), 0));

    auto library = openRunLibraryToRead();
    const RunRecord run = findRun(*library, id);
    const std::vector<KeptWeights> kept = library->keptWeights(id);
    if (kept.empty())
        throw Error("run " + std::to_string(id) + " keeps no weights, so it has no filmstrip (trained with "
                    "--no-snapshots, by an older version, or its snapshots could not be written).");

    // On a terminal, control characters are shown escaped; a file or a pipe gets the text as it is.
    const bool tty = ::isatty(STDOUT_FILENO);
    const auto shown = [tty](const QString& text) {
        const std::string bytes = text.toStdString();
        return tty ? terminalSafe(bytes) : bytes;
    };
    FilmstripHooks hooks;
    QString promptRead;  // as the model read it: each sample is printed after it
    hooks.started = [&](const FilmstripPrompt& read) {
        if (!read.unknown.empty()) {
            std::vector<std::pair<std::string, long long>> first;
            for (std::size_t i = 0; i < read.unknown.size() && i < 10; ++i)
                first.emplace_back(utf8::encode(read.unknown[i].codePoint),
                                   static_cast<long long>(read.unknown[i].position));
            reportLeftOut(read.unknown.size(), "prompt character(s)", first);
        }
        if (json) return;
        Filmstrip heading;
        heading.prompt = read;
        FilmstripSamples samples = filmstripSamplesOf(heading, id, QString::fromStdString(run.start.name), options);
        samples.rows.resize(qsizetype(kept.size()));  // the count the heading gives
        std::cout << shown(filmstripHeading(samples)) << "\n\n" << std::flush;
        promptRead = samples.prompt;
    };
    hooks.frame = [&](const FilmstripFrame& frame) {
        if (!json) std::cout << shown(filmstripTextBlock(filmstripRowOf(frame), promptRead)) << std::flush;
    };
    hooks.stop = [] { return gInterrupted.load(); };
    std::signal(SIGINT, onStopSignal);
    const Filmstrip strip = sampleFilmstrip(*library, id, promptText, options, hooks);
    if (strip.stopped)
        throw Error("stopped (Ctrl-C) after " + std::to_string(strip.frames.size()) + " of " +
                    std::to_string(kept.size()) + " steps" + (args.has("out") ? "; nothing was written." : "."));
    if (strip.sampledCount() == 0) {
        // Why, as the first step said it (the others' reasons are in --json).
        std::string why = strip.frames.empty() ? std::string() : strip.frames.front().skipped;
        if (!why.empty() && why.back() == '.') why.pop_back();
        throw Error("none of the " + std::to_string(strip.frames.size()) + " snapshots of run " + std::to_string(id) +
                    " could be sampled" + (why.empty() ? std::string() : " (step " + std::to_string(strip.frames.front().step) + ": " + why + ")") +
                    (args.has("out") ? "; nothing was written." : "."));
    }

    if (json) {
        nlohmann::ordered_json summary;
        summary["run"] = id;
        summary["name"] = run.start.name;
        summary["prompt"] = strip.prompt.text;
        summary["chars"] = options.maxNewChars;
        summary["seed"] = options.seed;
        summary["temperature"] = jsonFigure(options.temperature);
        nlohmann::ordered_json frames = nlohmann::ordered_json::array();
        for (const FilmstripFrame& frame : strip.frames) frames.push_back(frameJson(frame));
        summary["frames"] = std::move(frames);
        printJsonLine(summary);
    }
    if (args.has("out")) {
        const FilmstripSamples samples =
            filmstripSamplesOf(strip, id, QString::fromStdString(run.start.name), options);
        QByteArray bytes;
        QString error;
        if (!renderFilmstrip(QString::fromStdString(out), samples, &bytes, &error)) throw Error(error.toStdString());
        // The one save of every file the CLI writes: only a regular file with one link, or nothing, is replaced.
        writeFileAtomically(out, std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())));
        std::cerr << "chargpt: wrote " << terminalSafe(out) << '\n';
    }
    return 0;
}
