// SPDX-License-Identifier: GPL-3.0-or-later
// One sample on two threads decodes its next window on the other thread
// (NextWindow) instead of refilling half a window each time the window moves:
// the next window's cache against a refill of the same tokens, a failed feed,
// a thread stopped mid-feed, whole samples against one thread's, and a
// sample's steps with their products and attention shared with a helper
// thread (SharedWork) against the same steps alone.
#include <torch/torch.h>

#include <ATen/Parallel.h>

#include "model/generate/BatchSampler.h"
#include "model/generate/NextWindow.h"
#include "model/nn/kernels/Decoder.h"
#include "model/runtime/Error.h"
#include "model/text/CharTokenizer.h"

#include "SamplerFixtures.h"
#include "TestProgram.h"

#include <atomic>
#include <cstring>
#include <thread>
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
    void sharedWorkRunsEachUnitOnce();
    void helpedStepsEqualAlone();

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
    Decoder current(model, 1, Decoder::Weights::Bf16);
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

namespace {
// A thread that helps `work` until destroyed, and how many jobs it saw.
struct Helper {
    explicit Helper(SharedWork& work)
        : thread([this, &work] {
              while (!stop.load())
                  if (work.help()) ++seen;
          }) {}
    ~Helper() {
        stop = true;
        thread.join();
    }
    std::atomic<bool> stop{false};
    std::atomic<int> seen{0};
    std::thread thread;
};
}  // namespace

// Every unit of every job runs once, on one thread or the other, and each
// job's units are done when run() returns; jobs of different sizes one after
// another (a helper that read the last one's state must not claim a unit of
// the next with it).
void TestNextWindow::sharedWorkRunsEachUnitOnce() {
    SharedWork work;
    std::vector<int> counts(9, 0), expected(9, 0);
    {
        Helper helper(work);
        for (int job = 0; job < 100000; ++job) {
            const int64_t units = 2 + job % 8;
            work.run(
                [](const void* c, int64_t u) {
                    ++(*static_cast<std::vector<int>*>(const_cast<void*>(c)))[std::size_t(u)];
                },
                &counts, units);
            for (int64_t u = 0; u < units; ++u) ++expected[std::size_t(u)];
            QCOMPARE(counts, expected);  // done when run() returns, each unit once
        }
    }
}

// One sample's steps (a feed of several positions first) with a thread that
// takes blocks of their products and groups of their attention: the same
// logits, bit for bit, as the same steps on one thread, in fp32 and bf16.
void TestNextWindow::helpedStepsEqualAlone() {
    const CharGPT model = modelOf(128, 8, 24, 4);  // 16 heads: four groups of attention
    const int64_t V = model->config().vocab_size;
    std::vector<int64_t> tokens;
    for (int64_t i = 0; i < 24; ++i) tokens.push_back((i * 5 + 2) % V);
    for (const auto weights : {Decoder::Weights::Fp32, Decoder::Weights::Bf16}) {
        Decoder alone(model, 1, weights, Decoder::Threads::Caller);
        Decoder helped(model, 1, weights, Decoder::Threads::Caller);
        auto work = std::make_shared<SharedWork>();
        helped.shareWith(work);
        Helper helper(*work);
        auto same = [&](const float* a, const float* b) {
            return std::memcmp(a, b, std::size_t(V) * sizeof(float)) == 0;
        };
        std::vector<float> want;
        // Again until the helper took part (on a busy machine its thread may start late).
        for (int round = 0; round < 50 && (round == 0 || helper.seen == 0); ++round) {
            alone.reset();
            helped.reset();
            const float* a = alone.feed(tokens.data(), 3);
            want.assign(a, a + V);
            QVERIFY(same(helped.feed(tokens.data(), 3), want.data()));
            for (int64_t t = 3; t < 24; ++t) {
                a = alone.step(tokens[std::size_t(t)]);
                want.assign(a, a + V);
                QVERIFY2(same(helped.step(tokens[std::size_t(t)]), want.data()),
                         qPrintable(QString("step %1").arg(t)));
            }
        }
        QVERIFY(helper.seen > 0);
    }
}

CHARGPT_TEST_GUILESS_MAIN(TestNextWindow)
}  // namespace tst_nextwindow
#include "tst_nextwindow.moc"
