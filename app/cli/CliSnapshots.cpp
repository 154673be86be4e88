// SPDX-License-Identifier: GPL-3.0-or-later
// `chargpt snapshots RUN`: the steps at which the run library keeps a run's
// weights; and RUN@STEP, which every command that reads a checkpoint takes.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <regex>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "app/cli/CliArgs.h"
#include "app/cli/CliCommon.h"
#include "app/cli/CliSnapshots.h"
#include "model/record/KeptWeights.h"
#include "model/record/RunLibrary.h"
#include "model/runtime/Error.h"

using namespace chargpt;

namespace {

// A run's id as `chargpt runs` lists it: any id the library can hold, up to 2^63 - 1.
std::optional<int64_t> parsedRunId(const std::string& digits) {
    static const std::regex kId("[0-9]{1,19}");
    if (!std::regex_match(digits, kId)) return std::nullopt;
    try {
        return std::stoll(digits);
    } catch (const std::out_of_range&) {
        return std::nullopt;
    }
}

}  // namespace

int64_t runIdOf(const std::string& target) {
    const std::optional<int64_t> id = parsedRunId(target);
    if (!id) throw Error("RUN is a run's id, a number (chargpt runs lists them), not '" + target + "'.");
    return *id;
}

RunRecord findRun(RunLibrary& library, int64_t id) {
    std::optional<RunRecord> run = library.run(id);
    if (!run) throw Error("the run library has no run " + std::to_string(id) + " (chargpt runs lists them).");
    return *run;
}

int runSnapshots(const Args& args) {
    const int64_t id = runIdOf(args.target);
    auto library = openRunLibraryToRead();
    const RunRecord run = findRun(*library, id);
    const std::vector<KeptWeights> kept = library->keptWeights(id);
    std::map<int64_t, double> validation;
    for (const RunEvaluation& e : library->evaluations(id)) validation[e.step] = e.valLoss;
    auto valAt = [&](int64_t step) {
        const auto it = validation.find(step);
        return it == validation.end() ? std::nan("") : it->second;
    };
    if (args.has("json")) {
        nlohmann::ordered_json list = nlohmann::ordered_json::array();
        for (const KeptWeights& s : kept)
            list.push_back({{"step", s.step}, {"bytes", s.bytes}, {"val_loss", jsonFigure(valAt(s.step))}});
        nlohmann::ordered_json out;
        out["run"] = id;
        out["name"] = run.start.name;
        out["snapshots"] = std::move(list);
        printJsonLine(out);
        return 0;
    }
    if (kept.empty()) {
        std::cout << "Run " << id << " keeps no weights (trained with --no-snapshots, by an older version, or its "
                  << "snapshots could not be written).\n";
        return 0;
    }
    int64_t total = 0;
    std::cout << "     step      size  val loss\n";
    for (const KeptWeights& s : kept) {
        char line[80];
        const double val = valAt(s.step);
        const bool large = s.bytes >= 1000000;
        std::snprintf(line, sizeof line, "%9lld  %5.1f %s  %s\n", static_cast<long long>(s.step),
                      double(s.bytes) / (large ? 1e6 : 1e3), large ? "MB" : "kB",
                      std::isfinite(val) ? std::to_string(val).substr(0, 6).c_str() : "-");
        std::cout << line;
        total += s.bytes;
    }
    std::cout << kept.size() << " snapshots of run " << id << " (" << terminalSafe(run.start.name, LineBreaks::Escape)
              << "), " << std::to_string(double(total) / 1e6).substr(0, 5) << " MB; sample " << id << '@' << kept.back().step
              << " reads the last.\n";
    return 0;
}

Checkpoint loadCheckpointOrSnapshot(const std::string& target) {
    static const std::regex kRunAtStep("([0-9]{1,19})@([0-9]{1,19})");
    std::smatch m;
    std::error_code ec;
    // A file of that name wins: RUN@STEP is read only where there is none.
    if (std::filesystem::exists(std::filesystem::symlink_status(target, ec)) || !std::regex_match(target, m, kRunAtStep))
        return loadCheckpoint(target);
    const std::optional<int64_t> run = parsedRunId(m[1]);
    if (!run) throw Error("RUN in RUN@STEP is a run's id (chargpt runs lists them), not '" + std::string(m[1]) + "'.");
    const int64_t id = *run;
    const std::string stepText = m[2];
    if (stepText.size() > 13 || std::stoll(stepText) > RunLibrary::kMaxStep)
        throw Error("STEP in RUN@STEP is at most " + std::to_string(RunLibrary::kMaxStep) + ", not " + stepText + ".");
    const int64_t step = std::stoll(stepText);
    auto library = openRunLibraryToRead();
    findRun(*library, id);
    return readKeptWeights(*library, id, step);
}
