// SPDX-License-Identifier: GPL-3.0-or-later
// The fast paths behind the forward pass (model/nn/kernels) against the
// unfused LibTorch expressions they replace, in float32 and bf16, forward and
// backward; and the caching allocator that hands a step's memory back to the next.
#include <torch/torch.h>
#include <ATen/autocast_mode.h>

#include "model/runtime/CachingAllocator.h"
#include "model/nn/kernels/Dropout.h"
#include "model/nn/kernels/PackedAttention.h"
#include "model/nn/kernels/GeluLinear.h"
#include "model/nn/kernels/LayerNorm.h"
#include "model/nn/kernels/NormLinear.h"
#include "model/nn/kernels/ResidualAdd.h"
#include "model/train/FusedAdamW.h"

#include "ForcedTier.h"
#include "TestProgram.h"

#include <cmath>
#include <cstdint>

namespace tst_kernels {

namespace {

double maxAbsDiff(const torch::Tensor& a, const torch::Tensor& b) {
    return (a - b).abs().max().item<double>();
}

}  // namespace

class TestKernels : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void packedAttentionMatchesComposite_data();
    void packedAttentionMatchesComposite();
    void geluLinearMatchesUnfused_data();
    void geluLinearMatchesUnfused();
    void normLinearMatchesUnfused_data();
    void normLinearMatchesUnfused();
    void layerNormSameOnAnyThreads();
    void residualAddMatchesPromotion_data();
    void residualAddMatchesPromotion();
    void dropoutMaskAndGradient_data();
    void dropoutMaskAndGradient();
    void cachingAllocatorReusesBlocks();
    void fusedAdamWMatchesLibTorch();
};

void TestKernels::initTestCase() {
    CHARGPT_FORCED_TIER_CHECK();
    torch::manual_seed(12046);
}

// The hand-written attention kernel against LibTorch's own operations, computed
// in float32 on the same inputs (for bf16, the inputs rounded to bf16: the
// kernel computes in float32 and rounds only its results): outputs, weights and
// the gradient of qkv.
void TestKernels::packedAttentionMatchesComposite_data() {
    QTest::addColumn<int>("batch");
    QTest::addColumn<int>("heads");
    QTest::addColumn<int>("length");
    QTest::addColumn<int>("headSize");
    QTest::addColumn<bool>("bf16");
    QTest::newRow("book-like H=8") << 2 << 16 << 64 << 8 << false;
    QTest::newRow("book-like H=8, bf16") << 2 << 16 << 64 << 8 << true;
    QTest::newRow("fast-like H=32") << 2 << 4 << 64 << 32 << false;
    QTest::newRow("fast-like H=32, bf16") << 2 << 4 << 64 << 32 << true;
    QTest::newRow("H=5 padded to 8, T=7") << 3 << 3 << 7 << 5 << false;
    QTest::newRow("H=20 padded to 32, T=40, bf16") << 1 << 2 << 40 << 20 << true;
    QTest::newRow("H=64, T=17") << 1 << 2 << 17 << 64 << false;
    QTest::newRow("H=32, T=29, bf16") << 2 << 3 << 29 << 32 << true;
    QTest::newRow("H=16, one position") << 2 << 2 << 1 << 16 << false;
}

void TestKernels::packedAttentionMatchesComposite() {
    QFETCH(int, batch);
    QFETCH(int, heads);
    QFETCH(int, length);
    QFETCH(int, headSize);
    QFETCH(bool, bf16);
    torch::manual_seed(21);
    const auto type = bf16 ? torch::kBFloat16 : torch::kFloat32;
    const int64_t C = int64_t(heads) * headSize;
    auto qkv = (torch::randn({batch, length, 3 * C}) * 1.5).to(type).requires_grad_();
    const double scale = 1.0 / std::sqrt(double(headSize));
    const torch::Tensor upstream = torch::randn({batch, length, C}).to(type);
    QVERIFY(chargpt::packedAttentionSupported(qkv, heads));

    torch::Tensor weights;
    const torch::Tensor fused = chargpt::packedCausalAttention(qkv, heads, scale, &weights);  // (B, T, C)
    QCOMPARE(fused.scalar_type(), type);
    QCOMPARE(fused.sizes().vec(), (std::vector<int64_t>{batch, length, C}));
    fused.backward(upstream);
    const torch::Tensor dFused = qkv.grad().to(torch::kFloat32);

    auto x = qkv.detach().to(torch::kFloat32).requires_grad_();
    const auto parts = x.split(C, 2);
    auto toHeads = [&](const torch::Tensor& t) { return t.view({batch, length, heads, headSize}).transpose(1, 2); };
    const auto future = torch::ones({length, length}, torch::kBool).triu(1);
    const auto scores = torch::matmul(toHeads(parts[0]), toHeads(parts[1]).transpose(-1, -2)) * scale;
    const auto att = torch::softmax(scores.masked_fill(future, -std::numeric_limits<float>::infinity()), -1);
    const auto out = torch::matmul(att, toHeads(parts[2])).transpose(1, 2).reshape({batch, length, C});
    out.backward(upstream.to(torch::kFloat32));

    const double tolerance = bf16 ? 1e-2 : 1e-5;  // bf16: the output's own rounding (2^-8)
    QVERIFY2(torch::allclose(fused.to(torch::kFloat32), out, tolerance, tolerance),
             qPrintable(QString::number(maxAbsDiff(fused.to(torch::kFloat32), out))));
    QCOMPARE(weights.scalar_type(), torch::kFloat32);
    QVERIFY(torch::allclose(weights, att.detach(), 1e-5, 1e-6));
    const auto masked = weights.masked_select(future.expand_as(weights));
    QVERIFY(torch::equal(masked, torch::zeros({masked.numel()})));
    QVERIFY(torch::allclose(weights.sum(-1), torch::ones({batch, heads, length}), 1e-5, 1e-5));
    const double gradTolerance = bf16 ? 2e-2 : 1e-4;
    const char* names[] = {"dq differs", "dk differs", "dv differs"};
    for (int part = 0; part < 3; ++part) {
        const auto got = dFused.narrow(2, part * C, C), expected = x.grad().narrow(2, part * C, C);
        QVERIFY2(torch::allclose(got, expected, gradTolerance, gradTolerance),
                 qPrintable(QString("%1 by %2").arg(names[part]).arg(maxAbsDiff(got, expected))));
        if (length > 1 || part == 2) QVERIFY(expected.abs().sum().item<double>() > 0.0);
    }
}

void TestKernels::geluLinearMatchesUnfused_data() {
    QTest::addColumn<bool>("bf16");
    QTest::addColumn<int>("width");
    QTest::newRow("fp32") << false << 32;
    QTest::newRow("bf16 autocast") << true << 32;
    // 3 x 7 x 37 = 777 values: whole vectors of 16, then a rest of 9.
    QTest::newRow("fp32, not a multiple of 16") << false << 37;
    QTest::newRow("bf16 autocast, not a multiple of 16") << true << 37;
}

// The feed-forward's fused second half: same values and same gradients for the
// input, the weight and the bias as linear(gelu(u)) under autograd.
void TestKernels::geluLinearMatchesUnfused() {
    QFETCH(bool, bf16);
    QFETCH(int, width);
    torch::manual_seed(5);
    // Spread to +-10 and beyond, where erf saturates and GELU's slope leaves 0 and 1.
    auto u = (torch::randn({3, 7, width}) * 3.0).requires_grad_();
    auto w = (torch::randn({16, width}) * 0.2).requires_grad_();
    auto b = torch::randn({16}, torch::requires_grad());
    auto target = torch::randn({3, 7, 16});
    auto run = [&](bool fused) {
        torch::Tensor out;
        if (bf16) {
            at::autocast::set_autocast_cpu_dtype(at::kBFloat16);
            at::autocast::set_cpu_enabled(true);
        }
        out = fused ? chargpt::geluLinear(u, w, b) : torch::linear(torch::gelu(u), w, b);
        if (bf16) {
            at::autocast::set_cpu_enabled(false);
            at::autocast::clear_cache();
        }
        (out.to(torch::kFloat32) * target).sum().backward();
        std::vector<torch::Tensor> r{out.detach().to(torch::kFloat32), u.grad().clone(), w.grad().clone(),
                                     b.grad().clone()};
        u.grad().zero_();
        w.grad().zero_();
        b.grad().zero_();
        return r;
    };
    const auto expected = run(false);
    const auto got = run(true);
    QCOMPARE(got[0].scalar_type(), torch::kFloat32);
    // bf16: each side rounds gelu(u) to 8 bits before summing 21 products, so a
    // value one unit apart on either side moves a sum by a few of its units; the
    // bound is 1% of the largest value instead of element by element.
    const double tolerance = 1e-5;
    const char* names[] = {"output", "input gradient", "weight gradient", "bias gradient"};
    for (int i = 0; i < 4; ++i)
        QVERIFY2(bf16 ? maxAbsDiff(got[std::size_t(i)], expected[std::size_t(i)]) <=
                            1e-2 * expected[std::size_t(i)].abs().max().item<double>()
                      : torch::allclose(got[std::size_t(i)], expected[std::size_t(i)], tolerance, tolerance),
                 qPrintable(QString("%1 by %2 (largest %3)")
                                .arg(names[i])
                                .arg(maxAbsDiff(got[std::size_t(i)], expected[std::size_t(i)]))
                                .arg(expected[std::size_t(i)].abs().max().item<double>())));
    QVERIFY(expected[2].abs().sum().item<double>() > 0.0);
}

void TestKernels::normLinearMatchesUnfused_data() {
    QTest::addColumn<bool>("bf16");
    QTest::addColumn<bool>("withBias");
    QTest::addColumn<int>("width");
    QTest::newRow("fp32, bias") << false << true << 32;
    QTest::newRow("fp32, no bias (qkv)") << false << false << 32;
    QTest::newRow("bf16 autocast, bias") << true << true << 32;
    QTest::newRow("bf16 autocast, no bias, width 128") << true << false << 128;
    QTest::newRow("fp32, width 20 (LibTorch's LayerNorm)") << false << true << 20;
}

// LayerNorm then Linear, fused: same values and the same gradients for all five
// parameters as nn::LayerNorm followed by linear under autograd.
void TestKernels::normLinearMatchesUnfused() {
    QFETCH(bool, bf16);
    QFETCH(bool, withBias);
    QFETCH(int, width);
    torch::manual_seed(6);
    auto x = (torch::randn({3, 7, width}) * 2 + 0.5).requires_grad_();
    auto nw = (torch::rand({width}) + 0.5).requires_grad_();
    auto nb = (torch::randn({width}) * 0.1).requires_grad_();
    auto w = (torch::randn({48, width}) * 0.2).requires_grad_();
    auto b = withBias ? torch::randn({48}, torch::requires_grad()) : torch::Tensor();
    auto target = torch::randn({3, 7, 48});
    std::vector<torch::Tensor> params{x, nw, nb, w};
    if (withBias) params.push_back(b);
    auto run = [&](bool fused) {
        if (bf16) {
            at::autocast::set_autocast_cpu_dtype(at::kBFloat16);
            at::autocast::set_cpu_enabled(true);
        }
        torch::Tensor out = fused ? chargpt::normLinear(x, nw, nb, w, b)
                                  : torch::linear(torch::layer_norm(x, {width}, nw, nb, 1e-5), w, b);
        if (bf16) {
            at::autocast::set_cpu_enabled(false);
            at::autocast::clear_cache();
        }
        (out.to(torch::kFloat32) * target).sum().backward();
        std::vector<torch::Tensor> r{out.detach().to(torch::kFloat32)};
        for (auto& p : params) {
            r.push_back(p.grad().clone());
            p.grad().zero_();
        }
        return r;
    };
    const auto expected = run(false);
    const auto got = run(true);
    const double tolerance = bf16 ? 3e-2 : 1e-4;
    for (std::size_t i = 0; i < expected.size(); ++i)
        QVERIFY2(torch::allclose(got[i], expected[i], tolerance, tolerance),
                 qPrintable(QString("output/gradient %1").arg(i)));
    QVERIFY(expected[2].abs().sum().item<double>() > 0.0);  // the norm's weight really learns
}

void TestKernels::residualAddMatchesPromotion_data() {
    QTest::addColumn<int>("width");
    QTest::addColumn<bool>("bf16Branch");
    QTest::newRow("bf16 branch") << 32 << true;
    // 3 x 7 x 37 = 777 values: whole vectors of 16, then a rest of 9.
    QTest::newRow("bf16 branch, not a multiple of 16") << 37 << true;
    QTest::newRow("fp32 branch (plain add)") << 32 << false;
}

// The residual stream plus a half's bf16 output: the same bits as LibTorch's
// promoting add, forward and backward (the branch's gradient rounded to bf16
// as autograd rounds it).
void TestKernels::residualAddMatchesPromotion() {
    QFETCH(int, width);
    QFETCH(bool, bf16Branch);
    torch::manual_seed(9);
    auto x = (torch::randn({3, 7, width}) * 4).requires_grad_();
    const auto type = bf16Branch ? torch::kBFloat16 : torch::kFloat32;
    auto branch = (torch::randn({3, 7, width}) * 3).to(type).requires_grad_();
    // Gradients with bits below bf16's, so that rounding them shows.
    const auto target = torch::randn({3, 7, width}) * 1.7;
    auto run = [&](bool fused) {
        const torch::Tensor out = fused ? chargpt::residualAdd(x, branch) : x + branch;
        (out * target).sum().backward();
        std::vector<torch::Tensor> r{out.detach(), x.grad().clone(), branch.grad().clone()};
        x.grad().zero_();
        branch.grad().zero_();
        return r;
    };
    const auto expected = run(false);
    const auto got = run(true);
    QCOMPARE(got[0].scalar_type(), torch::kFloat32);
    QCOMPARE(got[2].scalar_type(), branch.scalar_type());
    const char* names[] = {"sum", "stream's gradient", "branch's gradient"};
    for (std::size_t i = 0; i < 3; ++i) QVERIFY2(torch::equal(got[i], expected[i]), names[i]);
    // The branch's gradient really was rounded: it differs from the float one.
    if (bf16Branch) QVERIFY(!torch::equal(got[2].to(torch::kFloat32), got[1]));
    // Without gradients the same sum.
    torch::NoGradGuard noGrad;
    QVERIFY(torch::equal(chargpt::residualAdd(x, branch), expected[0]));
}

// The LayerNorm kernel's gradients are the same bits on one thread and on
// several (its sums over rows are taken in fixed blocks), and its forward pass
// keeps what at::native_layer_norm keeps.
void TestKernels::layerNormSameOnAnyThreads() {
    torch::manual_seed(8);
    const auto x = torch::randn({300, 64}) * 3 + 1, w = torch::rand({64}) + 0.5, b = torch::randn({64});
    const auto [y, mean, rstd] = chargpt::layerNormForward(x, w, b, 1e-5, torch::kFloat32);
    const auto [y0, mean0, rstd0] = at::native_layer_norm(x, {64}, w, b, 1e-5);
    QVERIFY(torch::allclose(y, y0, 1e-5, 1e-5));
    QVERIFY(torch::allclose(mean, mean0.view({300}), 1e-6, 1e-6));
    QVERIFY(torch::allclose(rstd, rstd0.view({300}), 1e-5, 1e-6));
    QVERIFY(torch::equal(chargpt::layerNormAgain(x, mean, rstd, w, b, torch::kFloat32), y));
    const auto dy = torch::randn({300, 64}).to(torch::kBFloat16);
    const int threads = at::get_num_threads();
    at::set_num_threads(1);
    const auto one = chargpt::layerNormBackward(dy, x, mean, rstd, w);
    at::set_num_threads(2);
    const auto two = chargpt::layerNormBackward(dy, x, mean, rstd, w);
    at::set_num_threads(threads);
    QVERIFY(torch::equal(std::get<0>(one), std::get<0>(two)));
    QVERIFY(torch::equal(std::get<1>(one), std::get<1>(two)));
    QVERIFY(torch::equal(std::get<2>(one), std::get<2>(two)));
    const auto expected = at::native_layer_norm_backward(dy.to(torch::kFloat32), x, {64}, mean0, rstd0, w, b,
                                                         {true, true, true});
    QVERIFY(torch::allclose(std::get<0>(one), std::get<0>(expected), 1e-4, 1e-4));
    QVERIFY(torch::allclose(std::get<1>(one), std::get<1>(expected), 1e-4, 1e-4));
    QVERIFY(torch::allclose(std::get<2>(one), std::get<2>(expected), 1e-4, 1e-4));
}

void TestKernels::dropoutMaskAndGradient_data() {
    QTest::addColumn<double>("p");
    QTest::addColumn<bool>("bf16");
    QTest::newRow("p 0.4") << 0.4 << false;
    QTest::newRow("p 0.1") << 0.1 << false;
    QTest::newRow("p 0.4 bf16") << 0.4 << true;
    QTest::newRow("p 0.4, a size not a multiple of 16") << 0.4 << false;
    QTest::newRow("p 0.4 bf16, a size not a multiple of 16") << 0.4 << true;
}

// Inverted dropout keeps each element with probability 1 - p, scaled by
// 1 / (1 - p); the backward pass uses the very same mask (it is drawn again
// from the same seed, not stored).
void TestKernels::dropoutMaskAndGradient() {
    QFETCH(double, p);
    QFETCH(bool, bf16);
    torch::manual_seed(77);
    const auto type = bf16 ? torch::kBFloat16 : torch::kFloat32;
    // Sixteen elements at a time, then the rest one by one: both draw from the
    // same rule, checked here on a size with a rest of 9.
    const bool odd = QByteArray(QTest::currentDataTag()).contains("multiple");
    const std::vector<int64_t> shape = odd ? std::vector<int64_t>{61, 67, 31} : std::vector<int64_t>{64, 64, 32};
    auto x = (torch::rand(shape) + 0.5).to(type).requires_grad_();
    auto out = chargpt::dropout(x, p, /*training=*/true);
    auto weights = torch::randn(shape).to(type);
    (out * weights).sum().backward();
    auto kept = out.detach() != 0;
    const double keptFraction = kept.to(torch::kFloat64).mean().item<double>();
    QVERIFY2(std::abs(keptFraction - (1.0 - p)) < 0.01, qPrintable(QString::number(keptFraction)));
    const double scale = 1.0 / (1.0 - p);
    const double tolerance = bf16 ? 1e-2 : 1e-6;
    auto ratio = out.detach().to(torch::kFloat64).masked_select(kept) /
                 x.detach().to(torch::kFloat64).masked_select(kept);
    QVERIFY(torch::allclose(ratio, torch::full_like(ratio, scale), tolerance, tolerance));
    auto grad = x.grad().to(torch::kFloat64);
    QVERIFY(grad.masked_select(~kept).abs().max().item<double>() == 0.0);
    auto expectedGrad = weights.to(torch::kFloat64).masked_select(kept) * scale;
    QVERIFY(torch::allclose(grad.masked_select(kept), expectedGrad, tolerance, tolerance));
    // A second call draws a new mask; evaluation mode is the identity.
    auto again = chargpt::dropout(x.detach(), p, true);
    QVERIFY(!torch::equal(again != 0, kept));
    QVERIFY(torch::equal(chargpt::dropout(x.detach(), p, false), x.detach()));
}

// Large tensors freed by one training step are what the next step asks for:
// the allocator hands the same memory back instead of asking the system again.
void TestKernels::cachingAllocatorReusesBlocks() {
    chargpt::installCachingAllocator();
    chargpt::releaseCachedAllocatorMemory();
    const void* first = nullptr;
    {
        auto a = torch::full({512, 1024}, 3.0f);  // 2 MiB
        first = a.data_ptr();
        QCOMPARE(reinterpret_cast<uintptr_t>(first) % 64, uintptr_t(0));
        QCOMPARE(a.sum().item<double>(), 3.0 * 512 * 1024);
    }
    QVERIFY(chargpt::cachedAllocatorBytes() >= std::size_t(2) << 20);
    {
        auto b = torch::zeros({512, 1024});
        QCOMPARE(static_cast<const void*>(b.data_ptr()), first);
        QCOMPARE(b.sum().item<double>(), 0.0);  // zeros really are zeros on reused memory
        auto c = torch::ones({512, 1024});      // the cached block is taken: fresh memory
        QVERIFY(static_cast<const void*>(c.data_ptr()) != first);
        auto small = torch::arange(10);
        QCOMPARE(reinterpret_cast<uintptr_t>(small.data_ptr()) % 64, uintptr_t(0));
        QCOMPARE(small.sum().item<int64_t>(), int64_t(45));
    }
    chargpt::releaseCachedAllocatorMemory();
    QCOMPARE(chargpt::cachedAllocatorBytes(), std::size_t(0));
    // Blocks beyond the bound go back to the system rather than into the cache.
    {
        std::vector<torch::Tensor> many;
        for (int i = 0; i < 40; ++i) many.push_back(torch::empty({8 << 20}));  // 32 MiB each
    }
    QVERIFY(chargpt::cachedAllocatorBytes() <= std::size_t(256) << 20);
    QVERIFY(chargpt::cachedAllocatorBytes() >= std::size_t(200) << 20);
    // A full cache still takes a newly freed size (another model's): the blocks
    // freed longest ago make room for it.
    const void* fresh = nullptr;
    {
        auto t = torch::empty({3 << 18});  // 3 MiB, a size not cached
        fresh = t.data_ptr();
    }
    {
        auto again = torch::empty({3 << 18});
        QCOMPARE(static_cast<const void*>(again.data_ptr()), fresh);
    }
    QVERIFY(chargpt::cachedAllocatorBytes() <= std::size_t(256) << 20);
    chargpt::releaseCachedAllocatorMemory();
}

// The optimizer's one-pass update against LibTorch's AdamW over a few steps:
// a decayed matrix, an undecayed bias, sizes not a multiple of the vector
// width, and a changing learning rate.
void TestKernels::fusedAdamWMatchesLibTorch() {
    torch::manual_seed(5);
    torch::Tensor w = torch::randn({37, 19}), b = torch::randn({37});
    const torch::Tensor initial = w.clone();
    torch::Tensor w2 = w.clone().requires_grad_(), b2 = b.clone().requires_grad_();
    w.requires_grad_();
    b.requires_grad_();
    chargpt::FusedAdamW::Options options;
    options.beta1 = 0.9;
    options.beta2 = 0.95;
    options.eps = 1e-8;
    options.weightDecay = 0.1;
    chargpt::FusedAdamW fused({w}, {b}, options);
    const double lr = 3e-3;
    auto adamw = [&](const torch::Tensor& p, double decay) {
        return torch::optim::OptimizerParamGroup(
            {p}, std::make_unique<torch::optim::AdamWOptions>(torch::optim::AdamWOptions(lr)
                                                                  .betas({options.beta1, options.beta2})
                                                                  .eps(options.eps)
                                                                  .weight_decay(decay)));
    };
    std::vector<torch::optim::OptimizerParamGroup> groups;
    groups.push_back(adamw(w2, options.weightDecay));
    groups.push_back(adamw(b2, 0.0));
    torch::optim::AdamW reference(groups);
    for (int step = 1; step <= 5; ++step) {
        const double stepLr = lr * (1.0 - 0.1 * step);
        const auto gw = torch::randn({37, 19}), gb = torch::randn({37});
        {
            torch::NoGradGuard noGrad;
            w.mutable_grad().copy_(gw);
            b.mutable_grad().copy_(gb);
            w2.mutable_grad() = gw.clone();
            b2.mutable_grad() = gb.clone();
        }
        for (auto& group : reference.param_groups())
            static_cast<torch::optim::AdamWOptions&>(group.options()).lr(stepLr);
        fused.step(stepLr);
        reference.step();
        QVERIFY2(torch::allclose(w, w2, 1e-5, 1e-6), qPrintable(QString::number(maxAbsDiff(w, w2))));
        QVERIFY2(torch::allclose(b, b2, 1e-5, 1e-6), qPrintable(QString::number(maxAbsDiff(b, b2))));
    }
    QVERIFY(!torch::allclose(w, initial, 1e-3, 1e-3));  // the steps moved the weights
}

CHARGPT_TEST_GUILESS_MAIN(TestKernels)
}  // namespace tst_kernels
#include "tst_kernels.moc"

