// SPDX-License-Identifier: GPL-3.0-or-later
// The characters' map (model/analysis/EmbeddingMap): PCA finds planted axes,
// the frames of a run keep their axes (no flip or swap between near frames),
// the nearest characters by cosine, and the position embeddings' similarity.
// Bad input is refused with a message.
#include <torch/torch.h>

#include "model/analysis/EmbeddingMap.h"
#include "model/nn/CharGPT.h"

#include "AnalysisFixtures.h"
#include "TestProgram.h"

#include <cmath>
#include <vector>

namespace tst_embeddingmap {

using chargpt::CharGPT;
using namespace analysis_fixtures;

class TestEmbeddingMap : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { torch::manual_seed(15); }
    void pcaRecoversPlantedAxes();
    void otherRowsPlacedInAFramesPlane();
    void alignmentUndoesFlipsAndSwaps();
    void alignmentNeverFlipsBetweenNearFrames();
    void alignmentFollowsSwappedVariances();
    void nearestNeighboursByCosine();
    void positionSimilarityMatrix();
};

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

void TestEmbeddingMap::pcaRecoversPlantedAxes() {
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

// A frame's own rows land on its coordinates; rows moved along the first axis
// land that much further along it; rows of another width are refused.
void TestEmbeddingMap::otherRowsPlacedInAFramesPlane() {
    const Planted p = plant(50, 8, 2.0, 1.0, 1e-2, 23);
    const chargpt::EmbeddingFrame f = chargpt::principalFrame(p.points);
    QVERIFY(maxAbsDiff(chargpt::projectOnFrame(p.points, f), f.coordinates) < 1e-9);
    const torch::Tensor moved = p.points + 0.5 * f.axes[0];
    const torch::Tensor placed = chargpt::projectOnFrame(moved.to(torch::kFloat32), f);
    QCOMPARE(placed.sizes(), f.coordinates.sizes());
    QVERIFY(maxAbsDiff(placed.select(1, 0), f.coordinates.select(1, 0) + 0.5) < 1e-5);
    QVERIFY(maxAbsDiff(placed.select(1, 1), f.coordinates.select(1, 1)) < 1e-5);
    QVERIFY(errorOf([&] { chargpt::projectOnFrame(torch::zeros({4, 7}), f); }).contains("dimensions"));
    QVERIFY(errorOf([&] { chargpt::projectOnFrame(torch::full({4, 8}, NAN), f); }).contains("not finite"));
}

void TestEmbeddingMap::alignmentUndoesFlipsAndSwaps() {
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

void TestEmbeddingMap::alignmentNeverFlipsBetweenNearFrames() {
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

void TestEmbeddingMap::alignmentFollowsSwappedVariances() {
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

void TestEmbeddingMap::nearestNeighboursByCosine() {
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

void TestEmbeddingMap::positionSimilarityMatrix() {
    CharGPT model = makeModel();
    const torch::Tensor s = chargpt::positionSimilarity(model);
    QCOMPARE(s.size(0), int64_t(16));
    QCOMPARE(s.size(1), int64_t(16));
    QVERIFY(maxAbsDiff(s.diagonal(), torch::ones({16}, torch::kFloat64)) < 1e-12);
    QVERIFY(maxAbsDiff(s, s.t()) < 1e-12);
    const torch::Tensor p = model->pos_emb->weight.detach().to(torch::kFloat64);
    QVERIFY(std::abs(s[2][9].item<double>() - cosine(p[2], p[9])) < 1e-12);
}

CHARGPT_TEST_GUILESS_MAIN(TestEmbeddingMap)
}  // namespace tst_embeddingmap
#include "tst_embeddingmap.moc"
