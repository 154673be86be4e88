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
    const int64_t perBatch =
        std::max<int64_t>(1, kBatchBytes / std::max<int64_t>(1, context * vocabulary * int64_t(sizeof(float))));

    torch::NoGradGuard noGrad;
    ForwardOptions options;
    options.dropout = false;
    options.knockOut = knockOut;
    double totalBits = 0.0;
    for (std::size_t first = 0; first < windows.size(); first += static_cast<std::size_t>(perBatch)) {
        const std::size_t last = std::min(windows.size(), first + static_cast<std::size_t>(perBatch));
        const int64_t length = windows[first].length;  // every window of a text has the same length
        std::vector<torch::Tensor> rows;
        rows.reserve(last - first);
        for (std::size_t w = first; w < last; ++w)
            rows.push_back(all.slice(0, windows[w].start, windows[w].start + length));
        const torch::Tensor idx = torch::stack(rows).to(device);
        const torch::Tensor logp =
            torch::log_softmax(model->forward(idx, options).to(torch::kFloat32), -1).to(torch::kCPU);  // (B, T, V)
        for (std::size_t w = first; w < last; ++w) {
            const Window& window = windows[w];
            const int64_t from = window.firstScored;
            const int64_t count = length - from;
            const torch::Tensor lp = logp[static_cast<int64_t>(w - first)].slice(0, from, length);  // (count, V)
            const torch::Tensor targets =
                all.slice(0, window.start + from + 1, window.start + length + 1).unsqueeze(1);  // (count, 1)
            const torch::Tensor targetLp = lp.gather(1, targets);                        // (count, 1)
            const torch::Tensor ranks = (lp > targetLp).sum(1).contiguous();             // int64 (count)
            const auto top = lp.topk(guesses, 1);
            const torch::Tensor topP = std::get<0>(top).exp().contiguous();
            const torch::Tensor topIds = std::get<1>(top).contiguous();
            const torch::Tensor targetContiguous = targetLp.contiguous();
            const float* tl = targetContiguous.data_ptr<float>();
            const int64_t* rk = ranks.data_ptr<int64_t>();
            const float* tp = topP.data_ptr<float>();
            const int64_t* ti = topIds.data_ptr<int64_t>();
            for (int64_t i = 0; i < count; ++i) {
                SurpriseCharacter& c = result.characters[static_cast<std::size_t>(window.start + from + 1 + i)];
                c.bits = -double(tl[i]) / std::log(2.0);
                c.rank = rk[i] + 1;
                c.guesses = static_cast<int>(guesses);
                for (int64_t g = 0; g < guesses; ++g) {
                    c.guessTokens[static_cast<std::size_t>(g)] = ti[i * guesses + g];
                    c.guessProbabilities[static_cast<std::size_t>(g)] = tp[i * guesses + g];
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
