// SPDX-License-Identifier: GPL-3.0-or-later
// Inside a layer (model/analysis/FeedForwardProbe, ResidualStream) and the
// forward pass's inspection outputs they read: on a hand-made model of width 4
// every activation, write and norm is checked against values worked out by
// hand; on the tiny preset, the inspection pass gives the plain pass's logits
// and writes that add up to the residual stream, and the feed-forward maps an
// input to the same output at any position; app/InsideLayersBridge puts both
// in the Inside page's frame.
#include <torch/torch.h>

#include "model/analysis/FeedForwardProbe.h"
#include "model/io/Checkpoint.h"
#include "model/analysis/ResidualStream.h"
#include "model/nn/CharGPT.h"
#include "model/runtime/Error.h"

#include "app/InsideBridge.h"
#include "app/InsideLayersBridge.h"

#include "AnalysisFixtures.h"
#include "TestProgram.h"

#include <cmath>
#include <set>
#include <vector>

namespace tst_insidelayers {

using chargpt::CharGPT;
using namespace analysis_fixtures;

namespace {

double gelu(double x) { return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0))); }

// The LayerNorm of a row of mean 0 and variance 1: the row / sqrt(1 + eps).
const double kUnit = 1.0 / std::sqrt(1.0 + 1e-5);

// Width 4, 2 layers of 2 heads, context 6, 3 tokens:
// - token embeddings of mean 0 and variance 1, no position embeddings;
// - layer 0's attention writes its projection's bias (0.5 everywhere: the
//   LayerNorm that follows does not see it), its feed-forward's neurons 0-3
//   read +component j, 4-7 read -component j, neuron 8 is gelu(2) always and
//   is the only one ln2 reads, into component 0;
// - layer 1 writes nothing.
CharGPT handModel() {
    chargpt::ModelConfig c;
    c.vocab_size = 3;
    c.emb_size = 4;
    c.head_size = 2;
    c.n_layer = 2;
    c.sequence_len = 6;
    CharGPT model(c);
    torch::NoGradGuard noGrad;
    for (auto& p : model->parameters()) p.zero_();
    for (auto& item : model->named_parameters())
        if (item.key().find("weight") != std::string::npos &&
            (item.key().find(".l1.") != std::string::npos || item.key().find(".l2.") != std::string::npos ||
             item.key().rfind("l.", 0) == 0))
            item.value().fill_(1.0);
    model->token_emb->weight.copy_(torch::tensor({{1.f, -1.f, 1.f, -1.f}, {1.f, 1.f, -1.f, -1.f}, {-1.f, 1.f, 1.f, -1.f}}));
    auto* b0 = model->blocks[0]->as<chargpt::BlockImpl>();
    b0->mha->proj->bias.fill_(0.5);
    for (int j = 0; j < 4; ++j) {
        b0->ff->ln1->weight[j][j] = 1.0;
        b0->ff->ln1->weight[4 + j][j] = -1.0;
    }
    b0->ff->ln1->bias[8] = 2.0;
    b0->ff->ln2->weight[0][8] = 1.0;
    model->eval();
    return model;
}

const float kEmbedding[3][4] = {{1, -1, 1, -1}, {1, 1, -1, -1}, {-1, 1, 1, -1}};

}  // namespace

class TestInsideLayers : public QObject {
    Q_OBJECT

private slots:
    void hiddenActivationsByHand();
    void neuronsOrderedByPeak();
    void topActivationsOverWindows();
    void residualStreamByHand();
    void residualStreamWithKnockOut();
    void inspectionPassIsThePlainPass();
    void sameInputSameOutputAnywhere();
    void refusesBadInput();
    void insideFrameCarriesBoth();
};

void TestInsideLayers::hiddenActivationsByHand() {
    const CharGPT model = handModel();
    const std::vector<int64_t> text{0, 1, 2, 0};
    const torch::Tensor h = chargpt::feedForwardHidden(model, text);  // (L, T, 16)
    QCOMPARE(h.sizes().vec(), (std::vector<int64_t>{2, 4, 16}));
    for (int t = 0; t < 4; ++t) {
        const float* e = kEmbedding[text[static_cast<std::size_t>(t)]];
        for (int j = 0; j < 4; ++j) {
            QVERIFY(std::abs(h[0][t][j].item<double>() - gelu(kUnit * e[j])) < 1e-6);
            QVERIFY(std::abs(h[0][t][4 + j].item<double>() - gelu(-kUnit * e[j])) < 1e-6);
        }
        QVERIFY(std::abs(h[0][t][8].item<double>() - gelu(2.0)) < 1e-6);
        for (int j = 9; j < 16; ++j) QCOMPARE(h[0][t][j].item<double>(), 0.0);
        for (int j = 0; j < 16; ++j) QCOMPARE(h[1][t][j].item<double>(), 0.0);  // layer 1 reads nothing
    }
}

void TestInsideLayers::neuronsOrderedByPeak() {
    const CharGPT model = handModel();
    const torch::Tensor h = chargpt::feedForwardHidden(model, {0, 1, 2, 0});
    // Neuron 8 (gelu(2)) first; then the seven that some token fires at
    // gelu(1) (equal but for rounding: in any order); then the silent ones (0)
    // in index order; last neuron 3 (-component 3 is +1 for every token, so
    // +component 3 only reaches gelu(-1) < 0).
    const std::vector<int64_t> order = chargpt::neuronsByPeak(h[0]);
    QCOMPARE(order.size(), std::size_t(16));
    QCOMPARE(order[0], int64_t(8));
    QCOMPARE(std::set<int64_t>(order.begin() + 1, order.begin() + 8), (std::set<int64_t>{0, 1, 2, 4, 5, 6, 7}));
    QCOMPARE(std::vector<int64_t>(order.begin() + 8, order.end()),
             (std::vector<int64_t>{9, 10, 11, 12, 13, 14, 15, 3}));
}

void TestInsideLayers::topActivationsOverWindows() {
    const CharGPT model = handModel();
    // 10 tokens: a window of 6 and one of 4; token 2 (-component 0 = +1) at 2, 5, 8.
    const std::vector<int64_t> text{0, 1, 2, 0, 1, 2, 0, 1, 2, 0};
    const auto all = chargpt::topActivations(model, text, 0, {4, 0, 8}, 2, 100);
    QCOMPARE(all.size(), std::size_t(3));
    QCOMPARE(all[0][0].position, int64_t(2));
    QCOMPARE(all[0][1].position, int64_t(5));
    QVERIFY(std::abs(all[0][0].activation - gelu(kUnit)) < 1e-6);
    // Neuron 0 fires for tokens 0 and 1 (at gelu(1)), never for token 2.
    for (const chargpt::NeuronExample& e : all[1]) {
        QVERIFY(text[static_cast<std::size_t>(e.position)] != 2);
        QVERIFY(std::abs(e.activation - gelu(kUnit)) < 1e-6);
    }
    // Neuron 8 is gelu(2) everywhere: exact ties, the earlier position first.
    QCOMPARE(all[2][0].position, int64_t(0));
    QCOMPARE(all[2][1].position, int64_t(1));
    // Only the first 4 tokens: after position 2 neuron 4 only reaches gelu(-1), before position 4.
    const auto cut = chargpt::topActivations(model, text, 0, {4}, 2, 4);
    QCOMPARE(cut[0][0].position, int64_t(2));
    QVERIFY(cut[0][1].position < 4 && cut[0][1].position != 2);
    QVERIFY(std::abs(cut[0][1].activation - gelu(-kUnit)) < 1e-6);
    // Every layer in one pass: the same examples.
    const auto byLayer = chargpt::topActivationsByLayer(model, text, {{4, 0, 8}, {}}, 2, 100);
    QCOMPARE(byLayer.size(), std::size_t(2));
    QVERIFY(byLayer[1].empty());
    for (std::size_t k = 0; k < 3; ++k)
        for (std::size_t i = 0; i < 2; ++i) {
            QCOMPARE(byLayer[0][k][i].position, all[k][i].position);
            QCOMPARE(byLayer[0][k][i].activation, all[k][i].activation);
        }
    // More examples than tokens: every token once.
    QCOMPARE(chargpt::topActivations(model, text, 0, {8}, 50, 3)[0].size(), std::size_t(3));
}

void TestInsideLayers::residualStreamByHand() {
    const CharGPT model = handModel();
    const chargpt::ResidualStream s = chargpt::residualStream(model, {0, 1, 2});
    QCOMPARE(s.layers, int64_t(2));
    QCOMPARE(s.positions, int64_t(3));
    QCOMPARE(s.norms.size(), std::size_t(9));
    const double g2 = gelu(2.0);
    for (int t = 0; t < 3; ++t) {
        const float* e = kEmbedding[t];
        QVERIFY(std::abs(s.norm(0, t) - 2.0) < 1e-6);  // |e| = 2
        double after = 0.0;  // |e + 0.5 + (g2, 0, 0, 0)|
        for (int j = 0; j < 4; ++j) after += std::pow(e[j] + 0.5 + (j == 0 ? g2 : 0.0), 2);
        QVERIFY(std::abs(s.norm(1, t) - std::sqrt(after)) < 1e-5);
        QVERIFY(std::abs(s.norm(2, t) - std::sqrt(after)) < 1e-5);  // layer 1 adds nothing
        QVERIFY(std::abs(s.attentionWrites[static_cast<std::size_t>(t)] - 1.0) < 1e-6);  // |0.5 x 4|
        QVERIFY(std::abs(s.feedForwardWrites[static_cast<std::size_t>(t)] - g2) < 1e-5);
        QCOMPARE(s.attentionWrites[static_cast<std::size_t>(3 + t)], 0.0);
        QCOMPARE(s.feedForwardWrites[static_cast<std::size_t>(3 + t)], 0.0);
    }
    QVERIFY(std::abs(s.attentionShare(0) - 1.0 / (1.0 + g2)) < 1e-6);
    QVERIFY(std::isnan(s.attentionShare(1)));
}

void TestInsideLayers::residualStreamWithKnockOut() {
    const CharGPT model = handModel();
    chargpt::KnockOut off;
    off.feedForward = {0};
    const chargpt::ResidualStream s = chargpt::residualStream(model, {0, 1, 2}, &off);
    for (int t = 0; t < 3; ++t) {
        QCOMPARE(s.feedForwardWrites[static_cast<std::size_t>(t)], 0.0);
        QVERIFY(std::abs(s.attentionWrites[static_cast<std::size_t>(t)] - 1.0) < 1e-6);
        QVERIFY(std::abs(s.norm(1, t) - std::sqrt(2 * 2.25 + 2 * 0.25)) < 1e-6);  // |e + 0.5|
    }
    off = {};
    off.attention = {0};
    const chargpt::ResidualStream a = chargpt::residualStream(model, {0}, &off);
    QCOMPARE(a.attentionWrites[0], 0.0);
    QCOMPARE(a.attentionShare(0), 0.0);
}

void TestInsideLayers::inspectionPassIsThePlainPass() {
    CharGPT model = makeModel();
    torch::NoGradGuard noGrad;
    // Long enough for the packed attention kernel, and short.
    for (const int64_t length : {16, 3}) {
        torch::manual_seed(3);
        const torch::Tensor idx = torch::randint(20, {2, length}, torch::kInt64);
        chargpt::ForwardOptions plainOptions;
        plainOptions.dropout = false;
        const torch::Tensor plain = model->forward(idx, plainOptions);
        std::vector<torch::Tensor> residuals, attention, feedForward, hidden;
        chargpt::ForwardOptions options;
        options.dropout = false;
        options.residuals = &residuals;
        options.attentionWrites = &attention;
        options.feedForwardWrites = &feedForward;
        options.feedForwardHidden = &hidden;
        const torch::Tensor inspected = model->forward(idx, options);
        QVERIFY(torch::equal(plain, inspected));  // the same numbers, bit for bit
        QCOMPARE(attention.size(), std::size_t(2));
        for (std::size_t i = 0; i < 2; ++i) {
            auto* block = model->blocks[i]->as<chargpt::BlockImpl>();
            QVERIFY(maxAbsDiff(residuals[i] + attention[i] + feedForward[i], residuals[i + 1]) < 1e-5);
            const torch::Tensor h = residuals[i] + attention[i];
            const torch::Tensor u = block->ff->ln1(block->l2(h));
            QVERIFY(maxAbsDiff(hidden[i], torch::gelu(u)) < 1e-5);
            QVERIFY(maxAbsDiff(block->ff->ln2(hidden[i]), feedForward[i]) < 1e-4);
        }
    }
}

void TestInsideLayers::sameInputSameOutputAnywhere() {
    const CharGPT model = makeModel();
    // Token 7 at positions 1 and 9: position embeddings and attention give the
    // two occurrences different inputs, but one input gives one output.
    const std::vector<int64_t> text{3, 7, 1, 2, 4, 5, 6, 8, 9, 7, 10};
    for (int64_t layer = 0; layer < 2; ++layer) {
        const chargpt::PositionCheck check = chargpt::positionCheck(model, text, layer);
        QCOMPARE(check.first, int64_t(1));
        QCOMPARE(check.second, int64_t(9));
        QVERIFY2(check.inputDistance > 0.1, qPrintable(QString::number(check.inputDistance)));
        QVERIFY(check.outputDistance > 1e-3);
        QVERIFY2(check.sameInputDifference < 1e-5, qPrintable(QString::number(check.sameInputDifference)));
    }
    const std::vector<chargpt::PositionCheck> all = chargpt::positionChecks(model, text);
    QCOMPARE(all.size(), std::size_t(2));
    QCOMPARE(all[1].inputDistance, chargpt::positionCheck(model, text, 1).inputDistance);
    const chargpt::PositionCheck none = chargpt::positionCheck(model, {1, 2, 3}, 0);
    QVERIFY(!none.first && !none.second);
}

void TestInsideLayers::refusesBadInput() {
    const CharGPT model = handModel();
    QVERIFY(errorOf([&] { chargpt::feedForwardHidden(model, {}); }).contains("empty"));
    QVERIFY(errorOf([&] { chargpt::feedForwardHidden(model, {0, 9}); }).contains("token id 9"));
    QVERIFY(errorOf([&] { chargpt::residualStream(model, {0, 1, 2, 0, 1, 2, 0}); }).contains("at most 6"));
    QVERIFY(errorOf([&] { chargpt::topActivations(model, {0, 1}, 2, {0}, 1, 10); }).contains("no layer 2"));
    QVERIFY(errorOf([&] { chargpt::topActivations(model, {0, 1}, 0, {16}, 1, 10); }).contains("no neuron 16"));
    QVERIFY(errorOf([&] { chargpt::positionCheck(model, {0, 0}, -1); }).contains("no layer -1"));
    QVERIFY(errorOf([&] { chargpt::topActivationsByLayer(model, {0}, {{0}}, 1, 10); }).contains("1 layer(s)"));
    // Every layer's activations kept at once: refused before the pass past 4.3 GB.
    // 600 layers x 8,192 positions x 256 neurons: 5 GB (a model the settings allow).
    chargpt::ModelConfig deep;
    deep.vocab_size = 3;
    deep.emb_size = 64;
    deep.head_size = 64;
    deep.n_layer = 600;
    deep.sequence_len = 8192;
    const CharGPT big(deep);
    const std::vector<int64_t> text(8192, 1);
    QVERIFY(errorOf([&] { chargpt::feedForwardHidden(big, text); }).contains("at most 4.3 GB"));
    QVERIFY(errorOf([&] { chargpt::topActivations(big, text, 0, {0}, 1, 8192); }).contains("at most 4.3 GB"));
    chargpt::KnockOut bad;
    bad.feedForward = {5};
    QVERIFY(errorOf([&] { chargpt::residualStream(model, {0}, &bad); }).contains("layer 5"));
}

// What the inspector sends the Inside page for one snapshot: the probe's last
// context-full of characters through both analyses, examples from the text.
void TestInsideLayers::insideFrameCarriesBoth() {
    chargpt::Checkpoint checkpoint;
    checkpoint.tokenizer = chargpt::CharTokenizer::fromText(U"abcdefgh ijklmnop.\n春眠不觉晓");
    checkpoint.config = *chargpt::RunConfig::preset("tiny");  // 2 layers, context 16
    checkpoint.config.vocab_size = checkpoint.tokenizer.vocabSize();
    torch::manual_seed(7);
    checkpoint.model = CharGPT(checkpoint.config);
    checkpoint.step = 12;
    const QString probe = QStringLiteral("xx abc defgh abc ijk");  // 20 characters, "x" unknown
    const QString text = QStringLiteral("春眠不觉晓 abcdefgh ijklmnop.\n").repeated(3);
    CharacterMapAlignment alignment;
    const InsideFrame frame = computeInsideFrame(checkpoint, probe, text, alignment);
    const FeedForwardProbeData& ff = frame.feedForward;
    QVERIFY(ff.isValid());
    QCOMPARE(ff.positionCount(), 16);  // the last 16 of the 18 known characters: "bc defgh abc ijk"
    QCOMPARE(ff.characters.first(), QStringLiteral("b"));
    QCOMPARE(ff.width, 4 * int(checkpoint.config.emb_size));
    QCOMPARE(ff.sampleCharacters, int(text.size()));
    QCOMPARE(ff.layers.size(), 2);
    const std::vector<int64_t> tokens = checkpoint.tokenizer.encode(probe.toStdU32String());
    const std::vector<int64_t> window(tokens.end() - 16, tokens.end());
    const torch::Tensor hidden = chargpt::feedForwardHidden(checkpoint.model, window);
    for (int l = 0; l < 2; ++l) {
        const FeedForwardLayer& layer = ff.layers[l];
        QCOMPARE(layer.neurons.size(), qsizetype(kShownNeurons));
        QCOMPARE(layer.neurons.first(), int(chargpt::neuronsByPeak(hidden[l])[0]));
        QCOMPARE(layer.activations[5 * kShownNeurons + 2], hidden[l][5][layer.neurons[2]].item<float>());
        for (const QVector<NeuronExample>& examples : layer.examples) {
            QCOMPARE(examples.size(), qsizetype(kNeuronExamples));
            QVERIFY(text.contains(examples.first().before + examples.first().character));
            QVERIFY(examples.first().activation >= examples.last().activation);
        }
        // The first repeat is the space at 2 and 8: the same input gives the same output.
        QCOMPARE(layer.first, 2);
        QCOMPARE(layer.second, 8);
        QVERIFY(layer.inputDistance > 0.0);
        QVERIFY(layer.sameInputDifference < 1e-5);
    }
    const ResidualStreamData& rs = frame.residual;
    QVERIFY(rs.isValid());
    const chargpt::ResidualStream direct = chargpt::residualStream(checkpoint.model, window);
    QCOMPARE(rs.layers, 2);
    QCOMPARE(rs.norms.size(), qsizetype(3 * 16));
    QCOMPARE(rs.norms[20], direct.norms[20]);
    QCOMPARE(rs.attentionShare(1), direct.attentionShare(1));
    // A probe the model cannot read: both left empty.
    const InsideFrame none = computeInsideFrame(checkpoint, QStringLiteral("xyz"), text, alignment);
    QVERIFY(!none.feedForward.isValid());
    QVERIFY(!none.residual.isValid());
}

CHARGPT_TEST_GUILESS_MAIN(TestInsideLayers)
}  // namespace tst_insidelayers
#include "tst_insidelayers.moc"
