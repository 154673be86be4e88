// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/generate/BatchSampler.h"

#include <algorithm>

#include <ATen/Parallel.h>

#include "model/runtime/Autocast.h"
#include "model/runtime/Error.h"

namespace chargpt {

BatchSampler::BatchSampler(CharGPT model, CharTokenizer tokenizer, SamplingOptions options, int64_t samples)
    : model_(std::move(model)), tokenizer_(std::move(tokenizer)), options_(options) {
    if (tokenizer_.vocabSize() != model_->config().vocab_size)
        throw Error("the vocabulary does not match the model.");
    if (samples < 1 || samples > kMaxSamples)
        throw Error("the number of samples must be between 1 and " + std::to_string(kMaxSamples) + ".");
    // bf16 on the CPU only (autocast's CPU dtype; the decoder's kernels).
    options_.bf16 = options_.bf16 && model_->token_emb->weight.device().is_cpu();
    model_->eval();
    streams_.resize(std::size_t(samples));
}

int64_t BatchSampler::nextWindowStart(int64_t previous, int64_t n, int64_t sequenceLen, bool slideEveryStep) {
    if (n - previous <= sequenceLen) return previous;
    if (slideEveryStep) return n - sequenceLen;
    return n - std::max<int64_t>(1, sequenceLen / 2);
}

bool BatchSampler::finished() const {
    return std::all_of(streams_.begin(), streams_.end(), [](const Stream& s) { return s.finished; });
}

void BatchSampler::start(const std::vector<int64_t>& prompt) {
    for (int64_t t : prompt)
        if (t < 0 || t >= tokenizer_.vocabSize()) throw Error("the prompt has a token outside the vocabulary.");
    const int64_t S = model_->config().sequence_len;
    // Every window of a sample lies in its last sequence_len prompt tokens and
    // what follows: several samples keep only those, not a copy each of a long
    // prompt (a single one keeps it whole, as context() has always shown it).
    const std::size_t kept = samples() > 1 ? std::min(prompt.size(), std::size_t(S)) : prompt.size();
    // An empty prompt starts from token 0: end-of-text, or without one (an
    // imported model's vocabulary) its first character, as the lecture's
    // generate() starts from torch.zeros.
    const std::vector<int64_t> tokens = prompt.empty() ? std::vector<int64_t>{0}
                                                       : std::vector<int64_t>(prompt.end() - kept, prompt.end());
    next_.reset();
    // One sample on two threads: its next window is decoded on the other
    // (NextWindow), and its own feeds stay on this one. Several samples
    // already keep two threads busy; the exact window never moves by half.
    const bool nextWindow = samples() == 1 && !options_.exactWindow && at::get_num_threads() >= 2;
    if (options_.useCache && Decoder::supports(model_))  // the weights as they are now
        decoder_.emplace(model_, samples(), options_.bf16 ? Decoder::Weights::Bf16 : Decoder::Weights::Fp32,
                         nextWindow ? Decoder::Threads::Caller : Decoder::Threads::Intraop);
    else
        decoder_.reset();
    if (decoder_ && nextWindow)
        next_ = std::make_unique<NextWindow>(*decoder_, S - nextWindowAt(0));  // all of a window but its last token
    for (std::size_t i = 0; i < streams_.size(); ++i) {
        Stream& s = streams_[i];
        s.rng.seed(options_.seed + i);
        s.tokens = tokens;
        if (options_.useCache && !decoder_ && s.cache.keys.empty()) s.cache = model_->makeCache(1);
        s.cache.reset();
        s.windowStart = std::max<int64_t>(0, int64_t(tokens.size()) - S);
        s.cacheStart = s.windowStart;
        s.produced = 0;
        s.finished = options_.maxNewChars <= 0;
    }
}

void BatchSampler::forwardLogits(Stream& s, int64_t from, bool cached) {
    const int64_t n = int64_t(s.tokens.size());
    auto slice = torch::from_blob(s.tokens.data() + from, {1, n - from}, torch::kInt64)
                     .to(model_->token_emb->weight.device());
    // In bf16 the forward multiplies as the decoder does: inputs and weights rounded to bf16.
    AutocastScope autocast(options_.bf16);
    const torch::Tensor scores = (cached ? model_->forwardCached(slice, s.cache) : model_->forward(slice))[0][-1]
                                     .to(torch::kCPU, torch::kFloat32)
                                     .contiguous();
    s.logits.assign(scores.data_ptr<float>(), scores.data_ptr<float>() + scores.numel());
}

void BatchSampler::computeLogits(const std::vector<int64_t>& running) {
    torch::NoGradGuard noGrad;
    const int64_t S = model_->config().sequence_len;
    // The new tokens of every stream on the decoder, decoded together.
    std::vector<Decoder::Feed> feeds;
    for (int64_t i : running) {
        Stream& s = streams_[std::size_t(i)];
        const int64_t n = int64_t(s.tokens.size());
        s.windowStart = nextWindowStart(s.windowStart, n, S, !options_.useCache || options_.exactWindow);
        // Without the cache every step reads its whole window in one forward
        // pass; so does the exact window off the decoder once it slides.
        if (!options_.useCache || (!decoder_ && options_.exactWindow && s.windowStart > 0)) {
            forwardLogits(s, s.windowStart, false);
            continue;
        }
        // Positions are absolute: once the window moves, every cached key is
        // stale. The next window, decoded beside this one, holds the new
        // one's first tokens (those its thread was handed); the rest are fed
        // below.
        if (s.windowStart != s.cacheStart) {
            s.cache.reset();
            if (next_ && s.windowStart == nextWindowAt(s.cacheStart) && next_->added() == n - 1 - s.windowStart) {
                next_->swapInto(*decoder_);
            } else if (decoder_) {
                decoder_->reset(i);
                if (next_) next_->restart();
            }
            s.cacheStart = s.windowStart;
        }
        if (!decoder_) {
            forwardLogits(s, s.cacheStart + s.cache.length, true);
            continue;
        }
        const int64_t from = s.cacheStart + decoder_->length(i);
        feeds.push_back({i, s.tokens.data() + from, n - from});
        if (next_) {  // the tokens of the next window so far, but for its last (the window moves then)
            const int64_t next = nextWindowAt(s.cacheStart), handed = next + next_->added();
            const int64_t end = std::min(n, s.cacheStart + S);
            if (handed < end) next_->add(s.tokens.data() + handed, end - handed);
        }
    }
    if (feeds.empty()) return;
    const int64_t V = decoder_->vocabSize();
    const float* logits = decoder_->feed(feeds.data(), int64_t(feeds.size()));
    for (std::size_t k = 0; k < feeds.size(); ++k) {
        Stream& s = streams_[std::size_t(feeds[k].stream)];
        s.logits.assign(logits + int64_t(k) * V, logits + int64_t(k + 1) * V);
    }
}

int64_t BatchSampler::nextWindowAt(int64_t start) const {
    const int64_t S = model_->config().sequence_len;
    return nextWindowStart(start, start + S + 1, S, false);
}

bool BatchSampler::next(std::vector<SampleStreamStep>& steps) {
    steps.clear();
    std::vector<int64_t> running;
    for (std::size_t i = 0; i < streams_.size(); ++i)
        if (!streams_[i].finished) running.push_back(int64_t(i));
    if (running.empty()) return false;
    computeLogits(running);
    for (int64_t i : running) {
        Stream& s = streams_[std::size_t(i)];
        const double uniform = std::uniform_real_distribution<double>(0.0, 1.0)(s.rng);
        SampleStreamStep out{i, {}};
        pickToken(s.logits.data(), int64_t(s.logits.size()), options_, uniform, tokenizer_, out.step,
                  int64_t(s.tokens.size()));
        s.tokens.push_back(out.step.token);
        ++s.produced;
        const bool endOfText = options_.stopAtEndOfText && out.step.token == tokenizer_.endOfTextId();
        if (s.produced >= options_.maxNewChars || endOfText) s.finished = true;
        if (!endOfText) steps.push_back(std::move(out));
    }
    return !steps.empty();
}

std::vector<std::string> BatchSampler::generate(
    const std::vector<int64_t>& prompt,
    const std::function<bool(const std::vector<SampleStreamStep>&)>& onStep) {
    start(prompt);
    std::vector<std::string> texts(streams_.size());
    std::vector<SampleStreamStep> steps;
    while (next(steps)) {
        for (const auto& s : steps) texts[std::size_t(s.sample)] += s.step.text;
        if (onStep && !onStep(steps)) break;
    }
    return texts;
}

}  // namespace chargpt
