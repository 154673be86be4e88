// SPDX-License-Identifier: GPL-3.0-or-later
// RunConfig validation and presets; CharGPT causality, attention weights, the
// fused attention against a per-head reference, and the key/value cache.
#include <torch/torch.h>

#include "model/nn/CharGPT.h"
#include "model/runtime/CpuTier.h"
#include "model/runtime/Error.h"
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
    void cachedForwardMatchesFull_data();
    void cachedForwardMatchesFull();
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
        // Unless CHARGPT_CPU forced a lower tier, or this build has none.
        const bool capped = chargpt::cpuTier() < chargpt::cpuBestTier();
        QCOMPARE(chargpt::cpuHasFastBf16(), listed && !capped);
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

CHARGPT_TEST_GUILESS_MAIN(TestModel)
}  // namespace tst_model
#include "tst_model.moc"
