// SPDX-License-Identifier: GPL-3.0-or-later
#include <torch/torch.h>

#include "model/analysis/Patching.h"
#include "model/io/Checkpoint.h"
#include "model/runtime/Error.h"

#include "app/PatchingBridge.h"

namespace {

// The ids of `text`'s characters; throws naming the first one the vocabulary lacks.
std::vector<int64_t> idsOf(const chargpt::CharTokenizer& tokenizer, const QString& text, const char* which) {
    std::vector<int64_t> ids;
    for (const char32_t c : text.toUcs4()) {
        const int64_t id = tokenizer.id(c);
        if (id < 0)
            throw chargpt::Error(std::string("the ") + which + " has '" +
                                 QString::fromUcs4(&c, 1).toStdString() +
                                 "', a character the model's vocabulary does not have.");
        ids.push_back(id);
    }
    return ids;
}

QStringList charactersOf(const QString& text) {
    QStringList out;
    for (const char32_t c : text.toUcs4()) out.append(QString::fromUcs4(&c, 1));
    return out;
}

}  // namespace

PatchingResult patchingOf(const chargpt::Checkpoint& checkpoint, const PatchingPrompts& prompts,
                          const std::function<bool(int, int)>& progress) {
    const chargpt::CharTokenizer& tokenizer = checkpoint.tokenizer;
    const std::vector<int64_t> clean = idsOf(tokenizer, prompts.clean, "clean prompt");
    const std::vector<int64_t> corrupted = idsOf(tokenizer, prompts.corrupted, "corrupted prompt");
    const std::vector<int64_t> target = idsOf(tokenizer, prompts.target, "target");
    if (target.size() != 1) throw chargpt::Error("the target must be one character.");
    const chargpt::PatchingRuns runs =
        chargpt::preparePatching(checkpoint.model, clean, corrupted, target[0]);

    const int64_t layers = checkpoint.config.n_layer, heads = checkpoint.config.n_head();
    const int64_t T = static_cast<int64_t>(clean.size());
    const int64_t residualPatches = (layers + 1) * T, headPatches = layers * heads;
    const int64_t feedForwardPatches = checkpoint.config.feed_forward ? layers * T : 0;
    const int64_t total = residualPatches + headPatches + feedForwardPatches;
    bool stopped = false;
    const auto report = [&](int64_t offset) {
        return [&, offset](int64_t done, int64_t) {
            if (progress && !progress(static_cast<int>(offset + done), static_cast<int>(total)))
                stopped = true;
            return !stopped;
        };
    };
    const std::vector<double> residual =
        chargpt::patchingSweep(checkpoint.model, runs, chargpt::Patch::Residual, report(0));
    std::vector<double> perHead;
    if (!stopped)
        perHead =
            chargpt::patchingSweep(checkpoint.model, runs, chargpt::Patch::Head, report(residualPatches));
    std::vector<double> feedForward;
    if (!stopped && feedForwardPatches > 0)
        feedForward = chargpt::patchingSweep(checkpoint.model, runs, chargpt::Patch::FeedForward,
                                             report(residualPatches + headPatches));
    if (stopped) throw chargpt::Error("the patching was stopped.");

    PatchingResult out;
    out.clean = charactersOf(prompts.clean);
    out.corrupted = charactersOf(prompts.corrupted);
    out.target = QString::fromStdString(tokenizer.tokenText(runs.target));
    out.wrong = QString::fromStdString(tokenizer.tokenText(runs.wrong));
    out.cleanDifference = runs.cleanDifference;
    out.corruptedDifference = runs.corruptedDifference;
    out.layers = static_cast<int>(layers);
    out.heads = static_cast<int>(heads);
    out.residual = QVector<double>(residual.begin(), residual.end());
    out.perHead = QVector<double>(perHead.begin(), perHead.end());
    out.feedForward = QVector<double>(feedForward.begin(), feedForward.end());
    out.step = checkpoint.step;
    return out;
}
