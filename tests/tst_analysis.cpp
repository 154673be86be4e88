// SPDX-License-Identifier: GPL-3.0-or-later
// Inside the model (model/analysis): the logit lens's last layer is the
// model's own prediction; knocking out nothing is the baseline, a head's
// knock-out is its slice of the projection's input zeroed, a layer's is its
// sublayer gone; a hand-built previous-token head and induction head score
// near 1 and a uniform head its chance value (the characters' map is
// tst_embeddingmap's). Every analysis leaves the model's mode and refuses bad
// input with a message.
#include <torch/torch.h>

#include "model/analysis/Ablation.h"
#include "model/analysis/HeadRoles.h"
#include "model/analysis/LogitLens.h"
#include "model/nn/CharGPT.h"
#include "model/runtime/Error.h"
#include "model/train/Dataset.h"
#include "model/train/RunConfig.h"
#include "model/train/Trainer.h"

#include "AnalysisFixtures.h"
#include "TestProgram.h"

#include <cmath>
#include <set>
#include <string>
#include <vector>

namespace tst_analysis {

using chargpt::CharGPT;
using namespace analysis_fixtures;

namespace {

std::vector<int64_t> randomTokens(int64_t n, int64_t vocab, uint64_t seed) {
    torch::manual_seed(seed);
    const torch::Tensor t = torch::randint(vocab, {n}, torch::kInt64);
    return std::vector<int64_t>(t.data_ptr<int64_t>(), t.data_ptr<int64_t>() + n);
}

std::vector<chargpt::Batch> randomBatches(int count, int64_t batch, int64_t length, int64_t vocab, uint64_t seed) {
    torch::manual_seed(seed);
    std::vector<chargpt::Batch> out;
    for (int i = 0; i < count; ++i) {
        const torch::Tensor stream = torch::randint(vocab, {batch, length + 1}, torch::kInt64);
        out.push_back({stream.slice(1, 0, length).contiguous(), stream.slice(1, 1, length + 1).contiguous()});
    }
    return out;
}

// Plain cross-entropy, written out: the mean over batches of each batch's mean.
double plainLoss(CharGPT model, const std::vector<chargpt::Batch>& batches) {
    torch::NoGradGuard noGrad;
    double sum = 0.0;
    for (const auto& b : batches) {
        const torch::Tensor logits = model->forward(b.inputs);
        sum += torch::cross_entropy_loss(logits.view({-1, logits.size(-1)}), b.targets.view({-1})).item<double>();
    }
    return sum / double(batches.size());
}

// Two layers of two heads over 16 tokens and 32 positions, weights set by hand
// (the residual stream holds the token one-hot in dimensions 0..15, the
// previous token's in 16..31 and the position one-hot in 32..63):
// - layer 0, head 0: a previous-token head (query at i matches the key of
//   position i - 1) that copies the previous token into dimensions 16..31;
// - layer 1, head 0: an induction head (the current token's query matches the
//   key of the position whose previous token it is);
// - head 1 of each layer: queries and keys zero, so its attention is uniform.
// Everything else is zero (feed-forwards add nothing).
CharGPT handBuiltInductionModel() {
    chargpt::ModelConfig c;
    c.vocab_size = 16;
    c.emb_size = 64;
    c.head_size = 32;
    c.n_layer = 2;
    c.sequence_len = 32;
    c.dropout = 0.0;
    torch::manual_seed(3);
    CharGPT model(c);
    torch::NoGradGuard noGrad;
    for (auto& item : model->named_parameters()) {
        const bool norm = item.key().find(".l1.") != std::string::npos ||
                          item.key().find(".l2.") != std::string::npos || item.key().rfind("l.", 0) == 0;
        if (norm) item.value().fill_(item.key().find("weight") != std::string::npos ? 1.0 : 0.0);
        else if (item.key().rfind("lm.", 0) != 0) item.value().zero_();
    }
    const int64_t C = 64, tokenDim = 0, prevDim = 16, posDim = 32;
    for (int64_t t = 0; t < 16; ++t) model->token_emb->weight[t][tokenDim + t] = 1.0;
    for (int64_t p = 0; p < 32; ++p) model->pos_emb->weight[p][posDim + p] = 1.0;
    auto qkv = [&](int layer) { return model->blocks[layer]->as<chargpt::BlockImpl>()->mha->qkv->weight; };
    auto proj = [&](int layer) { return model->blocks[layer]->as<chargpt::BlockImpl>()->mha->proj->weight; };
    // Layer 0, head 0 (rows 0..31 of each third): q row j reads position j + 1, k row j position j.
    torch::Tensor w0 = qkv(0);
    for (int64_t j = 0; j + 1 < 32; ++j) w0[j][posDim + j + 1] = 5.0;
    for (int64_t j = 0; j < 32; ++j) w0[C + j][posDim + j] = 5.0;
    for (int64_t j = 0; j < 16; ++j) w0[2 * C + j][tokenDim + j] = 1.0;  // v: the token
    for (int64_t j = 0; j < 16; ++j) proj(0)[prevDim + j][j] = 0.2;      // into the previous-token slot
    // Layer 1, head 0: q reads the token, k the previous token.
    torch::Tensor w1 = qkv(1);
    for (int64_t j = 0; j < 16; ++j) {
        w1[j][tokenDim + j] = 3.0;
        w1[C + j][prevDim + j] = 3.0;
    }
    model->eval();
    return model;
}

}  // namespace

class TestAnalysis : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { torch::manual_seed(15); }

    // Logit lens.
    void lensLastLayerIsModelOutput();
    void lensCellsAndFirstLayer();
    void lensOfLongText();
    void lensRefusesBadInput();

    // Knock-out.
    void knockingOutNothingIsBaseline();
    void headKnockOutIsItsProjectionSliceZeroed();
    void layerKnockOutsRemoveTheirSublayer();
    void ablationTableRows();
    void knockOutRefusesBadParts();
    void evaluationBatchesAreTheTrainersOwn();

    // Head roles.
    void repeatedRandomTokensAreRepeated();
    void handBuiltHeadsScoreTheirRoles();
    void headRolesRefuseBadInput();
};

// ---- logit lens ---------------------------------------------------------------

void TestAnalysis::lensLastLayerIsModelOutput() {
    // A training-mode model with dropout: the lens runs without it and leaves the mode.
    CharGPT model = makeModel(/*dropout=*/0.3);
    model->train();
    const std::vector<int64_t> tokens = randomTokens(16, 20, 1);
    const torch::Tensor lens = chargpt::logitLensProbabilities(model, tokens);  // (L + 1, T, V)
    QVERIFY(model->is_training());
    QCOMPARE(lens.size(0), model->config().n_layer + 1);
    QCOMPARE(lens.size(1), int64_t(16));
    QCOMPARE(lens.size(2), int64_t(20));
    model->eval();
    torch::NoGradGuard noGrad;
    const torch::Tensor own =
        torch::softmax(model->forward(torch::tensor(tokens, torch::kInt64).unsqueeze(0))[0], -1);  // (T, V)
    QVERIFY2(maxAbsDiff(lens[model->config().n_layer], own) < 1e-5,
             qPrintable(QString::number(maxAbsDiff(lens[model->config().n_layer], own))));
    // Earlier layers predict something else: the lens shows a change.
    QVERIFY(maxAbsDiff(lens[0], own) > 1e-3);
    QVERIFY(maxAbsDiff(lens.sum(-1), torch::ones({lens.size(0), lens.size(1)})) < 1e-5);
}

void TestAnalysis::lensCellsAndFirstLayer() {
    CharGPT model = makeModel();
    std::vector<int64_t> inputs = randomTokens(12, 20, 2);
    std::vector<int64_t> targets = randomTokens(12, 20, 3);
    targets.back() = -1;  // the position being generated has no next token yet
    const chargpt::LogitLens lens = chargpt::computeLogitLens(model, inputs, targets);
    const torch::Tensor p = chargpt::logitLensProbabilities(model, inputs);
    QCOMPARE(lens.layers, int64_t(3));
    QCOMPARE(lens.positions, int64_t(12));
    QCOMPARE(lens.cells.size(), std::size_t(36));
    for (int64_t layer = 0; layer < lens.layers; ++layer) {
        for (int64_t t = 0; t < lens.positions; ++t) {
            const chargpt::LensCell& cell = lens.at(layer, t);
            const torch::Tensor row = p[layer][t];
            QCOMPARE(cell.guesses, chargpt::kLensGuesses);
            QCOMPARE(cell.guessTokens[0], row.argmax().item<int64_t>());
            QCOMPARE(cell.guessProbabilities[0], row.max().item<float>());
            QVERIFY(cell.guessProbabilities[1] <= cell.guessProbabilities[0]);
            const int64_t target = targets[static_cast<std::size_t>(t)];
            if (target < 0) {
                QCOMPARE(cell.targetRank, int64_t(0));
                QVERIFY(std::isnan(cell.targetProbability));
                continue;
            }
            QCOMPARE(cell.targetProbability, row[target].item<float>());
            QCOMPARE(cell.targetRank, 1 + (row > row[target]).sum().item<int64_t>());
            QCOMPARE(cell.targetRank == 1, cell.guessTokens[0] == target ||
                                               cell.guessProbabilities[0] == cell.targetProbability);
        }
    }
    // Layer 0 is the embeddings read by the final LayerNorm and head, by hand.
    torch::NoGradGuard noGrad;
    const torch::Tensor idx = torch::tensor(inputs, torch::kInt64);
    const torch::Tensor x = model->token_emb->weight.index_select(0, idx) + model->pos_emb->weight.slice(0, 0, 12);
    const torch::Tensor byHand = torch::softmax(model->lm(model->l(x)), -1);
    QVERIFY(maxAbsDiff(p[0], byHand) < 1e-6);
}

void TestAnalysis::lensOfLongText() {
    CharGPT model = makeModel();
    const std::vector<int64_t> tokens = randomTokens(40, 20, 4);
    int64_t first = -1;
    const chargpt::LogitLens lens = chargpt::logitLensOfText(model, tokens, &first);
    QCOMPARE(first, int64_t(40 - 17));  // the last sequence_len + 1 tokens
    QCOMPARE(lens.positions, int64_t(16));
    QCOMPARE(lens.inputs, std::vector<int64_t>(tokens.begin() + 23, tokens.end() - 1));
    QCOMPARE(lens.targets, std::vector<int64_t>(tokens.begin() + 24, tokens.end()));
    const chargpt::LogitLens shortLens = chargpt::logitLensOfText(model, {3, 4, 5}, &first);
    QCOMPARE(first, int64_t(0));
    QCOMPARE(shortLens.positions, int64_t(2));
    QCOMPARE(shortLens.targets, (std::vector<int64_t>{4, 5}));
}

void TestAnalysis::lensRefusesBadInput() {
    CharGPT model = makeModel();
    QVERIFY(errorOf([&] { chargpt::logitLensProbabilities(model, {}); }).contains("empty"));
    QVERIFY(errorOf([&] { chargpt::logitLensProbabilities(model, randomTokens(17, 20, 5)); })
                .contains("at most 16"));
    QVERIFY(errorOf([&] { chargpt::logitLensProbabilities(model, {1, 20}); }).contains("token id 20"));
    QVERIFY(errorOf([&] { chargpt::logitLensProbabilities(model, {1, -3}); }).contains("token id -3"));
    QVERIFY(errorOf([&] { chargpt::computeLogitLens(model, {1, 2}, {3}); }).contains("1 next tokens for 2"));
    QVERIFY(errorOf([&] { chargpt::computeLogitLens(model, {1, 2}, {3, 25}); }).contains("id 25"));
    QVERIFY(errorOf([&] { chargpt::logitLensOfText(model, {1}); }).contains("at least 2"));
}

// ---- knock-out ----------------------------------------------------------------

void TestAnalysis::knockingOutNothingIsBaseline() {
    CharGPT model = makeModel(/*dropout=*/0.3);
    model->train();
    const auto batches = randomBatches(3, 4, 16, 20, 6);
    const double baseline = chargpt::ablatedLoss(model, batches);
    QVERIFY(model->is_training());
    model->eval();
    QCOMPARE(baseline, plainLoss(model, batches));  // exactly: the same pass
    chargpt::KnockOut nothing;
    QCOMPARE(chargpt::ablatedLoss(model, batches, nothing), baseline);
    const chargpt::AblationTable table = chargpt::ablationTable(model, batches);
    QCOMPARE(table.baseline, baseline);
}

void TestAnalysis::headKnockOutIsItsProjectionSliceZeroed() {
    CharGPT model = makeModel();
    const int64_t H = model->config().head_size;
    const torch::Tensor idx = torch::tensor(randomTokens(16, 20, 7), torch::kInt64).unsqueeze(0);
    for (const auto& [layer, head] : std::vector<std::pair<int64_t, int64_t>>{{0, 1}, {1, 3}}) {
        torch::NoGradGuard noGrad;
        chargpt::KnockOut knockOut;
        knockOut.heads.push_back({layer, head});
        chargpt::ForwardOptions options;
        options.knockOut = &knockOut;
        const torch::Tensor knocked = model->forward(idx, options);
        // By hand: the projection never sees the head's H inputs.
        CharGPT copy = chargpt::cloneModel(model);
        copy->blocks[layer]->as<chargpt::BlockImpl>()->mha->proj->weight.slice(1, head * H, (head + 1) * H).zero_();
        const torch::Tensor byHand = copy->forward(idx);
        QVERIFY2(maxAbsDiff(knocked, byHand) < 1e-5, qPrintable(QString::number(maxAbsDiff(knocked, byHand))));
        QVERIFY(maxAbsDiff(knocked, model->forward(idx)) > 1e-4);
    }
    // Two heads of one layer at once, and a head listed twice.
    torch::NoGradGuard noGrad;
    chargpt::KnockOut two;
    two.heads = {{0, 0}, {0, 2}, {0, 2}};
    chargpt::ForwardOptions options;
    options.knockOut = &two;
    CharGPT copy = chargpt::cloneModel(model);
    auto w = copy->blocks[0]->as<chargpt::BlockImpl>()->mha->proj->weight;
    w.slice(1, 0, H).zero_();
    w.slice(1, 2 * H, 3 * H).zero_();
    QVERIFY(maxAbsDiff(model->forward(idx, options), copy->forward(idx)) < 1e-5);
}

void TestAnalysis::layerKnockOutsRemoveTheirSublayer() {
    CharGPT model = makeModel();
    const torch::Tensor idx = torch::tensor(randomTokens(16, 20, 8), torch::kInt64).unsqueeze(0);
    torch::NoGradGuard noGrad;
    for (int64_t layer = 0; layer < 2; ++layer) {
        // A layer's attention gone = its projection's weight and bias zero.
        chargpt::KnockOut attention;
        attention.attention = {layer};
        chargpt::ForwardOptions options;
        options.knockOut = &attention;
        CharGPT copy = chargpt::cloneModel(model);
        copy->blocks[layer]->as<chargpt::BlockImpl>()->mha->proj->weight.zero_();
        copy->blocks[layer]->as<chargpt::BlockImpl>()->mha->proj->bias.zero_();
        QVERIFY(maxAbsDiff(model->forward(idx, options), copy->forward(idx)) < 1e-5);
        // Its weights are still reported (the layer computes them; they go nowhere).
        std::vector<torch::Tensor> weights;
        options.weights = &weights;
        model->forward(idx, options);
        QCOMPARE(weights.size(), std::size_t(2));
        QVERIFY(weights[std::size_t(layer)].defined());

        // A layer's feed-forward gone = its second linear zero.
        chargpt::KnockOut ff;
        ff.feedForward = {layer};
        chargpt::ForwardOptions ffOptions;
        ffOptions.knockOut = &ff;
        CharGPT ffCopy = chargpt::cloneModel(model);
        ffCopy->blocks[layer]->as<chargpt::BlockImpl>()->ff->ln2->weight.zero_();
        ffCopy->blocks[layer]->as<chargpt::BlockImpl>()->ff->ln2->bias.zero_();
        QVERIFY(maxAbsDiff(model->forward(idx, ffOptions), ffCopy->forward(idx)) < 1e-5);
    }
    // With a cache, a knocked-out attention still fills it: cached decoding
    // gives the full pass's logits.
    chargpt::KnockOut attention;
    attention.attention = {0};
    chargpt::ForwardOptions full;
    full.knockOut = &attention;
    const torch::Tensor whole = model->forward(idx, full);
    chargpt::KVCache cache = model->makeCache(1);
    chargpt::ForwardOptions cached;
    cached.knockOut = &attention;
    cached.cache = &cache;
    model->forward(idx.slice(1, 0, 10), cached);
    const torch::Tensor rest = model->forward(idx.slice(1, 10, 16), cached);
    QVERIFY(maxAbsDiff(rest, whole.slice(1, 10, 16)) < 1e-5);
}

void TestAnalysis::ablationTableRows() {
    CharGPT model = makeModel();
    const auto batches = randomBatches(2, 4, 16, 20, 9);
    const chargpt::AblationTable table = chargpt::ablationTable(model, batches);
    QVERIFY(table.complete);
    QCOMPARE(table.layers, int64_t(2));
    QCOMPARE(table.heads, int64_t(4));
    QCOMPARE(table.rows.size(), std::size_t(2 * 4 + 2 * 2));
    std::set<std::tuple<int, int64_t, std::optional<int64_t>>> seen;
    for (const chargpt::AblationRow& row : table.rows) {
        seen.insert({int(row.part), row.layer, row.head});
        QCOMPARE(row.increase, row.loss - table.baseline);
        chargpt::KnockOut k;
        if (row.part == chargpt::AblationPart::Head) k.heads = {{row.layer, *row.head}};
        if (row.part == chargpt::AblationPart::Attention) k.attention = {row.layer};
        if (row.part == chargpt::AblationPart::FeedForward) k.feedForward = {row.layer};
        QCOMPARE(chargpt::ablatedLoss(model, batches, k), row.loss);
        if (row.part != chargpt::AblationPart::Head) {
            QVERIFY(!row.head);
            // Without a whole sublayer the loss changes.
            QVERIFY2(std::abs(row.increase) > 1e-5, qPrintable(QString::number(row.increase)));
        }
    }
    QCOMPARE(seen.size(), table.rows.size());
    const std::vector<double> heads = table.headIncreases();
    QCOMPARE(heads.size(), std::size_t(8));
    QCOMPARE(heads[1 * 4 + 2], table.rows[6].increase);
    // Stopped after the baseline and two rows.
    int64_t lastTotal = 0;
    const chargpt::AblationTable partial =
        chargpt::ablationTable(model, batches, [&](int64_t done, int64_t total) {
            lastTotal = total;
            return done < 3;
        });
    QVERIFY(!partial.complete);
    QCOMPARE(lastTotal, int64_t(13));
    QCOMPARE(partial.rows.size(), std::size_t(2));
    QVERIFY(std::isnan(partial.headIncreases()[5]));
}

void TestAnalysis::knockOutRefusesBadParts() {
    CharGPT model = makeModel();
    const auto batches = randomBatches(1, 2, 16, 20, 10);
    chargpt::KnockOut badLayer;
    badLayer.attention = {2};
    QVERIFY(errorOf([&] { chargpt::ablatedLoss(model, batches, badLayer); }).contains("numbered 0 to 1"));
    chargpt::KnockOut badHead;
    badHead.heads = {{1, 4}};
    QVERIFY(errorOf([&] { chargpt::ablatedLoss(model, batches, badHead); }).contains("head 4"));
    chargpt::KnockOut badFf;
    badFf.feedForward = {-1};
    QVERIFY(errorOf([&] { chargpt::ablatedLoss(model, batches, badFf); }).contains("layer -1"));
    QVERIFY(errorOf([&] { chargpt::ablatedLoss(model, {}); }).contains("no evaluation batches"));
    QVERIFY(errorOf([&] { chargpt::ablatedLoss(model, randomBatches(1, 2, 17, 20, 11)); }).contains("at most 16"));
    QVERIFY(errorOf([&] { chargpt::ablatedLoss(model, randomBatches(1, 2, 8, 21, 12)); }).contains("token id"));
    auto mismatched = randomBatches(1, 2, 8, 20, 13);
    mismatched[0].targets = mismatched[0].targets.slice(1, 0, 4);
    QVERIFY(errorOf([&] { chargpt::ablatedLoss(model, mismatched); }).contains("not a pair"));
}

void TestAnalysis::evaluationBatchesAreTheTrainersOwn() {
    chargpt::RunConfig config = *chargpt::RunConfig::preset("tiny");
    config.vocab_size = 20;
    config.eval_iters = 3;
    config.batch_size = 4;
    config.seed = 77;
    auto data = std::make_shared<const chargpt::Dataset>(randomTokens(400, 20, 14), config.sequence_len);
    const auto batches = chargpt::evaluationBatches(*data, config, chargpt::Split::Validation);
    QCOMPARE(batches.size(), std::size_t(3));
    QCOMPARE(chargpt::evaluationBatches(*data, config, chargpt::Split::Validation, 2).size(), std::size_t(2));
    QVERIFY(torch::equal(chargpt::evaluationBatches(*data, config, chargpt::Split::Validation, 1)[0].inputs,
                         batches[0].inputs));
    CharGPT model = makeModel();
    // Trainer::evaluate averages over the same batches (fp32: no autocast here).
    config.bf16 = false;
    chargpt::Trainer fp32(model, data, config);
    QVERIFY(std::abs(fp32.evaluate(chargpt::Split::Validation) - chargpt::ablatedLoss(model, batches)) < 1e-6);
}

// ---- head roles ----------------------------------------------------------------

void TestAnalysis::repeatedRandomTokensAreRepeated() {
    const torch::Tensor t = chargpt::repeatedRandomTokens(16, 15, 3, 9);
    QCOMPARE(t.size(0), int64_t(3));
    QCOMPARE(t.size(1), int64_t(30));
    QVERIFY(torch::equal(t.slice(1, 0, 15), t.slice(1, 15, 30)));
    QVERIFY(t.min().item<int64_t>() >= 1 && t.max().item<int64_t>() <= 15);
    for (int64_t r = 0; r < 3; ++r) QCOMPARE(std::get<0>(torch::_unique(t[r].slice(0, 0, 15))).numel(), int64_t(15));
    QVERIFY(!torch::equal(t[0], t[1]));
    QVERIFY(torch::equal(t, chargpt::repeatedRandomTokens(16, 15, 3, 9)));
    QVERIFY(!torch::equal(t, chargpt::repeatedRandomTokens(16, 15, 3, 10)));
    // More random tokens than the vocabulary has: drawn with replacement.
    const torch::Tensor small = chargpt::repeatedRandomTokens(4, 10, 1, 9);
    QVERIFY(small.min().item<int64_t>() >= 1 && small.max().item<int64_t>() <= 3);
    QVERIFY(torch::equal(small.slice(1, 0, 10), small.slice(1, 10, 20)));
}

void TestAnalysis::handBuiltHeadsScoreTheirRoles() {
    CharGPT model = handBuiltInductionModel();
    model->train();  // the mode is left as it is
    chargpt::HeadRoleOptions options;
    options.inductionSequences = 6;
    const std::vector<int64_t> text = randomTokens(100, 16, 16);  // 4 windows, the last overlapping
    const chargpt::HeadRoles roles = chargpt::computeHeadRoles(model, text, options);
    QVERIFY(model->is_training());
    QCOMPARE(roles.layers, int64_t(2));
    QCOMPARE(roles.heads, int64_t(2));
    QCOMPARE(roles.inductionLength, int64_t(15));  // min(32 / 2, 16 - 1)
    QCOMPARE(roles.textTokensRead, int64_t(100));
    const QString all = QStringLiteral("prev %1 %2 %3 %4 / ind %5 %6 %7 %8 / chance %9 %10")
                            .arg(roles.previousToken[0]).arg(roles.previousToken[1])
                            .arg(roles.previousToken[2]).arg(roles.previousToken[3])
                            .arg(roles.induction[0]).arg(roles.induction[1])
                            .arg(roles.induction[2]).arg(roles.induction[3])
                            .arg(roles.previousTokenChance).arg(roles.inductionChance);
    // The previous-token head.
    QVERIFY2(roles.previousTokenOf(0, 0) > 0.99, qPrintable(all));
    QVERIFY2(roles.inductionOf(0, 0) < 0.1, qPrintable(all));
    // The induction head: 1 but for the query of r_0, which also matches
    // position 0 (that copied its own token): (n - 1/2) / n.
    QVERIFY2(roles.inductionOf(1, 0) > 0.95, qPrintable(all));
    QVERIFY2(roles.previousTokenOf(1, 0) < 0.3, qPrintable(all));
    // Uniform heads score their chance values.
    for (int64_t layer = 0; layer < 2; ++layer) {
        QVERIFY2(std::abs(roles.previousTokenOf(layer, 1) - roles.previousTokenChance) < 1e-6, qPrintable(all));
        QVERIFY2(std::abs(roles.inductionOf(layer, 1) - roles.inductionChance) < 1e-6, qPrintable(all));
    }
    double inductionChance = 0.0;
    for (int i = 15; i < 30; ++i) inductionChance += 1.0 / (i + 1);
    QVERIFY(std::abs(roles.inductionChance - inductionChance / 15) < 1e-12);
    // One window: the chance of positions 1 .. 31.
    const chargpt::HeadRoles one = chargpt::computeHeadRoles(model, randomTokens(32, 16, 17), options);
    double prevChance = 0.0;
    for (int i = 1; i < 32; ++i) prevChance += 1.0 / (i + 1);
    QVERIFY(std::abs(one.previousTokenChance - prevChance / 31) < 1e-12);
    QVERIFY(std::abs(one.previousTokenOf(0, 1) - one.previousTokenChance) < 1e-6);
}

void TestAnalysis::headRolesRefuseBadInput() {
    CharGPT model = makeModel();
    QVERIFY(errorOf([&] { chargpt::computeHeadRoles(model, {1}); }).contains("at least 2"));
    QVERIFY(errorOf([&] { chargpt::computeHeadRoles(model, {1, 2, 99}); }).contains("token id 99"));
    chargpt::HeadRoleOptions tooLong;
    tooLong.inductionLength = 9;  // 18 > 16
    QVERIFY(errorOf([&] { chargpt::computeHeadRoles(model, {1, 2}, tooLong); }).contains("at most 16"));
    chargpt::HeadRoleOptions none;
    none.inductionSequences = 0;
    QVERIFY(errorOf([&] { chargpt::computeHeadRoles(model, {1, 2}, none); }).contains("random sequences"));
}

CHARGPT_TEST_GUILESS_MAIN(TestAnalysis)
}  // namespace tst_analysis
#include "tst_analysis.moc"
