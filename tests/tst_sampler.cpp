// SPDX-License-Identifier: GPL-3.0-or-later
// One sample (a BatchSampler of one): cached vs full recompute, the decoder
// against the forward pass, top-k 1, seeds, candidate probabilities,
// end-of-text and length limits.
// Picking one character from the scores: tst_picking.
#include <torch/torch.h>

#include "model/generate/BatchSampler.h"
#include "model/io/Checkpoint.h"
#include "model/nn/CharGPT.h"
#include "model/nn/kernels/Decoder.h"
#include "model/runtime/Error.h"
#include "model/text/CharTokenizer.h"
#include "model/train/RunConfig.h"

#include "SamplerFixtures.h"
#include "TestProgram.h"

#ifdef CHARGPT_CLI
#include "CliRun.h"
#endif

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <utility>
#include <vector>

namespace tst_sampler {

using namespace chargpt;
using namespace sampler_fixtures;

class TestSampler : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void cachedEqualsRecompute_data();
    void cachedEqualsRecompute();
    void shiftedWindow_data();
    void shiftedWindow();
    void decoderMatchesForward();
    void topK1EqualsGreedy();
    void sameSeedSameText();
    void candidates();
    void stopsAtEndOfText();
    void lengthLimitAndCallbackStop();
    void emptyPromptStartsAtEndOfText();

private:
    CharTokenizer tokenizer_;
};

void TestSampler::initTestCase() { tokenizer_ = CharTokenizer::fromText(kAlphabet); }

void TestSampler::cachedEqualsRecompute_data() {
    QTest::addColumn<double>("temperature");
    QTest::addColumn<int>("topK");
    QTest::addColumn<double>("topP");
    QTest::addColumn<int>("promptLength");
    QTest::newRow("temperature 1") << 1.0 << 0 << 1.0 << 2;
    QTest::newRow("greedy") << 0.0 << 0 << 1.0 << 2;
    QTest::newRow("top-k 5, top-p 0.9, t 0.8") << 0.8 << 5 << 0.9 << 3;
    QTest::newRow("prompt longer than context") << 1.0 << 0 << 1.0 << 40;
    QTest::newRow("greedy, prompt fills context") << 0.0 << 0 << 1.0 << 16;
}

void TestSampler::cachedEqualsRecompute() {
    QFETCH(double, temperature);
    QFETCH(int, topK);
    QFETCH(double, topP);
    QFETCH(int, promptLength);
    const CharGPT model = makeModel(tokenizer_, 1, 0.15);
    const int64_t S = model->config().sequence_len;

    std::vector<int64_t> prompt;
    for (int i = 0; i < promptLength; ++i) prompt.push_back(1 + (i * 7) % (tokenizer_.vocabSize() - 1));

    SamplingOptions options;
    options.temperature = temperature;
    options.topK = topK;
    options.topP = topP;
    options.seed = 4242;
    options.maxNewChars = 3 * S + 5;  // the context slides many times
    options.stopAtEndOfText = false;
    options.useCache = true;
    options.exactWindow = true;
    const Run cached = generate(model, tokenizer_, options, prompt);
    options.useCache = false;
    const Run full = generate(model, tokenizer_, options, prompt);

    QCOMPARE(int64_t(cached.tokens.size()), 3 * S + 5);
    QCOMPARE(cached.tokens, full.tokens);
    QCOMPARE(QString::fromStdString(cached.text), QString::fromStdString(full.text));
    for (std::size_t i = 0; i < cached.probabilities.size(); ++i)
        QVERIFY(std::abs(cached.probabilities[i] - full.probabilities[i]) <= 1e-4f);
    if (temperature > 0) {
        // Sampling really samples: not every step is the likeliest character.
        options.temperature = 0.0;
        const Run greedy = generate(model, tokenizer_, options, prompt);
        QVERIFY(greedy.tokens != full.tokens);
    }
}

void TestSampler::shiftedWindow_data() {
    QTest::addColumn<double>("temperature");
    QTest::addColumn<int>("promptLength");
    QTest::newRow("greedy") << 0.0 << 2;
    QTest::newRow("temperature 1") << 1.0 << 3;
    QTest::newRow("prompt longer than context") << 0.8 << 40;
}

// The default window: once full, it keeps its last half and goes on from there.
// Every step must give what a full forward pass over that window gives.
void TestSampler::shiftedWindow() {
    QFETCH(double, temperature);
    QFETCH(int, promptLength);
    CharGPT model = makeModel(tokenizer_, 3, 0.15);
    const int64_t S = model->config().sequence_len;
    std::vector<int64_t> tokens;
    for (int i = 0; i < promptLength; ++i) tokens.push_back(1 + (i * 5) % (tokenizer_.vocabSize() - 1));

    SamplingOptions options;
    options.temperature = temperature;
    options.seed = 99;
    options.maxNewChars = 4 * S + 3;
    options.stopAtEndOfText = false;
    options.candidates = tokenizer_.vocabSize();
    BatchSampler sampler(model, tokenizer_, options, 1);
    sampler.start(tokens);

    // The window rule, written out independently of the sampler.
    int64_t window = std::max<int64_t>(0, int64_t(tokens.size()) - S);
    int shifts = 0;
    SampleStep step;
    torch::NoGradGuard noGrad;
    while (nextOf(sampler, step)) {
        const int64_t n = int64_t(tokens.size());
        if (n - window > S) {
            window = n - S / 2;
            ++shifts;
        }
        QCOMPARE(sampler.windowStart(0), window);
        QVERIFY(n - window <= S && (shifts == 0 || n - window >= S / 2));
        auto input = torch::tensor(std::vector<int64_t>(tokens.begin() + window, tokens.end())).view({1, -1});
        auto logits = model->forward(input)[0][-1];
        const double t = temperature > 0 ? temperature : 1.0;
        auto probabilities = torch::softmax(logits.to(torch::kFloat64) / t, 0);
        QCOMPARE(int64_t(step.top.size()), tokenizer_.vocabSize());
        for (const Candidate& c : step.top)
            QVERIFY2(std::abs(c.probability - probabilities[c.token].item<double>()) <= 1e-4,
                     qPrintable(QString("step %1, token %2").arg(n).arg(c.token)));
        if (temperature == 0.0) QCOMPARE(step.token, probabilities.argmax().item<int64_t>());
        tokens.push_back(step.token);
    }
    QCOMPARE(int64_t(tokens.size()), int64_t(promptLength) + 4 * S + 3);
    QVERIFY(shifts >= 6);  // the window really moved, many times
}

// The CPU decoder against LibTorch, position by position, on the book's shape
// (16 heads of 8), on heads of 32 and on an odd one (width not a multiple of 16).
void TestSampler::decoderMatchesForward() {
    for (const auto& [emb, head] : std::vector<std::pair<int64_t, int64_t>>{{128, 8}, {64, 32}, {36, 12}}) {
        RunConfig c = *RunConfig::preset("tiny");
        c.emb_size = emb;
        c.head_size = head;
        c.vocab_size = tokenizer_.vocabSize();
        torch::manual_seed(7);
        CharGPT model(c);
        torch::NoGradGuard noGrad;
        for (torch::Tensor& p : model->parameters()) p.normal_(0.0, 0.2);
        model->eval();
        Decoder decoder(model);
        std::vector<int64_t> tokens;
        for (int64_t i = 0; i < c.sequence_len; ++i) tokens.push_back((i * 11 + 3) % c.vocab_size);
        auto expected = model->forward(torch::tensor(tokens).view({1, -1}))[0];  // (T, vocab)
        // The decoding kernel computes the model's cached forward pass, step for step.
        chargpt::KVCache cache = model->makeCache(1);
        for (int64_t i = 0; i < c.sequence_len; ++i) {
            const float* logits = decoder.step(tokens[std::size_t(i)]);
            auto got = torch::from_blob(const_cast<float*>(logits), {c.vocab_size}, torch::kFloat32);
            QVERIFY2(torch::allclose(got, expected[i], 1e-4, 1e-4),
                     qPrintable(QString("width %1, position %2").arg(emb).arg(i)));
            const auto cached = model->forwardCached(torch::tensor({tokens[std::size_t(i)]}).view({1, 1}), cache);
            QVERIFY2(torch::allclose(got, cached[0][0], 1e-4, 1e-4),
                     qPrintable(QString("width %1, position %2").arg(emb).arg(i)));
        }
        QCOMPARE(decoder.length(), c.sequence_len);
        bool refused = false;
        try {
            decoder.step(1);
        } catch (const std::exception&) {
            refused = true;  // full: the caller must shift or reset
        }
        QVERIFY(refused);
        // Several positions in one feed (a refill after the window moves) give
        // the logits after the last of them, and leave the cache as steps would.
        decoder.reset();
        int64_t at = 0;
        for (int64_t chunk : {int64_t(1), int64_t(5), int64_t(17), c.sequence_len}) {
            const int64_t n = std::min(chunk, c.sequence_len - at);
            if (n < 1) break;
            const float* logits = decoder.feed(tokens.data() + at, n);
            at += n;
            auto got = torch::from_blob(const_cast<float*>(logits), {c.vocab_size}, torch::kFloat32);
            QVERIFY2(torch::allclose(got, expected[at - 1], 1e-4, 1e-4),
                     qPrintable(QString("width %1, feed up to %2").arg(emb).arg(at)));
        }
        QCOMPARE(decoder.length(), c.sequence_len);
        decoder.reset();
        auto again = torch::from_blob(const_cast<float*>(decoder.step(tokens[0])), {c.vocab_size}, torch::kFloat32);
        QVERIFY(torch::allclose(again, expected[0], 1e-4, 1e-4));
        // It holds a copy of the weights: changing the model does not change it.
        for (torch::Tensor& p : model->parameters()) p.add_(1.0);
        decoder.reset();
        QVERIFY(torch::allclose(torch::from_blob(const_cast<float*>(decoder.step(tokens[0])), {c.vocab_size},
                                                 torch::kFloat32),
                                expected[0], 1e-4, 1e-4));
    }
}

void TestSampler::topK1EqualsGreedy() {
    const CharGPT model = makeModel(tokenizer_, 2, 0.15);
    SamplingOptions options;
    options.maxNewChars = 40;
    options.stopAtEndOfText = false;
    options.seed = 5;
    options.temperature = 0.0;
    const Run greedy = generate(model, tokenizer_, options, {1, 2});
    options.temperature = 1.0;
    options.topK = 1;
    options.seed = 6;
    const Run top1 = generate(model, tokenizer_, options, {1, 2});
    QCOMPARE(top1.tokens, greedy.tokens);
    for (float p : top1.probabilities) QCOMPARE(p, 1.0f);  // one candidate left
}

void TestSampler::sameSeedSameText() {
    const CharGPT model = makeModel(tokenizer_, 3, 0.15);
    SamplingOptions options;
    options.maxNewChars = 30;
    options.stopAtEndOfText = false;
    options.seed = 11;
    const Run a = generate(model, tokenizer_, options, {3});
    const Run b = generate(model, tokenizer_, options, {3});
    options.seed = 12;
    const Run c = generate(model, tokenizer_, options, {3});
    QCOMPARE(a.tokens, b.tokens);
    QVERIFY(a.tokens != c.tokens);
    QCOMPARE(QString::fromStdString(a.text), QString::fromStdString(tokenizer_.decode(a.tokens)));
}

void TestSampler::candidates() {
    const CharGPT model = makeModel(tokenizer_, 4, 0.15);
    for (int64_t shown : {int64_t(5), tokenizer_.vocabSize() + 3}) {
        SamplingOptions options;
        options.maxNewChars = 25;
        options.stopAtEndOfText = false;
        options.candidates = shown;
        BatchSampler sampler(model, tokenizer_, options, 1);
        sampler.start({1, 2, 3});
        SampleStep step;
        int steps = 0;
        while (nextOf(sampler, step)) {
            ++steps;
            QCOMPARE(int64_t(step.top.size()), std::min(shown, tokenizer_.vocabSize()));
            double sum = 0.0;
            bool chosenListed = false;
            for (std::size_t i = 0; i < step.top.size(); ++i) {
                const Candidate& cand = step.top[i];
                QVERIFY(cand.probability >= 0.0f && cand.probability <= 1.0f);
                if (i > 0) QVERIFY(cand.probability <= step.top[i - 1].probability);
                QCOMPARE(QString::fromStdString(cand.text), QString::fromStdString(tokenizer_.tokenText(cand.token)));
                sum += cand.probability;
                if (cand.token == step.token) {
                    chosenListed = true;
                    QVERIFY(std::abs(cand.probability - step.probability) <= 1e-6f);
                }
            }
            QVERIFY2(sum <= 1.0 + 1e-5, qPrintable(QString::number(sum)));
            if (shown >= tokenizer_.vocabSize()) {
                QVERIFY2(std::abs(sum - 1.0) <= 1e-4, "the whole distribution does not sum to 1");
                QVERIFY(chosenListed);
            }
            QVERIFY(step.probability > 0.0f && step.probability <= 1.0f);
            QCOMPARE(QString::fromStdString(step.text), QString::fromStdString(tokenizer_.tokenText(step.token)));
        }
        QCOMPARE(steps, 25);
        QVERIFY(sampler.finished());
    }
}

void TestSampler::stopsAtEndOfText() {
    CharGPT model = makeModel(tokenizer_, 5, 0.02);
    {
        torch::NoGradGuard noGrad;
        model->lm->bias.zero_();
        model->lm->bias[0] = 50.0;  // end-of-text is all but certain
    }
    SamplingOptions options;
    options.maxNewChars = 30;
    options.stopAtEndOfText = true;
    {
        BatchSampler sampler(model, tokenizer_, options, 1);
        sampler.start({1, 2});
        std::vector<SampleStreamStep> steps;
        QVERIFY(!sampler.next(steps));
        QVERIFY(steps.empty());  // end-of-text ends the sample without a character
        QCOMPARE(sampler.context(0).back(), CharTokenizer::kEndOfText);
        QVERIFY(sampler.finished());
        QVERIFY(!sampler.next(steps));
        int calls = 0;
        const std::string text = sampler
                                     .generate({1, 2},
                                               [&](const std::vector<SampleStreamStep>&) {
                                                   ++calls;
                                                   return true;
                                               })
                                     .front();
        QCOMPARE(calls, 0);
        QCOMPARE(QString::fromStdString(text), QString());
    }
    options.stopAtEndOfText = false;
    options.maxNewChars = 4;
    const Run run = generate(model, tokenizer_, options, {1, 2});
    QCOMPARE(run.tokens, (std::vector<int64_t>{0, 0, 0, 0}));
    QCOMPARE(QString::fromStdString(run.text), QStringLiteral("<|e|><|e|><|e|><|e|>"));
}

void TestSampler::lengthLimitAndCallbackStop() {
    const CharGPT model = makeModel(tokenizer_, 6, 0.15);
    SamplingOptions options;
    options.maxNewChars = 7;
    options.stopAtEndOfText = false;
    BatchSampler sampler(model, tokenizer_, options, 1);
    int calls = 0;
    std::string joined;
    const std::string text = sampler
                                 .generate({4, 5, 6},
                                           [&](const std::vector<SampleStreamStep>& steps) {
                                               calls += int(steps.size());
                                               joined += steps.front().step.text;
                                               return true;
                                           })
                                 .front();
    QCOMPARE(calls, 7);
    QCOMPARE(QString::fromStdString(text), QString::fromStdString(joined));
    QVERIFY(sampler.finished());
    QCOMPARE(sampler.context(0).size(), std::size_t(3 + 7));
    QCOMPARE(sampler.context(0)[0], int64_t(4));

    calls = 0;
    sampler.generate({4, 5, 6}, [&](const std::vector<SampleStreamStep>&) { return ++calls < 3; });
    QCOMPARE(calls, 3);
}

void TestSampler::emptyPromptStartsAtEndOfText() {
    const CharGPT model = makeModel(tokenizer_, 7, 0.15);
    SamplingOptions options;
    options.maxNewChars = 20;
    options.stopAtEndOfText = false;
    const Run empty = generate(model, tokenizer_, options, {});
    const Run eot = generate(model, tokenizer_, options, {CharTokenizer::kEndOfText});
    QCOMPARE(empty.tokens.size(), std::size_t(20));
    QCOMPARE(empty.tokens, eot.tokens);
}

CHARGPT_TEST_GUILESS_MAIN(TestSampler)
}  // namespace tst_sampler
#include "tst_sampler.moc"
