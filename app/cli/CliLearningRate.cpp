// SPDX-License-Identifier: GPL-3.0-or-later
// `chargpt lr-find`: the learning-rate finder (model/session/LearningRateFinder.h)
// on a new model of a preset, its smoothed loss against the rate and what it
// suggests. Ctrl-C ends the sweep where it is.
#include <csignal>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <string>

#include <nlohmann/json.hpp>

#include "app/cli/CliArgs.h"
#include "app/cli/CliCommon.h"
#include "model/runtime/Error.h"
#include "model/session/LearningRateFinder.h"
#include "model/text/BuiltinCorpora.h"
#include "model/text/Corpus.h"
#include "model/train/Trainer.h"

using namespace chargpt;

int runLearningRateFinder(const Args& args) {
    const std::string presetName = args.text("preset", "fast");
    const auto preset = RunConfig::preset(presetName);
    if (!preset) throw Error("unknown preset '" + presetName + "' (book, fast, tiny or a rung of the ladder).");
    useThreads(args.integer(settingOption("threads"), 0));
    RunConfig config = *preset;
    config.batch_size = args.integer(settingOption("batch_size"), config.batch_size);
    config.seed =
        static_cast<uint64_t>(args.integer(settingOption("seed"), static_cast<int64_t>(config.seed)));
    LearningRateSweep sweep;
    sweep.steps = args.integer("steps", sweep.steps);
    sweep.control = std::make_shared<TrainerControl>();
    const std::string source = args.target.empty() ? std::string(kDefaultCorpus) : args.target;
    const Corpus corpus = openCorpus(source);
    std::signal(SIGINT, onStopSignal);
    const bool json = args.has("json");
    if (!json)
        std::cerr << "chargpt: sweeping the learning rate of a new " << presetName << " model from "
                  << sweep.fromRate << " to " << sweep.toRate << " over at most " << sweep.steps << " steps\n";
    const LearningRateFinding found = findLearningRate(config, corpus, sweep, [&](int64_t, double, double) {
        if (gInterrupted) sweep.control->stop();
    });
    if (json) {
        nlohmann::ordered_json out;
        out["corpus"] = source;
        out["preset"] = presetName;
        out["steepest"] = jsonFigure(found.steepest);
        out["lowest"] = jsonFigure(found.lowest);
        out["suggested"] = jsonFigure(found.suggested);
        out["ran_away"] = found.ranAway;
        nlohmann::ordered_json points = nlohmann::ordered_json::array();
        for (std::size_t i = 0; i < found.rates.size(); ++i)
            points.push_back({{"rate", jsonFigure(found.rates[i])}, {"loss", jsonFigure(found.losses[i])},
                              {"smoothed", jsonFigure(found.smoothed[i])}});
        out["points"] = std::move(points);
        printJsonLine(out);
        return 0;
    }
    // About twenty rows of the curve, then the suggestions.
    std::cout << "  learning rate   smoothed loss\n";
    const std::size_t every = std::max<std::size_t>(1, found.rates.size() / 20);
    char line[96];
    for (std::size_t i = 0; i < found.rates.size(); i += every) {
        std::snprintf(line, sizeof line, "  %13.3g   %8.4f\n", found.rates[i], found.smoothed[i]);
        std::cout << line;
    }
    std::snprintf(line, sizeof line, "steepest fall at %.3g; lowest loss at %.3g; suggested: %.3g (a tenth of it)\n",
                  found.steepest, found.lowest, found.suggested);
    std::cout << line << "The " << presetName << " preset trains with " << preset->learning_rate
              << (found.ranAway ? "; past the lowest point the loss ran away.\n" : ".\n");
    return 0;
}
