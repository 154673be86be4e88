// SPDX-License-Identifier: GPL-3.0-or-later
// Inside a trained model: `chargpt ablate` (what each head and block is worth:
// the validation loss with it knocked out) and `chargpt heads` (every head's
// previous-token and induction scores). The same computations as the app's
// Inside tab (model/analysis), on the same batches.
#include <torch/torch.h>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/cli/CliArgs.h"
#include "app/cli/CliCommon.h"
#include "app/cli/CliSnapshots.h"
#include "model/analysis/Ablation.h"
#include "model/analysis/HeadRoles.h"
#include "model/io/Checkpoint.h"
#include "model/runtime/Error.h"
#include "model/text/Corpus.h"
#include "model/train/Dataset.h"

using namespace chargpt;

namespace {

// The checkpoint's model and vocabulary over `source`, split as its training
// split it; characters the model never saw are left out and reported.
Dataset datasetOf(const std::string& source, const Checkpoint& checkpoint) {
    const Corpus corpus = openCorpus(source);
    return Dataset::ofCorpus(corpus, checkpoint.tokenizer, checkpoint.config.sequence_len,
                             checkpoint.config.val_fraction, checkpoint.config.seed);
}

std::string partName(const AblationRow& row) {
    const std::string layer = "L" + std::to_string(row.layer + 1);
    switch (row.part) {
        case AblationPart::Head:
            return layer + " H" + std::to_string(row.head.value_or(0) + 1);
        case AblationPart::Attention:
            return layer + " attention";
        case AblationPart::FeedForward:
            return layer + " feed-forward";
    }
    return layer;
}

const char* partKey(AblationPart part) {
    switch (part) {
    case AblationPart::Head: return "head";
    case AblationPart::Attention: return "attention";
    case AblationPart::FeedForward: return "feed_forward";
    }
    return "";
}

}  // namespace

int runAblate(const Args& args) {
    if (!args.has("corpus"))
        throw Error("ablate needs --corpus CORPUS, the text the model trained on: the loss is measured on its validation part.");
    useThreads(args.integer(settingOption("threads"), 0));
    const Checkpoint checkpoint = loadCheckpointOrSnapshot(args.target);
    if (checkpoint.config.n_layer == 0)
        throw Error("the model has no layers (n_layer 0, a rung of the architecture ladder): it has no heads, "
                    "attention or feed-forward to knock out.");
    const Dataset data = datasetOf(args.text("corpus", ""), checkpoint);
    const std::vector<Batch> batches = ablationBatches(data, checkpoint.config);
    int64_t tokens = 0;
    for (const Batch& b : batches) tokens += b.targets.numel();
    const AblationTable table = ablationTable(checkpoint.model, batches, [](int64_t, int64_t) {
        return !gInterrupted.load();  // Ctrl-C stops between passes
    });
    if (!table.complete) throw Error("stopped before every part was knocked out.");

    std::vector<AblationRow> rows = table.rows;
    std::stable_sort(rows.begin(), rows.end(),
                     [](const AblationRow& a, const AblationRow& b) { return a.increase > b.increase; });
    if (args.has("json")) {
        nlohmann::ordered_json out;
        out["step"] = checkpoint.step;
        out["tokens"] = tokens;
        out["baseline_loss"] = jsonFigure(table.baseline);
        nlohmann::ordered_json list = nlohmann::ordered_json::array();
        for (const AblationRow& row : rows) {
            nlohmann::ordered_json entry;
            entry["part"] = partKey(row.part);
            entry["layer"] = row.layer + 1;
            if (row.head) entry["head"] = *row.head + 1;  // a head's row alone names one
            entry["loss"] = jsonFigure(row.loss);
            entry["increase"] = jsonFigure(row.increase);
            list.push_back(std::move(entry));
        }
        out["knocked_out"] = std::move(list);
        printJsonLine(out);
        return 0;
    }
    char line[200];
    std::snprintf(line, sizeof line,
                  "validation loss %.4f with nothing knocked out (model at step %lld, %lld tokens)\n",
                  table.baseline, static_cast<long long>(checkpoint.step), static_cast<long long>(tokens));
    std::cout << line << "knocked out          loss   increase\n";
    for (const AblationRow& row : rows) {
        std::snprintf(line, sizeof line, "%-16s %8.4f %+10.4f\n", partName(row).c_str(), row.loss, row.increase);
        std::cout << line;
    }
    return 0;
}

int runHeads(const Args& args) {
    useThreads(args.integer(settingOption("threads"), 0));
    const Checkpoint checkpoint = loadCheckpointOrSnapshot(args.target);
    HeadRoleOptions options;
    options.seed = static_cast<uint64_t>(args.integer("seed", 1234));
    // The previous-token score reads a text: the corpus's validation part when
    // given, else the induction test's own random tokens (a head that looks
    // one character back scores the same on either).
    std::vector<int64_t> text;
    if (args.has("corpus")) {
        const Dataset data = datasetOf(args.text("corpus", ""), checkpoint);
        text = data.tokens(Split::Validation, kMaxHeadRoleWindows * checkpoint.config.sequence_len);
    } else {
        const torch::Tensor random = repeatedRandomTokens(checkpoint.tokenizer.vocabSize(),
                                                          std::max<int64_t>(2, checkpoint.config.sequence_len / 2),
                                                          1, options.seed)
                                         .view({-1});
        text.assign(random.data_ptr<int64_t>(), random.data_ptr<int64_t>() + random.numel());
    }
    const chargpt::HeadRoles roles = computeHeadRoles(checkpoint.model, text, options);

    if (args.has("json")) {
        nlohmann::ordered_json out;
        out["step"] = checkpoint.step;
        out["previous_token_chance"] = jsonFigure(roles.previousTokenChance);
        out["induction_chance"] = jsonFigure(roles.inductionChance);
        out["induction_length"] = roles.inductionLength;
        nlohmann::ordered_json heads = nlohmann::ordered_json::array();
        for (int64_t l = 0; l < roles.layers; ++l)
            for (int64_t h = 0; h < roles.heads; ++h)
                heads.push_back({{"layer", l + 1},
                                 {"head", h + 1},
                                 {"previous_token", jsonFigure(roles.previousTokenOf(l, h))},
                                 {"induction", jsonFigure(roles.inductionOf(l, h))}});
        out["heads"] = std::move(heads);
        printJsonLine(out);
        return 0;
    }
    char line[200];
    std::snprintf(line, sizeof line,
                  "model at step %lld; a head that spreads its attention evenly scores %.3f (previous token) "
                  "and %.3f (induction)\nhead     previous-token  induction\n",
                  static_cast<long long>(checkpoint.step), roles.previousTokenChance, roles.inductionChance);
    std::cout << line;
    for (int64_t l = 0; l < roles.layers; ++l)
        for (int64_t h = 0; h < roles.heads; ++h) {
            const std::string name = "L" + std::to_string(l + 1) + " H" + std::to_string(h + 1);
            std::snprintf(line, sizeof line, "%-8s %14.3f %10.3f\n", name.c_str(), roles.previousTokenOf(l, h),
                          roles.inductionOf(l, h));
            std::cout << line;
        }
    return 0;
}

