// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/analysis/Surprise.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "model/runtime/Error.h"

namespace chargpt {

namespace {

// Logits of a batch of windows take batch x T x vocabulary floats: batches are
// cut to stay near this many bytes.
constexpr int64_t kBatchBytes = 32ll << 20;
// ... and at most this many positions.
constexpr int64_t kBatchPositions = 8192;

struct Window {
    int64_t start = 0;      // first input token
    int64_t length = 0;     // inputs
    int64_t firstScored = 0;  // first position of the window whose prediction counts
};

// The windows of the rule in Surprise.h over n tokens with context t.
std::vector<Window> windowsOf(int64_t n, int64_t t) {
    std::vector<Window> windows;
    if (n < 2)
        return windows;
    if (n <= t + 1) {
        windows.push_back({0, n - 1, 0});
        return windows;
    }
    const int64_t stride = std::max<int64_t>(1, t / 2);
    const int64_t lastStart = n - 1 - t;
    int64_t scoredUpTo = 0;  // targets 1 .. scoredUpTo are scored
    for (int64_t start = 0;; start += stride) {
        start = std::min(start, lastStart);
        // Window inputs start .. start + t - 1 predict targets start + 1 .. start + t.
        const int64_t firstTarget = std::max(scoredUpTo + 1, start + 1);
        windows.push_back({start, t, firstTarget - start - 1});
        scoredUpTo = start + t;
        if (start == lastStart)
            break;
    }
    return windows;
}

}  // namespace

SurpriseResult computeSurprise(const CharGPT& modelHolder, const CharTokenizer& tokenizer, std::u32string_view text,
                               const KnockOut* knockOut) {
    if (text.size() > kMaxSurpriseCharacters)
        throw Error("the text has " + std::to_string(text.size()) + " characters; at most " +
                    std::to_string(kMaxSurpriseCharacters) + " are scored at once.");
    SurpriseResult result;
    const std::vector<int64_t> tokens = tokenizer.encode(text, &result.unknown);
    if (tokens.empty())
        throw Error("no character of the text is in the model's vocabulary.");

    // Positions of the known characters in the text as given.
    result.characters.resize(tokens.size());
    {
        std::size_t unknownIndex = 0, known = 0;
        for (std::size_t position = 0; position < text.size(); ++position) {
            if (unknownIndex < result.unknown.size() && result.unknown[unknownIndex].position == position) {
                ++unknownIndex;
                continue;
            }
            result.characters[known].position = position;
            result.characters[known].token = tokens[known];
            ++known;
        }
    }
    result.characters.front().bits = std::numeric_limits<double>::quiet_NaN();

    CharGPT model = modelHolder;  // a handle to the same module
    const int64_t n = static_cast<int64_t>(tokens.size());
    const int64_t context = model->config().sequence_len;
    const int64_t vocabulary = model->config().vocab_size;
    const int64_t guesses = std::min<int64_t>(kSurpriseGuesses, vocabulary);
    const std::vector<Window> windows = windowsOf(n, context);
    const auto device = model->token_emb->weight.device();
    const torch::Tensor all = torch::tensor(tokens, torch::dtype(torch::kInt64));
    // A batch's logits stay near kBatchBytes and its positions within
    // kBatchPositions (the activations of a small vocabulary's model: a
    // context of 16 and two characters once put every window of a 1 MiB text
    // in one batch, 3.6 GB).
    const int64_t perBatch = std::max<int64_t>(
        1, std::min(kBatchBytes / std::max<int64_t>(1, context * vocabulary * int64_t(sizeof(float))),
                    kBatchPositions / std::max<int64_t>(1, context)));

    torch::NoGradGuard noGrad;
    ForwardOptions options;
    options.dropout = false;
    options.knockOut = knockOut;
    double totalBits = 0.0;
    for (std::size_t first = 0; first < windows.size(); first += static_cast<std::size_t>(perBatch)) {
        const std::size_t last = std::min(windows.size(), first + static_cast<std::size_t>(perBatch));
        const int64_t length = windows[first].length;  // every window of a text has the same length
        const int64_t count = static_cast<int64_t>(last - first);
        // Each window's inputs and targets, gathered at once.
        std::vector<int64_t> startOf(static_cast<std::size_t>(count));
        for (std::size_t w = first; w < last; ++w) startOf[w - first] = windows[w].start;
        const torch::Tensor positions = torch::tensor(startOf, torch::dtype(torch::kInt64)).unsqueeze(1) +
                                        torch::arange(length, torch::dtype(torch::kInt64)).unsqueeze(0);  // (B, T)
        const torch::Tensor idx = all.index({positions}).to(device);
        const torch::Tensor targets = all.index({positions + 1}).unsqueeze(2);  // (B, T, 1)
        const torch::Tensor logp =
            torch::log_softmax(model->forward(idx, options).to(torch::kFloat32), -1).to(torch::kCPU);  // (B, T, V)
        const torch::Tensor targetLp = logp.gather(2, targets);                            // (B, T, 1)
        const torch::Tensor ranks = (logp > targetLp).sum(2).contiguous();                 // int64 (B, T)
        const auto top = logp.topk(guesses, 2);
        const torch::Tensor topP = std::get<0>(top).exp().contiguous();  // (B, T, guesses)
        const torch::Tensor topIds = std::get<1>(top).contiguous();
        const torch::Tensor targetContiguous = targetLp.contiguous();
        const float* tl = targetContiguous.data_ptr<float>();
        const int64_t* rk = ranks.data_ptr<int64_t>();
        const float* tp = topP.data_ptr<float>();
        const int64_t* ti = topIds.data_ptr<int64_t>();
        for (std::size_t w = first; w < last; ++w) {
            const Window& window = windows[w];
            const int64_t row = static_cast<int64_t>(w - first) * length;
            for (int64_t i = window.firstScored; i < length; ++i) {
                const int64_t at = row + i;
                SurpriseCharacter& c = result.characters[static_cast<std::size_t>(window.start + 1 + i)];
                c.bits = -double(tl[at]) / std::log(2.0);
                c.rank = rk[at] + 1;
                c.guesses = static_cast<int>(guesses);
                for (int64_t g = 0; g < guesses; ++g) {
                    c.guessTokens[static_cast<std::size_t>(g)] = ti[at * guesses + g];
                    c.guessProbabilities[static_cast<std::size_t>(g)] = tp[at * guesses + g];
                }
                totalBits += c.bits;
                ++result.scored;
            }
        }
    }
    result.meanBits = result.scored > 0 ? totalBits / double(result.scored) : std::numeric_limits<double>::quiet_NaN();
    return result;
}

}  // namespace chargpt
