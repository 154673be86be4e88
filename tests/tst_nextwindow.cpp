// SPDX-License-Identifier: GPL-3.0-or-later
// One sample on two threads decodes its next window on the other thread
// (NextWindow) instead of refilling half a window each time the window moves:
// the next window's cache against a refill of the same tokens, a failed feed,
// a thread stopped mid-feed, and whole samples against one thread's.
#include <torch/torch.h>

#include <ATen/Parallel.h>

#include "model/generate/BatchSampler.h"
#include "model/generate/NextWindow.h"
#include "model/nn/kernels/Decoder.h"
#include "model/runtime/Error.h"
#include "model/text/CharTokenizer.h"

#include "SamplerFixtures.h"
#include "TestProgram.h"

#include <cstring>
#include <vector>

namespace tst_nextwindow {

using namespace chargpt;
using namespace sampler_fixtures;

class TestNextWindow : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { tokenizer_ = CharTokenizer::fromText(kAlphabet); }
    void nextWindowEqualsRefill();
    void failedFeedIsReported();
    void stopsWhileFeeding();
    void samplesEqualOneThread_data();
    void samplesEqualOneThread();

private:
    CharGPT modelOf(int64_t emb, int64_t head, int64_t S, uint64_t seed) const {
        return makeModel(tokenizer_, seed, 0.15, {emb, head, S});
    }
    CharTokenizer tokenizer_;
};

// Tokens handed one by one, a few at a time or all at once: once swapped into
// the sample's decoder, its scores after one more token are those of a decoder
// refilled with all of them in one feed, bit for bit; the swapped-out cache
// comes back empty for the window after.
void TestNextWindow::nextWindowEqualsRefill() {
    const CharGPT model = modelOf(128, 8, 24, 3);
    const int64_t V = model->config().vocab_size;
    std::vector<int64_t> tokens;
    for (int64_t i = 0; i < 12; ++i) tokens.push_back((i * 7 + 3) % V);
    for (const auto weights : {Decoder::Weights::Fp32, Decoder::Weights::Bf16}) {
        Decoder refill(model, 1, weights);
        const float* expected = refill.feed(tokens.data(), int64_t(tokens.size()));
        const std::vector<float> want(expected, expected + V);
        for (int64_t chunk : {1, 3, 11}) {
            Decoder current(model, 1, weights, Decoder::Threads::Caller);
            current.step(tokens[0]);  // the window before, with a position of its own
            NextWindow next(current, 11);
            for (int64_t at = 0; at < 11; at += chunk)
                next.add(tokens.data() + at, std::min<int64_t>(chunk, 11 - at));
            QCOMPARE(next.added(), int64_t(11));
            next.swapInto(current);
            QCOMPARE(next.added(), int64_t(0));
            // What the thread had not been handed yet is the sample's to feed.
            const int64_t have = current.length();
            QVERIFY(have >= 1 && have <= 11);
            const float* got = current.feed(tokens.data() + have, int64_t(tokens.size()) - have);
            QVERIFY2(std::memcmp(got, want.data(), std::size_t(V) * sizeof(float)) == 0,
                     qPrintable(QString("chunks of %1, %2").arg(chunk).arg(weights == Decoder::Weights::Bf16 ? "bf16" : "fp32")));
            // The next window starts empty: the old window's position is gone.
            next.add(tokens.data(), 11);
            next.swapInto(current);
            const int64_t again = current.length();
            QVERIFY(again >= 1 && again <= 11);
            const float* second = current.feed(tokens.data() + again, int64_t(tokens.size()) - again);
            QVERIFY(std::memcmp(second, want.data(), std::size_t(V) * sizeof(float)) == 0);
        }
    }
}

// A token the decoder refuses on the thread is reported where the sample
// takes the window, as the decoder's own error; the object goes on after it.
void TestNextWindow::failedFeedIsReported() {
    const CharGPT model = modelOf(32, 8, 16, 4);
    const int64_t V = model->config().vocab_size;
    Decoder current(model, 1, Decoder::Weights::Fp32, Decoder::Threads::Caller);
    NextWindow next(current, 7);
    const std::vector<int64_t> bad = {1, 2, V + 5, 3, 4, 5, 6};
    next.add(bad.data(), int64_t(bad.size()));
    try {
        next.swapInto(current);
        QFAIL("a token outside the vocabulary was fed without an error");
    } catch (const Error& e) {
        QVERIFY2(QString(e.what()).contains("vocabulary"), e.what());
    }
    QCOMPARE(next.added(), int64_t(0));
    const std::vector<int64_t> good = {1, 2, 3, 4, 5, 6, 7, 8};  // the last one the sample's own
    next.add(good.data(), 7);
    next.swapInto(current);
    Decoder refill(model, 1, Decoder::Weights::Fp32);
    const float* expected = refill.feed(good.data(), int64_t(good.size()));
    const std::vector<float> want(expected, expected + V);
    const int64_t have = current.length();
    const float* got = current.feed(good.data() + have, int64_t(good.size()) - have);
    QVERIFY(std::memcmp(got, want.data(), std::size_t(V) * sizeof(float)) == 0);
}

// Destroyed while its thread feeds a long window (a sample stopped by the
// user), it waits for that feed and returns; many in a row, none hangs.
void TestNextWindow::stopsWhileFeeding() {
    const CharGPT model = modelOf(128, 8, 64, 5);
    const Decoder current(model, 1, Decoder::Weights::Bf16);
    std::vector<int64_t> tokens;
    for (int64_t i = 0; i < 63; ++i) tokens.push_back(1 + i % (model->config().vocab_size - 1));
    for (int round = 0; round < 20; ++round) {
        NextWindow next(current, 63);
        next.add(tokens.data(), 32 + round);
    }
}

void TestNextWindow::samplesEqualOneThread_data() {
    QTest::addColumn<int>("context");
    QTest::addColumn<bool>("bf16");
    QTest::addColumn<int>("promptLength");
    QTest::newRow("context 16, fp32") << 16 << false << 2;
    QTest::newRow("context 16, bf16") << 16 << true << 3;
    QTest::newRow("context 15 (an odd half), bf16") << 15 << true << 1;
    QTest::newRow("prompt longer than the context, bf16") << 16 << true << 40;
    QTest::newRow("context 2 (one token kept)") << 2 << false << 2;
}

// Whole samples: with two threads (the next window decoded on the second) the
// same characters with the same probabilities, bit for bit, as one thread's
// refills, across many moves of the window.
void TestNextWindow::samplesEqualOneThread() {
    QFETCH(int, context);
    QFETCH(bool, bf16);
    QFETCH(int, promptLength);
    const CharGPT model = modelOf(32, 8, context, 6);
    std::vector<int64_t> prompt;
    for (int i = 0; i < promptLength; ++i) prompt.push_back(1 + (i * 5) % (tokenizer_.vocabSize() - 1));
    SamplingOptions options;
    options.temperature = 0.9;
    options.seed = 11;
    options.maxNewChars = 8 * context + 5;
    options.stopAtEndOfText = false;
    options.bf16 = bf16;
    const int threadsBefore = at::get_num_threads();
    at::set_num_threads(1);
    const Run one = generate(model, tokenizer_, options, prompt);
    at::set_num_threads(2);
    const Run two = generate(model, tokenizer_, options, prompt);
    at::set_num_threads(threadsBefore);
    QCOMPARE(two.tokens.size(), std::size_t(8 * context + 5));
    QCOMPARE(two.tokens, one.tokens);
    QVERIFY(two.probabilities == one.probabilities);
}

CHARGPT_TEST_GUILESS_MAIN(TestNextWindow)
}  // namespace tst_nextwindow
#include "tst_nextwindow.moc"
