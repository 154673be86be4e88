// SPDX-License-Identifier: GPL-3.0-or-later
// computeAttention: the model's attention as the widgets' value types, checked
// against what a reader of the heatmaps relies on (shapes, mask, rows summing
// to 1, labels, unknown characters, cropping to the context).
#include <torch/torch.h>

#include "model/nn/CharGPT.h"
#include "model/text/CharTokenizer.h"
#include "model/io/Checkpoint.h"
#include "model/runtime/Error.h"
#include "model/train/RunConfig.h"

#include "TestProgram.h"

#include <cmath>
#include <optional>

#include "app/AttentionBridge.h"
#include "app/InsideBridge.h"
#include "model/analysis/LogitLens.h"

namespace tst_attentionbridge {

using chargpt::Checkpoint;

namespace {

// A small untrained model whose vocabulary holds Latin and Chinese characters.
Checkpoint makeCheckpoint(double dropout = 0.0) {
    Checkpoint c;
    c.tokenizer = chargpt::CharTokenizer::fromText(U"abcdefgh ijklmnop.\n春眠不觉晓处闻啼鸟");
    c.config = *chargpt::RunConfig::preset("tiny");  // 2 layers, 4 heads, context 16
    c.config.vocab_size = c.tokenizer.vocabSize();
    c.config.dropout = dropout;
    torch::manual_seed(7);
    c.model = chargpt::CharGPT(c.config);
    return c;
}

double maxDifference(const AttentionMatrix& a, const AttentionMatrix& b) {
    double worst = 0.0;
    for (qsizetype i = 0; i < a.weights.size(); ++i) {
        if (std::isnan(a.weights[i]) != std::isnan(b.weights[i]))
            return INFINITY;
        if (!std::isnan(a.weights[i]))
            worst = std::max(worst, double(std::abs(a.weights[i] - b.weights[i])));
    }
    return worst;
}

}  // namespace

class TestAttentionBridge : public QObject {
    Q_OBJECT

private slots:
    void shapesMaskAndRows_data();
    void shapesMaskAndRows();
    void oneLayer();
    void unknownCharacters();
    void cropsToContext();
    void evalModeWithoutChangingTheModel();
    void headScores();
    void stepLensIsTheWindowsLastColumns();
    void errors_data();
    void errors();
};

void TestAttentionBridge::shapesMaskAndRows_data() {
    QTest::addColumn<QString>("text");
    QTest::newRow("one character") << QStringLiteral("a");
    QTest::newRow("latin") << QStringLiteral("abc defg");
    QTest::newRow("chinese") << QStringLiteral("春眠不觉晓");
    QTest::newRow("mixed with newline") << QStringLiteral("ab.\n处处闻啼鸟");
    QTest::newRow("full context") << QStringLiteral("abcdefghijklmnop");
}

void TestAttentionBridge::shapesMaskAndRows() {
    QFETCH(QString, text);
    const Checkpoint checkpoint = makeCheckpoint();
    const AttentionProbe probe = computeAttention(checkpoint, text, std::nullopt);
    const QStringList characters = splitCharacters(text);
    const int t = int(characters.size());

    QCOMPARE(probe.text, text);
    QVERIFY(probe.unknownPositions.isEmpty());
    QCOMPARE(probe.croppedCharacters, 0);
    QCOMPARE(probe.firstLayer, 0);
    QCOMPARE(probe.modelLayers, int(checkpoint.config.n_layer));
    QCOMPARE(probe.attention.layers.size(), qsizetype(checkpoint.config.n_layer));
    QCOMPARE(probe.attention.headCount(), int(checkpoint.config.n_head()));
    for (const LayerAttention& layer : probe.attention.layers) {
        QCOMPARE(layer.heads.size(), qsizetype(checkpoint.config.n_head()));
        for (const AttentionMatrix& head : layer.heads) {
            QVERIFY(head.isValid());
            QCOMPARE(head.queryCount(), t);
            QCOMPARE(head.keyCount(), t);
            QCOMPARE(head.firstQueryPosition, 0);
            QCOMPARE(head.queryChars, characters);
            QCOMPARE(head.keyChars, characters);
            for (int row = 0; row < t; ++row) {
                double sum = 0.0;
                for (int key = 0; key < t; ++key) {
                    const float w = head.weight(row, key);
                    // Masked exactly above the diagonal, a real weight elsewhere.
                    QCOMPARE(std::isnan(w), key > row);
                    if (!std::isnan(w)) {
                        QVERIFY(w >= 0.0f && w <= 1.0f);
                        sum += w;
                    }
                }
                QVERIFY2(std::abs(sum - 1.0) < 1e-5, qPrintable(QString::number(sum, 'g', 10)));
            }
        }
    }
}

void TestAttentionBridge::oneLayer() {
    const Checkpoint checkpoint = makeCheckpoint();
    const QString text = QStringLiteral("春眠 abc");
    const AttentionProbe all = computeAttention(checkpoint, text, std::nullopt);
    const AttentionProbe last = computeAttention(checkpoint, text, 1);
    QCOMPARE(last.firstLayer, 1);
    QCOMPARE(last.modelLayers, 2);
    QCOMPARE(last.attention.layers.size(), qsizetype(1));
    for (int head = 0; head < all.attention.headCount(); ++head)
        QCOMPARE(maxDifference(last.attention.layers[0].heads[head], all.attention.layers[1].heads[head]),
                 0.0);
}

void TestAttentionBridge::unknownCharacters() {
    const Checkpoint checkpoint = makeCheckpoint();
    // Positions count characters (code points): the emoji is one, not two UTF-16 units.
    const QString text = QStringLiteral("春\U0001F600眠Zab");
    const AttentionProbe probe = computeAttention(checkpoint, text, std::nullopt);
    QCOMPARE(probe.unknownPositions, (QVector<int>{1, 3}));
    QCOMPARE(probe.unknownCharacters, (QStringList{QStringLiteral("\U0001F600"), QStringLiteral("Z")}));
    QCOMPARE(probe.text, QStringLiteral("春眠ab"));
    const AttentionMatrix& head = probe.attention.layers[0].heads[0];
    QCOMPARE(head.queryChars, (QStringList{"春", "眠", "a", "b"}));
    // The same as if the unknown characters had never been typed.
    const AttentionProbe clean = computeAttention(checkpoint, QStringLiteral("春眠ab"), std::nullopt);
    QCOMPARE(maxDifference(head, clean.attention.layers[0].heads[0]), 0.0);
}

void TestAttentionBridge::cropsToContext() {
    const Checkpoint checkpoint = makeCheckpoint();
    const int context = int(checkpoint.config.sequence_len);
    const QString text = QStringLiteral("abcdefgh ijklmnop.\n春眠不觉晓");  // 24 characters
    const QStringList characters = splitCharacters(text);
    QVERIFY(characters.size() > context);
    const QString tail = characters.mid(characters.size() - context).join(QString());

    const AttentionProbe probe = computeAttention(checkpoint, text, std::nullopt);
    QCOMPARE(probe.croppedCharacters, int(characters.size()) - context);
    QCOMPARE(probe.text, tail);
    const AttentionProbe direct = computeAttention(checkpoint, tail, std::nullopt);
    QCOMPARE(direct.croppedCharacters, 0);
    for (int layer = 0; layer < probe.modelLayers; ++layer)
        for (int head = 0; head < probe.attention.headCount(); ++head) {
            const AttentionMatrix& m = probe.attention.layers[layer].heads[head];
            QCOMPARE(m.queryCount(), context);
            QCOMPARE(m.keyChars, splitCharacters(tail));
            QCOMPARE(maxDifference(m, direct.attention.layers[layer].heads[head]), 0.0);
        }
}

void TestAttentionBridge::evalModeWithoutChangingTheModel() {
    // With dropout, a model in training mode would give different weights each
    // call; the probe runs in eval mode and leaves the caller's model training.
    const Checkpoint checkpoint = makeCheckpoint(/*dropout=*/0.5);
    QVERIFY(checkpoint.model->is_training());
    const QString text = QStringLiteral("abc 春眠不觉晓");
    const AttentionProbe first = computeAttention(checkpoint, text, std::nullopt);
    const AttentionProbe second = computeAttention(checkpoint, text, std::nullopt);
    QVERIFY(checkpoint.model->is_training());
    for (int layer = 0; layer < first.modelLayers; ++layer)
        for (int head = 0; head < first.attention.headCount(); ++head)
            QCOMPARE(maxDifference(first.attention.layers[layer].heads[head],
                                   second.attention.layers[layer].heads[head]),
                     0.0);
    QVERIFY(torch::GradMode::is_enabled());  // the no-grad guard did not leak
}

// The softmax lab's scores "from the live model": the model's own scores for
// the head, -inf above the diagonal in `masked`, and their softmax is the
// attention the heatmaps show.
void TestAttentionBridge::headScores() {
    const Checkpoint checkpoint = makeCheckpoint(/*dropout=*/0.5);
    const QString text = QStringLiteral("ab 春眠不觉");
    const int layer = 1, head = 2;
    const HeadScores scores = computeHeadScores(checkpoint, text, layer, head);
    const AttentionProbe probe = computeAttention(checkpoint, text, std::nullopt);
    const int t = scores.size();
    QCOMPARE(scores.characters, splitCharacters(text));
    QCOMPARE(scores.layer, layer);
    QCOMPARE(scores.head, head);
    QCOMPARE(scores.headSize, int(checkpoint.config.head_size));
    QCOMPARE(scores.scaled.size(), qsizetype(t) * t);
    QVERIFY(checkpoint.model->is_training());

    // The same numbers as the model reports for its input.
    const std::vector<int64_t> tokens = checkpoint.tokenizer.encodeUtf8(text.toStdString());
    QCOMPARE(int(tokens.size()), t);
    const torch::Tensor idx = torch::tensor(tokens, torch::kInt64).view({1, t});
    chargpt::CharGPT model = checkpoint.model;  // a handle to the same model
    const torch::Tensor expected = model->attentionMaps(idx).scores[layer][0][head].contiguous();
    const torch::Tensor got = torch::from_blob(const_cast<float*>(scores.scaled.constData()), {t, t}, torch::kFloat32);
    QVERIFY(torch::equal(got, expected));

    const AttentionMatrix& shown = probe.attention.layers[layer].heads[head];
    for (int row = 0; row < t; ++row) {
        double maximum = -INFINITY, sum = 0.0;
        for (int key = 0; key < t; ++key) {
            const float m = scores.masked[row * t + key];
            QCOMPARE(std::isinf(m) && m < 0, key > row);
            if (key <= row) {
                QCOMPARE(m, scores.scaled[row * t + key]);
                maximum = std::max(maximum, double(m));
            }
        }
        for (int key = 0; key <= row; ++key) sum += std::exp(scores.masked[row * t + key] - maximum);
        for (int key = 0; key <= row; ++key) {
            const double weight = std::exp(scores.masked[row * t + key] - maximum) / sum;
            QVERIFY2(std::abs(weight - shown.weight(row, key)) < 1e-5,
                     qPrintable(QStringLiteral("row %1 key %2").arg(row).arg(key)));
        }
    }
    QVERIFY(scores.scaledStd > 0.0);
    QVERIFY(std::abs(scores.unscaledStd / scores.scaledStd - std::sqrt(double(scores.headSize))) < 1e-6);

    try {
        computeHeadScores(checkpoint, text, 0, int(checkpoint.config.n_head()));
        QFAIL("no error");
    } catch (const chargpt::Error& e) {
        QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("head")), e.what());
    }
}

void TestAttentionBridge::errors_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("layer");  // -100: all layers
    QTest::addColumn<QString>("mentions");

    QTest::newRow("empty text") << QString() << -100 << "empty";
    QTest::newRow("no known character") << QStringLiteral("XYZ!") << -100 << "vocabulary";
    QTest::newRow("layer too large") << QStringLiteral("abc") << 2 << "layer 2";
    QTest::newRow("negative layer") << QStringLiteral("abc") << -1 << "layer -1";
}

void TestAttentionBridge::errors() {
    QFETCH(QString, text);
    QFETCH(int, layer);
    QFETCH(QString, mentions);
    const Checkpoint checkpoint = makeCheckpoint();
    try {
        computeAttention(checkpoint, text, layer == -100 ? std::nullopt : std::optional<int>(layer));
        QFAIL("no error");
    } catch (const chargpt::Error& e) {
        QVERIFY2(QString::fromUtf8(e.what()).contains(mentions), e.what());
    }
}

// Generate's Step mode: the lens of the text so far is the model's window
// (its last sequence_len inputs), cut to the newest columns; the last column
// predicts the newest token.
void TestAttentionBridge::stepLensIsTheWindowsLastColumns() {
    const Checkpoint c = makeCheckpoint();
    const std::vector<int64_t> context = c.tokenizer.encode(U"abcdefgh ijklmnop.\nabc");  // 22 > 16 + 1
    const LogitLens lens = stepLens(c, context, 5);
    QVERIFY(lens.isValid());
    QCOMPARE(lens.layerCount(), int(c.config.n_layer) + 1);
    QCOMPARE(lens.positionCount(), 5);
    QCOMPARE(lens.characters, (QStringList{"p", ".", "\n", "a", "b"}));
    int64_t first = 0;
    const chargpt::LogitLens whole = chargpt::logitLensOfText(c.model, context, &first);
    QCOMPARE(whole.positions, int64_t(16));
    for (int layer = 0; layer < lens.layerCount(); ++layer)
        for (int p = 0; p < 5; ++p) {
            const chargpt::LensCell& w = whole.at(layer, 11 + p);
            const LogitLensCell& cell = lens.cell(layer, p);
            QCOMPARE(cell.top, QString::fromStdString(c.tokenizer.tokenText(w.guessTokens[0])));
            QCOMPARE(cell.trueRank, int(w.targetRank));
        }
    // The last column's true next character is the newest token, "c".
    QCOMPARE(lens.following, QStringLiteral("c"));
    QCOMPARE(lens.nextCharacter(4), QStringLiteral("c"));
    QVERIFY(lens.cell(lens.layerCount() - 1, 4).trueRank >= 1);
    // A short text is shown whole.
    const LogitLens shortLens = stepLens(c, c.tokenizer.encode(U"ab"), 16);
    QCOMPARE(shortLens.positionCount(), 1);
    QCOMPARE(shortLens.characters, QStringList{"a"});
}

CHARGPT_TEST_GUILESS_MAIN(TestAttentionBridge)
}  // namespace tst_attentionbridge
#include "tst_attentionbridge.moc"
