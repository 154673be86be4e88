// SPDX-License-Identifier: GPL-3.0-or-later
// Inside the model (model/analysis): the logit lens's last layer is the
// model's own prediction; knocking out nothing is the baseline, a head's
// knock-out is its slice of the projection's input zeroed, a layer's is its
// sublayer gone; a hand-built previous-token head and induction head score
// near 1 and a uniform head its chance value; PCA finds planted axes and the
// frames of a run keep their axes. Every analysis leaves the model's mode and
// refuses bad input with a message.
#include <torch/torch.h>

#include "model/analysis/Ablation.h"
#include "model/analysis/EmbeddingMap.h"
#include "model/analysis/HeadRoles.h"
#include "model/analysis/LogitLens.h"
#include "model/nn/CharGPT.h"
#include "model/runtime/Error.h"
#include "model/train/Dataset.h"
#include "model/train/RunConfig.h"
#include "model/train/Trainer.h"

#include "TestProgram.h"

#include <cmath>
#include <set>
#include <string>
#include <vector>

namespace tst_analysis {

using chargpt::CharGPT;

namespace {

// The tiny preset (2 layers of 4 heads, context 16) with 20 tokens, weights
// sharpened so that layers and heads matter.
chargpt::ModelConfig tinyConfig(double dropout = 0.0) {
    chargpt::ModelConfig c = *chargpt::RunConfig::preset("tiny");
    c.vocab_size = 20;
    c.dropout = dropout;
    return c;
}

CharGPT makeModel(double dropout = 0.0, uint64_t seed = 5) {
    torch::manual_seed(seed);
    CharGPT model(tinyConfig(dropout));
    torch::NoGradGuard noGrad;
    for (auto& p : model->parameters()) p.mul_(5.0);
    for (auto& item : model->named_parameters())  // LayerNorms back near 1, as trained ones are
        if (item.key().find(".l1.") != std::string::npos || item.key().find(".l2.") != std::string::npos ||
            item.key().rfind("l.", 0) == 0)
            item.value().fill_(item.key().find("weight") != std::string::npos ? 1.0 : 0.0);
    model->eval();
    return model;
}

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

double maxAbsDiff(const torch::Tensor& a, const torch::Tensor& b) { return (a - b).abs().max().item<double>(); }

template <typename F>
QString errorOf(F&& f) {
    try {
        f();
    } catch (const chargpt::Error& e) {
        return QString::fromStdString(e.what());
    }
    return {};
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

    // The characters' map.
    void pcaRecoversPlantedAxes();
    void alignmentUndoesFlipsAndSwaps();
    void alignmentNeverFlipsBetweenNearFrames();
    void alignmentFollowsSwappedVariances();
    void nearestNeighboursByCosine();
    void positionSimilarityMatrix();
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
    std::set<std::tuple<int, int64_t, int64_t>> seen;
    for (const chargpt::AblationRow& row : table.rows) {
        seen.insert({int(row.part), row.layer, row.head});
        QCOMPARE(row.increase, row.loss - table.baseline);
        chargpt::KnockOut k;
        if (row.part == chargpt::AblationPart::Head) k.heads = {{row.layer, row.head}};
        if (row.part == chargpt::AblationPart::Attention) k.attention = {row.layer};
        if (row.part == chargpt::AblationPart::FeedForward) k.feedForward = {row.layer};
        QCOMPARE(chargpt::ablatedLoss(model, batches, k), row.loss);
        if (row.part != chargpt::AblationPart::Head) {
            QCOMPARE(row.head, int64_t(-1));
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

// ---- the characters' map ---------------------------------------------------------

namespace {
// N points spread along two orthonormal directions of R^C (standard deviations
// s0 along u0, s1 along u1), around a centre, plus noise.
struct Planted {
    torch::Tensor points, u0, u1;
};
Planted plant(int64_t n, int64_t c, double s0, double s1, double noise, uint64_t seed) {
    torch::manual_seed(seed);
    const torch::Tensor q = std::get<0>(torch::linalg::qr(torch::randn({c, 2}, torch::kFloat64)));  // (C, 2)
    Planted p;
    p.u0 = q.select(1, 0).contiguous();
    p.u1 = q.select(1, 1).contiguous();
    // Centred and uncorrelated, so that u0 and u1 are exactly the principal
    // directions of the points (but for the noise).
    torch::Tensor a = torch::randn({n, 1}, torch::kFloat64);
    a = a - a.mean();
    torch::Tensor b = torch::randn({n, 1}, torch::kFloat64);
    b = b - b.mean();
    b = b - (b * a).sum() / (a * a).sum() * a;
    a = a / a.std() * s0;
    b = b / b.std() * s1;
    const torch::Tensor centre = torch::randn({1, c}, torch::kFloat64) * 3.0;
    p.points = a * p.u0 + b * p.u1 + centre + noise * torch::randn({n, c}, torch::kFloat64);
    return p;
}
double cosine(const torch::Tensor& a, const torch::Tensor& b) {
    return (a.dot(b) / (a.norm() * b.norm())).item<double>();
}
// The same frame with axis 0 and/or 1 negated, and/or the axes swapped.
chargpt::EmbeddingFrame scrambled(const chargpt::EmbeddingFrame& f, bool flip0, bool flip1, bool swap) {
    chargpt::EmbeddingFrame g = f;
    const torch::Tensor signs = torch::tensor({flip0 ? -1.0 : 1.0, flip1 ? -1.0 : 1.0}, torch::kFloat64);
    g.axes = f.axes * signs.unsqueeze(1);
    g.coordinates = f.coordinates * signs;
    if (swap) {
        g.axes = g.axes.flip(0).contiguous();
        g.coordinates = g.coordinates.flip(1).contiguous();
        std::swap(g.variance[0], g.variance[1]);
        std::swap(g.explained[0], g.explained[1]);
    }
    return g;
}
}  // namespace

void TestAnalysis::pcaRecoversPlantedAxes() {
    const Planted p = plant(200, 16, 3.0, 1.0, 1e-3, 21);
    const chargpt::EmbeddingFrame f = chargpt::principalFrame(p.points.to(torch::kFloat32));
    QCOMPARE(f.axes.size(0), int64_t(2));
    QCOMPARE(f.coordinates.size(0), int64_t(200));
    QVERIFY(std::abs(cosine(f.axes[0], p.u0)) > 0.99);
    QVERIFY(std::abs(cosine(f.axes[1], p.u1)) > 0.99);
    QVERIFY(std::abs(cosine(f.axes[0], f.axes[1])) < 1e-6);
    QVERIFY(f.explained[0] > 0.8 && f.explained[1] > 0.05);
    QVERIFY(f.explained[0] + f.explained[1] > 0.999);
    QVERIFY(std::abs(f.variance[0] / f.variance[1] - (p.points.matmul(p.u0).var(0, false) /
                                                       p.points.matmul(p.u1).var(0, false)).item<double>()) < 0.05);
    // The coordinates are the centred points on the axes.
    const torch::Tensor byHand = (p.points - p.points.mean(0)).matmul(f.axes.t());
    QVERIFY(maxAbsDiff(f.coordinates, byHand) < 1e-4);
    QVERIFY(errorOf([] { chargpt::principalFrame(torch::zeros({1, 4})); }).contains("at least 2"));
    QVERIFY(errorOf([] { chargpt::principalFrame(torch::full({3, 4}, NAN)); }).contains("not finite"));
}

void TestAnalysis::alignmentUndoesFlipsAndSwaps() {
    const Planted p = plant(60, 8, 2.0, 1.0, 1e-2, 22);
    const chargpt::EmbeddingFrame f = chargpt::principalFrame(p.points);
    for (int code = 0; code < 8; ++code) {
        const chargpt::EmbeddingFrame g = scrambled(f, code & 1, code & 2, code & 4);
        const chargpt::EmbeddingFrame aligned = chargpt::alignFrame(g, f);
        QVERIFY2(torch::equal(aligned.coordinates, f.coordinates), qPrintable(QString::number(code)));
        QVERIFY(torch::equal(aligned.axes, f.axes));
        QCOMPARE(aligned.explained[0], f.explained[0]);
        QCOMPARE(aligned.variance[1], f.variance[1]);
    }
    // Aligned to itself: unchanged.
    QVERIFY(torch::equal(chargpt::alignFrame(f, f).coordinates, f.coordinates));
    const chargpt::EmbeddingFrame other = chargpt::principalFrame(p.points.slice(0, 0, 30));
    QVERIFY(errorOf([&] { chargpt::alignFrame(other, f); }).contains("as many points"));
}

void TestAnalysis::alignmentNeverFlipsBetweenNearFrames() {
    // A run's frames: the embeddings drift a little each time and the SVD's
    // signs and order are scrambled; the aligned frames never flip an axis.
    Planted p = plant(80, 12, 2.0, 1.0, 1e-2, 23);
    chargpt::EmbeddingFrame previous = chargpt::principalFrame(p.points);
    torch::manual_seed(24);
    int changed = 0;
    for (int frame = 1; frame <= 20; ++frame) {
        p.points = p.points + 0.02 * torch::randn(p.points.sizes(), torch::kFloat64);
        const chargpt::EmbeddingFrame raw = chargpt::principalFrame(p.points);
        const chargpt::EmbeddingFrame g = scrambled(raw, frame % 2, frame % 3 == 0, frame % 5 == 0);
        if (!torch::equal(g.coordinates, raw.coordinates)) ++changed;
        const chargpt::EmbeddingFrame aligned = chargpt::alignFrame(g, previous);
        for (int64_t axis = 0; axis < 2; ++axis) {
            QVERIFY2(cosine(aligned.coordinates.select(1, axis), previous.coordinates.select(1, axis)) > 0.99,
                     qPrintable(QStringLiteral("frame %1 axis %2").arg(frame).arg(axis)));
            QVERIFY(cosine(aligned.axes[axis], previous.axes[axis]) > 0.99);
        }
        previous = aligned;
    }
    QVERIFY(changed > 10);  // the test did scramble
}

void TestAnalysis::alignmentFollowsSwappedVariances() {
    // Variance moves from one direction to the other: PCA's order swaps, the
    // aligned frame keeps each axis on its direction.
    const Planted a = plant(100, 10, 2.0, 1.9, 1e-3, 25);
    torch::manual_seed(26);
    const torch::Tensor c0 = a.points.matmul(a.u0).unsqueeze(1), c1 = a.points.matmul(a.u1).unsqueeze(1);
    const torch::Tensor rest = a.points - c0 * a.u0 - c1 * a.u1;
    const torch::Tensor swappedPoints = rest + c0 * 0.9 * a.u0 + c1 * 1.1 * a.u1;  // now u1 spreads more
    const chargpt::EmbeddingFrame before = chargpt::principalFrame(a.points);
    const chargpt::EmbeddingFrame rawAfter = chargpt::principalFrame(swappedPoints);
    QVERIFY2(std::abs(cosine(rawAfter.axes[0], a.u1)) > 0.99,
             qPrintable(QStringLiteral("%1 %2 %3").arg(cosine(rawAfter.axes[0], a.u1)).arg(rawAfter.variance[0]).arg(rawAfter.variance[1])));  // the order did swap
    const chargpt::EmbeddingFrame after = chargpt::alignFrame(rawAfter, before);
    QVERIFY(cosine(after.axes[0], before.axes[0]) > 0.99);
    QVERIFY(cosine(after.axes[1], before.axes[1]) > 0.99);
    QVERIFY(after.explained[0] < after.explained[1]);
}

void TestAnalysis::nearestNeighboursByCosine() {
    const torch::Tensor e = torch::tensor({{1.0, 0.0}, {2.0, 0.2}, {-1.0, 0.0}, {0.0, 3.0}, {0.0, 0.0}, {1.0, -0.5}},
                                          torch::kFloat32);
    const auto n = chargpt::nearestByCosine(e, 0, 10);
    QCOMPARE(n.size(), std::size_t(5));
    QCOMPARE(n[0].token, int64_t(1));
    QCOMPARE(n[1].token, int64_t(5));
    QCOMPARE(n[2].token, int64_t(3));  // cosine 0, tied with the zero row 4: lower id first
    QCOMPARE(n[3].token, int64_t(4));
    QCOMPARE(n[4].token, int64_t(2));
    QVERIFY(std::abs(n[0].cosine - 2.0 / std::sqrt(4.04)) < 1e-6);
    QVERIFY(std::abs(n[4].cosine + 1.0) < 1e-12);
    QCOMPARE(chargpt::nearestByCosine(e, 0, 2).size(), std::size_t(2));
    QVERIFY(errorOf([&] { chargpt::nearestByCosine(e, 6, 2); }).contains("token 6"));
    // Every row at once (300 rows: more than one block of 256) gives what each row alone gives.
    torch::manual_seed(3);
    const torch::Tensor many = torch::randn({300, 8});
    const auto all = chargpt::nearestByCosineAll(many, 5);
    QCOMPARE(all.size(), std::size_t(300));
    for (int64_t row : {int64_t(0), int64_t(255), int64_t(256), int64_t(299)}) {
        const auto alone = chargpt::nearestByCosine(many, row, 5);
        QCOMPARE(all[static_cast<std::size_t>(row)].size(), alone.size());
        for (std::size_t k = 0; k < alone.size(); ++k) {
            QCOMPARE(all[static_cast<std::size_t>(row)][k].token, alone[k].token);
            QVERIFY(std::abs(all[static_cast<std::size_t>(row)][k].cosine - alone[k].cosine) < 1e-12);
        }
    }
    QCOMPARE(chargpt::nearestByCosineAll(e, 10)[0].size(), std::size_t(5));
    CharGPT model = makeModel();
    const auto viaModel = chargpt::nearestTokens(model, 3, 4);
    QCOMPARE(viaModel.size(), std::size_t(4));
    QVERIFY(viaModel[0].cosine >= viaModel[3].cosine);
    const chargpt::EmbeddingFrame map = chargpt::tokenEmbeddingMap(model);
    QCOMPARE(map.coordinates.size(0), int64_t(20));
    QVERIFY(torch::equal(chargpt::tokenEmbeddingMap(model, &map).coordinates, map.coordinates));
}

void TestAnalysis::positionSimilarityMatrix() {
    CharGPT model = makeModel();
    const torch::Tensor s = chargpt::positionSimilarity(model);
    QCOMPARE(s.size(0), int64_t(16));
    QCOMPARE(s.size(1), int64_t(16));
    QVERIFY(maxAbsDiff(s.diagonal(), torch::ones({16}, torch::kFloat64)) < 1e-12);
    QVERIFY(maxAbsDiff(s, s.t()) < 1e-12);
    const torch::Tensor p = model->pos_emb->weight.detach().to(torch::kFloat64);
    QVERIFY(std::abs(s[2][9].item<double>() - cosine(p[2], p[9])) < 1e-12);
}

CHARGPT_TEST_GUILESS_MAIN(TestAnalysis)
}  // namespace tst_analysis
#include "tst_analysis.moc"
