// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/nn/kernels/PackedAttention.h"
#include "model/nn/kernels/KernelTiers.h"
#include "model/nn/kernels/Vec16.h"

#include <ATen/Parallel.h>
#include <ATen/record_function.h>
#include <torch/csrc/autograd/custom_function.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

namespace chargpt {

namespace {

using vec::kLanes;
using vec::Vf;
using vec::Vi;

// A head's vectors, in float32, its H columns padded with zeros to the
// kernel's FH (8, 16, 32 or 64: a constant, so the loops over it unroll and the
// vectors stay in registers). Row-major (Tp, FH) to broadcast one position's
// values; transposed (FH, Tp) to load sixteen positions as one vector. Tp is T
// rounded up to whole vectors; padding is written once (zeros) and never again.
struct HeadScratch {
    HeadScratch(int64_t FH, int64_t T) : Tp((T + kLanes - 1) / kLanes * kLanes) {
        const auto n = static_cast<std::size_t>(FH * Tp);
        for (auto* v : {&qR, &kR, &vR, &gR, &qT, &kT, &vT, &gT, &outT, &dkT, &dvT, &dkR, &dvR}) v->assign(n, 0.0f);
        lse.assign(std::size_t(Tp), 0.0f);
        D.assign(std::size_t(Tp), 0.0f);
        S.assign(std::size_t(Tp * kLanes), 0.0f);
        DP.assign(std::size_t(Tp * kLanes), 0.0f);
    }
    int64_t Tp;
    std::vector<float> qR, kR, vR, gR;  // (Tp, FH): queries, keys, values, dL/dout
    std::vector<float> qT, kT, vT, gT;  // (FH, Tp): the same, transposed
    std::vector<float> outT, dkT, dvT;  // (FH, Tp): results (dq goes to outT)
    std::vector<float> dkR, dvR;        // (Tp, FH): the wide heads' dk and dv
    std::vector<float> lse, D;          // (Tp): per query, log-sum-exp of its scores, and dout . out
    std::vector<float> S, DP;           // (Tp, 16): one block's probabilities and dL/dP
};

struct Shape {
    int64_t B, T, heads, H, C;
};

// Where one head's H columns of a row go: its row-major and/or its transposed
// layout (either may be null: the forward pass needs one of each).
struct Slot {
    float* R = nullptr;
    float* Tr = nullptr;
};

// One batch element's rows (T, parts x C), read once and in order, into every
// head's scratch: head h's columns of part p go to slots[p heads + h]. (Read
// head by head, the rows lie 3C floats apart and every one missed the cache.)
// With H == FH the loops over h have a constant length and vectorise.
template <int64_t FH, typename Scalar>
CHARGPT_KERNEL void gatherRows(const Scalar* __restrict__ block, int64_t parts, const Shape& d, int64_t Tp,
                               const Slot* __restrict__ slots) {
    auto run = [&](auto columns) {
        const int64_t n = columns;
        for (int64_t t = 0; t < d.T; ++t) {
            const Scalar* row = block + t * parts * d.C;
            for (int64_t p = 0; p < parts; ++p)
                for (int64_t head = 0; head < d.heads; ++head) {
                    const Scalar* x = row + p * d.C + head * d.H;
                    const Slot& slot = slots[p * d.heads + head];
                    if (slot.R)
                        for (int64_t h = 0; h < n; ++h) slot.R[t * FH + h] = static_cast<float>(x[h]);
                    if (slot.Tr)
                        for (int64_t h = 0; h < n; ++h) slot.Tr[h * Tp + t] = static_cast<float>(x[h]);
                }
        }
    };
    if (d.H == FH)
        run(std::integral_constant<int64_t, FH>{});
    else
        run(d.H);
}

// The reverse: every head's results, Tr[p heads + h] for part p, written as one
// batch element's rows (T, parts x C), in order. A part's results are
// transposed (FH, Tp), or row-major (Tp, FH) from part `firstRowMajor` on.
template <int64_t FH, typename Scalar>
CHARGPT_KERNEL void scatterRows(const float* const* __restrict__ Tr, int64_t parts, const Shape& d,
                                int64_t Tp, Scalar* __restrict__ block, int64_t firstRowMajor) {
    auto run = [&](auto columns) {
        const int64_t n = columns;
        for (int64_t t = 0; t < d.T; ++t) {
            Scalar* row = block + t * parts * d.C;
            for (int64_t p = 0; p < parts; ++p)
                for (int64_t head = 0; head < d.heads; ++head) {
                    Scalar* x = row + p * d.C + head * d.H;
                    const float* src = Tr[p * d.heads + head];
                    if (p < firstRowMajor)
                        for (int64_t h = 0; h < n; ++h) x[h] = static_cast<Scalar>(src[h * Tp + t]);
                    else
                        for (int64_t h = 0; h < n; ++h) x[h] = static_cast<Scalar>(src[t * FH + h]);
                }
        }
    };
    if (d.H == FH)
        run(std::integral_constant<int64_t, FH>{});
    else
        run(d.H);
}

// Sum over h of a[h] b[h] for FH products, in four chains rather than one (the
// latency of FH dependent multiply-adds would otherwise bound the loop).
template <int64_t FH>
[[gnu::always_inline]] inline Vf dot(const Vf* a, const float* b) {
    static_assert(FH % 4 == 0);
    Vf s0 = a[0] * b[0], s1 = a[1] * b[1], s2 = a[2] * b[2], s3 = a[3] * b[3];
    for (int64_t h = 4; h < FH; h += 4) {
        s0 += a[h] * b[h];
        s1 += a[h + 1] * b[h + 1];
        s2 += a[h + 2] * b[h + 2];
        s3 += a[h + 3] * b[h + 3];
    }
    return (s0 + s1) + (s2 + s3);
}

// Lanes (queries i0 + l) that may see key j: i0 + l >= j.
[[gnu::always_inline]] inline Vi visibleFromQueries(int64_t i0, int64_t j) {
    return vec::lanes() >= vec::splatInt(int32_t(j - i0));
}

// A block's scores S (keys x 16 lanes) replaced by e^(s - m), exact zeros where
// masked; returns each lane's sum.
[[gnu::always_inline]] inline Vf expScores(float* __restrict__ S, int64_t i0, int64_t keys, Vf m) {
    Vf sum = {};
    for (int64_t j = 0; j < keys; ++j) {
        Vf e = vec::expNonPositive(vec::load(S + j * kLanes) - m);
        if (j >= i0) e = visibleFromQueries(i0, j) ? e : Vf{};  // exact zeros where masked
        vec::store(S + j * kLanes, e);
        sum += e;
    }
    return sum;
}

// What the forward pass keeps of a block: each query's log-sum-exp, and when P
// is not null its weights (T, T).
[[gnu::always_inline]] inline void keepSoftmax(const float* __restrict__ S, int64_t i0, int64_t keys, int64_t T,
                                               Vf m, Vf sum, float* __restrict__ lse, float* __restrict__ P) {
    const Vf inv = 1.0f / sum;
    for (int64_t l = 0; l < kLanes; ++l) lse[i0 + l] = m[l] + std::log(sum[l]);
    if (P)
        for (int64_t l = 0; l < kLanes && i0 + l < T; ++l)
            for (int64_t j = 0; j < keys; ++j) P[(i0 + l) * T + j] = S[j * kLanes + l] * inv[l];
}

// The forward pass of one head, sixteen queries at a time: scores of the
// visible keys, their softmax and the weighted sum of the values, all in
// registers. Writes out (FH, Tp), each query's log-sum-exp and, when P is not
// null, the weights (T, T) (P must hold zeros above the diagonal already).
template <int64_t FH>
CHARGPT_KERNEL void forwardHeadNarrow(const float* __restrict__ qT, const float* __restrict__ kR,
                                      const float* __restrict__ vR, float* __restrict__ outT,
                                      float* __restrict__ lse, float* __restrict__ P, float* __restrict__ S,
                                      int64_t T, int64_t Tp, float scale) {
    const Vf minusInf = vec::splat(-std::numeric_limits<float>::infinity());
    for (int64_t i0 = 0; i0 < T; i0 += kLanes) {
        const int64_t keys = std::min(T, i0 + kLanes);  // the block's last query sees keys 0 .. i0 + 15
        Vf q[FH];
        for (int64_t h = 0; h < FH; ++h) q[h] = vec::load(qT + h * Tp + i0) * scale;
        Vf m = minusInf;
        for (int64_t j = 0; j < keys; ++j) {
            const float* k = kR + j * FH;
            Vf s = dot<FH>(q, k);
            if (j >= i0) s = visibleFromQueries(i0, j) ? s : minusInf;
            vec::store(S + j * kLanes, s);
            m = vec::maxOf(s, m);
        }
        const Vf sum = expScores(S, i0, keys, m);
        const Vf inv = 1.0f / sum;
        Vf o[FH] = {};
        for (int64_t j = 0; j < keys; ++j) {
            const Vf p = vec::load(S + j * kLanes);
            const float* v = vR + j * FH;
            for (int64_t h = 0; h < FH; ++h) o[h] += p * v[h];
        }
        for (int64_t h = 0; h < FH; ++h) vec::store(outT + h * Tp + i0, o[h] * inv);
        keepSoftmax(S, i0, keys, T, m, sum, lse, P);
    }
}

// Backward, sixteen queries at a time: dq (FH, Tp) and D = sum_j P dL/dP per query.
template <int64_t FH>
CHARGPT_KERNEL void backwardQueries(const float* __restrict__ qT, const float* __restrict__ gT,
                                    const float* __restrict__ kR, const float* __restrict__ vR,
                                    const float* __restrict__ lse, float* __restrict__ D, float* __restrict__ dqT,
                                    float* __restrict__ S, float* __restrict__ DP, int64_t T, int64_t Tp, float scale) {
    for (int64_t i0 = 0; i0 < T; i0 += kLanes) {
        const int64_t keys = std::min(T, i0 + kLanes);
        Vf q[FH], g[FH];
        for (int64_t h = 0; h < FH; ++h) {
            q[h] = vec::load(qT + h * Tp + i0) * scale;
            g[h] = vec::load(gT + h * Tp + i0);
        }
        const Vf logSum = vec::load(lse + i0);
        Vf d = {};
        for (int64_t j = 0; j < keys; ++j) {
            const float* k = kR + j * FH;
            const float* v = vR + j * FH;
            const Vf s = dot<FH>(q, k), dp = dot<FH>(g, v);
            Vf p = vec::expNonPositive(s - logSum);
            if (j >= i0) p = visibleFromQueries(i0, j) ? p : Vf{};
            vec::store(S + j * kLanes, p);
            vec::store(DP + j * kLanes, dp);
            d += p * dp;
        }
        Vf dq[FH] = {};
        for (int64_t j = 0; j < keys; ++j) {
            const Vf ds = vec::load(S + j * kLanes) * (vec::load(DP + j * kLanes) - d);  // dL/dscore, before the scale
            const float* k = kR + j * FH;
            for (int64_t h = 0; h < FH; ++h) dq[h] += ds * k[h];
        }
        for (int64_t h = 0; h < FH; ++h) vec::store(dqT + h * Tp + i0, dq[h] * scale);
        vec::store(D + i0, d);
    }
}

// Backward, sixteen keys at a time: dk and dv (FH, Tp), from every query that sees them.
template <int64_t FH>
CHARGPT_KERNEL void backwardKeys(const float* __restrict__ kT, const float* __restrict__ vT,
                                 const float* __restrict__ qR, const float* __restrict__ gR,
                                 const float* __restrict__ lse, const float* __restrict__ D,
                                 float* __restrict__ dkT, float* __restrict__ dvT, int64_t T, int64_t Tp,
                                 float scale) {
    for (int64_t j0 = 0; j0 < T; j0 += kLanes) {
        Vf k[FH], v[FH];
        for (int64_t h = 0; h < FH; ++h) {
            k[h] = vec::load(kT + h * Tp + j0) * scale;
            v[h] = vec::load(vT + h * Tp + j0);
        }
        Vf dk[FH] = {}, dv[FH] = {};
        for (int64_t i = j0; i < T; ++i) {
            const float* q = qR + i * FH;
            const float* g = gR + i * FH;
            const Vf s = dot<FH>(k, q), dp = dot<FH>(v, g);
            Vf p = vec::expNonPositive(s - lse[i]);
            if (i < j0 + kLanes - 1) p = vec::lanes() <= vec::splatInt(int32_t(i - j0)) ? p : Vf{};  // keys after i
            const Vf ds = p * (dp - D[i]);
            for (int64_t h = 0; h < FH; ++h) {
                dv[h] += p * g[h];
                dk[h] += ds * q[h];
            }
        }
        for (int64_t h = 0; h < FH; ++h) {
            vec::store(dkT + h * Tp + j0, dk[h] * scale);
            vec::store(dvT + h * Tp + j0, dv[h]);
        }
    }
}

#include "model/nn/kernels/AttentionWideHeads.h"

// The wide heads' kernels for the tier in force: AVX2 has builds of its own.
template <int64_t FH>
auto forwardWide() {
#ifdef CHARGPT_KERNEL_TIERS
    if (kernels::kernelTier() == CpuTier::Avx2) return kernels::Tiers<forwardHeadWide<FH, true>>::avx2;
#endif
    return kernels::tiered<forwardHeadWide<FH>>;
}
template <int64_t FH>
auto backwardWide() {
#ifdef CHARGPT_KERNEL_TIERS
    if (kernels::kernelTier() == CpuTier::Avx2) return kernels::Tiers<backwardHeadWide<FH, true>>::avx2;
#endif
    return kernels::tiered<backwardHeadWide<FH>>;
}

Shape shapeOf(const torch::Tensor& qkv, int64_t heads) {
    const int64_t C = qkv.size(2) / 3;
    return {qkv.size(0), qkv.size(1), heads, C / heads, C};
}

// Attention is computed per batch element: its rows are read once into every
// head's scratch, each head runs, and the results are written back in order.
template <int64_t FH, typename Scalar>
void forwardAll(const torch::Tensor& qkv, torch::Tensor& out, torch::Tensor& lse, float* P, const Shape& d,
                float scale) {
    const Scalar* in = qkv.data_ptr<Scalar>();
    Scalar* o = out.data_ptr<Scalar>();
    float* l = lse.data_ptr<float>();
    at::parallel_for(0, d.B, 1, [&](int64_t begin, int64_t end) {
        std::vector<HeadScratch> s(std::size_t(d.heads), HeadScratch(FH, d.T));
        const int64_t Tp = s[0].Tp;
        std::vector<Slot> slots(std::size_t(3 * d.heads));
        std::vector<const float*> results(std::size_t(d.heads));
        for (std::size_t h = 0; h < s.size(); ++h) {
            slots[h].Tr = s[h].qT.data();
            slots[s.size() + h].R = s[h].kR.data();
            slots[2 * s.size() + h].R = s[h].vR.data();
            results[h] = s[h].outT.data();
        }
        for (int64_t b = begin; b < end; ++b) {
            kernels::tiered<gatherRows<FH, Scalar>>(in + b * d.T * 3 * d.C, 3, d, Tp, slots.data());
            for (int64_t head = 0; head < d.heads; ++head) {
                HeadScratch& h = s[std::size_t(head)];
                const int64_t n = b * d.heads + head;
                if constexpr (FH >= 32)
                    forwardWide<FH>()(h.qT.data(), h.kR.data(), h.vR.data(), h.outT.data(),
                                                         h.lse.data(), P ? P + n * d.T * d.T : nullptr, h.S.data(),
                                                         d.T, Tp, scale);
                else
                    kernels::tiered<forwardHeadNarrow<FH>>(
                        h.qT.data(), h.kR.data(), h.vR.data(), h.outT.data(), h.lse.data(),
                        P ? P + n * d.T * d.T : nullptr, h.S.data(), d.T, Tp, scale);
                std::copy_n(h.lse.data(), d.T, l + n * d.T);
            }
            kernels::tiered<scatterRows<FH, Scalar>>(results.data(), 1, d, Tp, o + b * d.T * d.C,
                                                     std::numeric_limits<int64_t>::max());
        }
    });
}

template <int64_t FH, typename Scalar>
void backwardAll(const torch::Tensor& qkv, const torch::Tensor& lse, const torch::Tensor& dout, torch::Tensor& dqkv,
                 const Shape& d, float scale) {
    const Scalar* in = qkv.data_ptr<Scalar>();
    const Scalar* g = dout.data_ptr<Scalar>();
    Scalar* dIn = dqkv.data_ptr<Scalar>();
    const float* l = lse.data_ptr<float>();
    at::parallel_for(0, d.B, 1, [&](int64_t begin, int64_t end) {
        std::vector<HeadScratch> s(std::size_t(d.heads), HeadScratch(FH, d.T));
        const int64_t Tp = s[0].Tp;
        const std::size_t nh = s.size();
        std::vector<Slot> slots(3 * nh), gradSlots(nh);
        std::vector<const float*> results(3 * nh);
        // The wide heads' one pass reads keys and values as rows only and
        // writes dk and dv as rows.
        constexpr bool wide = FH >= 32;
        for (std::size_t h = 0; h < nh; ++h) {
            slots[h] = {s[h].qR.data(), s[h].qT.data()};
            slots[nh + h] = {s[h].kR.data(), wide ? nullptr : s[h].kT.data()};
            slots[2 * nh + h] = {s[h].vR.data(), wide ? nullptr : s[h].vT.data()};
            gradSlots[h] = {s[h].gR.data(), s[h].gT.data()};
            results[h] = s[h].outT.data();  // dq
            results[nh + h] = wide ? s[h].dkR.data() : s[h].dkT.data();
            results[2 * nh + h] = wide ? s[h].dvR.data() : s[h].dvT.data();
        }
        for (int64_t b = begin; b < end; ++b) {
            kernels::tiered<gatherRows<FH, Scalar>>(in + b * d.T * 3 * d.C, 3, d, Tp, slots.data());
            kernels::tiered<gatherRows<FH, Scalar>>(g + b * d.T * d.C, 1, d, Tp, gradSlots.data());
            for (int64_t head = 0; head < d.heads; ++head) {
                HeadScratch& h = s[std::size_t(head)];
                std::copy_n(l + (b * d.heads + head) * d.T, d.T, h.lse.data());
                if constexpr (wide) {
                    backwardWide<FH>()(h.qT.data(), h.gT.data(), h.qR.data(), h.gR.data(),
                                                          h.kR.data(), h.vR.data(), h.lse.data(), h.outT.data(),
                                                          h.dkR.data(), h.dvR.data(), h.S.data(), h.DP.data(), d.T,
                                                          Tp, scale);
                } else {
                    kernels::tiered<backwardQueries<FH>>(h.qT.data(), h.gT.data(), h.kR.data(), h.vR.data(),
                                                         h.lse.data(), h.D.data(), h.outT.data(), h.S.data(),
                                                         h.DP.data(), d.T, Tp, scale);
                    kernels::tiered<backwardKeys<FH>>(h.kT.data(), h.vT.data(), h.qR.data(), h.gR.data(),
                                                      h.lse.data(), h.D.data(), h.dkT.data(), h.dvT.data(), d.T, Tp,
                                                      scale);
                }
            }
            kernels::tiered<scatterRows<FH, Scalar>>(results.data(), 3, d, Tp, dIn + b * d.T * 3 * d.C,
                                                     wide ? 1 : 3);
        }
    });
}

// Calls fn(std::integral_constant<int64_t, FH>, Scalar{}) for the head size
// rounded up to a kernel's and the tensor's type.
template <typename Fn>
void dispatch(int64_t H, torch::ScalarType type, Fn&& fn) {
    auto withType = [&](auto fh) {
        if (type == torch::kBFloat16)
            fn(fh, at::BFloat16{});
        else
            fn(fh, float{});
    };
    if (H <= 8)
        withType(std::integral_constant<int64_t, 8>{});
    else if (H <= 16)
        withType(std::integral_constant<int64_t, 16>{});
    else if (H <= 32)
        withType(std::integral_constant<int64_t, 32>{});
    else
        withType(std::integral_constant<int64_t, 64>{});
}

struct PackedAttentionFunction : public torch::autograd::Function<PackedAttentionFunction> {
    static torch::autograd::variable_list forward(torch::autograd::AutogradContext* ctx, const torch::Tensor& qkv,
                                                  int64_t heads, double scale, bool wantWeights) {
        RECORD_FUNCTION("chargpt::attention", std::vector<c10::IValue>());
        const torch::Tensor in = qkv.contiguous();
        const Shape d = shapeOf(in, heads);
        auto out = torch::empty({d.B, d.T, d.C}, in.options());
        auto lse = torch::empty({d.B * heads, d.T}, in.options().dtype(torch::kFloat32));
        auto weights = wantWeights ? torch::zeros({d.B, heads, d.T, d.T}, in.options().dtype(torch::kFloat32))
                                   : torch::empty({0}, in.options().dtype(torch::kFloat32));
        float* P = wantWeights ? weights.data_ptr<float>() : nullptr;
        dispatch(d.H, in.scalar_type(), [&](auto fh, auto scalar) {
            forwardAll<decltype(fh)::value, decltype(scalar)>(in, out, lse, P, d, static_cast<float>(scale));
        });
        ctx->save_for_backward({in, lse});
        ctx->saved_data["heads"] = heads;
        ctx->saved_data["scale"] = scale;
        ctx->mark_non_differentiable({weights});
        return {out, weights};
    }

    static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx,
                                                   torch::autograd::variable_list grads) {
        RECORD_FUNCTION("chargpt::attention_backward", std::vector<c10::IValue>());
        const auto saved = ctx->get_saved_variables();
        const torch::Tensor &in = saved[0], &lse = saved[1];
        const int64_t heads = ctx->saved_data["heads"].toInt();
        const float scale = static_cast<float>(ctx->saved_data["scale"].toDouble());
        const Shape d = shapeOf(in, heads);
        const torch::Tensor dout = grads[0].to(in.scalar_type()).contiguous();
        auto dqkv = torch::empty_like(in);
        dispatch(d.H, in.scalar_type(), [&](auto fh, auto scalar) {
            backwardAll<decltype(fh)::value, decltype(scalar)>(in, lse, dout, dqkv, d, scale);
        });
        return {dqkv, torch::Tensor(), torch::Tensor(), torch::Tensor()};
    }
};

}  // namespace

bool packedAttentionSupported(const torch::Tensor& qkv, int64_t heads) {
    if (!qkv.device().is_cpu() || qkv.dim() != 3 || heads <= 0) return false;
    if (qkv.scalar_type() != torch::kFloat32 && qkv.scalar_type() != torch::kBFloat16) return false;
    if (qkv.size(2) % (3 * heads) != 0 || qkv.size(1) < 1) return false;
    return qkv.size(2) / (3 * heads) <= 64;
}

bool packedAttentionPays(const torch::Tensor& qkv, int64_t heads) {
    if (!packedAttentionSupported(qkv, heads)) return false;
    // bf16 heads of 32 (the fast preset): LibTorch's batched products through
    // oneDNN's bf16 kernels trained 59,200 tokens/s against 45,900 with this one
    // (chargpt bench, 2 threads, AMX), whose 32-wide heads no longer fit in
    // registers. Heads of 8 (the book preset) gain in both types.
    return true;
}

torch::Tensor packedCausalAttention(const torch::Tensor& qkv, int64_t heads, double scale, torch::Tensor* weights) {
    auto outputs = PackedAttentionFunction::apply(qkv, heads, scale, weights != nullptr);
    if (weights) *weights = outputs[1];
    return outputs[0];
}

}  // namespace chargpt
