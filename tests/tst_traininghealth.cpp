// SPDX-License-Identifier: GPL-3.0-or-later
// Training health (model/train/TrainingHealth): each figure against the same
// quantity written out in LibTorch from the model's gradients, weights and
// modules; a learning rate 100x too high flagged within 50 steps, the preset's
// own not; the measurement leaving the training as it was.
#include <torch/torch.h>

#include "model/nn/CharGPT.h"
#include "model/text/CharTokenizer.h"
#include "model/text/Corpus.h"
#include "model/train/Dataset.h"
#include "model/train/HealthWarningWords.h"
#include "model/train/RunConfig.h"
#include "model/train/Trainer.h"
#include "model/train/TrainingHealth.h"

#include "TestProgram.h"
#include "TrainingFixtures.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace tst_traininghealth {

using namespace chargpt;
using namespace training_fixtures;

namespace {

struct Setup {
    CharTokenizer tokenizer;
    std::shared_ptr<const Dataset> data;
    RunConfig config;
};

const char* kText =
    "It was the best of times, it was the worst of times, it was the age of wisdom, it was the age of "
    "foolishness, it was the epoch of belief, it was the epoch of incredulity, it was the season of Light, "
    "it was the season of Darkness, it was the spring of hope, it was the winter of despair.\n";

Setup makeSetup(int repeat = 30, const std::string& preset = "tiny") {
    std::string all;
    for (int i = 0; i < repeat; ++i) all += kText;
    const Corpus corpus = Corpus::fromUtf8(all, "dickens");
    Setup s;
    s.tokenizer = corpus.buildTokenizer();
    s.config = *RunConfig::preset(preset);
    s.config.vocab_size = s.tokenizer.vocabSize();
    s.config.eval_interval = 1000;
    s.data = std::make_shared<const Dataset>(corpus.encode(s.tokenizer), s.config.sequence_len, s.config.val_fraction);
    return s;
}

// The norm of every tensor whose name starts with `prefix`, together.
double normOf(const std::map<std::string, torch::Tensor>& tensors, const std::string& prefix) {
    double sum = 0.0;
    for (const auto& [name, t] : tensors)
        if (name.rfind(prefix, 0) == 0) sum += t.to(torch::kFloat64).pow(2).sum().item<double>();
    return std::sqrt(sum);
}

std::map<std::string, torch::Tensor> gradientsOf(const CharGPT& model) {
    std::map<std::string, torch::Tensor> grads;
    for (const auto& item : model->named_parameters())
        if (item.value().grad().defined()) grads[item.key()] = item.value().grad().detach().clone();
    return grads;
}

bool close(double a, double b, double tolerance = 1e-5) {
    return std::abs(a - b) <= tolerance * std::max({1.0, std::abs(a), std::abs(b)});
}

struct Flagged {
    int64_t firstStep = -1;
    std::vector<HealthWarning> warnings;
    double largestRatio = 0.0;  // the largest of the measured steps' median update ratios
};

// Trains `steps` steps at `rate` (warm-up and decay as the preset has them)
// and gathers the warnings.
Flagged trainAt(double rate, int64_t steps, const std::string& preset = "tiny") {
    Setup s = makeSetup(30, preset);
    s.config.setLearningRate(rate);
    s.config.max_steps = steps;
    torch::manual_seed(5);
    CharGPT model(s.config);
    Trainer trainer(model, s.data, s.config);
    trainer.health = std::make_shared<TrainingHealth>();
    Flagged flagged;
    trainer.onHealth = [&](const HealthReport& report) {
        if (report.figures) {
            std::vector<double> ratios = report.figures->updateRatio;
            std::sort(ratios.begin(), ratios.end());
            if (!ratios.empty()) flagged.largestRatio = std::max(flagged.largestRatio, ratios[ratios.size() / 2]);
        }
        for (const HealthWarning& w : report.warnings) {
            if (flagged.firstStep < 0) flagged.firstStep = w.step;
            flagged.warnings.push_back(w);
            qInfo("lr %g, step %lld: %s", rate, static_cast<long long>(w.step), healthWarningText(w).c_str());
        }
    };
    trainer.run();
    qInfo("%s at lr %g: largest median update ratio %.3g", preset.c_str(), rate, flagged.largestRatio);
    return flagged;
}

}  // namespace

class TestTrainingHealth : public QObject {
    Q_OBJECT

private slots:
    void gradientsAndUpdatesEqualDirect();
    void activityEqualsDirect();
    void measuredOnlyEveryFewSteps();
    void measuringLeavesTrainingAsItWas();
    void tooHighLearningRateFlagged();
    void aLayerThatMovesMuchFasterIsNamed();
    void aLossSpikeIsSaidWithItsGradientNorm();
    void warningsInWords();
};

// Through a Trainer: each block's gradient norm (before clipping: clipping is
// off) and update ratio, from the gradients and weights the test reads itself.
void TestTrainingHealth::gradientsAndUpdatesEqualDirect() {
    Setup s = makeSetup();
    s.config.grad_clip = 0.0;
    s.config.max_steps = 3;
    torch::manual_seed(3);
    CharGPT model(s.config);
    Trainer trainer(model, s.data, s.config);
    TrainingHealth::Options options;
    options.every = 2;  // steps 1 and 2 measured, 3 not
    trainer.health = std::make_shared<TrainingHealth>(options);

    std::map<std::string, torch::Tensor> before = weightsOf(model), after, grads;
    std::vector<HealthFigures> measured;
    std::map<int64_t, std::map<std::string, torch::Tensor>> gradsAt, weightsBefore, weightsAfter;
    trainer.onStep = [&](const StepFigures& snap) {
        // The step's gradients stay until the next step zeroes them.
        gradsAt[snap.step] = gradientsOf(model);
        weightsBefore[snap.step] = before;
        weightsAfter[snap.step] = before = weightsOf(model);
    };
    trainer.onHealth = [&](const HealthReport& report) {
        if (report.figures) measured.push_back(*report.figures);
    };
    trainer.run();

    QCOMPARE(int(measured.size()), 2);
    QCOMPARE(measured[0].step, int64_t(1));
    QCOMPARE(measured[1].step, int64_t(2));
    for (const HealthFigures& f : measured) {
        const auto& g = gradsAt[f.step];
        QCOMPARE(f.layers(), s.config.n_layer);
        QVERIFY2(close(f.gradNorm, normOf(g, "")), qPrintable(QString::number(f.gradNorm)));
        for (int64_t layer = 0; layer < s.config.n_layer; ++layer) {
            const std::string prefix = "blocks." + std::to_string(layer) + ".";
            const double gradNorm = normOf(g, prefix);
            QVERIFY(gradNorm > 0.0);
            QVERIFY2(close(f.layerGradNorm[std::size_t(layer)], gradNorm),
                     qPrintable(QStringLiteral("%1 vs %2").arg(f.layerGradNorm[std::size_t(layer)]).arg(gradNorm)));
            std::map<std::string, torch::Tensor> change;
            for (const auto& [name, w] : weightsAfter[f.step]) change[name] = w - weightsBefore[f.step].at(name);
            const double ratio = normOf(change, prefix) / normOf(weightsBefore[f.step], prefix);
            QVERIFY(ratio > 0.0);
            QVERIFY2(close(f.updateRatio[std::size_t(layer)], ratio),
                     qPrintable(QStringLiteral("%1 vs %2").arg(f.updateRatio[std::size_t(layer)]).arg(ratio)));
        }
        QVERIFY(std::isfinite(f.loss));
    }
}

// The feed-forward's dead units and the heads' entropy and previous-character
// weight, against the blocks run one module at a time and the maps of
// attentionMaps.
void TestTrainingHealth::activityEqualsDirect() {
    Setup s = makeSetup();
    torch::manual_seed(4);
    CharGPT model(s.config);
    {
        // Some units that can never fire, so that the share is not 0.
        torch::NoGradGuard noGrad;
        model->blocks[0]->as<BlockImpl>()->ff->ln1->bias.slice(0, 0, 10).fill_(-100.0);
    }
    model->eval();
    const torch::Tensor idx = torch::randint(0, s.config.vocab_size, {4, s.config.sequence_len}, torch::kLong);
    HealthFigures figures;
    measureActivity(model, idx, figures);
    QCOMPARE(int64_t(figures.deadShare.size()), s.config.n_layer);

    torch::NoGradGuard noGrad;
    const int64_t T = idx.size(1);
    torch::Tensor x = model->token_emb(idx) + model->pos_emb(torch::arange(T));
    const AttentionMaps maps = model->attentionMaps(idx);
    for (int64_t layer = 0; layer < s.config.n_layer; ++layer) {
        auto* block = model->blocks[layer]->as<BlockImpl>();
        const torch::Tensor a = x + block->mha->forward(block->l1(x));
        const torch::Tensor hidden = torch::gelu(block->ff->ln1(block->l2(a)));  // (B, T, 4C)
        x = a + block->ff->forward(block->l2(a), nullptr, false);
        int64_t dead = 0;
        const int64_t units = hidden.size(-1);
        for (int64_t u = 0; u < units; ++u)
            if (hidden.select(-1, u).max().item<double>() <= 0.0) ++dead;
        if (layer == 0) QVERIFY(dead >= 10);
        QVERIFY2(close(figures.deadShare[std::size_t(layer)], double(dead) / double(units)),
                 qPrintable(QStringLiteral("layer %1: %2 vs %3/%4").arg(layer).arg(figures.deadShare[std::size_t(layer)]).arg(dead).arg(units)));

        const torch::Tensor w = maps.weights[layer].to(torch::kFloat64);  // (B, nh, T, T)
        for (int64_t head = 0; head < s.config.n_head(); ++head) {
            double entropy = 0.0, previous = 0.0;
            int64_t rows = 0;
            for (int64_t b = 0; b < w.size(0); ++b)
                for (int64_t t = 1; t < T; ++t) {
                    for (int64_t k = 0; k <= t; ++k) {
                        const double p = w[b][head][t][k].item<double>();
                        if (p > 0.0) entropy -= p * std::log(p);
                    }
                    previous += w[b][head][t][t - 1].item<double>();
                    ++rows;
                }
            QVERIFY(close(figures.headEntropy[std::size_t(layer)][std::size_t(head)], entropy / double(rows), 1e-4));
            QVERIFY(close(figures.previousShare[std::size_t(layer)][std::size_t(head)], previous / double(rows), 1e-4));
        }
    }
}

void TestTrainingHealth::measuredOnlyEveryFewSteps() {
    Setup s = makeSetup();
    s.config.max_steps = 60;
    torch::manual_seed(6);
    CharGPT model(s.config);
    Trainer trainer(model, s.data, s.config);
    trainer.health = std::make_shared<TrainingHealth>();
    std::vector<int64_t> steps;
    trainer.onHealth = [&](const HealthReport& report) {
        if (report.figures) steps.push_back(report.figures->step);
    };
    trainer.run();
    const int64_t every = TrainingHealth::Options{}.every;
    QCOMPARE(steps, (std::vector<int64_t>{1, every, 2 * every}));
}

// With or without the measurement, the same losses and weights, bit for bit.
void TestTrainingHealth::measuringLeavesTrainingAsItWas() {
    auto train = [](bool health) {
        Setup s = makeSetup();
        s.config.max_steps = 30;
        torch::manual_seed(7);
        CharGPT model(s.config);
        Trainer trainer(model, s.data, s.config);
        if (health) {
            TrainingHealth::Options options;
            options.every = 3;
            trainer.health = std::make_shared<TrainingHealth>(options);
        }
        trainer.run();
        return std::make_pair(trainer.history().trainLoss, weightsOf(model));
    };
    const auto without = train(false), with = train(true);
    QVERIFY(without.first == with.first);
    QVERIFY(sameWeights(without.second, with.second));
}

// The preset's rate trains without a warning about its updates; 100 times it
// is flagged within 50 steps.
void TestTrainingHealth::tooHighLearningRateFlagged() {
    const double rate = RunConfig::preset("tiny")->learning_rate;
    auto aboutUpdatesOrSpikes = [](const Flagged& f) {
        for (const HealthWarning& w : f.warnings)
            if (w.kind == HealthWarning::Kind::LargeUpdates || w.kind == HealthWarning::Kind::LossSpike ||
                w.kind == HealthWarning::Kind::LayerUpdates)
                return true;
        return false;
    };
    const Flagged healthy = trainAt(rate, 200);
    QVERIFY2(!aboutUpdatesOrSpikes(healthy), "the preset's own rate was flagged");
    const Flagged fast = trainAt(RunConfig::preset("fast")->learning_rate, 150, "fast");
    QVERIFY2(!aboutUpdatesOrSpikes(fast), "the fast preset's own rate was flagged");
    const Flagged high = trainAt(rate * 100.0, 50);
    QVERIFY2(aboutUpdatesOrSpikes(high), "a rate 100x too high was not flagged");
    QVERIFY(high.firstStep >= 1 && high.firstStep <= 50);
}

// A block whose weights are a thousand times smaller than the other's takes
// updates of the same size (AdamW's are about the learning rate whatever the
// weights), so its update ratio is about a thousand times the other's.
void TestTrainingHealth::aLayerThatMovesMuchFasterIsNamed() {
    Setup s = makeSetup();
    s.config.max_steps = 2;
    torch::manual_seed(8);
    CharGPT model(s.config);
    {
        torch::NoGradGuard noGrad;
        for (torch::Tensor& p : model->blocks[1]->parameters()) p.mul_(1e-3);
    }
    Trainer trainer(model, s.data, s.config);
    TrainingHealth::Options options;
    options.every = 1;
    trainer.health = std::make_shared<TrainingHealth>(options);
    std::vector<HealthWarning> warnings;
    trainer.onHealth = [&](const HealthReport& report) {
        warnings.insert(warnings.end(), report.warnings.begin(), report.warnings.end());
    };
    trainer.run();
    int named = 0;
    for (const HealthWarning& w : warnings) {
        if (w.kind != HealthWarning::Kind::LayerUpdates) continue;
        ++named;
        QCOMPARE(w.layer, int64_t(1));
        QVERIFY2(w.factor >= 100.0, qPrintable(QString::number(w.factor)));
        QVERIFY(
            QString::fromStdString(healthWarningText(w)).startsWith(QLatin1String("Layer 2's updates are")));
    }
    QCOMPARE(named, 1);  // said once, not again at step 2
}

void TestTrainingHealth::aLossSpikeIsSaidWithItsGradientNorm() {
    Setup s = makeSetup();
    CharGPT model(s.config);
    TrainingHealth health;
    for (int64_t step = 1; step <= 30; ++step) {
        QVERIFY(!health.afterUpdate(model, step, 2.0 + 0.01 * double(step % 3), 1.0 + 0.1 * double(step % 5)));
        QVERIFY(health.takeWarnings().empty());
    }
    health.afterUpdate(model, 31, 1.0, 30.0);  // a large gradient while the loss falls: no spike
    QVERIFY(health.takeWarnings().empty());
    health.afterUpdate(model, 32, 4.0, 40.0);
    const std::vector<HealthWarning> warnings = health.takeWarnings();
    QCOMPARE(int(warnings.size()), 1);
    QCOMPARE(int(warnings.front().kind), int(HealthWarning::Kind::LossSpike));
    QCOMPARE(warnings.front().step, int64_t(32));
    QVERIFY(warnings.front().factor > 25.0 && warnings.front().factor < 40.0);  // against the median of about 1.2
}

void TestTrainingHealth::warningsInWords() {
    HealthWarning w;
    w.kind = HealthWarning::Kind::LayerUpdates;
    w.step = 75;
    w.layer = 2;
    w.factor = 30.2;
    QCOMPARE(QString::fromStdString(healthWarningText(w)),
             QStringLiteral("Layer 3's updates are 30x larger than the other layers' (step 75)."));
    w.kind = HealthWarning::Kind::LossSpike;
    w.step = 812;
    w.factor = 4.04;
    QCOMPARE(QString::fromStdString(healthWarningText(w)),
             QStringLiteral("Loss spike at step 812: the gradient norm is 4.0x its median."));
    w.kind = HealthWarning::Kind::PreviousCharacter;
    w.count = 6;
    w.total = 16;
    QCOMPARE(QString::fromStdString(healthWarningText(w)),
             QStringLiteral("6 of 16 heads attend only to the previous character (step 812)."));
    // Every kind has a sentence whose every place gets a number, and no number is left over.
    for (const HealthWarning::Kind kind : kHealthWarningKinds) {
        w.kind = kind;
        const std::string sentence = healthWarningSentence(kind);
        QVERIFY(!sentence.empty());
        const std::size_t numbers = healthWarningNumbers(w).size();
        for (std::size_t i = 1; i <= numbers; ++i)
            QVERIFY2(sentence.find("%" + std::to_string(i)) != std::string::npos, sentence.c_str());
        QVERIFY2(sentence.find("%" + std::to_string(numbers + 1)) == std::string::npos, sentence.c_str());
        QVERIFY2(healthWarningText(w).find('%') == std::string::npos, healthWarningText(w).c_str());
    }
}

CHARGPT_TEST_GUILESS_MAIN(TestTrainingHealth)
}  // namespace tst_traininghealth
#include "tst_traininghealth.moc"
