// SPDX-License-Identifier: GPL-3.0-or-later
// Picking one character from the scores (pickToken): greedy, the distribution
// of top-k and top-p against one computed independently, tiny temperatures
// (their limit, greedy), extreme and non-finite scores, and `chargpt sample`
// on a model whose scores overflow. The sampler around it: tst_sampler.
#include <torch/torch.h>

#include "SamplerFixtures.h"
#include "model/generate/BatchSampler.h"
#include "model/io/Checkpoint.h"
#include "model/runtime/Error.h"

#include "TestProgram.h"

#ifdef CHARGPT_CLI
#include "CliRun.h"
#endif

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <utility>
#include <vector>

namespace tst_picking {

using namespace chargpt;
using namespace sampler_fixtures;

namespace {

// The distribution pickToken should sample from, computed independently.
std::vector<double> expectedDistribution(const std::vector<float>& logits, double temperature, int64_t topK,
                                         double topP) {
    const std::size_t V = logits.size();
    std::vector<double> p(V);
    const double top = *std::max_element(logits.begin(), logits.end());
    double sum = 0.0;
    for (std::size_t i = 0; i < V; ++i) sum += p[i] = std::exp((logits[i] - top) / temperature);
    for (double& x : p) x /= sum;
    std::vector<std::size_t> order(V);
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return p[a] > p[b]; });
    std::size_t keep = V;
    if (topK > 0) keep = std::min<std::size_t>(keep, std::size_t(topK));
    if (topP < 1.0) {
        double kept = 0.0;
        for (std::size_t i = 0; i < keep; ++i) kept += p[order[i]];
        double cumulative = 0.0;
        std::size_t n = 0;
        while (n < keep && cumulative < topP * kept) cumulative += p[order[n++]];
        keep = n;
    }
    std::vector<double> out(V, 0.0);
    double kept = 0.0;
    for (std::size_t i = 0; i < keep; ++i) kept += p[order[i]];
    for (std::size_t i = 0; i < keep; ++i) out[order[i]] = p[order[i]] / kept;
    return out;
}

}  // namespace

class TestPicking : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void pickTokenGreedy();
    void pickTokenDistribution_data();
    void pickTokenDistribution();
    void tinyTemperatureIsGreedy_data();
    void tinyTemperatureIsGreedy();
    void pickTokenExtremeScores();
    void nonFiniteScoresThrow();
    void cliReportsNonFiniteScores();

private:
    CharTokenizer tokenizer_;
};

void TestPicking::initTestCase() { tokenizer_ = CharTokenizer::fromText(kAlphabet); }

void TestPicking::pickTokenGreedy() {
    const CharTokenizer t = CharTokenizer::fromText(U"abcde");
    const torch::Tensor logits = torch::tensor({0.1f, 3.0f, -1.0f, 2.9f, 0.0f, 2.5f});
    SamplingOptions options;
    options.temperature = 0.0;
    for (double u : {0.0, 0.3, 0.5, 0.999999}) {
        SampleStep step;
        pickToken(logits, options, u, t, step);
        QCOMPARE(step.token, int64_t(1));
        QCOMPARE(QString::fromStdString(step.text), QStringLiteral("a"));
        QVERIFY(!step.top.empty());
        QCOMPARE(step.top.front().token, int64_t(1));
    }
    // End-of-text is picked like any other token when it is the likeliest.
    SampleStep step;
    pickToken(torch::tensor({5.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f}), options, 0.7, t, step);
    QCOMPARE(step.token, CharTokenizer::kEndOfText);
    QCOMPARE(QString::fromStdString(step.text), QStringLiteral("<|e|>"));
}

void TestPicking::pickTokenDistribution_data() {
    QTest::addColumn<double>("temperature");
    QTest::addColumn<int>("topK");
    QTest::addColumn<double>("topP");
    QTest::newRow("t 1") << 1.0 << 0 << 1.0;
    QTest::newRow("t 2 (flatter)") << 2.0 << 0 << 1.0;
    QTest::newRow("t 0.5 (sharper)") << 0.5 << 0 << 1.0;
    QTest::newRow("top-k 2") << 1.0 << 2 << 1.0;
    QTest::newRow("top-k 3, t 2") << 2.0 << 3 << 1.0;
    QTest::newRow("top-p 0.65") << 1.0 << 0 << 0.65;
    QTest::newRow("top-p 0.35") << 1.0 << 0 << 0.35;
    QTest::newRow("top-p 0.8") << 1.0 << 0 << 0.8;
}

void TestPicking::pickTokenDistribution() {
    QFETCH(double, temperature);
    QFETCH(int, topK);
    QFETCH(double, topP);
    const CharTokenizer t = CharTokenizer::fromText(U"abcd");
    // Probabilities 0.05, 0.1, 0.15, 0.3, 0.4 at temperature 1, in no sorted order.
    const std::vector<float> logits = {std::log(0.15f), std::log(0.4f), std::log(0.05f), std::log(0.3f),
                                       std::log(0.1f)};
    const std::vector<double> expected = expectedDistribution(logits, temperature, topK, topP);
    SamplingOptions options;
    options.temperature = temperature;
    options.topK = topK;
    options.topP = topP;
    options.candidates = 10;

    const torch::Tensor logitsTensor = torch::tensor(logits);
    const int N = 20000;
    std::vector<int> counts(logits.size(), 0);
    for (int i = 0; i < N; ++i) {
        SampleStep step;
        pickToken(logitsTensor, options, (i + 0.5) / N, t, step);
        QVERIFY(step.token >= 0 && step.token < 5);
        ++counts[std::size_t(step.token)];
        if (i == 0) {
            // Candidates: the kept tokens, likeliest first, with their probabilities.
            int kept = 0;
            for (double e : expected) kept += e > 0.0;
            QVERIFY(int(step.top.size()) >= kept);
            for (std::size_t k = 0; k < step.top.size(); ++k) {
                const Candidate& cand = step.top[k];
                QVERIFY2(std::abs(cand.probability - expected[std::size_t(cand.token)]) <= 1e-5,
                         qPrintable(QStringLiteral("token %1: %2 vs %3").arg(cand.token).arg(cand.probability)
                                        .arg(expected[std::size_t(cand.token)])));
            }
        }
    }
    for (std::size_t v = 0; v < logits.size(); ++v) {
        const double freq = double(counts[v]) / N;
        QVERIFY2(std::abs(freq - expected[v]) <= 1e-3,
                 qPrintable(QStringLiteral("token %1 picked %2 of the time, expected %3").arg(v).arg(freq).arg(expected[v])));
        if (expected[v] == 0.0) QCOMPARE(counts[v], 0);
    }
}

void TestPicking::tinyTemperatureIsGreedy_data() {
    QTest::addColumn<double>("temperature");
    QTest::newRow("1e-30") << 1e-30;
    QTest::newRow("1e-50") << 1e-50;
    QTest::newRow("1e-300") << 1e-300;
    QTest::newRow("1e-308") << 1e-308;
    QTest::newRow("2.2250738585072014e-308 (smallest normal)") << std::numeric_limits<double>::min();
    QTest::newRow("4.9e-324 (smallest positive)") << std::numeric_limits<double>::denorm_min();
}

// Dividing the scores by these overflowed to infinity: NaN probabilities and
// the least likely character picked. Each is the limit it approaches: the text
// of temperature 0, each pick with probability 1, whatever the seed and the
// top-k/top-p settings.
void TestPicking::tinyTemperatureIsGreedy() {
    QFETCH(double, temperature);
    for (uint64_t modelSeed : {uint64_t(8), uint64_t(9)}) {
        const CharGPT model = makeModel(tokenizer_, modelSeed, 0.15);
        SamplingOptions options;
        options.maxNewChars = 30;
        options.stopAtEndOfText = false;
        options.temperature = 0.0;
        const Run greedy = generate(model, tokenizer_, options, {1, 2});
        QCOMPARE(greedy.tokens.size(), std::size_t(30));
        options.temperature = temperature;
        for (uint64_t seed : {uint64_t(1), uint64_t(12046), uint64_t(99)}) {
            options.seed = seed;
            for (const auto& [topK, topP] : {std::pair<int64_t, double>{0, 1.0}, {3, 1.0}, {0, 0.5}}) {
                options.topK = topK;
                options.topP = topP;
                const Run tiny = generate(model, tokenizer_, options, {1, 2});
                QCOMPARE(tiny.tokens, greedy.tokens);
                for (float p : tiny.probabilities) QCOMPARE(p, 1.0f);
            }
        }
    }
    // The candidates shown are the limit too: 1 for the pick, 0 for the rest,
    // and a tie goes to the lower index, as at temperature 0. Above ~1.9e-48
    // (1e-30) the distribution is still the temperature's own: equal scores
    // share it.
    const CharTokenizer t = CharTokenizer::fromText(U"abcd");
    SamplingOptions options;
    options.temperature = temperature;
    options.candidates = 10;
    SampleStep step;
    pickToken(torch::tensor({0.5f, 7.0f, 7.0f, -3.0f, 6.9999995f}), options, 0.999, t, step);
    QCOMPARE(int(step.top.size()), 5);
    QCOMPARE(step.top[0].token, int64_t(1));
    if (samplesGreedily(temperature)) {
        QCOMPARE(step.token, int64_t(1));
        QCOMPARE(step.probability, 1.0f);
        QCOMPARE(step.top[0].probability, 1.0f);
        for (std::size_t i = 1; i < step.top.size(); ++i) QCOMPARE(step.top[i].probability, 0.0f);
    } else {
        QCOMPARE(step.token, int64_t(2));
        QCOMPARE(step.probability, 0.5f);
        QCOMPARE(step.top[0].probability, 0.5f);
        for (std::size_t i = 2; i < step.top.size(); ++i) QCOMPARE(step.top[i].probability, 0.0f);
    }
    QCOMPARE(samplesGreedily(temperature), temperature < 1e-47);
}

void TestPicking::pickTokenExtremeScores() {
    const CharTokenizer t = CharTokenizer::fromText(U"abcd");
    const float big = std::numeric_limits<float>::max();
    SamplingOptions options;
    options.candidates = 10;
    // Scores at the ends of the float range, at every temperature: the highest
    // one, certain, never NaN.
    for (double temperature : {1e-300, 1e-6, 1.0, 100.0}) {
        options.temperature = temperature;
        for (double u : {0.0, 0.5, 0.999999}) {
            SampleStep step;
            pickToken(torch::tensor({-big, 1e30f, -1e30f, 0.0f, big}), options, u, t, step);
            QCOMPARE(step.token, int64_t(4));
            QCOMPARE(step.probability, 1.0f);
            for (const Candidate& c : step.top) QVERIFY(std::isfinite(c.probability));
        }
    }
    // Two equal scores of 1e30 share the probability at temperature 1 ...
    options.temperature = 1.0;
    for (const auto& [u, expected] : {std::pair<double, int64_t>{0.2, 1}, {0.7, 3}}) {
        SampleStep step;
        pickToken(torch::tensor({-1e30f, 1e30f, 0.0f, 1e30f, 5.0f}), options, u, t, step);
        QCOMPARE(step.token, expected);
        QCOMPARE(step.probability, 0.5f);
    }
    // ... with top-p 0.4 only the first of them is kept, and with top-k 1 at
    // a tiny temperature as well.
    options.topP = 0.4;
    for (double temperature : {1.0, 1e-308}) {
        options.temperature = temperature;
        SampleStep step;
        pickToken(torch::tensor({-1e30f, 1e30f, 0.0f, 1e30f, 5.0f}), options, 0.9, t, step);
        QCOMPARE(step.token, int64_t(1));
        QCOMPARE(step.probability, 1.0f);
    }
    options.topP = 1.0;
    options.topK = 1;
    options.temperature = 1e-320;
    SampleStep step;
    pickToken(torch::tensor({-1e30f, 1e30f, 0.0f, 1e30f, 5.0f}), options, 0.9, t, step);
    QCOMPARE(step.token, int64_t(1));
    // A uniform number past a sum that rounding left under 1 (here
    // 0.9999999999999999) takes the last token with a probability, never the
    // one whose probability is 0.
    options.topK = 0;
    options.temperature = 1.0;
    pickToken(torch::tensor({2.0f, 0.3f, 0.3f, 0.0f, -1e30f}), options, std::nextafter(1.0, 0.0), t, step);
    QCOMPARE(step.token, int64_t(3));
    QVERIFY(step.probability > 0.05f);
}

// A NaN or an infinity in the scores must never pick a character silently.
void TestPicking::nonFiniteScoresThrow() {
    const CharTokenizer t = CharTokenizer::fromText(U"abcd");
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    for (double temperature : {0.0, 1e-308, 1.0}) {
        SamplingOptions options;
        options.temperature = temperature;
        for (const torch::Tensor& logits : {torch::tensor({1.0f, nan, 2.0f, 0.0f, 0.5f}),
                                            torch::tensor({nan, nan, nan, nan, nan}),
                                            torch::tensor({1.0f, inf, 2.0f, 0.0f, 0.5f}),
                                            torch::tensor({1.0f, -inf, 2.0f, 0.0f, 0.5f})}) {
            SampleStep step;
            step.token = -7;
            QString message;
            try {
                pickToken(logits, options, 0.5, t, step, 12);
            } catch (const Error& e) {
                message = QString::fromStdString(e.what());
            }
            QVERIFY2(message.startsWith(QLatin1String("the model produced non-finite scores at position 12; ")),
                     qPrintable(message));
            QCOMPARE(step.token, int64_t(-7));  // nothing picked
        }
    }
    // Through the sampler: a model whose weights went NaN fails at the first
    // character, named by its position in the context (the prompt is 3 long).
    CharGPT model = makeModel(tokenizer_, 10, 0.15);
    {
        torch::NoGradGuard noGrad;
        model->lm->bias[4] = std::numeric_limits<float>::quiet_NaN();
    }
    for (bool useCache : {true, false}) {
        SamplingOptions options;
        options.useCache = useCache;
        BatchSampler sampler(model, tokenizer_, options, 1);
        sampler.start({1, 2, 3});
        SampleStep step;
        QString message;
        try {
            nextOf(sampler, step);
        } catch (const Error& e) {
            message = QString::fromStdString(e.what());
        }
        QVERIFY2(message.startsWith(QLatin1String("the model produced non-finite scores at position 3; ")),
                 qPrintable(message));
        QCOMPARE(sampler.context(0).size(), std::size_t(3));
    }
}

// Finite weights whose scores overflow (a checkpoint passes the loader's
// finiteness check): `chargpt sample` says so and exits 1, printing no
// character it did not compute.
void TestPicking::cliReportsNonFiniteScores() {
#ifdef CHARGPT_CLI
    Checkpoint checkpoint;
    checkpoint.tokenizer = tokenizer_;
    checkpoint.model = makeModel(tokenizer_, 11, 0.15);
    checkpoint.config = *RunConfig::preset("tiny");  // what makeModel builds
    checkpoint.config.vocab_size = tokenizer_.vocabSize();
    {
        torch::NoGradGuard noGrad;
        // The final LayerNorm gives 1 in every channel, so that character 5's
        // score is a sum of 3e38s: it overflows in any order of summation (a
        // row of 3e38 against a normalised vector, whose entries sum to about
        // 0, overflowed or not by how the machine's kernel blocked the sum).
        checkpoint.model->l->weight.zero_();
        checkpoint.model->l->bias.fill_(1.0f);
        checkpoint.model->lm->weight[5].fill_(3e38f);
        const torch::Tensor logits =
            checkpoint.model->forward(torch::tensor({{int64_t(1), int64_t(2)}}, torch::kInt64))[0][-1];
        QVERIFY(torch::isfinite(checkpoint.model->lm->weight).all().item<bool>());
        QVERIFY(!torch::isfinite(logits).all().item<bool>());  // what the test is about
    }
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("overflow.pt"));
    saveCheckpoint(path.toStdString(), checkpoint);
    for (const char* temperature : {"1", "0", "1e-308"}) {
        const cli_run::Result r =
            cli_run::runCli({"sample", path, "--prompt", "ab", "--chars", "20", "--temperature", temperature}, 60000);
        QVERIFY2(r.finished && r.status == QProcess::NormalExit, qPrintable(r.err));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.startsWith(QLatin1String("chargpt: the model produced non-finite scores at position 2; ")),
                 qPrintable(r.err));
        QCOMPARE(r.out.trimmed(), QStringLiteral("ab"));  // the prompt, and nothing picked after it
    }
#else
    QSKIP("built without the chargpt command-line tool");
#endif
}

CHARGPT_TEST_GUILESS_MAIN(TestPicking)
}  // namespace tst_picking
#include "tst_picking.moc"
