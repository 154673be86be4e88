// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/analysis/Patching.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "model/analysis/Inputs.h"
#include "model/runtime/Error.h"

namespace chargpt {

namespace {

// A run's parts as its pass computed them, each (1, T, C):
// residual[0 .. L], heads[0 .. L-1], feedForward[0 .. L-1].
struct CleanParts {
    std::vector<torch::Tensor> residual, heads, feedForward;
};

CleanParts cleanParts(CharGPT& model, const std::vector<int64_t>& clean) {
    const auto L = static_cast<std::size_t>(model->config().n_layer);
    CleanParts parts;
    parts.residual.resize(L + 1);
    parts.heads.resize(L);
    parts.feedForward.resize(L);
    const PassHook hook = [&parts](PassPart part, int64_t layer, torch::Tensor& value) {
        const auto at = static_cast<std::size_t>(layer);
        switch (part) {
        case PassPart::Residual: parts.residual[at] = value.clone(); break;
        case PassPart::Heads: parts.heads[at] = value.clone(); break;
        case PassPart::FeedForward: parts.feedForward[at] = value.clone(); break;
        }
    };
    ForwardOptions options;
    options.dropout = false;
    options.hook = &hook;
    model->forward(analysis::inputTensor(model, clean), options);
    return parts;
}

PassPart passPartOf(Patch::Part part) {
    switch (part) {
    case Patch::Head: return PassPart::Heads;
    case Patch::FeedForward: return PassPart::FeedForward;
    case Patch::Residual: break;
    }
    return PassPart::Residual;
}

void checkPatch(const ModelConfig& c, const Patch& p, int64_t positions) {
    const int64_t layers = p.part == Patch::Residual ? c.n_layer + 1 : c.n_layer;
    const char* what = p.part == Patch::Residual ? "residual stream" : p.part == Patch::Head ? "head" : "feed-forward";
    if (p.layer < 0 || p.layer >= layers)
        throw Error(std::string("cannot patch the ") + what + " of layer " + std::to_string(p.layer) + ": " +
                    (p.part == Patch::Residual ? "the stream is read at " + std::to_string(layers) +
                                                     " places, numbered 0 (the embeddings) to "
                                               : "the model has " + counted(layers, "layer") + ", numbered 0 to ") +
                    std::to_string(layers - 1) + ".");
    if (p.part == Patch::FeedForward && !c.feed_forward)
        throw Error("cannot patch a feed-forward: the model has none (" + c.missingParts() + ").");
    if (p.part == Patch::Head && (p.index < 0 || p.index >= c.n_head()))
        throw Error("cannot patch head " + std::to_string(p.index) + " of layer " + std::to_string(p.layer) +
                    ": each layer has " + std::to_string(c.n_head()) + " heads, numbered 0 to " +
                    std::to_string(c.n_head() - 1) + ".");
    if (p.part != Patch::Head && (p.index < -1 || p.index >= positions))
        throw Error("cannot patch position " + std::to_string(p.index) + " of the " + what + ": the prompts have " +
                    std::to_string(positions) + " positions, numbered 0 to " + std::to_string(positions - 1) +
                    " (-1: all of them).");
}

// logit[target] - logit[wrong] at the last position of each row.
std::vector<double> differencesOf(const torch::Tensor& logits, int64_t target, int64_t wrong) {
    const torch::Tensor last = logits.select(1, logits.size(1) - 1).to(torch::kCPU, torch::kFloat64);  // (B, V)
    const torch::Tensor d = (last.select(1, target) - last.select(1, wrong)).contiguous();              // (B)
    const double* v = d.data_ptr<double>();
    return std::vector<double>(v, v + d.numel());
}

// The corrupted run with rows[b]'s patches in row b of one batch. A patch
// at layer l changes nothing before it, so the pass starts from the corrupted
// run's stream at the lowest layer patched and runs only the blocks from
// there on (the same blocks, extras and hook calls as CharGPT::forward's loop).
std::vector<double> patchedRows(CharGPT& model, const PatchingRuns& runs, const CleanParts& clean,
                                const CleanParts& corrupted, const std::vector<std::vector<Patch>>& rows) {
    const int64_t B = static_cast<int64_t>(rows.size());
    const int64_t H = model->config().head_size, L = model->config().n_layer;
    const PassHook hook = [&](PassPart part, int64_t layer, torch::Tensor& value) {
        for (int64_t b = 0; b < B; ++b)
            for (const Patch& p : rows[static_cast<std::size_t>(b)]) {
                if (passPartOf(p.part) != part || p.layer != layer) continue;
                const auto at = static_cast<std::size_t>(layer);
                const torch::Tensor& from = (part == PassPart::Residual ? clean.residual[at]
                                             : part == PassPart::Heads  ? clean.heads[at]
                                                                        : clean.feedForward[at])[0];  // (T, C)
                torch::Tensor to = value[b];                                                           // (T, C)
                if (p.part == Patch::Head)
                    to.narrow(1, p.index * H, H).copy_(from.narrow(1, p.index * H, H));
                else if (p.index < 0)
                    to.copy_(from);
                else
                    to[p.index].copy_(from[p.index]);
            }
    };
    int64_t start = L;
    for (const std::vector<Patch>& row : rows)
        for (const Patch& p : row) start = std::min(start, p.layer);
    const torch::Tensor& from = corrupted.residual[static_cast<std::size_t>(start)];  // (1, T, C)
    torch::Tensor x = from.expand({B, from.size(1), from.size(2)}).contiguous();       // (B, T, C)
    hook(PassPart::Residual, start, x);
    torch::Tensor causalMask;  // (T, T), made by the first block that needs it
    for (int64_t i = start; i < L; ++i) {
        LayerExtras extras;
        extras.dropout = false;
        extras.causalMask = &causalMask;
        extras.hook = &hook;
        extras.layer = i;
        x = model->blocks[static_cast<std::size_t>(i)]->as<BlockImpl>()->forward(x, extras);  // (B, T, C)
        hook(PassPart::Residual, i + 1, x);
    }
    return differencesOf(model->head(x), runs.target, runs.wrong);
}

}  // namespace

PatchingRuns preparePatching(const CharGPT& modelHolder, const std::vector<int64_t>& clean,
                             const std::vector<int64_t>& corrupted, int64_t target, int64_t wrong) {
    if (clean.size() != corrupted.size())
        throw Error("the clean and corrupted prompts must be of the same length: the clean one has " +
                    std::to_string(clean.size()) + " characters, the corrupted one " +
                    std::to_string(corrupted.size()) + ".");
    analysis::checkInput(modelHolder, clean, "the clean prompt");
    analysis::checkInput(modelHolder, corrupted, "the corrupted prompt");
    const int64_t vocabulary = modelHolder->config().vocab_size;
    if (target < 0 || target >= vocabulary)
        throw Error("the target character has id " + std::to_string(target) + "; the model's vocabulary has ids 0 to " +
                    std::to_string(vocabulary - 1) + ".");
    if (wrong < -1 || wrong >= vocabulary)
        throw Error("the wrong character has id " + std::to_string(wrong) + "; the model's vocabulary has ids 0 to " +
                    std::to_string(vocabulary - 1) + ".");
    if (wrong == target) throw Error("the wrong character is the target: the logit difference would always be 0.");
    CharGPT model = modelHolder;
    torch::NoGradGuard noGrad;
    ForwardOptions options;
    options.dropout = false;
    const torch::Tensor cleanLogits = model->forward(analysis::inputTensor(model, clean), options);
    const torch::Tensor corruptedLogits = model->forward(analysis::inputTensor(model, corrupted), options);
    PatchingRuns runs;
    runs.clean = clean;
    runs.corrupted = corrupted;
    runs.target = target;
    runs.wrong = wrong;
    if (wrong < 0) {  // the corrupted run's likeliest other than the target
        torch::Tensor last = corruptedLogits[0][static_cast<int64_t>(corrupted.size()) - 1].clone();
        last[target] = -std::numeric_limits<float>::infinity();
        runs.wrong = last.argmax().item<int64_t>();
    }
    runs.cleanDifference = differencesOf(cleanLogits, runs.target, runs.wrong)[0];
    runs.corruptedDifference = differencesOf(corruptedLogits, runs.target, runs.wrong)[0];
    if (std::abs(runs.cleanDifference - runs.corruptedDifference) < 1e-6)
        throw Error("the clean and corrupted prompts give the same logit difference (" +
                    std::to_string(runs.cleanDifference) +
                    "): there is nothing for a patch to restore; change the corrupted prompt or the characters "
                    "compared.");
    return runs;
}

double patchedDifference(const CharGPT& modelHolder, const PatchingRuns& runs, const std::vector<Patch>& patches) {
    for (const Patch& p : patches)
        checkPatch(modelHolder->config(), p, static_cast<int64_t>(runs.corrupted.size()));
    CharGPT model = modelHolder;
    torch::NoGradGuard noGrad;
    const CleanParts clean = cleanParts(model, runs.clean), corrupted = cleanParts(model, runs.corrupted);
    return patchedRows(model, runs, clean, corrupted, {patches})[0];
}

std::vector<double> patchingSweep(const CharGPT& modelHolder, const PatchingRuns& runs, Patch::Part part,
                                  const std::function<bool(int64_t done, int64_t total)>& progress) {
    const ModelConfig& c = modelHolder->config();
    const int64_t T = static_cast<int64_t>(runs.corrupted.size());
    std::vector<Patch> patches;
    if (part == Patch::Residual) {
        for (int64_t layer = 0; layer <= c.n_layer; ++layer)
            for (int64_t t = 0; t < T; ++t) patches.push_back({part, layer, t});
    } else if (part == Patch::Head) {
        for (int64_t layer = 0; layer < c.n_layer; ++layer)
            for (int64_t h = 0; h < c.n_head(); ++h) patches.push_back({part, layer, h});
    } else if (c.feed_forward) {
        for (int64_t layer = 0; layer < c.n_layer; ++layer)
            for (int64_t t = 0; t < T; ++t) patches.push_back({part, layer, t});
    }
    std::vector<double> restored(patches.size(), std::numeric_limits<double>::quiet_NaN());
    if (patches.empty()) return restored;
    CharGPT model = modelHolder;
    torch::NoGradGuard noGrad;
    const CleanParts clean = cleanParts(model, runs.clean), corrupted = cleanParts(model, runs.corrupted);
    const auto total = static_cast<int64_t>(patches.size());
    for (int64_t first = 0; first < total; first += kPatchesPerPass) {
        const int64_t n = std::min(kPatchesPerPass, total - first);
        std::vector<std::vector<Patch>> rows;
        for (int64_t i = 0; i < n; ++i) rows.push_back({patches[static_cast<std::size_t>(first + i)]});
        const std::vector<double> d = patchedRows(model, runs, clean, corrupted, rows);
        for (int64_t i = 0; i < n; ++i)
            restored[static_cast<std::size_t>(first + i)] = runs.restored(d[static_cast<std::size_t>(i)]);
        if (progress && !progress(first + n, total)) break;
    }
    return restored;
}

}  // namespace chargpt
