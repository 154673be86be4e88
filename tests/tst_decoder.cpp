// SPDX-License-Identifier: GPL-3.0-or-later
// The decoder's kernels against the plain LibTorch expressions (fp32 and bf16
// weights), its streams decoded together against each alone, and batched
// sampling against single samples with the same seeds. The decoder against the
// forward pass in fp32: tst_sampler.
#include <torch/torch.h>

#include "model/generate/BatchSampler.h"
#include "model/nn/CharGPT.h"
#include "model/nn/kernels/Decoder.h"
#include "model/nn/kernels/DecoderMath.h"
#include "model/runtime/Autocast.h"
#include "model/runtime/Error.h"
#include "model/text/CharTokenizer.h"

#include "SamplerFixtures.h"
#include "ForcedTier.h"
#include "TestProgram.h"

#include <cstring>
#include <vector>

namespace tst_decoder {

using namespace chargpt;
using namespace sampler_fixtures;

namespace {

torch::Tensor roundedToBf16(const torch::Tensor& t) { return t.to(torch::kBFloat16).to(torch::kFloat32); }

// A model of the book's shape (16 heads of 8), but 2 layers and a context of 24.
CharGPT bookShapedModel(const CharTokenizer& tokenizer, uint64_t seed) {
    return sampler_fixtures::makeModel(tokenizer, seed, 0.15, {128, 8, 24});
}

// The forward pass written out in LibTorch with every linear layer in bf16
// (inputs and weights rounded to bf16, the products summed in fp32), the
// attention's keys and values rounded to bf16, and the rest in fp32: what the
// decoder computes in bf16. Logits (T, vocab).
torch::Tensor bf16Reference(CharGPT& model, const std::vector<int64_t>& tokens) {
    torch::NoGradGuard noGrad;
    const auto& c = model->config();
    const int64_t T = int64_t(tokens.size()), C = c.emb_size, H = c.head_size, nh = c.n_head();
    auto linear = [](const torch::Tensor& x, const torch::nn::Linear& l) {
        return torch::linear(roundedToBf16(x), roundedToBf16(l->weight), l->bias.defined() ? l->bias : torch::Tensor());
    };
    auto norm = [C](const torch::Tensor& x, const torch::nn::LayerNorm& n) {
        return torch::layer_norm(x, {C}, n->weight, n->bias, 1e-5);
    };
    torch::Tensor x = model->token_emb->weight.index_select(0, torch::tensor(tokens)) +
                      model->pos_emb->weight.narrow(0, 0, T);
    const auto mask = torch::ones({T, T}).tril().to(torch::kBool);
    for (const auto& module : *model->blocks) {
        auto* block = module->as<BlockImpl>();
        const auto qkv = linear(norm(x, block->l1), block->mha->qkv);  // (T, 3C)
        auto heads = [&](int64_t part) { return qkv.narrow(1, part * C, C).view({T, nh, H}).transpose(0, 1); };
        // The cached keys and values are kept in bf16, as a bf16 product's results are.
        const auto scores = torch::matmul(heads(0), roundedToBf16(heads(1)).transpose(1, 2)) / std::sqrt(double(H));
        const auto attention = torch::softmax(scores.masked_fill(mask.logical_not(), -INFINITY), -1);
        const auto mixed = torch::matmul(attention, roundedToBf16(heads(2))).transpose(0, 1).reshape({T, C});
        x = x + linear(mixed, block->mha->proj);
        x = x + linear(torch::gelu(linear(norm(x, block->l2), block->ff->ln1)), block->ff->ln2);
    }
    return linear(norm(x, model->l), model->lm);
}

}  // namespace

class TestDecoder : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        CHARGPT_FORCED_TIER_CHECK();
        tokenizer_ = CharTokenizer::fromText(kAlphabet);
    }
    void linearMatchesLibTorch_data();
    void linearMatchesLibTorch();
    void bf16DecoderMatchesForward();
    void streamsTogetherEqualAlone();
    void refillsSharedByThreadsEqualOneThread();
    void batchedEqualsSingles_data();
    void batchedEqualsSingles();
    void refusals();

private:
    CharTokenizer tokenizer_;
};

void TestDecoder::linearMatchesLibTorch_data() {
    QTest::addColumn<bool>("bf16");
    QTest::addColumn<int>("N");
    QTest::addColumn<int>("K");
    QTest::newRow("fp32, 384 x 128") << false << 384 << 128;
    QTest::newRow("bf16, 384 x 128") << true << 384 << 128;
    QTest::newRow("fp32, odd widths") << false << 101 << 37;
    QTest::newRow("bf16, odd widths") << true << 101 << 37;
    QTest::newRow("bf16, 128 x 512") << true << 128 << 512;
}

// Y = X W^T + b against torch::linear (in bf16: on inputs and weights rounded
// to bf16, the products summed in fp32, as a bf16 matrix product computes),
// for 1 to 17 rows (each build takes them four and one at a time);
// every row the same bits whatever the rows beside it.
void TestDecoder::linearMatchesLibTorch() {
    QFETCH(bool, bf16);
    QFETCH(int, N);
    QFETCH(int, K);
    torch::manual_seed(3);
    constexpr int64_t kRows = 17;
    const auto W = torch::randn({N, K}), b = torch::randn({N}), X = torch::randn({kRows, K});
    const auto packed = decoding::PackedLinear::pack(W.data_ptr<float>(), b.data_ptr<float>(), N, K, bf16);
    QCOMPARE(packed.isBf16(), bf16);
    const auto expected = bf16 ? torch::linear(roundedToBf16(X), roundedToBf16(W), b) : torch::linear(X, W, b);
    const int64_t ldy = decoding::padded(N);
    std::vector<float> all(std::size_t(kRows * ldy), -1.0f);
    decoding::linear(packed, X.data_ptr<float>(), K, all.data(), ldy, kRows);
    const auto got = torch::from_blob(all.data(), {kRows, ldy}, torch::kFloat32).narrow(1, 0, N);
    QVERIFY2(torch::allclose(got, expected, 1e-5, 1e-4),
             qPrintable(QString("largest difference %1").arg((got - expected).abs().max().item<double>())));
    for (int64_t col = N; col < ldy; ++col) QCOMPARE(all[std::size_t(col)], 0.0f);  // padding
    for (int64_t M : {1, 2, 5, 8, 12}) {
        for (int64_t first = 0; first + M <= kRows; first += M) {
            std::vector<float> some(std::size_t(M * ldy));
            decoding::linear(packed, X.data_ptr<float>() + first * K, K, some.data(), ldy, M);
            QVERIFY(std::memcmp(some.data(), all.data() + first * ldy, some.size() * sizeof(float)) == 0);
        }
    }
}

// In bf16 the decoder computes the forward with its matrix products in bf16
// (bf16Reference), position by position and in one feed; that is within
// bf16's rounding of the forward under autocast (which also rounds each
// product's result), and differs from fp32.
void TestDecoder::bf16DecoderMatchesForward() {
    CharGPT model = bookShapedModel(tokenizer_, 5);
    const int64_t S = model->config().sequence_len, V = model->config().vocab_size;
    std::vector<int64_t> tokens;
    for (int64_t i = 0; i < S; ++i) tokens.push_back((i * 7 + 2) % V);
    torch::NoGradGuard noGrad;
    const auto expected = bf16Reference(model, tokens);
    torch::Tensor autocast;
    {
        AutocastScope scope(true);
        autocast = model->forward(torch::tensor(tokens).view({1, -1}))[0].to(torch::kFloat32);
    }
    const auto fp32 = model->forward(torch::tensor(tokens).view({1, -1}))[0];
    QVERIFY2((expected - fp32).abs().max().item<double>() > 1e-3, "bf16 products must differ from fp32");
    Decoder decoder(model, 1, Decoder::Weights::Bf16);
    QVERIFY(decoder.weights() == Decoder::Weights::Bf16);
    double maxFromExpression = 0.0;
    auto check = [&](const float* logits, int64_t position) {
        const auto got = torch::from_blob(const_cast<float*>(logits), {V}).clone();
        // Each product is the expression's to fp32 rounding (linearMatchesLibTorch);
        // through the network, a last-bit difference in a sum can round an
        // input of a later product to the neighbouring bf16 value (2^-8 apart),
        // so the scores agree to within a few bf16 roundings.
        const double fromExpression = (got - expected[position]).abs().max().item<double>();
        const double scale = expected[position].abs().max().item<double>();
        QVERIFY2(fromExpression < 2e-3 * scale,
                 qPrintable(QString("position %1: %2 from the bf16 expression, scores up to %3")
                                .arg(position)
                                .arg(fromExpression)
                                .arg(scale)));
        maxFromExpression = std::max(maxFromExpression, fromExpression);
        QVERIFY((got - autocast[position]).abs().max().item<double>() < 0.03 * scale);
    };
    for (int64_t i = 0; i < S; ++i) check(decoder.step(tokens[std::size_t(i)]), i);
    decoder.reset();
    check(decoder.feed(tokens.data(), S), S - 1);
    qInfo("largest difference from the bf16 expression: %g", maxFromExpression);
}

// Streams fed together (one token each, or refills of several) get exactly the
// logits each gets alone, in fp32 and bf16, with one or two threads.
void TestDecoder::streamsTogetherEqualAlone() {
    const CharGPT model = bookShapedModel(tokenizer_, 9);
    const int64_t V = model->config().vocab_size, S = model->config().sequence_len;
    const int threadsBefore = at::get_num_threads();
    for (const auto weights : {Decoder::Weights::Fp32, Decoder::Weights::Bf16})
        for (int threads : {1, 2}) {
            at::set_num_threads(threads);
            Decoder together(model, 5, weights), alone(model, 1, weights);
            std::vector<std::vector<int64_t>> texts(5);
            for (int64_t s = 0; s < 5; ++s)
                for (int64_t i = 0; i < S; ++i) texts[std::size_t(s)].push_back((i * (s + 3) + s) % V);
            // Stream s starts with a refill of s + 1 tokens, then goes on one token a step.
            std::vector<int64_t> at(5, 0);
            for (int round = 0; round < 6; ++round) {
                std::vector<Decoder::Feed> feeds;
                for (int64_t s = 4; s >= 0; --s) {  // not in stream order
                    if (round > 0 && s == 2) continue;  // a stream left out of a step
                    const int64_t n = round == 0 ? s + 1 : 1;
                    feeds.push_back({s, texts[std::size_t(s)].data() + at[std::size_t(s)], n});
                }
                const float* logits = together.feed(feeds.data(), int64_t(feeds.size()));
                for (std::size_t k = 0; k < feeds.size(); ++k) {
                    const Decoder::Feed& f = feeds[k];
                    alone.reset();
                    const int64_t end = at[std::size_t(f.stream)] + f.n;
                    const float* single = alone.feed(texts[std::size_t(f.stream)].data(), end);
                    QVERIFY2(std::memcmp(logits + int64_t(k) * V, single, std::size_t(V) * sizeof(float)) == 0,
                             qPrintable(QString("stream %1, round %2, %3 thread(s)").arg(f.stream).arg(round).arg(threads)));
                    at[std::size_t(f.stream)] = end;
                    QCOMPARE(together.length(f.stream), end);
                }
            }
        }
    at::set_num_threads(threadsBefore);
}

// One feed of many positions is shared by two threads, rows split between
// them: its logits equal one thread's bit for bit, after an empty cache or
// after cached positions, and also when it is fed from threads that are
// already running parallel work (each pass then runs whole on its thread).
void TestDecoder::refillsSharedByThreadsEqualOneThread() {
    const CharGPT model = bookShapedModel(tokenizer_, 13);
    const int64_t V = model->config().vocab_size, S = model->config().sequence_len;
    std::vector<int64_t> text;
    for (int64_t i = 0; i < S; ++i) text.push_back((i * 5 + 1) % V);
    // Feeds of these many positions one after another (each list fills the context).
    const std::vector<std::vector<int64_t>> plans = {{S}, {1, S - 1}, {5, 12, S - 17}, {Decoder::kRowsToShare, S - Decoder::kRowsToShare}};
    const int threadsBefore = at::get_num_threads();
    for (const auto weights : {Decoder::Weights::Fp32, Decoder::Weights::Bf16}) {
        auto logitsOf = [&](const std::vector<int64_t>& plan) {
            Decoder decoder(model, 1, weights);
            std::vector<float> all;
            int64_t at = 0;
            for (int64_t n : plan) {
                const float* logits = decoder.feed(text.data() + at, n);
                all.insert(all.end(), logits, logits + V);
                at += n;
            }
            return all;
        };
        for (const auto& plan : plans) {
            at::set_num_threads(1);
            const std::vector<float> one = logitsOf(plan);
            at::set_num_threads(2);
            const std::vector<float> two = logitsOf(plan);
            QVERIFY2(one == two, qPrintable(QString("feeds of %1 first").arg(plan[0])));
            std::vector<float> nested[2];
            at::parallel_for(0, 2, 1, [&](int64_t begin, int64_t end) {
                for (int64_t i = begin; i < end; ++i) nested[i] = logitsOf(plan);
            });
            QVERIFY(nested[0] == one);
            QVERIFY(nested[1] == one);
        }
    }
    at::set_num_threads(threadsBefore);
}

void TestDecoder::batchedEqualsSingles_data() {
    QTest::addColumn<bool>("bf16");
    QTest::addColumn<bool>("exactWindow");
    QTest::addColumn<double>("temperature");
    QTest::addColumn<int>("topK");
    QTest::addColumn<int>("promptLength");
    QTest::newRow("fp32, temperature 1") << false << false << 1.0 << 0 << 5;
    QTest::newRow("bf16, temperature 0.8, top-k 5") << true << false << 0.8 << 5 << 5;
    QTest::newRow("bf16, greedy") << true << false << 0.0 << 0 << 5;
    QTest::newRow("fp32, exact window") << false << true << 1.0 << 0 << 5;
    QTest::newRow("bf16, exact window") << true << true << 1.0 << 0 << 5;
    QTest::newRow("fp32, prompt longer than the context") << false << false << 1.0 << 0 << 40;
    QTest::newRow("bf16, exact window, prompt longer") << true << true << 1.0 << 0 << 40;
}

// N samples decoded together: sample i writes exactly what a sample alone with the
// seed + i writes (tokens, texts and probabilities), over several window
// moves, a prompt, and samples that end at end-of-text at different times.
void TestDecoder::batchedEqualsSingles() {
    QFETCH(bool, bf16);
    QFETCH(bool, exactWindow);
    QFETCH(double, temperature);
    QFETCH(int, topK);
    QFETCH(int, promptLength);
    const CharGPT model = bookShapedModel(tokenizer_, 11);
    const int64_t S = model->config().sequence_len;
    SamplingOptions options;
    options.temperature = temperature;
    options.topK = topK;
    options.seed = 77;
    options.maxNewChars = 3 * S + 5;
    options.candidates = 3;
    options.exactWindow = exactWindow;
    options.bf16 = bf16;
    std::vector<int64_t> prompt;
    for (int i = 0; i < promptLength; ++i) prompt.push_back(1 + (i * 5 + 3) % (model->config().vocab_size - 1));
    constexpr int64_t kSamples = 6;
    for (bool stopAtEnd : {false, true}) {
        options.stopAtEndOfText = stopAtEnd;
        BatchSampler batch(model, tokenizer_, options, kSamples);
        std::vector<Run> together(kSamples);
        batch.start(prompt);
        std::vector<SampleStreamStep> steps;
        while (batch.next(steps))
            for (const auto& s : steps) {
                Run& run = together[std::size_t(s.sample)];
                run.tokens.push_back(s.step.token);
                run.probabilities.push_back(s.step.probability);
                run.text += s.step.text;
                QVERIFY(int64_t(s.step.top.size()) <= 3);
            }
        QVERIFY(batch.finished());
        std::vector<std::string> texts;
        for (int64_t i = 0; i < kSamples; ++i) {
            SamplingOptions single = options;
            single.seed = options.seed + uint64_t(i);
            const Run alone = generate(model, tokenizer_, single, prompt);
            const QString what = QString("sample %1, stop at end %2").arg(i).arg(stopAtEnd);
            QVERIFY2(together[std::size_t(i)].tokens == alone.tokens, qPrintable(what));
            QVERIFY2(together[std::size_t(i)].probabilities == alone.probabilities, qPrintable(what));
            QCOMPARE(together[std::size_t(i)].text, alone.text);
            texts.push_back(alone.text);
            if (!stopAtEnd) QCOMPARE(int64_t(alone.tokens.size()), 3 * S + 5);
        }
        QCOMPARE(batch.generate(prompt), texts);  // generate() is start() and next() to the end
        if (temperature > 0) QVERIFY2(texts[0] != texts[1], "different seeds, different samples");
    }
}

void TestDecoder::refusals() {
    const CharGPT model = bookShapedModel(tokenizer_, 1);
    for (int64_t n : {int64_t(0), BatchSampler::kMaxSamples + 1}) {
        try {
            BatchSampler batch(model, tokenizer_, SamplingOptions{}, n);
            QFAIL("a number of samples out of range was taken");
        } catch (const Error& e) {
            QVERIFY(QString::fromStdString(e.what()).contains("number of samples"));
        }
    }
    Decoder decoder(model, 2);
    const int64_t tokens[2] = {1, 2};
    const Decoder::Feed twice[2] = {{1, tokens, 1}, {1, tokens + 1, 1}};
    QVERIFY_THROWS_EXCEPTION(Error, decoder.feed(twice, 2));
    const Decoder::Feed outside{2, tokens, 1};
    QVERIFY_THROWS_EXCEPTION(Error, decoder.feed(&outside, 1));
    const int64_t bad = model->config().vocab_size;
    QVERIFY_THROWS_EXCEPTION(Error, decoder.feed(0, &bad, 1));
    QCOMPARE(decoder.length(0), int64_t(0));  // a refused feed leaves the cache as it was
}

CHARGPT_TEST_GUILESS_MAIN(TestDecoder)
}  // namespace tst_decoder
#include "tst_decoder.moc"
