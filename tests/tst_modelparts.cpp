// SPDX-License-Identifier: GPL-3.0-or-later
// The switches of the network's parts (ModelConfig: positions, scaled
// attention, projection, feed-forward, residual connections with their norms,
// final norm) and the rungs of the architecture ladder built from them: each
// rung's forward pass and gradients against the same network written out in
// plain LibTorch operators from its weights, its parameters, its cached
// decoding, and the settings a model file may and may not claim.
#include <torch/torch.h>

#include "model/analysis/Ablation.h"
#include "model/analysis/EmbeddingMap.h"
#include "model/analysis/FeedForwardProbe.h"
#include "model/analysis/HeadRoles.h"
#include "model/analysis/LogitLens.h"
#include "model/analysis/ResidualStream.h"
#include "model/nn/CharGPT.h"
#include "model/nn/kernels/Decoder.h"
#include "model/runtime/Error.h"
#include "model/train/Ladder.h"
#include "model/train/Learning.h"
#include "model/train/RunConfig.h"

#include "TestProgram.h"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace tst_modelparts {

using chargpt::CharGPT;
using chargpt::RunConfig;

namespace {

// Rung `number` shrunk to a model of width 16 and context 8 over 13 tokens:
// one head of 16 where the rung has one head as wide as the model, else four
// of 4 (so that the packed attention kernel runs: heads of at most 64).
RunConfig tinyRung(int number) {
    RunConfig c = chargpt::ladderSettings(number);
    const bool oneWideHead = c.head_size == c.emb_size;
    c.emb_size = 16;
    c.head_size = oneWideHead ? 16 : 4;
    c.sequence_len = 8;
    c.vocab_size = 13;
    c.dropout = 0.0;
    return c;
}

torch::Tensor layerNorm(const torch::Tensor& x, const torch::nn::LayerNorm& norm) {
    return torch::layer_norm(x, {x.size(-1)}, norm->weight, norm->bias, 1e-5);
}

torch::Tensor linear(const torch::Tensor& x, const torch::nn::Linear& layer) {
    const torch::Tensor y = x.matmul(layer->weight.t());
    return layer->bias.defined() ? y + layer->bias : y;
}

// The network the switches describe, written out as the chapter writes it,
// one head at a time, from the model's own weights:
//   x = tok + pos (without positions: tok)
//   per layer: a = heads(x) (each softmax(mask(q kT / sqrt(H))) v, or without
//   the scale q kT), proj(a) when it has one; residual: x + that, with l1(x)
//   as the heads' input; then the feed-forward ln2(gelu(ln1(.))), likewise
//   x = l(x) with a final norm; logits = lm(x).
torch::Tensor handForward(CharGPT& model, const torch::Tensor& idx) {
    const chargpt::ModelConfig& c = model->config();
    const int64_t B = idx.size(0), T = idx.size(1), C = c.emb_size, H = c.head_size;
    torch::Tensor x = model->token_emb->weight.index_select(0, idx.flatten()).view({B, T, C});
    if (c.positions) x = x + model->pos_emb->weight.narrow(0, 0, T);
    const torch::Tensor future = torch::triu(torch::ones({T, T}, torch::kBool), 1);
    for (std::size_t i = 0; i < model->blocks->size(); ++i) {
        auto& block = *model->blocks[i]->as<chargpt::BlockImpl>();
        const torch::Tensor in = c.residual ? layerNorm(x, block.l1) : x;
        const torch::Tensor W = block.mha->qkv->weight;  // (3C, C): the q, k, v thirds, head h rows [hH, (h+1)H)
        std::vector<torch::Tensor> heads;
        for (int64_t h = 0; h < C / H; ++h) {
            const torch::Tensor q = in.matmul(W.narrow(0, h * H, H).t());          // (B, T, H)
            const torch::Tensor k = in.matmul(W.narrow(0, C + h * H, H).t());      // (B, T, H)
            const torch::Tensor v = in.matmul(W.narrow(0, 2 * C + h * H, H).t());  // (B, T, H)
            torch::Tensor scores = q.matmul(k.transpose(1, 2));                     // (B, T, T)
            if (c.scaled_attention) scores = scores / std::sqrt(double(H));
            scores = scores.masked_fill(future, -std::numeric_limits<float>::infinity());
            heads.push_back(torch::softmax(scores, -1).matmul(v));  // (B, T, H)
        }
        torch::Tensor a = torch::cat(heads, -1);  // (B, T, C)
        if (c.attention_projection) a = linear(a, block.mha->proj);
        x = c.residual ? x + a : a;
        if (c.feed_forward) {
            const torch::Tensor u = c.residual ? layerNorm(x, block.l2) : x;
            const torch::Tensor f = linear(torch::gelu(linear(u, block.ff->ln1)), block.ff->ln2);
            x = c.residual ? x + f : f;
        }
    }
    if (c.final_norm) x = layerNorm(x, model->l);
    return linear(x, model->lm);  // (B, T, vocab)
}

double maxAbsDiff(const torch::Tensor& a, const torch::Tensor& b) { return (a - b).abs().max().item<double>(); }

int64_t parametersOf(CharGPT& model) {
    int64_t n = 0;
    for (const auto& p : model->parameters()) n += p.numel();
    return n;
}

}  // namespace

class TestModelParts : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void wholeModelByDefault();
    void rungsAreTheChaptersOrder();
    void forwardIsTheHandWrittenNetwork_data() { addRungs(); }
    void forwardIsTheHandWrittenNetwork();
    void gradientsAreTheHandWrittenNetworks_data() { addRungs(); }
    void gradientsAreTheHandWrittenNetworks();
    void parametersAreCounted_data() { addRungs(); }
    void parametersAreCounted();
    void cachedDecodingMatchesTheForward_data() { addRungs(); }
    void cachedDecodingMatchesTheForward();
    void bigramIsTheHandWrittenExpression();
    void oneHeadIsTheHandWrittenExpression();
    void modelWithoutLayersHasNoAttentionMaps();
    void analysesOfRungs_data() { addRungs(); }
    void analysesOfRungs();
    void switchesAreValidated_data();
    void switchesAreValidated();
    void missingPartsAreNamed();
    void bigramFloor();

private:
    static void addRungs();
};

void TestModelParts::initTestCase() { torch::manual_seed(2024); }

void TestModelParts::wholeModelByDefault() {
    // Everything that existed before the switches builds the whole model.
    QVERIFY(RunConfig().isFull());
    for (const std::string& name : RunConfig::presetNames()) QVERIFY2(RunConfig::preset(name)->isFull(), name.c_str());
    QVERIFY(chargpt::ModelConfig().missingParts().empty());
    // The last rung is the fast preset's model.
    RunConfig top = chargpt::ladderSettings(chargpt::kLadderRungs), fast = *RunConfig::preset("fast");
    QVERIFY(top.isFull());
    QVERIFY(top.sameArchitecture(fast));
}

void TestModelParts::rungsAreTheChaptersOrder() {
    QCOMPARE(chargpt::kLadderRungs, 7);
    for (int n = 1; n <= chargpt::kLadderRungs; ++n) {
        const chargpt::LadderRung& rung = chargpt::kLadder[n - 1];
        QCOMPARE(rung.number, n);
        const RunConfig c = chargpt::ladderSettings(n);
        QCOMPARE(c.preset_name, std::string(rung.name));
        QVERIFY2(!c.validate(), rung.name);
        // Each rung is a preset, and only the last is the whole model.
        QVERIFY(RunConfig::preset(rung.name).has_value());
        QVERIFY(RunConfig::preset(rung.name)->sameArchitecture(c));
        QCOMPARE(c.isFull(), n == chargpt::kLadderRungs);
        QCOMPARE(chargpt::ladderRung(rung.name), &rung);
    }
    // What each adds, in the chapter's order.
    RunConfig r3 = chargpt::ladderSettings(3);
    const RunConfig r1 = chargpt::ladderSettings(1), r2 = chargpt::ladderSettings(2),
                    r4 = chargpt::ladderSettings(4), r5 = chargpt::ladderSettings(5), r6 = chargpt::ladderSettings(6),
                    r7 = chargpt::ladderSettings(7);
    QCOMPARE(r1.n_layer, int64_t(0));
    QVERIFY(!r1.positions && !r1.final_norm);
    QVERIFY(r2.positions && r2.n_layer == 1 && r2.n_head() == 1 && !r2.attention_projection && !r2.residual &&
            !r2.feed_forward && r2.scaled_attention && !r2.final_norm);
    QVERIFY(!r3.scaled_attention);
    r3.scaled_attention = true;
    QVERIFY(r3.sameArchitecture(r2));
    QVERIFY(r4.n_head() > 1 && r4.attention_projection && r4.scaled_attention && !r4.feed_forward);
    QVERIFY(r5.feed_forward && !r5.residual);
    QVERIFY(r6.residual && r6.n_layer == 1 && !r6.final_norm);
    QVERIFY(r7.final_norm && r7.n_layer > 1);
    // The same training for all.
    for (const RunConfig& c : {r1, r2, r3, r4, r5, r6}) {
        QCOMPARE(c.max_steps, r7.max_steps);
        QCOMPARE(c.batch_size, r7.batch_size);
        QCOMPARE(c.learning_rate, r7.learning_rate);
        QCOMPARE(c.sequence_len, r7.sequence_len);
        QCOMPARE(c.emb_size, r7.emb_size);
    }
    QVERIFY_THROWS_EXCEPTION(chargpt::Error, chargpt::ladderSettings(0));
    QVERIFY_THROWS_EXCEPTION(chargpt::Error, chargpt::ladderSettings(8));
    QVERIFY(!RunConfig::preset("ladder-8-nothing"));
}

void TestModelParts::addRungs() {
    QTest::addColumn<int>("rung");
    for (int n = 1; n <= chargpt::kLadderRungs; ++n) QTest::newRow(chargpt::kLadder[n - 1].name) << n;
}

void TestModelParts::forwardIsTheHandWrittenNetwork() {
    QFETCH(int, rung);
    CharGPT model(tinyRung(rung));
    const torch::Tensor idx = torch::randint(0, 13, {3, 8}, torch::kInt64);
    // Training mode with gradients: the fused kernels' path (the packed
    // attention of heads up to 64, with or without the scale).
    model->train();
    const torch::Tensor trained = model->forward(idx);
    // Without gradients: the unfused and cached kernels' path.
    model->eval();
    torch::Tensor evaluated;
    {
        torch::NoGradGuard noGrad;
        evaluated = model->forward(idx);
    }
    torch::Tensor expected;
    {
        torch::NoGradGuard noGrad;
        expected = handForward(model, idx);
    }
    QCOMPARE(trained.sizes(), expected.sizes());
    QVERIFY2(maxAbsDiff(trained, expected) < 1e-5, std::to_string(maxAbsDiff(trained, expected)).c_str());
    QVERIFY2(maxAbsDiff(evaluated, expected) < 1e-5, std::to_string(maxAbsDiff(evaluated, expected)).c_str());
    // And the maps the views show, which take the unfused attention.
    const chargpt::AttentionMaps maps = model->attentionMaps(idx);
    QVERIFY(maxAbsDiff(maps.logits, expected) < 1e-5);
    QCOMPARE(maps.weights.size(0), model->config().n_layer);
}

void TestModelParts::gradientsAreTheHandWrittenNetworks() {
    QFETCH(int, rung);
    CharGPT model(tinyRung(rung));
    model->train();
    const torch::Tensor idx = torch::randint(0, 13, {2, 8}, torch::kInt64);
    const torch::Tensor targets = torch::randint(0, 13, {2, 8}, torch::kInt64);
    auto lossOf = [&](const torch::Tensor& logits) {
        return torch::nn::functional::cross_entropy(logits.view({-1, 13}), targets.flatten());
    };
    auto gradients = [&model]() {
        std::vector<torch::Tensor> g;
        for (auto& p : model->parameters()) {
            g.push_back(p.grad().clone());
            p.mutable_grad().zero_();
        }
        return g;
    };
    lossOf(model->forward(idx)).backward();
    const std::vector<torch::Tensor> fused = gradients();
    lossOf(handForward(model, idx)).backward();
    const std::vector<torch::Tensor> plain = gradients();
    QCOMPARE(fused.size(), plain.size());
    for (std::size_t i = 0; i < fused.size(); ++i)
        QVERIFY2(maxAbsDiff(fused[i], plain[i]) < 1e-5, std::to_string(i).c_str());
}

void TestModelParts::parametersAreCounted() {
    // What the settings panel, the run library and `chargpt ladder` print is
    // what the model holds: a part switched off has no parameters at all.
    QFETCH(int, rung);
    RunConfig c = chargpt::ladderSettings(rung);
    c.vocab_size = 168;
    CharGPT model(c);
    QCOMPARE(parametersOf(model), c.parameterCount());
    for (const auto& item : model->named_parameters()) {
        const std::string& name = item.key();
        if (!c.positions) QVERIFY2(name.rfind("pos_emb", 0) != 0, name.c_str());
        if (!c.final_norm) QVERIFY2(name.rfind("l.", 0) != 0, name.c_str());
        if (!c.attention_projection) QVERIFY2(name.find("mha.proj") == std::string::npos, name.c_str());
        if (!c.feed_forward) QVERIFY2(name.find(".ff.") == std::string::npos, name.c_str());
        if (!c.residual) QVERIFY2(name.find(".l1.") == std::string::npos && name.find(".l2.") == std::string::npos,
                                  name.c_str());
    }
}

void TestModelParts::cachedDecodingMatchesTheForward() {
    // Generation decodes a rung through the forward's cached path: the plain
    // loop decoder knows the whole model only.
    QFETCH(int, rung);
    CharGPT model(tinyRung(rung));
    model->eval();
    torch::NoGradGuard noGrad;
    QCOMPARE(chargpt::Decoder::supports(model), rung == chargpt::kLadderRungs);
    const torch::Tensor idx = torch::randint(0, 13, {1, 8}, torch::kInt64);
    const torch::Tensor full = model->forward(idx);
    chargpt::KVCache cache = model->makeCache(1);
    for (int64_t t = 0; t < 8; ++t) {
        const torch::Tensor one = model->forwardCached(idx.narrow(1, t, 1), cache);
        QVERIFY2(maxAbsDiff(one[0][0], full[0][t]) < 1e-5, std::to_string(t).c_str());
    }
}

void TestModelParts::bigramIsTheHandWrittenExpression() {
    // Rung 1 as the chapter writes it: logits = lm(token_emb(idx)), nothing else.
    CharGPT model(tinyRung(1));
    QCOMPARE(model->blocks->size(), std::size_t(0));
    QVERIFY(!model->pos_emb && !model->l);
    const torch::Tensor idx = torch::randint(0, 13, {2, 8}, torch::kInt64);
    torch::NoGradGuard noGrad;
    const torch::Tensor expected =
        model->token_emb->weight.index({idx}).matmul(model->lm->weight.t()) + model->lm->bias;
    QVERIFY(maxAbsDiff(model->forward(idx), expected) < 1e-5);
    // A character's logits depend on that character alone.
    const torch::Tensor logits = model->forward(idx);
    for (int64_t t = 0; t < 8; ++t)
        QVERIFY(maxAbsDiff(logits[0][t], model->forward(idx.narrow(1, t, 1))[0][0]) < 1e-6);
}

void TestModelParts::oneHeadIsTheHandWrittenExpression() {
    // Rung 2 as the chapter writes it: x = tok + pos; x = head(x); logits = lm(x).
    CharGPT model(tinyRung(2));
    const int64_t T = 8, C = 16;
    const torch::Tensor idx = torch::randint(0, 13, {2, T}, torch::kInt64);
    torch::NoGradGuard noGrad;
    const torch::Tensor x = model->token_emb->weight.index({idx}) + model->pos_emb->weight.narrow(0, 0, T);
    const torch::Tensor W = model->blocks[0]->as<chargpt::BlockImpl>()->mha->qkv->weight;
    const torch::Tensor q = x.matmul(W.narrow(0, 0, C).t()), k = x.matmul(W.narrow(0, C, C).t()),
                        v = x.matmul(W.narrow(0, 2 * C, C).t());
    const torch::Tensor wei = torch::softmax(
        (q.matmul(k.transpose(-2, -1)) * std::pow(double(C), -0.5))
            .masked_fill(torch::tril(torch::ones({T, T})) == 0, -std::numeric_limits<float>::infinity()),
        -1);
    const torch::Tensor expected = wei.matmul(v).matmul(model->lm->weight.t()) + model->lm->bias;
    QVERIFY(maxAbsDiff(model->forward(idx), expected) < 1e-5);
}

void TestModelParts::modelWithoutLayersHasNoAttentionMaps() {
    CharGPT model(tinyRung(1));
    const torch::Tensor idx = torch::randint(0, 13, {1, 5}, torch::kInt64);
    const chargpt::AttentionMaps maps = model->attentionMaps(idx);
    QCOMPARE(maps.weights.dim(), 5);
    QCOMPARE(maps.weights.size(0), 0);
    QCOMPARE(maps.scores.size(0), 0);
    QCOMPARE(maps.logits.size(1), 5);
    QCOMPARE(model->forwardWithAttention(idx).second.size(0), 0);
    // A knock-out of a layer it does not have is refused in words.
    chargpt::KnockOut knock;
    knock.attention.push_back(0);
    chargpt::ForwardOptions options;
    options.knockOut = &knock;
    QVERIFY_THROWS_EXCEPTION(chargpt::Error, model->forward(idx, options));
}

void TestModelParts::analysesOfRungs() {
    // What the Inside tab and `chargpt ablate` / `heads` compute, on each rung:
    // the parts it has, words for the ones it lacks, never a crash.
    QFETCH(int, rung);
    CharGPT model(tinyRung(rung));
    const chargpt::ModelConfig& c = model->config();
    const std::vector<int64_t> text = {1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4};
    // The lens reads each block's stream through the final norm, where there is one.
    const chargpt::LogitLens lens = chargpt::logitLensOfText(model, text);
    QCOMPARE(lens.layers, c.n_layer + 1);
    // The positions' similarity: none without positions.
    QCOMPARE(chargpt::positionSimilarity(model).size(0), c.positions ? c.sequence_len : int64_t(0));
    QCOMPARE(chargpt::tokenEmbeddingMap(model).coordinates.size(0), c.vocab_size);
    // Head roles: refused in words without layers.
    if (c.n_layer == 0) {
        QVERIFY_THROWS_EXCEPTION(chargpt::Error, chargpt::computeHeadRoles(model, text));
    } else {
        QCOMPARE(int64_t(chargpt::computeHeadRoles(model, text).previousToken.size()), c.n_layer * c.n_head());
    }
    // The knock-out table: a row for each head and each layer's attention, and
    // one for each feed-forward the model has.
    const torch::Tensor inputs = torch::randint(0, 13, {2, 8}, torch::kInt64);
    const std::vector<chargpt::Batch> batches{{inputs, inputs.roll(-1, 1)}};
    const chargpt::AblationTable table = chargpt::ablationTable(model, batches);
    const int64_t expected = c.n_layer * c.n_head() + c.n_layer + (c.feed_forward ? c.n_layer : 0);
    QCOMPARE(int64_t(table.rows.size()), expected);
    for (const chargpt::AblationRow& row : table.rows) QVERIFY(std::isfinite(row.loss));

    // One context of it (8 characters), token 1 at positions 0 and 4.
    const std::vector<int64_t> window = {1, 2, 3, 4, 1, 5, 6, 7};
    // The feed-forward's neurons: refused in words on a rung without one; where
    // there is one, one input gives one output at any position, with or
    // without the norm in front of it.
    if (c.n_layer == 0 || !c.feed_forward) {
        QVERIFY_THROWS_EXCEPTION(chargpt::Error, chargpt::feedForwardHidden(model, window));
        QVERIFY_THROWS_EXCEPTION(chargpt::Error, chargpt::positionChecks(model, window));
    } else {
        QCOMPARE(chargpt::feedForwardHidden(model, window).sizes(), (at::IntArrayRef{c.n_layer, 8, 4 * c.emb_size}));
        for (const chargpt::PositionCheck& check : chargpt::positionChecks(model, window)) {
            QCOMPARE(check.first, int64_t(0));
            QCOMPARE(check.second, int64_t(4));
            QVERIFY(check.sameInputDifference < 1e-5);
        }
    }
    // The stream: after each block, what it passed on. Without residual
    // connections a block's output is what its last part wrote.
    const chargpt::ResidualStream stream = chargpt::residualStream(model, window);
    QCOMPARE(stream.layers, c.n_layer);
    QCOMPARE(int64_t(stream.norms.size()), (c.n_layer + 1) * 8);
    if (c.n_layer > 0 && !c.residual) {
        const auto& last = c.feed_forward ? stream.feedForwardWrites : stream.attentionWrites;
        for (int64_t p = 0; p < 8; ++p)
            QVERIFY(std::abs(stream.norm(c.n_layer, p) - last[std::size_t((c.n_layer - 1) * 8 + p)]) < 1e-5);
    }
}

using Change = void (*)(RunConfig&);
}  // namespace tst_modelparts
Q_DECLARE_METATYPE(tst_modelparts::Change)
namespace tst_modelparts {

void TestModelParts::switchesAreValidated_data() {
    QTest::addColumn<Change>("change");
    QTest::addColumn<int>("problem");  // chargpt::Problem, None for a valid model
    using P = chargpt::Problem;
    QTest::newRow("whole model, no layers") << Change([](RunConfig& c) { c.n_layer = 0; }) << int(P::NotPositive);
    QTest::newRow("no final norm, no layers") << Change([](RunConfig& c) {
        c.n_layer = 0;
        c.final_norm = false;
    }) << int(P::None);
    QTest::newRow("no positions, no layers") << Change([](RunConfig& c) {
        c.n_layer = 0;
        c.positions = false;
    }) << int(P::None);
    QTest::newRow("no layers without feed-forward") << Change([](RunConfig& c) {
        c.n_layer = 0;
        c.positions = false;
        c.feed_forward = false;
    }) << int(P::PartsWithoutLayers);
    QTest::newRow("no layers without scale") << Change([](RunConfig& c) {
        c.n_layer = 0;
        c.final_norm = false;
        c.scaled_attention = false;
    }) << int(P::PartsWithoutLayers);
    QTest::newRow("negative layers of a partial model") << Change([](RunConfig& c) {
        c.n_layer = -1;
        c.final_norm = false;
    }) << int(P::NotPositive);
    QTest::newRow("deep without residual") << Change([](RunConfig& c) {
        c.n_layer = 3;
        c.residual = false;
    }) << int(P::None);
    QTest::newRow("residual without feed-forward") << Change([](RunConfig& c) { c.feed_forward = false; })
                                                   << int(P::None);
}

void TestModelParts::switchesAreValidated() {
    QFETCH(Change, change);
    QFETCH(int, problem);
    RunConfig c = *RunConfig::preset("tiny");
    c.vocab_size = 13;
    change(c);
    const chargpt::ConfigProblem found = c.validate();
    QCOMPARE(int(found.problem), problem);
    if (found) {
        QVERIFY(!found.message().empty());
        QVERIFY_THROWS_EXCEPTION(chargpt::Error, CharGPT{c});
    } else {
        CharGPT model(c);
        QCOMPARE(parametersOf(model), c.parameterCount());
        QCOMPARE(model->forward(torch::zeros({1, 4}, torch::kInt64)).size(2), 13);
    }
}

void TestModelParts::missingPartsAreNamed() {
    QCOMPARE(chargpt::ladderSettings(1).missingParts(),
             std::string("no position embeddings, no layers, no final LayerNorm"));
    QCOMPARE(chargpt::ladderSettings(3).missingParts(),
             std::string("no scaling of the attention scores, no attention projection, no feed-forward, no residual "
                         "connections or their LayerNorms, no final LayerNorm"));
    QCOMPARE(chargpt::ladderSettings(6).missingParts(), std::string("no final LayerNorm"));
    QVERIFY(chargpt::ladderSettings(7).missingParts().empty());
}

void TestModelParts::bigramFloor() {
    // "abab...": after a, always b; after b, always a: nothing is left to guess.
    std::vector<int64_t> alternate;
    for (int i = 0; i < 100; ++i) alternate.push_back(1 + i % 2);
    QCOMPARE(chargpt::bigramEntropy(alternate), 0.0);
    const chargpt::LossFloors floors = chargpt::lossFloors(alternate, 4);
    QCOMPARE(floors.uniform, std::log(4.0));
    QVERIFY(std::abs(floors.unigram - std::log(2.0)) < 1e-12);
    QCOMPARE(floors.bigram, 0.0);
    // The pairs 11, 12, 21 repeated: after 1 comes 1 or 2 equally often,
    // after 2 always 1, so two pairs in three carry ln 2.
    std::vector<int64_t> mixed;
    for (int i = 0; i < 300; ++i) mixed.push_back(i % 3 == 2 ? 2 : 1);
    const double h = chargpt::bigramEntropy(mixed);
    QVERIFY2(std::abs(h - std::log(2.0) * 2.0 / 3.0) < 0.01, std::to_string(h).c_str());
    QCOMPARE(chargpt::bigramEntropy({5}), 0.0);
    // Never above the unigram entropy of the same text.
    QVERIFY(h <= chargpt::lossFloors(mixed, 3).unigram);
}

CHARGPT_TEST_GUILESS_MAIN(TestModelParts)
}  // namespace tst_modelparts
#include "tst_modelparts.moc"
