// SPDX-License-Identifier: GPL-3.0-or-later
// The Dataset (model/train/Dataset): too small a text refused, the split into
// training and validation parts, windows sampled from the token stream, and a
// text too small for two separate parts still usable and saying so.
#include <torch/torch.h>

#include "model/runtime/Error.h"
#include "model/train/Dataset.h"
#include "model/train/Learning.h"

#include "TestProgram.h"

#include <random>
#include <string>
#include <vector>

namespace tst_dataset {

using chargpt::Dataset;
using chargpt::Split;

namespace {

std::vector<int64_t> iota(int64_t n) {
    std::vector<int64_t> v(static_cast<std::size_t>(n));
    for (int64_t i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = i;
    return v;
}

}  // namespace

class TestDataset : public QObject {
    Q_OBJECT

private slots:
    void datasetTooSmall_data();
    void datasetTooSmall();
    void datasetSplit();
    void datasetSampling();
    void datasetSmallCorpusOverlaps();
    void datasetKeepsEveryTokenOfALargeVocabulary();
};

void TestDataset::datasetTooSmall_data() {
    QTest::addColumn<int>("tokens");
    QTest::addColumn<int>("sequenceLen");
    QTest::addColumn<bool>("accepted");
    QTest::newRow("empty") << 0 << 8 << false;
    QTest::newRow("sequence_len tokens") << 8 << 8 << false;
    QTest::newRow("sequence_len + 1 tokens") << 9 << 8 << true;
    QTest::newRow("one token, context 1") << 1 << 1 << false;
    QTest::newRow("plenty") << 500 << 64 << true;
}

void TestDataset::datasetTooSmall() {
    QFETCH(int, tokens);
    QFETCH(int, sequenceLen);
    QFETCH(bool, accepted);
    try {
        const Dataset data(iota(tokens), sequenceLen);
        QVERIFY2(accepted, "a too small token stream was accepted");
        // Both splits can give full windows.
        std::mt19937_64 rng(1);
        for (Split split : {Split::Train, Split::Validation}) {
            const chargpt::Batch b = data.sample(split, 4, rng);
            QCOMPARE(b.inputs.sizes().vec(), (std::vector<int64_t>{4, sequenceLen}));
            QCOMPARE(b.targets.sizes().vec(), (std::vector<int64_t>{4, sequenceLen}));
            QVERIFY(b.inputs.max().item<int64_t>() < tokens);
            QVERIFY(b.targets.max().item<int64_t>() < tokens);
        }
    } catch (const chargpt::Error& e) {
        QVERIFY2(!accepted, e.what());
        QVERIFY(std::string(e.what()).size() > 0);
    }
}

void TestDataset::datasetSplit() {
    // Tokens are their own positions, so every sampled value tells where it came from.
    const Dataset data(iota(1000), 16, 0.1);
    QCOMPARE(data.sequenceLen(), int64_t(16));
    QCOMPARE(data.size(Split::Train), int64_t(900));
    QCOMPARE(data.size(Split::Validation), int64_t(100));
    QVERIFY(!data.validationOverlapsTraining());

    std::mt19937_64 rng(7);
    for (int i = 0; i < 20; ++i) {
        const chargpt::Batch train = data.sample(Split::Train, 32, rng);
        // Training never sees the validation part, not even as a target.
        QVERIFY(train.targets.max().item<int64_t>() < 900);
        QVERIFY(train.inputs.min().item<int64_t>() >= 0);
        const chargpt::Batch val = data.sample(Split::Validation, 32, rng);
        QVERIFY(val.inputs.min().item<int64_t>() >= 900);
        QVERIFY(val.targets.max().item<int64_t>() <= 999);
    }

    const Dataset quarter(iota(1000), 16, 0.25);
    QCOMPARE(quarter.size(Split::Train), int64_t(750));
    QCOMPARE(quarter.size(Split::Validation), int64_t(250));
}

void TestDataset::datasetSampling() {
    // A repeating, non-trivial stream: token values are not positions here.
    std::vector<int64_t> tokens;
    std::mt19937_64 gen(3);
    for (int i = 0; i < 2000; ++i) tokens.push_back(int64_t(gen() % 50));
    const Dataset data(tokens, 32);

    std::mt19937_64 a(42), b(42), c(43);
    const chargpt::Batch x = data.sample(Split::Train, 8, a);
    const chargpt::Batch y = data.sample(Split::Train, 8, b);
    const chargpt::Batch z = data.sample(Split::Train, 8, c);
    QCOMPARE(x.inputs.scalar_type(), torch::kInt64);
    QCOMPARE(x.targets.scalar_type(), torch::kInt64);
    QVERIFY(torch::equal(x.inputs, y.inputs));
    QVERIFY(torch::equal(x.targets, y.targets));
    QVERIFY2(!torch::equal(x.inputs, z.inputs), "another seed gave the same batch");

    // The next batch from the same generator differs from the first.
    const chargpt::Batch x2 = data.sample(Split::Train, 8, a);
    QVERIFY(!torch::equal(x.inputs, x2.inputs));

    // Targets are the inputs shifted by one, and every window is a piece of the stream.
    for (const chargpt::Batch* batch : {&x, &z, &x2}) {
        QVERIFY(torch::equal(batch->targets.slice(1, 0, 31), batch->inputs.slice(1, 1, 32)));
        for (int64_t row = 0; row < 8; ++row) {
            // inputs[row] followed by the last target: T + 1 consecutive tokens.
            const torch::Tensor window =
                torch::cat({batch->inputs[row], batch->targets[row].slice(0, 31, 32)}).contiguous();
            const int64_t* w = window.data_ptr<int64_t>();
            const bool found = std::search(tokens.begin(), tokens.end(), w, w + 33) != tokens.end();
            QVERIFY2(found, "a window is not a piece of the token stream");
        }
    }
}

void TestDataset::datasetKeepsEveryTokenOfALargeVocabulary() {
    // Token ids up to the largest vocabulary's come back as they went in,
    // in the batches, the splits and the unigram entropy.
    std::vector<int64_t> tokens;
    for (int i = 0; i < 600; ++i) tokens.push_back(i % 3 == 0 ? 65535 : int64_t(i % 7) * 9000);
    const Dataset data(tokens, 8, 0.1);
    QCOMPARE(data.tokens(Split::Train), std::vector<int64_t>(tokens.begin(), tokens.begin() + 540));
    QCOMPARE(data.tokens(Split::Validation, 5), std::vector<int64_t>(tokens.begin() + 540, tokens.begin() + 545));
    std::mt19937_64 rng(1);
    const chargpt::Batch b = data.sample(Split::Train, 16, rng);
    QCOMPARE(b.inputs.max().item<int64_t>(), int64_t(65535));
    QCOMPARE(b.inputs.scalar_type(), torch::kInt64);
    // The training part's characters: a third 65535, the rest spread over seven ids.
    std::vector<int64_t> counts(65536, 0);
    for (int i = 0; i < 540; ++i) ++counts[std::size_t(tokens[std::size_t(i)])];
    QCOMPARE(data.unigramEntropy(), chargpt::unigramEntropy(counts));
    QVERIFY(data.unigramEntropy() > 0.0);
    // An id no vocabulary has is refused with a message, not stored wrong.
    tokens[10] = -1;
    try {
        const Dataset refused(tokens, 8, 0.1);
        QFAIL("a negative token id was accepted");
    } catch (const chargpt::Error& e) {
        QVERIFY2(std::string(e.what()).find("token id -1") != std::string::npos, e.what());
    }
}

void TestDataset::datasetSmallCorpusOverlaps() {
    // Too small for two separate parts: still usable, and says so.
    const Dataset data(iota(40), 32, 0.1);
    QVERIFY(data.validationOverlapsTraining());
    std::mt19937_64 rng(5);
    const chargpt::Batch b = data.sample(Split::Validation, 4, rng);
    QVERIFY(torch::equal(b.targets, b.inputs + 1));
    QVERIFY(b.targets.max().item<int64_t>() <= 39);
}

CHARGPT_TEST_GUILESS_MAIN(TestDataset)
}  // namespace tst_dataset
#include "tst_dataset.moc"
