// SPDX-License-Identifier: GPL-3.0-or-later
// `chargpt floors`: the validation loss of classic n-gram models of a corpus
// (model/train/NgramFloors.h), the floors a transformer trained on it should
// pass, split as a run of the default settings splits it.
#include <cmath>
#include <cstdio>
#include <iostream>
#include <string>

#include <nlohmann/json.hpp>

#include "app/cli/CliArgs.h"
#include "app/cli/CliCommon.h"
#include "model/text/BuiltinCorpora.h"
#include "model/text/Corpus.h"
#include "model/train/NgramFloors.h"
#include "model/train/RunConfig.h"

using namespace chargpt;

int runFloors(const Args& args) {
    const std::string source = args.target.empty() ? std::string(kDefaultCorpus) : args.target;
    const Corpus corpus = openCorpus(source);
    const CharTokenizer vocabulary = corpus.buildTokenizer();
    const RunConfig split = RunConfig();  // the default settings' context and validation share
    const NgramFloors floors = ngramFloors(corpus, split.sequence_len, split.val_fraction, split.seed,
                                           int(args.integer("max-order", 5)));
    const double uniform = std::log(double(vocabulary.vocabSize()));
    if (args.has("json")) {
        nlohmann::ordered_json out;
        out["corpus"] = source;
        out["vocabulary"] = vocabulary.vocabSize();
        out["training_tokens"] = floors.trainingTokens;
        out["validation_tokens"] = floors.validationTokens;
        out["uniform"] = jsonFigure(uniform);
        nlohmann::ordered_json list = nlohmann::ordered_json::array();
        for (const NgramFloor& f : floors.floors)
            list.push_back({{"n", f.order}, {"loss", jsonFigure(f.loss)}, {"bits", jsonFigure(f.loss / std::log(2.0))},
                            {"contexts", f.contexts}});
        out["floors"] = std::move(list);
        printJsonLine(out);
        return 0;
    }
    std::cout << "n-gram floors of " << terminalSafe(source) << ": interpolated Kneser-Ney fitted to the "
              << floors.trainingTokens << " training characters, scored on " << floors.validationTokens
              << " validation characters\n";
    char line[120];
    std::snprintf(line, sizeof line, "  uniform  %7.4f nats  %6.3f bits  (ln %lld)\n", uniform, uniform / std::log(2.0),
                  static_cast<long long>(vocabulary.vocabSize()));
    std::cout << line;
    for (const NgramFloor& f : floors.floors) {
        std::snprintf(line, sizeof line, "  %d-gram   %7.4f nats  %6.3f bits  %lld contexts of %d\n", f.order, f.loss,
                      f.loss / std::log(2.0), static_cast<long long>(f.contexts), f.order - 1);
        std::cout << line;
    }
    if (floors.maxOrder < int(args.integer("max-order", 5)))
        std::cout << "  (orders above " << floors.maxOrder << " do not fit: a vocabulary of " << vocabulary.vocabSize()
                  << " needs too many bits a character)\n";
    std::cout << "A model of this text that does not go below the n-gram floor has learned no more than the last n - 1 "
                 "characters tell.\n";
    return 0;
}
