// SPDX-License-Identifier: GPL-3.0-or-later
// "Why this character?" (model/analysis/Attribution, Patching) and the pass's
// hook they read and patch through (PassHook in model/nn/CharGPT.h), on small
// random models of every arithmetic an imported model may have:
//  - the direct attributions sum to the model's logit and margin within 1e-4
//    (fp32), each layer's heads and bias to what its attention wrote, read
//    through the final LayerNorm with its scale frozen (worked out here the
//    other way round: the part centred, not the direction);
//  - gradient x input equals a central finite difference of the logit with
//    one position's input scaled;
//  - patching the whole residual stream restores exactly 1, nothing exactly
//    0, and every cell of a sweep (patches batched together) what that patch
//    alone restores;
//  - the model's mode and its weights' gradients are left as they were, and
//    bad input is refused with a message.
#include <torch/torch.h>

#include "model/analysis/Attribution.h"
#include "model/analysis/Patching.h"
#include "model/nn/CharGPT.h"
#include "model/runtime/Error.h"

#include "AnalysisFixtures.h"
#include "TestProgram.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace tst_attribution {

using chargpt::CharGPT;
using chargpt::ModelConfig;
using namespace chargpt;
using namespace analysis_fixtures;

namespace {

// Width 32, 2 layers of 4 heads, context 16, 20 tokens, then `arithmetic`'s
// changes; weights large enough for every part to matter, LayerNorms and
// biases away from 1 and 0.
CharGPT randomModel(const QString& arithmetic, uint64_t seed = 7) {
    ModelConfig c = tinyConfig();
    if (arithmetic == QLatin1String("nanogpt")) c.setNanoGptArithmetic();
    if (arithmetic == QLatin1String("bias-free tied")) {
        c.biases = c.head_bias = false;
        c.tied_head = true;
        c.activation = ModelConfig::Relu;
    }
    if (arithmetic == QLatin1String("tanh, no positions")) {
        c.activation = ModelConfig::GeluTanh;
        c.positions = false;
    }
    if (arithmetic == QLatin1String("no projection")) c.attention_projection = false;
    if (arithmetic == QLatin1String("no final norm")) c.final_norm = false;
    if (arithmetic == QLatin1String("no feed-forward")) c.feed_forward = false;
    if (arithmetic == QLatin1String("dropout")) c.dropout = 0.3;
    if (arithmetic == QLatin1String("long context")) c.sequence_len = 40;
    if (arithmetic == QLatin1String("no layers")) {
        c.n_layer = 0;
        c.positions = false;
    }
    torch::manual_seed(seed);
    CharGPT model(c);
    torch::NoGradGuard noGrad;
    for (auto& item : model->named_parameters()) {
        const std::string& name = item.key();
        const bool norm = name.find(".l1.") != std::string::npos || name.find(".l2.") != std::string::npos ||
                          name.rfind("l.", 0) == 0;
        torch::Tensor& p = item.value();
        if (norm && name.find("weight") != std::string::npos)
            p.copy_(1.0 + 0.3 * torch::randn_like(p));
        else if (name.find("bias") != std::string::npos)
            p.copy_(0.3 * torch::randn_like(p));
        else
            p.mul_(8.0);
    }
    model->eval();
    return model;
}

std::vector<int64_t> randomTokens(int64_t n, int64_t vocabulary, uint64_t seed) {
    torch::manual_seed(seed);
    const torch::Tensor t = torch::randint(vocabulary, {n}, torch::kInt64);
    return std::vector<int64_t>(t.data_ptr<int64_t>(), t.data_ptr<int64_t>() + n);
}

// The logits (T, V) of a plain pass, in double.
torch::Tensor logitsOf(CharGPT& model, const std::vector<int64_t>& tokens) {
    torch::NoGradGuard noGrad;
    ForwardOptions options;
    options.dropout = false;
    return model->forward(torch::tensor(tokens).view({1, -1}), options)[0].to(torch::kFloat64);
}

}  // namespace

class TestAttribution : public QObject {
    Q_OBJECT

private slots:
    void partsSumToTheLogit_data();
    void partsSumToTheLogit();
    void gradientTimesInputIsAFiniteDifference();
    void leavesModeAndGradients();
    void attributionRefusesBadInput();
    void hookReadsAndReplacesParts();
    void patchingAllOrNothing();
    void sweepsAgreeWithSinglePatches();
    void sweepStopsWhenAsked();
    void patchingRefusesBadInput();
};

void TestAttribution::partsSumToTheLogit_data() {
    QTest::addColumn<QString>("arithmetic");
    for (const char* name : {"book", "nanogpt", "bias-free tied", "tanh, no positions", "no projection",
                             "no final norm", "no feed-forward", "no layers"})
        QTest::newRow(name) << QString::fromLatin1(name);
}

void TestAttribution::partsSumToTheLogit() {
    QFETCH(QString, arithmetic);
    CharGPT model = randomModel(arithmetic);
    const ModelConfig& c = model->config();
    const std::vector<int64_t> tokens = randomTokens(12, c.vocab_size, 3);
    for (const int64_t position : {int64_t(0), int64_t(5), int64_t(11)}) {
        const Attribution a = attribute(model, tokens, position);
        const torch::Tensor logits = logitsOf(model, tokens)[position];
        QVERIFY(a.chosenIsTop);
        QCOMPARE(a.chosen, logits.argmax().item<int64_t>());
        QVERIFY(std::abs(a.logit - logits[a.chosen].item<double>()) < 1e-6);
        torch::Tensor others = logits.clone();
        others[a.chosen] = -1e300;
        QCOMPARE(a.runnerUp, others.argmax().item<int64_t>());
        QVERIFY2(std::abs(a.logitGap()) < 1e-4 && std::abs(a.marginGap()) < 1e-4,
                 qPrintable(QStringLiteral("gaps %1, %2 at %3").arg(a.logitGap()).arg(a.marginGap()).arg(position)));
        QVERIFY(std::abs(a.margin() - (a.logit - logits[a.runnerUp].item<double>())) < 1e-6);
        // Every part there is, once: 1 + positions + L * (heads + 1 + 2) + norm bias + head bias.
        const int64_t perLayer = c.n_head() + (c.attention_projection && c.biases ? 1 : 0) +
                                 (c.feed_forward ? (c.biases ? 2 : 1) : 0);
        QCOMPARE(int64_t(a.rows.size()), 1 + (c.positions ? 1 : 0) + c.n_layer * perLayer +
                                             (c.final_norm && c.biases ? 1 : 0) + (c.head_bias ? 1 : 0));
        QCOMPARE(int64_t(a.gradientTimesInput.size()), position + 1);

        // Each layer's parts against its whole write, read out the other way
        // round: the vector centred, scaled by the frozen sigma and gamma, then
        // dotted with the head's row.
        std::vector<torch::Tensor> residuals, attention, feedForward;
        {
            torch::NoGradGuard noGrad;
            ForwardOptions options;
            options.dropout = false;
            options.residuals = &residuals;
            options.attentionWrites = &attention;
            options.feedForwardWrites = &feedForward;
            model->forward(torch::tensor(std::vector<int64_t>(tokens.begin(), tokens.begin() + position + 1))
                               .view({1, -1}),
                           options);
        }
        const torch::Tensor row = model->lm->weight[a.chosen].to(torch::kFloat64);
        double sigma = 1.0;
        if (model->l) {
            const torch::Tensor s = residuals.back()[0][position].to(torch::kFloat64);
            sigma = std::sqrt(s.var(/*unbiased=*/false).item<double>() + 1e-5);
        }
        // The attribution's pass takes gradients, whose kernels may round otherwise: float rounding apart.
        QVERIFY(std::abs(sigma - a.scale) < 1e-6 * sigma);
        const auto readOut = [&](const torch::Tensor& v) -> double {
            torch::Tensor x = v.to(torch::kFloat64);
            if (model->l) x = (x - x.mean()) / sigma * model->l->weight.to(torch::kFloat64);
            return row.dot(x).item<double>();
        };
        QVERIFY(std::abs(a.rows[0].logit - readOut(model->token_emb->weight[tokens[position]])) < 1e-4);
        for (int64_t l = 0; l < c.n_layer; ++l) {
            double heads = 0.0, ff = 0.0;
            for (const AttributionRow& r : a.rows)
                if (r.layer == l) {
                    const bool attentionPart =
                        r.part == AttributionPart::Head || r.part == AttributionPart::ProjectionBias;
                    (attentionPart ? heads : ff) += r.logit;
                }
            QVERIFY(std::abs(heads - readOut(attention[l][0][position])) < 1e-4);
            QVERIFY(std::abs(ff - readOut(feedForward[l][0][position])) < 1e-4);
        }
    }
    // Another character than the top: its own logit, its margin over the top.
    const Attribution other = attribute(model, tokens, 11, 3);
    QCOMPARE(other.chosen, int64_t(3));
    QVERIFY(std::abs(other.logitGap()) < 1e-4 && std::abs(other.marginGap()) < 1e-4);
    QVERIFY(other.chosenIsTop || other.margin() < 0.0);
}

void TestAttribution::gradientTimesInputIsAFiniteDifference() {
    // Smooth activations: a ReLU's kink within the step would spoil the estimate.
    for (const QString& arithmetic : {QStringLiteral("book"), QStringLiteral("tanh, no positions")}) {
        CharGPT model = randomModel(arithmetic, 11);
        const std::vector<int64_t> tokens = randomTokens(8, model->config().vocab_size, 4);
        const int64_t position = 7, chosen = 5;
        const std::vector<double> g = gradientTimesInput(model, tokens, position, chosen);
        QCOMPARE(g.size(), std::size_t(8));
        // d/da of the logit with input s scaled by (1 + a), at a = 0: gradient . input.
        const auto logitWith = [&](int64_t s, double a) {
            torch::NoGradGuard noGrad;
            const PassHook hook = [s, a](PassPart part, int64_t layer, torch::Tensor& value) {
                if (part == PassPart::Residual && layer == 0) value[0][s].mul_(1.0 + a);
            };
            ForwardOptions options;
            options.dropout = false;
            options.hook = &hook;
            return model->forward(torch::tensor(tokens).view({1, -1}), options)[0][position][chosen].item<double>();
        };
        double largest = 0.0;
        for (int64_t s = 0; s < 8; ++s) {
            const double h = 1e-2;
            const double estimate = (logitWith(s, h) - logitWith(s, -h)) / (2 * h);
            QVERIFY2(std::abs(estimate - g[s]) <= 2e-3 * (1.0 + std::abs(g[s])),
                     qPrintable(QStringLiteral("%1 at %2: %3 against %4").arg(arithmetic).arg(s).arg(g[s]).arg(estimate)));
            largest = std::max(largest, std::abs(g[s]));
        }
        QVERIFY(largest > 0.1);  // the characters before matter in this model
    }
}

void TestAttribution::leavesModeAndGradients() {
    CharGPT model = randomModel(QStringLiteral("dropout"));
    const std::vector<int64_t> tokens = randomTokens(10, model->config().vocab_size, 8);
    const Attribution inEval = attribute(model, tokens, 9);
    model->train();
    for (auto& p : model->parameters()) QVERIFY(!p.grad().defined());
    const Attribution inTraining = attribute(model, tokens, 9);
    QVERIFY(model->is_training());
    for (auto& p : model->parameters()) QVERIFY(!p.grad().defined());
    QCOMPARE(inTraining.chosen, inEval.chosen);
    QCOMPARE(inTraining.logit, inEval.logit);
    QVERIFY(inTraining.gradientTimesInput == inEval.gradientTimesInput);
}

void TestAttribution::attributionRefusesBadInput() {
    CharGPT model = randomModel(QStringLiteral("book"));
    const std::vector<int64_t> tokens = randomTokens(10, 20, 1);
    QVERIFY(errorOf([&] { attribute(model, tokens, 10); }).contains(QLatin1String("outside the text")));
    QVERIFY(errorOf([&] { attribute(model, tokens, -1); }).contains(QLatin1String("outside the text")));
    QVERIFY(errorOf([&] { attribute(model, {}, 0); }).contains(QLatin1String("empty")));
    QVERIFY(errorOf([&] { attribute(model, {1, 2, 20}, 2); }).contains(QLatin1String("token id 20")));
    QVERIFY(errorOf([&] { attribute(model, tokens, 3, 20); }).contains(QLatin1String("ids 0 to 19")));
    QVERIFY(errorOf([&] { attribute(model, randomTokens(20, 20, 2), 17); }).contains(QLatin1String("context")));
    ModelConfig rung = tinyConfig();
    rung.residual = false;
    CharGPT noResidual(rung);
    QVERIFY(errorOf([&] { attribute(noResidual, tokens, 3); }).contains(QLatin1String("residual connections")));
    // Gradient x input needs no residual connections.
    QCOMPARE(gradientTimesInput(noResidual, tokens, 3, 1).size(), std::size_t(4));
}

void TestAttribution::hookReadsAndReplacesParts() {
    CharGPT model = randomModel(QStringLiteral("book"));
    const std::vector<int64_t> a = randomTokens(9, 20, 21), b = randomTokens(9, 20, 22);
    torch::NoGradGuard noGrad;
    const auto run = [&](const std::vector<int64_t>& tokens, const PassHook* hook, const KnockOut* knock = nullptr) {
        ForwardOptions options;
        options.dropout = false;
        options.hook = hook;
        options.knockOut = knock;
        return model->forward(torch::tensor(tokens).view({1, -1}), options);
    };
    const torch::Tensor plainA = run(a, nullptr), plainB = run(b, nullptr);
    int calls = 0;
    std::vector<torch::Tensor> streamB;
    const PassHook reader = [&](PassPart part, int64_t, torch::Tensor& value) {
        ++calls;
        if (part == PassPart::Residual) streamB.push_back(value.clone());
    };
    QVERIFY(torch::equal(run(b, &reader), plainB));  // reading changes nothing
    QCOMPARE(calls, 3 + 2 + 2);                        // L + 1 streams, L heads, L feed-forwards
    // B's last stream put into A's pass gives B's logits, bit for bit.
    const PassHook last = [&](PassPart part, int64_t layer, torch::Tensor& value) {
        if (part == PassPart::Residual && layer == 2) value = streamB[2];
    };
    QVERIFY(torch::equal(run(a, &last), plainB));
    // Zeros for layer 1's heads or feed-forward: the knock-outs of the same parts.
    const PassHook noHeads = [](PassPart part, int64_t layer, torch::Tensor& value) {
        if (part == PassPart::Heads && layer == 1) value = torch::zeros_like(value);
    };
    KnockOut heads;
    for (int64_t h = 0; h < 4; ++h) heads.heads.push_back({1, h});
    QVERIFY(torch::allclose(run(a, &noHeads), run(a, nullptr, &heads), 1e-5, 1e-5));
    const PassHook noFeedForward = [](PassPart part, int64_t layer, torch::Tensor& value) {
        if (part == PassPart::FeedForward && layer == 1) value = torch::zeros_like(value);
    };
    KnockOut feedForward;
    feedForward.feedForward = {1};
    QVERIFY(torch::allclose(run(a, &noFeedForward), run(a, nullptr, &feedForward), 1e-5, 1e-5));
    QVERIFY(!torch::allclose(run(a, &noFeedForward), plainA, 1e-3, 1e-3));
}

void TestAttribution::patchingAllOrNothing() {
    for (const QString& arithmetic : {QStringLiteral("book"), QStringLiteral("bias-free tied")}) {
        CharGPT model = randomModel(arithmetic);
        std::vector<int64_t> clean = randomTokens(10, 20, 31), corrupted = clean;
        corrupted[4] = (clean[4] + 7) % 20;
        const PatchingRuns runs = preparePatching(model, clean, corrupted, 2);
        QCOMPARE(runs.target, int64_t(2));
        QVERIFY(runs.wrong != 2);
        const torch::Tensor cleanLogits = logitsOf(model, clean)[9], corruptedLogits = logitsOf(model, corrupted)[9];
        QVERIFY(std::abs(runs.cleanDifference - (cleanLogits[2] - cleanLogits[runs.wrong]).item<double>()) < 1e-6);
        torch::Tensor others = corruptedLogits.clone();
        others[2] = -1e300;
        QCOMPARE(runs.wrong, others.argmax().item<int64_t>());
        QVERIFY(runs.restored(patchedDifference(model, runs, {})) == 0.0);  // exactly
        for (const int64_t index : {int64_t(-1), int64_t(9)})
            QVERIFY(runs.restored(patchedDifference(model, runs, {{Patch::Residual, 2, index}})) == 1.0);
        QVERIFY(runs.restored(patchedDifference(model, runs, {{Patch::Residual, 0, -1}})) == 1.0);
        // Every head and feed-forward of both layers, at every position: the clean run again.
        std::vector<Patch> everything;
        for (int64_t l = 0; l < 2; ++l) {
            for (int64_t h = 0; h < 4; ++h) everything.push_back({Patch::Head, l, h});
            everything.push_back({Patch::FeedForward, l, -1});
        }
        QVERIFY(std::abs(runs.restored(patchedDifference(model, runs, everything)) - 1.0) < 1e-5);
    }
}

void TestAttribution::sweepsAgreeWithSinglePatches() {
    CharGPT model = randomModel(QStringLiteral("nanogpt"));
    std::vector<int64_t> clean = randomTokens(10, 20, 41), corrupted = clean;
    corrupted[3] = (clean[3] + 5) % 20;
    const PatchingRuns runs = preparePatching(model, clean, corrupted, 6, 1);
    const std::vector<double> residual = patchingSweep(model, runs, Patch::Residual);
    const std::vector<double> heads = patchingSweep(model, runs, Patch::Head);
    const std::vector<double> feedForward = patchingSweep(model, runs, Patch::FeedForward);
    QCOMPARE(residual.size(), std::size_t(3 * 10));
    QCOMPARE(heads.size(), std::size_t(2 * 4));
    QCOMPARE(feedForward.size(), std::size_t(2 * 10));
    for (int64_t l = 0; l <= 2; ++l)
        for (int64_t t = 0; t < 10; ++t) {
            const double cell = residual[l * 10 + t];
            QVERIFY(std::abs(cell - runs.restored(patchedDifference(model, runs, {{Patch::Residual, l, t}}))) < 1e-5);
            if (t < 3) QVERIFY(std::abs(cell) < 1e-5);  // before the change the two runs are the same
            if (l == 2) QVERIFY(std::abs(cell - (t == 9 ? 1.0 : 0.0)) < 1e-5);  // only the last position is read
        }
    // The changed character's own embedding carries all of it.
    QVERIFY(std::abs(residual[3] - 1.0) < 1e-5);
    for (int64_t l = 0; l < 2; ++l) {
        for (int64_t h = 0; h < 4; ++h)
            QVERIFY(std::abs(heads[l * 4 + h] -
                             runs.restored(patchedDifference(model, runs, {{Patch::Head, l, h}}))) < 1e-5);
        for (int64_t t = 0; t < 10; ++t)
            QVERIFY(std::abs(feedForward[l * 10 + t] -
                             runs.restored(patchedDifference(model, runs, {{Patch::FeedForward, l, t}}))) < 1e-5);
    }
    double spread = 0.0;
    for (const double v : heads) spread = std::max(spread, std::abs(v));
    QVERIFY(spread > 1e-3);  // the heads matter here
}

void TestAttribution::sweepStopsWhenAsked() {
    CharGPT model = randomModel(QStringLiteral("long context"));
    std::vector<int64_t> clean = randomTokens(40, 20, 51), corrupted = clean;
    corrupted[0] = (clean[0] + 1) % 20;
    const PatchingRuns runs = preparePatching(model, clean, corrupted, 4);
    int passes = 0;
    const std::vector<double> stopped = patchingSweep(model, runs, Patch::Residual, [&](int64_t, int64_t) {
        ++passes;
        return false;
    });
    QCOMPARE(passes, 1);
    QCOMPARE(stopped.size(), std::size_t(3 * 40));
    QVERIFY(!std::isnan(stopped[kPatchesPerPass - 1]));
    QVERIFY(std::isnan(stopped[kPatchesPerPass]));
}

void TestAttribution::patchingRefusesBadInput() {
    CharGPT model = randomModel(QStringLiteral("book"));
    const std::vector<int64_t> clean = randomTokens(6, 20, 61);
    std::vector<int64_t> corrupted = clean;
    corrupted[2] = (clean[2] + 3) % 20;
    QVERIFY(errorOf([&] { preparePatching(model, clean, {1, 2}, 3); }).contains(QLatin1String("same length")));
    QVERIFY(errorOf([&] { preparePatching(model, clean, clean, 3); }).contains(QLatin1String("nothing for a patch")));
    QVERIFY(errorOf([&] { preparePatching(model, clean, corrupted, 3, 3); }).contains(QLatin1String("is the target")));
    QVERIFY(errorOf([&] { preparePatching(model, clean, corrupted, 20); }).contains(QLatin1String("ids 0 to 19")));
    QVERIFY(errorOf([&] { preparePatching(model, {}, {}, 3); }).contains(QLatin1String("empty")));
    const PatchingRuns runs = preparePatching(model, clean, corrupted, 3);
    QVERIFY(errorOf([&] { patchedDifference(model, runs, {{Patch::Residual, 3, 0}}); })
                .contains(QLatin1String("(the embeddings) to 2")));
    QVERIFY(errorOf([&] { patchedDifference(model, runs, {{Patch::Head, 0, 4}}); })
                .contains(QLatin1String("head 4 of layer 0")));
    QVERIFY(errorOf([&] { patchedDifference(model, runs, {{Patch::FeedForward, 1, 6}}); })
                .contains(QLatin1String("position 6")));
}

CHARGPT_TEST_GUILESS_MAIN(TestAttribution)
}  // namespace tst_attribution
#include "tst_attribution.moc"
