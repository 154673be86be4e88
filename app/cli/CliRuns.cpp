// SPDX-License-Identifier: GPL-3.0-or-later
// `chargpt runs`: the runs of the run library, newest first.
#include <cmath>
#include <cstdio>
#include <iostream>
#include <string>

#include <nlohmann/json.hpp>

#include "app/cli/CliArgs.h"
#include "app/cli/CliCommon.h"
#include "model/record/RunLibrary.h"
#include "model/runtime/Error.h"
#include "model/train/HealthWarningWords.h"

using namespace chargpt;

namespace {

// A run's settings as one JSON object of their fields, or null when they
// cannot be read.
nlohmann::ordered_json settingsOf(const std::string& text) {
    const auto fields = settingsFields(text);
    if (fields.empty()) return nullptr;
    nlohmann::ordered_json settings = nlohmann::ordered_json::object();
    for (const auto& [key, value] : fields) settings[key] = nlohmann::ordered_json::parse(value, nullptr, false);
    return settings;
}

// What `runs` prints of a run's origin or end: the word the library stores,
// or for a word of no known meaning the file's own text.
template <class Word>
std::string storedWord(Word word, const std::string& text) {
    return word == Word::Other ? text : std::string(toString(word));
}

}  // namespace

int runRuns(const Args& args) {
    auto library = openRunLibraryToRead();
    const std::string& path = library->path();
    std::string leftOut;
    const std::vector<RunRecord> runs = library->runs(&leftOut);
    if (!leftOut.empty()) std::cerr << "chargpt: " << terminalSafe(leftOut) << '\n';

    if (args.has("json")) {
        nlohmann::ordered_json list = nlohmann::ordered_json::array();
        for (const RunRecord& r : runs) {
            nlohmann::ordered_json run;
            run["id"] = r.id;
            run["name"] = r.start.name;
            run["origin"] = storedWord(r.start.origin, r.originText);
            run["preset"] = r.start.preset;
            run["corpus"] = r.start.corpusName;
            run["corpus_bytes"] = r.start.corpusBytes;
            run["corpus_hash"] = r.start.corpusHash;
            run["parameters"] = r.start.parameters;
            run["seed"] = r.start.seed;
            run["first_step"] = r.start.firstStep;
            run["started"] = r.started;
            run["ended"] = r.ended.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.ended);
            run["end_reason"] =
                r.endReason ? nlohmann::json(storedWord(*r.endReason, r.endReasonText)) : nlohmann::json(nullptr);
            run["steps"] = r.figures.step;
            run["tokens"] = r.figures.tokensSeen;
            run["seconds"] = jsonFigure(r.figures.elapsedSeconds);
            run["tokens_per_s"] = jsonFigure(r.figures.tokensPerSecond);
            run["train_loss"] = jsonFigure(r.figures.lastTrainLoss);
            run["val_loss"] = jsonFigure(r.figures.lastValLoss);
            run["best_step"] = r.figures.bestStep ? nlohmann::json(*r.figures.bestStep) : nlohmann::json(nullptr);
            run["best_val_loss"] = jsonFigure(r.figures.bestValLoss);
            nlohmann::ordered_json checkpoints = nlohmann::ordered_json::array();
            for (const auto& [step, file] : r.checkpoints) checkpoints.push_back({{"step", step}, {"path", file}});
            run["checkpoints"] = std::move(checkpoints);
            run["settings"] = settingsOf(r.start.settingsJson);
            // What its health measurement warned of, in the window's sentences (in English).
            nlohmann::ordered_json warnings = nlohmann::ordered_json::array();
            for (const chargpt::HealthWarning& w : library->healthWarnings(r.id))
                warnings.push_back({{"step", w.step},
                                    {"kind", chargpt::healthWarningKindName(w.kind)},
                                    {"text", chargpt::healthWarningText(w)}});
            run["health_warnings"] = std::move(warnings);
            list.push_back(std::move(run));
        }
        nlohmann::ordered_json out;
        out["library"] = path;
        out["runs"] = std::move(list);
        printJsonLine(out);
        return 0;
    }

    if (runs.empty()) {
        std::cout << "No runs recorded yet in " << terminalSafe(path) << " (chargpt train and the app record them).\n";
        return 0;
    }
    std::cout << "   id  started (UTC)      length     steps  best val (step)     tok/s  end       name\n";
    for (const RunRecord& r : runs) {
        // Every cell read from the library is made safe for the terminal: the
        // file may come from anywhere.
        std::string started = r.started.substr(0, 16);
        if (started.size() > 10) started[10] = ' ';
        started = terminalSafe(started, LineBreaks::Escape);
        const std::string end =
            r.endReason ? terminalSafe(storedWord(*r.endReason, r.endReasonText).substr(0, 8), LineBreaks::Escape) : "-";
        char best[40] = "-";
        if (std::isfinite(r.figures.bestValLoss))
            std::snprintf(best, sizeof best, "%.4f (%lld)", r.figures.bestValLoss,
                          static_cast<long long>(r.figures.bestStep.value_or(-1)));
        // The library reads figures past their range as unknown: "?".
        char speed[40] = "?";
        if (std::isfinite(r.figures.tokensPerSecond))
            std::snprintf(speed, sizeof speed, "%.0f", r.figures.tokensPerSecond);
        char line[200];
        std::snprintf(line, sizeof line, "%5lld  %-16s %8s %9lld  %-16s %8s  %-8s  ",
                      static_cast<long long>(r.id), started.c_str(),
                      formatDuration(r.figures.elapsedSeconds).c_str(),
                      static_cast<long long>(r.figures.step), best, speed, end.c_str());
        std::cout << line << terminalSafe(r.start.name, LineBreaks::Escape) << '\n';
    }
    std::cout << runs.size() << " runs in " << terminalSafe(path) << "; a run without an end is training or was killed.\n";
    return 0;
}

