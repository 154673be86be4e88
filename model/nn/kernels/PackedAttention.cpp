// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/nn/kernels/PackedAttention.h"

#include <ATen/Parallel.h>
#include <ATen/record_function.h>
#include <torch/csrc/autograd/custom_function.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

#include "model/nn/kernels/KernelTiers.h"
#include "model/nn/kernels/Vec16.h"
#include "model/nn/kernels/Vec8.h"

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
        for (auto* v : {&qR, &kR, &vR, &gR, &qT, &kT, &vT, &gT, &outT, &dkT, &dvT, &dkR, &dvR})
            v->assign(n, 0.0f);
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

#include "model/nn/kernels/AttentionNarrowHeads.h"
#include "model/nn/kernels/AttentionWideHeads.h"

// The head kernels for the tier in force: AVX2 has builds of its own.
template <int64_t FH>
constexpr auto forwardNarrow = kernels::tieredByWidth<forwardHeadNarrow<FH>, forwardHeadNarrow<FH, vec::V8>>;
template <int64_t FH>
constexpr auto backwardQueriesNarrow =
    kernels::tieredByWidth<backwardQueries<FH>, backwardQueries<FH, vec::V8>>;
template <int64_t FH>
constexpr auto backwardKeysNarrow = kernels::tieredByWidth<backwardKeys<FH>, backwardKeys<FH, vec::V8>>;
template <int64_t FH>
constexpr auto forwardWide = kernels::tieredByWidth<forwardHeadWide<FH>, forwardHeadWide<FH, true>>;
template <int64_t FH>
constexpr auto backwardWide = kernels::tieredByWidth<backwardHeadWide<FH>, backwardHeadWide<FH, true>>;

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
                    forwardWide<FH>(h.qT.data(), h.kR.data(), h.vR.data(), h.outT.data(), h.lse.data(),
                                    P ? P + n * d.T * d.T : nullptr, h.S.data(), d.T, Tp, scale);
                else
                    forwardNarrow<FH>(h.qT.data(), h.kR.data(), h.vR.data(), h.outT.data(), h.lse.data(),
                                      P ? P + n * d.T * d.T : nullptr, h.S.data(), d.T, Tp, scale);
                std::copy_n(h.lse.data(), d.T, l + n * d.T);
            }
            kernels::tiered<scatterRows<FH, Scalar>>(results.data(), 1, d, Tp, o + b * d.T * d.C,
                                                     std::numeric_limits<int64_t>::max());
        }
    });
}

template <int64_t FH, typename Scalar>
void backwardAll(const torch::Tensor& qkv, const torch::Tensor& lse, const torch::Tensor& dout,
                 torch::Tensor& dqkv, const Shape& d, float scale) {
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
                    backwardWide<FH>(h.qT.data(), h.gT.data(), h.qR.data(), h.gR.data(), h.kR.data(),
                                     h.vR.data(), h.lse.data(), h.outT.data(), h.dkR.data(), h.dvR.data(),
                                     h.S.data(), h.DP.data(), d.T, Tp, scale);
                } else {
                    backwardQueriesNarrow<FH>(h.qT.data(), h.gT.data(), h.kR.data(), h.vR.data(),
                                              h.lse.data(), h.D.data(), h.outT.data(), h.S.data(),
                                              h.DP.data(), d.T, Tp, scale);
                    backwardKeysNarrow<FH>(h.kT.data(), h.vT.data(), h.qR.data(), h.gR.data(), h.lse.data(),
                                           h.D.data(), h.dkT.data(), h.dvT.data(), h.S.data(), h.DP.data(),
                                           d.T, Tp, scale);
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
    static torch::autograd::variable_list forward(torch::autograd::AutogradContext* ctx,
                                                  const torch::Tensor& qkv, int64_t heads, double scale,
                                                  bool wantWeights) {
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

torch::Tensor packedCausalAttention(const torch::Tensor& qkv, int64_t heads, double scale,
                                    torch::Tensor* weights) {
    auto outputs = PackedAttentionFunction::apply(qkv, heads, scale, weights != nullptr);
    if (weights) *weights = outputs[1];
    return outputs[0];
}

}  // namespace chargpt
