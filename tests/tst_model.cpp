// SPDX-License-Identifier: GPL-3.0-or-later
// RunConfig validation and presets; CharGPT causality, attention weights, the
// fused attention against a per-head reference, and the key/value cache.
#include <torch/torch.h>
#include <ATen/autocast_mode.h>

#include "model/nn/CharGPT.h"
#include "model/runtime/Error.h"
#include "model/runtime/CachingAllocator.h"
#include "model/nn/kernels/Dropout.h"
#include "model/nn/kernels/PackedAttention.h"
#include "model/nn/kernels/GeluLinear.h"
#include "model/nn/kernels/NormLinear.h"
#include "model/runtime/Runtime.h"
#include "model/train/RunConfig.h"

#include "TestProgram.h"

#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace tst_model {

using chargpt::CharGPT;
using chargpt::RunConfig;

using ConfigChange = std::function<void(RunConfig&)>;
}  // namespace tst_model
Q_DECLARE_METATYPE(tst_model::ConfigChange)
namespace tst_model {

namespace {

RunConfig tinyConfig(int64_t vocab) {
    RunConfig c = *RunConfig::preset("tiny");
    c.vocab_size = vocab;
    c.dropout = 0.0;
    return c;
}

double maxAbsDiff(const torch::Tensor& a, const torch::Tensor& b) {
    return (a - b).abs().max().item<double>();
}

// The seed's MaskedMultiHeadAttention, one head at a time, from slices of the
// fused qkv weight: head h is rows [h*H, (h+1)*H) of the q, k and v thirds.
torch::Tensor referenceAttention(chargpt::CausalSelfAttentionImpl& mha, const torch::Tensor& x,
                                 int64_t nHead, int64_t H, torch::Tensor& weights) {
    const int64_t T = x.size(1), C = x.size(2);
    const torch::Tensor W = mha.qkv->weight;  // (3C, C)
    const torch::Tensor tril = torch::tril(torch::ones({T, T}));
    std::vector<torch::Tensor> outs, ws;
    for (int64_t h = 0; h < nHead; ++h) {
        const torch::Tensor Wq = W.slice(0, h * H, (h + 1) * H);
        const torch::Tensor Wk = W.slice(0, C + h * H, C + (h + 1) * H);
        const torch::Tensor Wv = W.slice(0, 2 * C + h * H, 2 * C + (h + 1) * H);
        const torch::Tensor k = x.matmul(Wk.t());  // (B, T, H)
        const torch::Tensor q = x.matmul(Wq.t());
        const torch::Tensor v = x.matmul(Wv.t());
        torch::Tensor scores = q.matmul(k.transpose(-2, -1)) / std::sqrt(double(H));
        scores = scores.masked_fill(tril == 0, -std::numeric_limits<float>::infinity());
        const torch::Tensor w = torch::softmax(scores, -1);
        ws.push_back(w);
        outs.push_back(w.matmul(v));
    }
    weights = torch::stack(ws, 1);  // (B, heads, T, T)
    return mha.proj->forward(torch::cat(outs, -1));
}

}  // namespace

class TestModel : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void validateRejects_data();
    void validateRejects();
    void presets_data();
    void presets();
    void bookPreset();
    void modelRefusesBadConfig();
    void causality();
    void attentionWeights();
    void attentionMatchesPerHeadReference();
    void forwardVariantsAgree();
    void attentionMapsScoresAndWeights();
    void attentionMapsIgnoreDropout();
    void packedAttentionMatchesComposite_data();
    void packedAttentionMatchesComposite();
    void cachedForwardMatchesFull_data();
    void cachedForwardMatchesFull();
    void geluLinearMatchesUnfused_data();
    void geluLinearMatchesUnfused();
    void normLinearMatchesUnfused_data();
    void normLinearMatchesUnfused();
    void dropoutMaskAndGradient_data();
    void dropoutMaskAndGradient();
    void cachingAllocatorReusesBlocks();
};

void TestModel::initTestCase() { torch::manual_seed(12046); }

void TestModel::validateRejects_data() {
    QTest::addColumn<ConfigChange>("change");
    QTest::addColumn<QString>("mentions");  // the message names the setting

    QTest::newRow("emb not divisible by head") << ConfigChange([](RunConfig& c) { c.emb_size = 100; c.head_size = 32; })
                                               << "emb|head";
    QTest::newRow("emb 0") << ConfigChange([](RunConfig& c) { c.emb_size = 0; }) << "emb";
    QTest::newRow("emb negative") << ConfigChange([](RunConfig& c) { c.emb_size = -128; }) << "emb";
    QTest::newRow("head 0") << ConfigChange([](RunConfig& c) { c.head_size = 0; }) << "head";
    QTest::newRow("head negative") << ConfigChange([](RunConfig& c) { c.head_size = -8; }) << "head";
    QTest::newRow("layers 0") << ConfigChange([](RunConfig& c) { c.n_layer = 0; }) << "layer";
    QTest::newRow("layers negative") << ConfigChange([](RunConfig& c) { c.n_layer = -2; }) << "layer";
    QTest::newRow("sequence_len 1") << ConfigChange([](RunConfig& c) { c.sequence_len = 1; }) << "sequence|context";
    QTest::newRow("sequence_len 0") << ConfigChange([](RunConfig& c) { c.sequence_len = 0; }) << "sequence|context";
    QTest::newRow("dropout 1.0") << ConfigChange([](RunConfig& c) { c.dropout = 1.0; }) << "dropout";
    QTest::newRow("dropout -0.1") << ConfigChange([](RunConfig& c) { c.dropout = -0.1; }) << "dropout";
    QTest::newRow("batch 0") << ConfigChange([](RunConfig& c) { c.batch_size = 0; }) << "batch";
    QTest::newRow("batch negative") << ConfigChange([](RunConfig& c) { c.batch_size = -1; }) << "batch";
    QTest::newRow("lr 0") << ConfigChange([](RunConfig& c) { c.learning_rate = 0.0; }) << "learning|lr";
    QTest::newRow("lr negative") << ConfigChange([](RunConfig& c) { c.learning_rate = -1e-3; }) << "learning|lr";
    QTest::newRow("lr NaN") << ConfigChange([](RunConfig& c) { c.learning_rate = std::nan(""); }) << "learning|lr";
    QTest::newRow("vocab 70000") << ConfigChange([](RunConfig& c) { c.vocab_size = 70000; }) << "vocab";
    QTest::newRow("vocab negative") << ConfigChange([](RunConfig& c) { c.vocab_size = -5; }) << "vocab";
}

void TestModel::validateRejects() {
    QFETCH(ConfigChange, change);
    QFETCH(QString, mentions);
    RunConfig c = *RunConfig::preset("fast");
    c.vocab_size = 65;
    QCOMPARE(QString::fromStdString(c.validate().message()), QString());  // the starting point is fine
    change(c);
    const QString why = QString::fromStdString(c.validate().message());
    QVERIFY2(!why.isEmpty(), "a bad setting was accepted");
    QVERIFY2(why.contains(QRegularExpression(mentions, QRegularExpression::CaseInsensitiveOption)),
             qPrintable("the reason does not name the setting: " + why));
}

void TestModel::presets_data() {
    QTest::addColumn<QString>("name");
    for (const char* n : {"book", "fast", "tiny"}) QTest::newRow(n) << QString(n);
}

void TestModel::presets() {
    QFETCH(QString, name);
    const std::vector<std::string> names = RunConfig::presetNames();
    QVERIFY(std::find(names.begin(), names.end(), name.toStdString()) != names.end());

    std::optional<RunConfig> c = RunConfig::preset(name.toStdString());
    QVERIFY(c.has_value());
    QCOMPARE(QString::fromStdString(c->validate().message()), QString());  // vocab_size 0: not known yet
    c->vocab_size = 65;
    QCOMPARE(QString::fromStdString(c->validate().message()), QString());
    QCOMPARE(c->n_head() * c->head_size, c->emb_size);

    // parameterCount() agrees with the model actually built.
    const CharGPT model(*c);
    int64_t actual = 0;
    for (const torch::Tensor& p : model->parameters()) actual += p.numel();
    QCOMPARE(c->parameterCount(), actual);

    QVERIFY(!RunConfig::preset("no-such-preset").has_value());
}

void TestModel::bookPreset() {
    const RunConfig c = *RunConfig::preset("book");
    QCOMPARE(c.emb_size, int64_t(128));
    QCOMPARE(c.head_size, int64_t(8));
    QCOMPARE(c.n_head(), int64_t(16));
    QCOMPARE(c.n_layer, int64_t(12));
    QCOMPARE(c.sequence_len, int64_t(64));
    QCOMPARE(c.dropout, 0.4);
    QCOMPARE(c.batch_size, int64_t(64));
    QCOMPARE(c.learning_rate, 1e-3);

    // `fast` and `book` multiply in bfloat16 exactly where the CPU does so
    // natively (on other CPUs emulated bf16 would be slower than float32);
    // `tiny` stays in float32.
    const RunConfig fast = *RunConfig::preset("fast");
    QCOMPARE(fast.bf16, chargpt::cpuHasFastBf16());
    QCOMPARE(c.bf16, chargpt::cpuHasFastBf16());
    QVERIFY(!RunConfig::preset("tiny")->bf16);
    // The CPU's own report agrees (Linux names the flags in /proc/cpuinfo).
    QFile cpuinfo(QStringLiteral("/proc/cpuinfo"));
    if (cpuinfo.open(QIODevice::ReadOnly)) {
        const QByteArray flags = cpuinfo.readAll();
        const bool listed = flags.contains(" avx512_bf16") || flags.contains(" amx_bf16");
        QCOMPARE(chargpt::cpuHasFastBf16(), listed);
    }
}

void TestModel::modelRefusesBadConfig() {
    RunConfig c = tinyConfig(65);
    c.emb_size = 30;  // not divisible by head_size 8
    QVERIFY_THROWS_EXCEPTION(chargpt::Error, CharGPT{c});
    RunConfig noVocab = tinyConfig(0);
    QVERIFY_THROWS_EXCEPTION(chargpt::Error, CharGPT{noVocab});
}

void TestModel::causality() {
    torch::NoGradGuard noGrad;
    torch::manual_seed(1);
    const RunConfig c = tinyConfig(20);
    CharGPT model(c);
    model->eval();
    const int64_t T = c.sequence_len;
    const torch::Tensor idx = torch::randint(1, 20, {3, T}, torch::kInt64);
    const torch::Tensor logits = model->forward(idx);
    QCOMPARE(logits.sizes().vec(), (std::vector<int64_t>{3, T, 20}));

    for (int64_t t = 0; t + 1 < T; ++t) {
        torch::Tensor changed = idx.clone();
        // Every token after t replaced by a different one.
        changed.slice(1, t + 1, T) = (idx.slice(1, t + 1, T) + torch::randint(1, 19, {3, T - t - 1}, torch::kInt64)) % 20;
        QVERIFY(!torch::equal(changed.slice(1, t + 1, T), idx.slice(1, t + 1, T)));
        const torch::Tensor other = model->forward(changed);
        QVERIFY2(torch::equal(other.slice(1, 0, t + 1), logits.slice(1, 0, t + 1)),
                 qPrintable(QStringLiteral("a later token changed the logits at or before position %1").arg(t)));
        // ...while the changed positions do see their own tokens.
        QVERIFY(!torch::equal(other.slice(1, t + 1, T), logits.slice(1, t + 1, T)));
    }

    // A shorter input gives the same logits as the prefix of a longer one.
    const torch::Tensor prefix = model->forward(idx.slice(1, 0, 5));
    QVERIFY(maxAbsDiff(prefix, logits.slice(1, 0, 5)) <= 1e-5);
}

void TestModel::attentionWeights() {
    torch::NoGradGuard noGrad;
    torch::manual_seed(2);
    const RunConfig c = tinyConfig(30);
    CharGPT model(c);
    model->eval();
    const int64_t B = 2, T = c.sequence_len;
    const torch::Tensor idx = torch::randint(0, 30, {B, T}, torch::kInt64);
    const auto [logits, weights] = model->forwardWithAttention(idx);
    QCOMPARE(weights.sizes().vec(), (std::vector<int64_t>{c.n_layer, B, c.n_head(), T, T}));
    QVERIFY(maxAbsDiff(logits, model->forward(idx)) <= 1e-5);

    // Rows are probability distributions...
    QVERIFY(weights.min().item<float>() >= 0.0f);
    QVERIFY(maxAbsDiff(weights.sum(-1), torch::ones({c.n_layer, B, c.n_head(), T})) <= 1e-5);
    // ...that give exactly nothing to the future.
    const torch::Tensor future = torch::ones({T, T}, torch::kBool).triu(1);
    QVERIFY(torch::equal(weights.masked_select(future), torch::zeros({c.n_layer * B * c.n_head() * T * (T - 1) / 2})));
    // The first position can only attend to itself.
    QVERIFY(torch::equal(weights.select(3, 0).select(3, 0), torch::ones({c.n_layer, B, c.n_head()})));

    // A shorter input: shape follows T.
    const auto [shortLogits, shortWeights] = model->forwardWithAttention(idx.slice(1, 0, 3));
    QCOMPARE(shortWeights.sizes().vec(), (std::vector<int64_t>{c.n_layer, B, c.n_head(), 3, 3}));
    QCOMPARE(shortLogits.sizes().vec(), (std::vector<int64_t>{B, 3, 30}));
}

void TestModel::attentionMatchesPerHeadReference() {
    torch::NoGradGuard noGrad;
    torch::manual_seed(3);
    const RunConfig c = tinyConfig(25);
    CharGPT model(c);
    model->eval();
    // Larger weights than the initialisation so the softmax is far from uniform.
    for (torch::Tensor& p : model->parameters()) p.normal_(0.0, 0.3);
    const int64_t B = 2, T = c.sequence_len, H = c.head_size, nh = c.n_head();

    // Each layer's attention on its own, on random input.
    for (std::size_t i = 0; i < model->blocks->size(); ++i) {
        auto& mha = *model->blocks[i]->as<chargpt::BlockImpl>()->mha;
        const torch::Tensor x = torch::randn({B, T, c.emb_size});
        torch::Tensor weights, refWeights;
        chargpt::LayerExtras extras;
        extras.weights = &weights;
        const torch::Tensor y = mha.forward(x, nullptr, extras);
        const torch::Tensor ref = referenceAttention(mha, x, nh, H, refWeights);
        QCOMPARE(y.sizes().vec(), (std::vector<int64_t>{B, T, c.emb_size}));
        QVERIFY2(maxAbsDiff(y, ref) <= 1e-5, qPrintable(QString::number(maxAbsDiff(y, ref))));
        QCOMPARE(weights.sizes().vec(), refWeights.sizes().vec());
        QVERIFY(maxAbsDiff(weights, refWeights) <= 1e-5);
    }

    // The weights reported by forwardWithAttention are those of each layer's
    // input, following the seed's pre-norm block: x + mha(l1(x)), then + ff(l2(.)).
    const torch::Tensor idx = torch::randint(0, 25, {B, T}, torch::kInt64);
    const auto [logits, weights] = model->forwardWithAttention(idx);
    torch::Tensor h = model->token_emb->forward(idx) + model->pos_emb->forward(torch::arange(T));
    for (std::size_t i = 0; i < model->blocks->size(); ++i) {
        auto* block = model->blocks[i]->as<chargpt::BlockImpl>();
        torch::Tensor refWeights;
        const torch::Tensor att = referenceAttention(*block->mha, block->l1->forward(h), nh, H, refWeights);
        QVERIFY2(maxAbsDiff(weights[int64_t(i)], refWeights) <= 1e-5, qPrintable(QStringLiteral("layer %1").arg(i)));
        h = h + att;
        h = h + block->ff->ln2->forward(torch::gelu(block->ff->ln1->forward(block->l2->forward(h))));
    }
    const torch::Tensor refLogits = model->lm->forward(model->l->forward(h));
    QVERIFY2(maxAbsDiff(logits, refLogits) <= 1e-4, qPrintable(QString::number(maxAbsDiff(logits, refLogits))));
}

// The forward pass's options change what it reports, never the logits: with or
// without the attention weights, with the scores (the unfused attention), and
// one cached position at a time.
void TestModel::forwardVariantsAgree() {
    torch::NoGradGuard noGrad;
    torch::manual_seed(8);
    const RunConfig c = tinyConfig(30);
    CharGPT model(c);
    model->eval();
    for (torch::Tensor& p : model->parameters()) p.normal_(0.0, 0.2);
    const int64_t B = 2, T = c.sequence_len;
    const torch::Tensor idx = torch::randint(0, 30, {B, T}, torch::kInt64);
    const torch::Tensor logits = model->forward(idx);
    QVERIFY(torch::equal(model->forwardWithAttention(idx).first, logits));
    const chargpt::AttentionMaps maps = model->attentionMaps(idx);
    QVERIFY2(maxAbsDiff(maps.logits, logits) <= 1e-5, qPrintable(QString::number(maxAbsDiff(maps.logits, logits))));

    // Cached decoding, one position at a time: each step's logits are those of
    // the full pass at that position.
    chargpt::KVCache cache = model->makeCache(B);
    for (int64_t t = 0; t < T; ++t) {
        const torch::Tensor step = model->forwardCached(idx.slice(1, t, t + 1), cache);  // (B, 1, vocab)
        QVERIFY2(maxAbsDiff(step.select(1, 0), logits.select(1, t)) <= 1e-5,
                 qPrintable(QStringLiteral("position %1: %2").arg(t).arg(maxAbsDiff(step.select(1, 0), logits.select(1, t)))));
    }
    QCOMPARE(cache.length, T);
    // A full cache refuses a further position rather than reading past it.
    QVERIFY_THROWS_EXCEPTION(chargpt::Error, model->forwardCached(idx.slice(1, 0, 1), cache));

    // A future token never changes a past logit, score or weight, in any variant.
    torch::Tensor changed = idx.clone();
    changed.select(1, T - 1) = (idx.select(1, T - 1) + 1) % 30;
    const chargpt::AttentionMaps other = model->attentionMaps(changed);
    QVERIFY(torch::equal(other.logits.slice(1, 0, T - 1), maps.logits.slice(1, 0, T - 1)));
    QVERIFY(!torch::equal(other.logits.select(1, T - 1), maps.logits.select(1, T - 1)));
    QVERIFY(torch::equal(other.scores.slice(3, 0, T - 1).slice(4, 0, T - 1),
                         maps.scores.slice(3, 0, T - 1).slice(4, 0, T - 1)));
    QVERIFY(torch::equal(other.weights.slice(3, 0, T - 1), maps.weights.slice(3, 0, T - 1)));
    QVERIFY(torch::equal(model->forwardWithAttention(changed).second.slice(3, 0, T - 1),
                         model->forwardWithAttention(idx).second.slice(3, 0, T - 1)));
}

// attentionMaps: the scores are q.kT/sqrt(H) of each head at its layer's input,
// before the mask (finite above the diagonal too); the weights are the softmax
// of the masked scores and the same as the fused attention reports.
void TestModel::attentionMapsScoresAndWeights() {
    torch::NoGradGuard noGrad;
    torch::manual_seed(9);
    const RunConfig c = tinyConfig(25);
    CharGPT model(c);
    model->eval();
    for (torch::Tensor& p : model->parameters()) p.normal_(0.0, 0.3);
    const int64_t B = 2, T = c.sequence_len, C = c.emb_size, H = c.head_size, nh = c.n_head();
    const torch::Tensor idx = torch::randint(0, 25, {B, T}, torch::kInt64);
    const chargpt::AttentionMaps maps = model->attentionMaps(idx);
    const std::vector<int64_t> shape{c.n_layer, B, nh, T, T};
    QCOMPARE(maps.scores.sizes().vec(), shape);
    QCOMPARE(maps.weights.sizes().vec(), shape);
    QVERIFY(torch::isfinite(maps.scores).all().item<bool>());

    const torch::Tensor future = torch::ones({T, T}, torch::kBool).triu(1);
    const torch::Tensor expected =
        torch::softmax(maps.scores.masked_fill(future, -std::numeric_limits<float>::infinity()), -1);
    QVERIFY2(maxAbsDiff(maps.weights, expected) <= 1e-6, qPrintable(QString::number(maxAbsDiff(maps.weights, expected))));
    const torch::Tensor fused = model->forwardWithAttention(idx).second;
    QVERIFY2(maxAbsDiff(maps.weights, fused) <= 1e-5, qPrintable(QString::number(maxAbsDiff(maps.weights, fused))));

    // The scores by hand, head by head, at each layer's input.
    torch::Tensor h = model->token_emb->forward(idx) + model->pos_emb->forward(torch::arange(T));
    for (int64_t i = 0; i < c.n_layer; ++i) {
        auto* block = model->blocks[i]->as<chargpt::BlockImpl>();
        const torch::Tensor x = block->l1->forward(h);
        const torch::Tensor W = block->mha->qkv->weight;  // (3C, C)
        for (int64_t head = 0; head < nh; ++head) {
            const torch::Tensor q = x.matmul(W.slice(0, head * H, (head + 1) * H).t());          // (B, T, H)
            const torch::Tensor k = x.matmul(W.slice(0, C + head * H, C + (head + 1) * H).t());  // (B, T, H)
            const torch::Tensor ref = q.matmul(k.transpose(1, 2)) / std::sqrt(double(H));         // (B, T, T)
            const torch::Tensor got = maps.scores[i].select(1, head);
            QVERIFY2(maxAbsDiff(got, ref) <= 1e-4, qPrintable(QStringLiteral("layer %1 head %2: %3")
                                                                  .arg(i).arg(head).arg(maxAbsDiff(got, ref))));
        }
        h = block->forward(h);
    }
}

// With dropout, a model in training mode gives the same maps at every call (none
// is applied), equal to those in evaluation mode, and stays in training mode.
void TestModel::attentionMapsIgnoreDropout() {
    torch::manual_seed(10);
    RunConfig c = tinyConfig(20);
    c.dropout = 0.5;
    CharGPT model(c);
    QVERIFY(model->is_training());
    const torch::Tensor idx = torch::randint(0, 20, {1, c.sequence_len}, torch::kInt64);
    const chargpt::AttentionMaps first = model->attentionMaps(idx);
    const chargpt::AttentionMaps second = model->attentionMaps(idx);
    QVERIFY(model->is_training());
    QVERIFY(torch::GradMode::is_enabled());
    QVERIFY(!first.logits.requires_grad());
    QVERIFY(torch::equal(first.weights, second.weights));
    QVERIFY(torch::equal(first.logits, second.logits));
    // Training mode does apply dropout elsewhere: the plain pass differs from call to call.
    QVERIFY(!torch::equal(model->forward(idx), model->forward(idx)));
    model->eval();
    const chargpt::AttentionMaps evaluated = model->attentionMaps(idx);
    QVERIFY(torch::equal(evaluated.weights, first.weights));
    QVERIFY(torch::equal(evaluated.scores, first.scores));
}

void TestModel::cachedForwardMatchesFull_data() {
    QTest::addColumn<QList<int>>("pieces");
    QTest::newRow("whole prompt") << QList<int>{16};
    QTest::newRow("uneven pieces") << QList<int>{3, 1, 5, 1, 6};
    QTest::newRow("one at a time") << QList<int>(16, 1);
    QTest::newRow("short prompt") << QList<int>{2, 1, 1};
}

void TestModel::cachedForwardMatchesFull() {
    QFETCH(QList<int>, pieces);
    torch::NoGradGuard noGrad;
    torch::manual_seed(4);
    const RunConfig c = tinyConfig(40);
    QCOMPARE(c.sequence_len, int64_t(16));  // the pieces above fill the tiny context
    CharGPT model(c);
    model->eval();
    for (torch::Tensor& p : model->parameters()) p.normal_(0.0, 0.2);

    int total = 0;
    for (int n : pieces) total += n;
    const int64_t B = 2;
    const torch::Tensor idx = torch::randint(0, 40, {B, total}, torch::kInt64);
    const torch::Tensor full = model->forward(idx);

    chargpt::KVCache cache = model->makeCache(B);
    QCOMPARE(cache.length, int64_t(0));
    std::vector<torch::Tensor> parts;
    int64_t at = 0;
    for (int n : pieces) {
        parts.push_back(model->forwardCached(idx.slice(1, at, at + n), cache));
        at += n;
        QCOMPARE(cache.length, at);
    }
    const torch::Tensor cached = torch::cat(parts, 1);
    QCOMPARE(cached.sizes().vec(), full.sizes().vec());
    QVERIFY2(maxAbsDiff(cached, full) <= 1e-5, qPrintable(QString::number(maxAbsDiff(cached, full))));

    // After reset() the cache starts over and gives the same answers again.
    cache.reset();
    const torch::Tensor again = model->forwardCached(idx.slice(1, 0, pieces.front()), cache);
    QVERIFY(maxAbsDiff(again, full.slice(1, 0, pieces.front())) <= 1e-5);
}

// The hand-written attention kernel against LibTorch's own operations, computed
// in float32 on the same inputs (for bf16, the inputs rounded to bf16: the
// kernel computes in float32 and rounds only its results): outputs, weights and
// the gradient of qkv.
void TestModel::packedAttentionMatchesComposite_data() {
    QTest::addColumn<int>("batch");
    QTest::addColumn<int>("heads");
    QTest::addColumn<int>("length");
    QTest::addColumn<int>("headSize");
    QTest::addColumn<bool>("bf16");
    QTest::newRow("book-like H=8") << 2 << 16 << 64 << 8 << false;
    QTest::newRow("book-like H=8, bf16") << 2 << 16 << 64 << 8 << true;
    QTest::newRow("fast-like H=32") << 2 << 4 << 64 << 32 << false;
    QTest::newRow("fast-like H=32, bf16") << 2 << 4 << 64 << 32 << true;
    QTest::newRow("H=5 padded to 8, T=7") << 3 << 3 << 7 << 5 << false;
    QTest::newRow("H=20 padded to 32, T=40, bf16") << 1 << 2 << 40 << 20 << true;
    QTest::newRow("H=64, T=17") << 1 << 2 << 17 << 64 << false;
    QTest::newRow("H=16, one position") << 2 << 2 << 1 << 16 << false;
}

void TestModel::packedAttentionMatchesComposite() {
    QFETCH(int, batch);
    QFETCH(int, heads);
    QFETCH(int, length);
    QFETCH(int, headSize);
    QFETCH(bool, bf16);
    torch::manual_seed(21);
    const auto type = bf16 ? torch::kBFloat16 : torch::kFloat32;
    const int64_t C = int64_t(heads) * headSize;
    auto qkv = (torch::randn({batch, length, 3 * C}) * 1.5).to(type).requires_grad_();
    const double scale = 1.0 / std::sqrt(double(headSize));
    const torch::Tensor upstream = torch::randn({batch, length, C}).to(type);
    QVERIFY(chargpt::packedAttentionSupported(qkv, heads));

    torch::Tensor weights;
    const torch::Tensor fused = chargpt::packedCausalAttention(qkv, heads, scale, &weights);  // (B, T, C)
    QCOMPARE(fused.scalar_type(), type);
    QCOMPARE(fused.sizes().vec(), (std::vector<int64_t>{batch, length, C}));
    fused.backward(upstream);
    const torch::Tensor dFused = qkv.grad().to(torch::kFloat32);

    auto x = qkv.detach().to(torch::kFloat32).requires_grad_();
    const auto parts = x.split(C, 2);
    auto toHeads = [&](const torch::Tensor& t) { return t.view({batch, length, heads, headSize}).transpose(1, 2); };
    const auto future = torch::ones({length, length}, torch::kBool).triu(1);
    const auto scores = torch::matmul(toHeads(parts[0]), toHeads(parts[1]).transpose(-1, -2)) * scale;
    const auto att = torch::softmax(scores.masked_fill(future, -std::numeric_limits<float>::infinity()), -1);
    const auto out = torch::matmul(att, toHeads(parts[2])).transpose(1, 2).reshape({batch, length, C});
    out.backward(upstream.to(torch::kFloat32));

    const double tolerance = bf16 ? 1e-2 : 1e-5;  // bf16: the output's own rounding (2^-8)
    QVERIFY2(torch::allclose(fused.to(torch::kFloat32), out, tolerance, tolerance),
             qPrintable(QString::number(maxAbsDiff(fused.to(torch::kFloat32), out))));
    QCOMPARE(weights.scalar_type(), torch::kFloat32);
    QVERIFY(torch::allclose(weights, att.detach(), 1e-5, 1e-6));
    const auto masked = weights.masked_select(future.expand_as(weights));
    QVERIFY(torch::equal(masked, torch::zeros({masked.numel()})));
    QVERIFY(torch::allclose(weights.sum(-1), torch::ones({batch, heads, length}), 1e-5, 1e-5));
    const double gradTolerance = bf16 ? 2e-2 : 1e-4;
    const char* names[] = {"dq differs", "dk differs", "dv differs"};
    for (int part = 0; part < 3; ++part) {
        const auto got = dFused.narrow(2, part * C, C), expected = x.grad().narrow(2, part * C, C);
        QVERIFY2(torch::allclose(got, expected, gradTolerance, gradTolerance),
                 qPrintable(QString("%1 by %2").arg(names[part]).arg(maxAbsDiff(got, expected))));
        if (length > 1 || part == 2) QVERIFY(expected.abs().sum().item<double>() > 0.0);
    }
}

void TestModel::geluLinearMatchesUnfused_data() {
    QTest::addColumn<bool>("bf16");
    QTest::addColumn<int>("width");
    QTest::newRow("fp32") << false << 32;
    QTest::newRow("bf16 autocast") << true << 32;
    // 3 x 7 x 37 = 777 values: whole vectors of 16, then a rest of 9.
    QTest::newRow("fp32, not a multiple of 16") << false << 37;
    QTest::newRow("bf16 autocast, not a multiple of 16") << true << 37;
}

// The feed-forward's fused second half: same values and same gradients for the
// input, the weight and the bias as linear(gelu(u)) under autograd.
void TestModel::geluLinearMatchesUnfused() {
    QFETCH(bool, bf16);
    QFETCH(int, width);
    torch::manual_seed(5);
    // Spread to +-10 and beyond, where erf saturates and GELU's slope leaves 0 and 1.
    auto u = (torch::randn({3, 7, width}) * 3.0).requires_grad_();
    auto w = (torch::randn({16, width}) * 0.2).requires_grad_();
    auto b = torch::randn({16}, torch::requires_grad());
    auto target = torch::randn({3, 7, 16});
    auto run = [&](bool fused) {
        torch::Tensor out;
        if (bf16) {
            at::autocast::set_autocast_cpu_dtype(at::kBFloat16);
            at::autocast::set_cpu_enabled(true);
        }
        out = fused ? chargpt::geluLinear(u, w, b) : torch::linear(torch::gelu(u), w, b);
        if (bf16) {
            at::autocast::set_cpu_enabled(false);
            at::autocast::clear_cache();
        }
        (out.to(torch::kFloat32) * target).sum().backward();
        std::vector<torch::Tensor> r{out.detach().to(torch::kFloat32), u.grad().clone(), w.grad().clone(),
                                     b.grad().clone()};
        u.grad().zero_();
        w.grad().zero_();
        b.grad().zero_();
        return r;
    };
    const auto expected = run(false);
    const auto got = run(true);
    QCOMPARE(got[0].scalar_type(), torch::kFloat32);
    // bf16: each side rounds gelu(u) to 8 bits before summing 21 products, so a
    // value one unit apart on either side moves a sum by a few of its units; the
    // bound is 1% of the largest value instead of element by element.
    const double tolerance = 1e-5;
    const char* names[] = {"output", "input gradient", "weight gradient", "bias gradient"};
    for (int i = 0; i < 4; ++i)
        QVERIFY2(bf16 ? maxAbsDiff(got[std::size_t(i)], expected[std::size_t(i)]) <=
                            1e-2 * expected[std::size_t(i)].abs().max().item<double>()
                      : torch::allclose(got[std::size_t(i)], expected[std::size_t(i)], tolerance, tolerance),
                 qPrintable(QString("%1 by %2 (largest %3)")
                                .arg(names[i])
                                .arg(maxAbsDiff(got[std::size_t(i)], expected[std::size_t(i)]))
                                .arg(expected[std::size_t(i)].abs().max().item<double>())));
    QVERIFY(expected[2].abs().sum().item<double>() > 0.0);
}

void TestModel::normLinearMatchesUnfused_data() {
    QTest::addColumn<bool>("bf16");
    QTest::addColumn<bool>("withBias");
    QTest::newRow("fp32, bias") << false << true;
    QTest::newRow("fp32, no bias (qkv)") << false << false;
    QTest::newRow("bf16 autocast, bias") << true << true;
}

// LayerNorm then Linear, fused: same values and the same gradients for all five
// parameters as nn::LayerNorm followed by linear under autograd.
void TestModel::normLinearMatchesUnfused() {
    QFETCH(bool, bf16);
    QFETCH(bool, withBias);
    torch::manual_seed(6);
    auto x = (torch::randn({3, 7, 32}) * 2 + 0.5).requires_grad_();
    auto nw = (torch::rand({32}) + 0.5).requires_grad_();
    auto nb = (torch::randn({32}) * 0.1).requires_grad_();
    auto w = (torch::randn({48, 32}) * 0.2).requires_grad_();
    auto b = withBias ? torch::randn({48}, torch::requires_grad()) : torch::Tensor();
    auto target = torch::randn({3, 7, 48});
    std::vector<torch::Tensor> params{x, nw, nb, w};
    if (withBias) params.push_back(b);
    auto run = [&](bool fused) {
        if (bf16) {
            at::autocast::set_autocast_cpu_dtype(at::kBFloat16);
            at::autocast::set_cpu_enabled(true);
        }
        torch::Tensor out = fused ? chargpt::normLinear(x, nw, nb, w, b)
                                  : torch::linear(torch::layer_norm(x, {32}, nw, nb, 1e-5), w, b);
        if (bf16) {
            at::autocast::set_cpu_enabled(false);
            at::autocast::clear_cache();
        }
        (out.to(torch::kFloat32) * target).sum().backward();
        std::vector<torch::Tensor> r{out.detach().to(torch::kFloat32)};
        for (auto& p : params) {
            r.push_back(p.grad().clone());
            p.grad().zero_();
        }
        return r;
    };
    const auto expected = run(false);
    const auto got = run(true);
    const double tolerance = bf16 ? 3e-2 : 1e-4;
    for (std::size_t i = 0; i < expected.size(); ++i)
        QVERIFY2(torch::allclose(got[i], expected[i], tolerance, tolerance),
                 qPrintable(QString("output/gradient %1").arg(i)));
    QVERIFY(expected[2].abs().sum().item<double>() > 0.0);  // the norm's weight really learns
}

void TestModel::dropoutMaskAndGradient_data() {
    QTest::addColumn<double>("p");
    QTest::addColumn<bool>("bf16");
    QTest::newRow("p 0.4") << 0.4 << false;
    QTest::newRow("p 0.1") << 0.1 << false;
    QTest::newRow("p 0.4 bf16") << 0.4 << true;
    QTest::newRow("p 0.4, a size not a multiple of 16") << 0.4 << false;
    QTest::newRow("p 0.4 bf16, a size not a multiple of 16") << 0.4 << true;
}

// Inverted dropout keeps each element with probability 1 - p, scaled by
// 1 / (1 - p); the backward pass uses the very same mask (it is drawn again
// from the same seed, not stored).
void TestModel::dropoutMaskAndGradient() {
    QFETCH(double, p);
    QFETCH(bool, bf16);
    torch::manual_seed(77);
    const auto type = bf16 ? torch::kBFloat16 : torch::kFloat32;
    // Sixteen elements at a time, then the rest one by one: both draw from the
    // same rule, checked here on a size with a rest of 9.
    const bool odd = QByteArray(QTest::currentDataTag()).contains("multiple");
    const std::vector<int64_t> shape = odd ? std::vector<int64_t>{61, 67, 31} : std::vector<int64_t>{64, 64, 32};
    auto x = (torch::rand(shape) + 0.5).to(type).requires_grad_();
    auto out = chargpt::dropout(x, p, /*training=*/true);
    auto weights = torch::randn(shape).to(type);
    (out * weights).sum().backward();
    auto kept = out.detach() != 0;
    const double keptFraction = kept.to(torch::kFloat64).mean().item<double>();
    QVERIFY2(std::abs(keptFraction - (1.0 - p)) < 0.01, qPrintable(QString::number(keptFraction)));
    const double scale = 1.0 / (1.0 - p);
    const double tolerance = bf16 ? 1e-2 : 1e-6;
    auto ratio = out.detach().to(torch::kFloat64).masked_select(kept) /
                 x.detach().to(torch::kFloat64).masked_select(kept);
    QVERIFY(torch::allclose(ratio, torch::full_like(ratio, scale), tolerance, tolerance));
    auto grad = x.grad().to(torch::kFloat64);
    QVERIFY(grad.masked_select(~kept).abs().max().item<double>() == 0.0);
    auto expectedGrad = weights.to(torch::kFloat64).masked_select(kept) * scale;
    QVERIFY(torch::allclose(grad.masked_select(kept), expectedGrad, tolerance, tolerance));
    // A second call draws a new mask; evaluation mode is the identity.
    auto again = chargpt::dropout(x.detach(), p, true);
    QVERIFY(!torch::equal(again != 0, kept));
    QVERIFY(torch::equal(chargpt::dropout(x.detach(), p, false), x.detach()));
}

// Large tensors freed by one training step are what the next step asks for:
// the allocator hands the same memory back instead of asking the system again.
void TestModel::cachingAllocatorReusesBlocks() {
    chargpt::installCachingAllocator();
    chargpt::releaseCachedAllocatorMemory();
    const void* first = nullptr;
    {
        auto a = torch::full({512, 1024}, 3.0f);  // 2 MiB
        first = a.data_ptr();
        QCOMPARE(reinterpret_cast<uintptr_t>(first) % 64, uintptr_t(0));
        QCOMPARE(a.sum().item<double>(), 3.0 * 512 * 1024);
    }
    QVERIFY(chargpt::cachedAllocatorBytes() >= std::size_t(2) << 20);
    {
        auto b = torch::zeros({512, 1024});
        QCOMPARE(static_cast<const void*>(b.data_ptr()), first);
        QCOMPARE(b.sum().item<double>(), 0.0);  // zeros really are zeros on reused memory
        auto c = torch::ones({512, 1024});      // the cached block is taken: fresh memory
        QVERIFY(static_cast<const void*>(c.data_ptr()) != first);
        auto small = torch::arange(10);
        QCOMPARE(reinterpret_cast<uintptr_t>(small.data_ptr()) % 64, uintptr_t(0));
        QCOMPARE(small.sum().item<int64_t>(), int64_t(45));
    }
    chargpt::releaseCachedAllocatorMemory();
    QCOMPARE(chargpt::cachedAllocatorBytes(), std::size_t(0));
    // Blocks beyond the bound go back to the system rather than into the cache.
    {
        std::vector<torch::Tensor> many;
        for (int i = 0; i < 40; ++i) many.push_back(torch::empty({8 << 20}));  // 32 MiB each
    }
    QVERIFY(chargpt::cachedAllocatorBytes() <= std::size_t(256) << 20);
    QVERIFY(chargpt::cachedAllocatorBytes() >= std::size_t(200) << 20);
    // A full cache still takes a newly freed size (another model's): the blocks
    // freed longest ago make room for it.
    const void* fresh = nullptr;
    {
        auto t = torch::empty({3 << 18});  // 3 MiB, a size not cached
        fresh = t.data_ptr();
    }
    {
        auto again = torch::empty({3 << 18});
        QCOMPARE(static_cast<const void*>(again.data_ptr()), fresh);
    }
    QVERIFY(chargpt::cachedAllocatorBytes() <= std::size_t(256) << 20);
    chargpt::releaseCachedAllocatorMemory();
}

CHARGPT_TEST_GUILESS_MAIN(TestModel)
}  // namespace tst_model
#include "tst_model.moc"
