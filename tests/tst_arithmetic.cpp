// SPDX-License-Identifier: GPL-3.0-or-later
// How a model imported from nanoGPT, minGPT or the lecture's gpt.py computes
// (ModelConfig::activation, qkv_bias, biases, head_bias, tied_head): each
// setting against the network written out in LibTorch, its parameters, the
// cached forward, a training step through the tied head, and checkpoints.
#include <torch/torch.h>

#include "model/io/Checkpoint.h"
#include "model/nn/CharGPT.h"
#include "model/nn/kernels/Decoder.h"
#include "model/text/CharTokenizer.h"
#include "model/train/RunConfig.h"

#include <QTemporaryDir>
#include "TestProgram.h"

#include <cmath>
#include <functional>
#include <set>

namespace tst_arithmetic {

using namespace chargpt;
using Variant = std::function<void(RunConfig&)>;

class TestArithmetic : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { torch::manual_seed(50); }
    void forwardIsTheNetworkWrittenOut_data();
    void forwardIsTheNetworkWrittenOut();
    void tiedHeadTrainsOneWeight();
    void settingsAreNamedAndKeptInFiles();
};

RunConfig small(const Variant& variant) {
    RunConfig c = *RunConfig::preset("tiny");
    c.vocab_size = 11;
    c.emb_size = 16;
    c.head_size = 4;
    c.n_layer = 2;
    c.sequence_len = 8;
    c.dropout = 0.0;
    variant(c);
    return c;
}

torch::Tensor linearOf(const torch::Tensor& x, const torch::nn::Linear& l) {
    return torch::linear(x, l->weight, l->bias);  // an undefined bias: none
}

torch::Tensor normOf(const torch::Tensor& x, const torch::nn::LayerNorm& n) {
    return torch::layer_norm(x, {x.size(-1)}, n->weight, n->bias, 1e-5);
}

// The forward pass written out for every head, as the three projects write it.
torch::Tensor byHand(CharGPT& model, const torch::Tensor& idx) {
    const ModelConfig& c = model->config();
    const int64_t T = idx.size(1), C = c.emb_size, H = c.head_size;
    auto x = model->token_emb->weight.index({idx}) + model->pos_emb->weight.narrow(0, 0, T);
    const auto mask = torch::ones({T, T}).tril();
    for (std::size_t i = 0; i < model->blocks->size(); ++i) {
        auto* block = model->blocks[i]->as<BlockImpl>();
        const auto h = normOf(x, block->l1);
        const auto qkv = linearOf(h, block->mha->qkv);  // (B, T, 3C)
        std::vector<torch::Tensor> heads;
        for (int64_t k = 0; k < c.n_head(); ++k) {
            const auto q = qkv.narrow(2, k * H, H), key = qkv.narrow(2, C + k * H, H), v = qkv.narrow(2, 2 * C + k * H, H);
            auto w = q.matmul(key.transpose(1, 2)) / std::sqrt(double(H));
            w = torch::softmax(w.masked_fill(mask == 0, -INFINITY), -1);
            heads.push_back(w.matmul(v));
        }
        x = x + linearOf(torch::cat(heads, -1), block->mha->proj);
        const auto u = linearOf(normOf(x, block->l2), block->ff->ln1);
        const auto a = c.activation == ModelConfig::Relu       ? torch::relu(u)
                       : c.activation == ModelConfig::GeluTanh ? 0.5 * u * (1 + torch::tanh(std::sqrt(2.0 / M_PI) * (u + 0.044715 * u.pow(3))))
                                                               : torch::gelu(u);
        x = x + linearOf(a, block->ff->ln2);
    }
    const auto head = c.tied_head ? model->token_emb->weight : model->lm->weight;
    return torch::linear(normOf(x, model->l), head, model->lm->bias);
}

void TestArithmetic::forwardIsTheNetworkWrittenOut_data() {
    QTest::addColumn<Variant>("variant");
    QTest::newRow("book") << Variant([](RunConfig&) {});
    QTest::newRow("nanoGPT") << Variant([](RunConfig& c) { c.setNanoGptArithmetic(); });
    QTest::newRow("nanoGPT bias=False") << Variant([](RunConfig& c) {
        c.setNanoGptArithmetic();
        c.qkv_bias = c.biases = false;
    });
    QTest::newRow("minGPT") << Variant([](RunConfig& c) {
        c.activation = ModelConfig::GeluTanh;
        c.qkv_bias = true;
        c.head_bias = false;
    });
    QTest::newRow("lecture") << Variant([](RunConfig& c) { c.activation = ModelConfig::Relu; });
}

void TestArithmetic::forwardIsTheNetworkWrittenOut() {
    QFETCH(Variant, variant);
    const RunConfig c = small(variant);
    CharGPT model(c);
    model->eval();
    {
        torch::NoGradGuard noGrad;  // biases and norms away from 0 and 1, so that each one counts
        for (auto& p : model->parameters()) p.add_(torch::randn_like(p) * 0.3);
    }
    int64_t count = 0;
    std::set<std::string> names;
    for (const auto& item : model->named_parameters()) {
        count += item.value().numel();
        names.insert(item.key());
    }
    QCOMPARE(count, c.parameterCount());
    QCOMPARE(names.count("lm.weight"), std::size_t(!c.tied_head));
    QCOMPARE(names.count("lm.bias"), std::size_t(c.head_bias));
    QCOMPARE(names.count("blocks.0.l1.bias"), std::size_t(c.biases));
    QCOMPARE(names.count("blocks.1.mha.qkv.bias"), std::size_t(c.qkv_bias));
    QCOMPARE(Decoder::supports(model), c.isBookArithmetic());

    const auto idx = torch::randint(0, c.vocab_size, {2, c.sequence_len}, torch::kInt64);
    // A training step's backward pass reaches every parameter, with the fused
    // kernels where the arithmetic is theirs and plain operators elsewhere.
    model->train();
    torch::nn::functional::cross_entropy(model->forward(idx).view({-1, c.vocab_size}), idx.view({-1})).backward();
    for (const auto& item : model->named_parameters())
        QVERIFY2(item.value().grad().defined() && torch::isfinite(item.value().grad()).all().item<bool>(),
                 item.key().c_str());
    model->eval();
    torch::NoGradGuard noGrad;
    const auto logits = model->forward(idx);
    const auto expected = byHand(model, idx);
    QVERIFY2(torch::allclose(logits, expected, 1e-4, 1e-5),
             qPrintable(QString::number((logits - expected).abs().max().item<double>())));
    // The cached forward, one position at a time, as generation runs it.
    KVCache cache = model->makeCache(2);
    for (int64_t t = 0; t < c.sequence_len; ++t) {
        const auto step = model->forwardCached(idx.narrow(1, t, 1), cache);
        QVERIFY(torch::allclose(step.squeeze(1), expected.select(1, t), 1e-4, 1e-5));
    }
}

void TestArithmetic::tiedHeadTrainsOneWeight() {
    RunConfig c = small([](RunConfig& r) { r.setNanoGptArithmetic(); });
    CharGPT model(c);
    QVERIFY(model->lm->weight.is_same(model->token_emb->weight));
    const auto idx = torch::randint(0, c.vocab_size, {2, c.sequence_len}, torch::kInt64);
    torch::nn::functional::cross_entropy(model->forward(idx).view({-1, c.vocab_size}), idx.view({-1})).backward();
    // One gradient, from the embedding and the head together.
    const auto grad = model->token_emb->weight.grad();
    QVERIFY(grad.defined());
    QVERIFY(grad.abs().sum().item<double>() > 0.0);
    CharGPT copy = cloneModel(model);
    QVERIFY(copy->lm->weight.is_same(copy->token_emb->weight));
    QVERIFY(!copy->token_emb->weight.is_same(model->token_emb->weight));
}

void TestArithmetic::settingsAreNamedAndKeptInFiles() {
    RunConfig c = small([](RunConfig& r) {
        r.activation = ModelConfig::Relu;
        r.biases = false;
        r.tied_head = true;
        r.head_bias = false;
    });
    QCOMPARE(c.arithmeticDifferences(),
             std::string("ReLU feed-forward, no biases in the LayerNorms and linear layers, head without bias, head tied "
                         "to the token embedding"));
    QCOMPARE(RunConfig().arithmeticDifferences(), std::string());
    RunConfig bad = c;
    bad.activation = 7;
    QVERIFY(bool(bad.validate()));

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    Checkpoint checkpoint;
    checkpoint.config = c;
    checkpoint.tokenizer = CharTokenizer::fromText(U"abcdefghij\n").withoutEndOfText();
    c.vocab_size = checkpoint.tokenizer.vocabSize();
    checkpoint.config = c;
    checkpoint.model = CharGPT(c);
    const std::string path = dir.filePath(QStringLiteral("relu.pt")).toStdString();
    saveCheckpoint(path, checkpoint);
    Checkpoint back = loadCheckpoint(path);
    QVERIFY(back.config.sameArchitecture(c));
    QCOMPARE(back.config.activation, int64_t(ModelConfig::Relu));
    QVERIFY(back.tokenizer == checkpoint.tokenizer);
    QVERIFY(back.model->lm->weight.is_same(back.model->token_emb->weight));
    QVERIFY(torch::equal(back.model->token_emb->weight.cpu(), checkpoint.model->token_emb->weight));
}

CHARGPT_TEST_GUILESS_MAIN(TestArithmetic)
}  // namespace tst_arithmetic
#include "tst_arithmetic.moc"
