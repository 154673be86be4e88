// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/analysis/HeadRoles.h"

#include <algorithm>
#include <numeric>
#include <random>
#include <string>

#include "model/analysis/Inputs.h"
#include "model/runtime/Error.h"

namespace chargpt {

namespace {

// Sequences run in one forward pass: their weights, (L, B, nh, T, T), are what
// the scores are read from.
constexpr std::size_t kWindowsAtOnce = 4;

// The softmax weights of every layer for a batch of sequences, (L, B, nh, T, T)
// float32 on the CPU.
torch::Tensor attentionWeights(CharGPT& model, const torch::Tensor& idx) {
    torch::NoGradGuard noGrad;
    std::vector<torch::Tensor> weights;
    ForwardOptions options;
    options.dropout = false;
    options.weights = &weights;
    model->forward(idx.to(model->token_emb->weight.device()), options);
    // Layer by layer into one tensor, each layer's map let go once copied: at
    // most one layer more than the maps themselves (torch::stack would hold
    // every map twice).
    torch::Tensor out = torch::empty({int64_t(weights.size()), weights.front().size(0), weights.front().size(1),
                                      weights.front().size(2), weights.front().size(3)},
                                     torch::dtype(torch::kFloat32));
    for (std::size_t l = 0; l < weights.size(); ++l) {
        out[int64_t(l)].copy_(weights[l]);
        weights[l] = torch::Tensor();
    }
    return out;
}

}  // namespace

torch::Tensor repeatedRandomTokens(int64_t vocab, int64_t n, int64_t count, uint64_t seed) {
    if (vocab < 2) throw Error("random tokens need a vocabulary of at least 2 tokens.");
    if (n < 1 || count < 1) throw Error("random tokens need a length and a count of at least 1.");
    std::mt19937_64 rng(seed);
    torch::Tensor out = torch::empty({count, 2 * n}, torch::kInt64);
    int64_t* o = out.data_ptr<int64_t>();
    std::vector<int64_t> ids(static_cast<std::size_t>(vocab - 1));
    std::iota(ids.begin(), ids.end(), int64_t{1});
    for (int64_t row = 0; row < count; ++row) {
        int64_t* r = o + row * 2 * n;
        if (vocab - 1 >= n) {  // the first n of a partial Fisher-Yates shuffle: distinct
            for (int64_t i = 0; i < n; ++i) {
                std::uniform_int_distribution<int64_t> pick(i, vocab - 2);
                std::swap(ids[static_cast<std::size_t>(i)], ids[static_cast<std::size_t>(pick(rng))]);
                r[i] = ids[static_cast<std::size_t>(i)];
            }
        } else {
            std::uniform_int_distribution<int64_t> pick(1, vocab - 1);
            for (int64_t i = 0; i < n; ++i) r[i] = pick(rng);
        }
        std::copy(r, r + n, r + n);
    }
    return out;
}

HeadRoles computeHeadRoles(const CharGPT& modelHolder, const std::vector<int64_t>& text,
                           const HeadRoleOptions& options) {
    CharGPT model = modelHolder;  // a handle to the same module
    const ModelConfig& config = model->config();
    const int64_t context = config.sequence_len, vocab = config.vocab_size;
    if (config.n_layer == 0)
        throw Error("the model has no layers (n_layer 0, a rung of the architecture ladder): it has no heads to score.");
    if (text.size() < 2)
        throw Error("the previous-token score needs a text of at least 2 known characters; it has " +
                    std::to_string(text.size()) + ".");
    const int64_t n = options.inductionLength > 0 ? options.inductionLength
                                                  : std::min<int64_t>(context / 2, vocab - 1);
    if (n < 2 || 2 * n > context)
        throw Error("the induction score needs 2 x " + std::to_string(n) +
                    " tokens, with at least 2 random ones, and the model reads at most " + std::to_string(context) +
                    " at once.");
    if (options.inductionSequences < 1 || options.inductionSequences > kMaxInductionSequences)
        throw Error("the induction score reads 1 to " + std::to_string(kMaxInductionSequences) +
                    " random sequences, not " + std::to_string(options.inductionSequences) + ".");

    HeadRoles roles;
    roles.layers = config.n_layer;
    roles.heads = config.n_head();
    roles.inductionLength = n;

    // Previous-token: windows of the context from the text's start, the last
    // one ending with what is read (so every window is full when the text is
    // longer than the context); each window's positions count once.
    const int64_t read = std::min<int64_t>(static_cast<int64_t>(text.size()), kMaxHeadRoleWindows * context);
    const std::vector<int64_t> head(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(read));
    analysis::checkTokenIds(model, head, "the text");
    roles.textTokensRead = read;
    const int64_t length = std::min(read, context);
    std::vector<torch::Tensor> windows;
    std::vector<int64_t> firstCounted;  // the first query position of each window not counted before
    const torch::Tensor all = torch::tensor(head, torch::dtype(torch::kInt64));
    for (int64_t start = 0, countedUpTo = 0; countedUpTo < read; start += length) {
        start = std::min(start, read - length);
        windows.push_back(all.slice(0, start, start + length));
        // Query positions 1 .. length - 1 of the window are text positions start + 1 ..;
        // a position already counted by the window before is skipped.
        firstCounted.push_back(std::max<int64_t>(1, countedUpTo - start));
        countedUpTo = start + length;
    }
    {
        torch::Tensor sum = torch::zeros({roles.layers, roles.heads}, torch::kFloat64);
        double chance = 0.0;
        int64_t queries = 0;
        for (std::size_t first = 0; first < windows.size(); first += kWindowsAtOnce) {
            const std::size_t last = std::min(windows.size(), first + kWindowsAtOnce);
            const std::vector<torch::Tensor> chunk(windows.begin() + static_cast<std::ptrdiff_t>(first),
                                                   windows.begin() + static_cast<std::ptrdiff_t>(last));
            // w[i][i-1] for i = 1 .. length - 1: (L, W, nh, length - 1)
            const torch::Tensor prev = attentionWeights(model, torch::stack(chunk)).diagonal(-1, -2, -1);
            for (std::size_t w = first; w < last; ++w) {
                const int64_t from = firstCounted[w];  // query position
                sum += prev.select(1, static_cast<int64_t>(w - first))
                           .slice(-1, from - 1, length - 1)
                           .to(torch::kFloat64)
                           .sum(-1);
                for (int64_t i = from; i < length; ++i) chance += 1.0 / double(i + 1);
                queries += length - from;
            }
        }
        const torch::Tensor mean = (sum / double(queries)).contiguous();
        roles.previousToken.assign(mean.data_ptr<double>(), mean.data_ptr<double>() + mean.numel());
        roles.previousTokenChance = chance / double(queries);
    }

    // Induction: queries i = n .. 2n-1 to keys i - n + 1, the diagonal at offset -(n - 1).
    const torch::Tensor repeated = repeatedRandomTokens(vocab, n, options.inductionSequences, options.seed);
    {
        torch::Tensor sum = torch::zeros({roles.layers, roles.heads}, torch::kFloat64);
        for (int64_t first = 0; first < repeated.size(0); first += int64_t(kWindowsAtOnce)) {
            const torch::Tensor chunk = repeated.slice(0, first, first + int64_t(kWindowsAtOnce));
            // w[i][i-n+1] for i = n .. 2n-1: (L, S, nh, n)
            const torch::Tensor stripe =
                attentionWeights(model, chunk).diagonal(-(n - 1), -2, -1).slice(-1, 1, n + 1);
            sum += stripe.to(torch::kFloat64).sum({1, 3});
        }
        const torch::Tensor mean = (sum / double(repeated.size(0) * n)).contiguous();  // (L, nh)
        roles.induction.assign(mean.data_ptr<double>(), mean.data_ptr<double>() + mean.numel());
        double chance = 0.0;
        for (int64_t i = n; i < 2 * n; ++i) chance += 1.0 / double(i + 1);
        roles.inductionChance = chance / double(n);
    }
    return roles;
}

}  // namespace chargpt
