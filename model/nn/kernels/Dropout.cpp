// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/nn/kernels/Dropout.h"

#include "model/nn/kernels/KernelTiers.h"
#include "model/nn/kernels/Vec16.h"
#include "model/nn/kernels/Vec8.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/Parallel.h>
#include <ATen/record_function.h>
#include <torch/csrc/autograd/custom_function.h>

#include <cmath>
#include <mutex>
#include <type_traits>

namespace chargpt {

namespace {

// One 64-bit hash per counter value: uint64_t or eight lanes of them alike.
template <typename U>
[[gnu::always_inline]] inline U splitmix64(U z) {
    z += 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// L elements' hashes (L / 2 of them) and the same bytes as L 32-bit lanes.
template <int64_t L>
struct HashLanes {
    typedef uint64_t Hashes __attribute__((vector_size(L * 4)));
    typedef uint32_t Bits __attribute__((vector_size(L * 4)));
};

// out = in * mask for elements [16 begin, 16 end), the mask (0 or 1 / (1 - p))
// drawn from `seed` element by element: hash i gives elements 2i (its low 32
// bits) and 2i + 1 (its high 32 bits), and an element is dropped when its bits
// fall below `threshold` = p 2^32. Nothing is stored, so the backward pass draws
// the same mask again instead of keeping one as large as the activation.
// A vector V of elements at a time (sixteen, or eight in the AVX2 build, whose
// compares and selects of sixteen floats went lane by lane): read as 32-bit
// lanes, its half as many 64-bit hashes are its elements' bits in order.
template <typename T, typename V>
CHARGPT_KERNEL void maskBlocks(const T* __restrict__ in, T* __restrict__ out, int64_t begin, int64_t end,
                               uint64_t seed, uint32_t threshold, float scale) {
    constexpr int64_t L = vec::kLanesOf<V>;
    using Hashes = typename HashLanes<L>::Hashes;
    using Bits = typename HashLanes<L>::Bits;
    Hashes counter = {};
    for (int64_t i = 0; i < L / 2; ++i) counter[i] = uint64_t(i);
    for (int64_t e = begin * vec::kLanes; e < end * vec::kLanes; e += L) {
        const Hashes hashes = splitmix64(counter + (seed + static_cast<uint64_t>(e / 2)));
        const auto keep = (Bits)hashes >= threshold;
        const V x = vec::loadAsLanes<V>(in + e);
        vec::storeAsLanes(out + e, keep ? x * scale : V{});
    }
}

// The same for the last n % 16 elements, one at a time.
template <typename T>
void maskTail(const T* in, T* out, int64_t from, int64_t n, uint64_t seed, uint32_t threshold, float scale) {
    for (int64_t e = from; e < n; ++e) {
        const uint64_t hash = splitmix64(seed + static_cast<uint64_t>(e / 2));
        const auto bits = static_cast<uint32_t>(e % 2 ? hash >> 32 : hash);
        out[e] = bits >= threshold ? T(float(in[e]) * scale) : T(0.0f);
    }
}

template <typename T>
void applyMask(const T* in, T* out, int64_t n, uint64_t seed, double p) {
    // p < 1, so p 2^32 fits in 32 bits.
    const auto threshold = static_cast<uint32_t>(std::ldexp(p, 32));
    const float scale = static_cast<float>(1.0 / (1.0 - p));
    const int64_t blocks = n / vec::kLanes;
    at::parallel_for(0, blocks, 1 << 10, [&](int64_t begin, int64_t end) {
        kernels::tieredByWidth<maskBlocks<T, vec::Vf>, maskBlocks<T, vec::V8>>(in, out, begin, end, seed, threshold, scale);
    });
    maskTail(in, out, blocks * vec::kLanes, n, seed, threshold, scale);
}

torch::Tensor masked(const torch::Tensor& x, uint64_t seed, double p) {
    const torch::Tensor in = x.contiguous();
    torch::Tensor out = torch::empty_like(in);
    if (in.scalar_type() == torch::kFloat32)
        applyMask(in.data_ptr<float>(), out.data_ptr<float>(), in.numel(), seed, p);
    else
        applyMask(in.data_ptr<at::BFloat16>(), out.data_ptr<at::BFloat16>(), in.numel(), seed, p);
    return out;
}

struct DropoutFunction : public torch::autograd::Function<DropoutFunction> {
    static torch::Tensor forward(torch::autograd::AutogradContext* ctx, const torch::Tensor& x, double p) {
        RECORD_FUNCTION("chargpt::dropout", std::vector<c10::IValue>());
        uint64_t seed;
        {
            auto generator = at::detail::getDefaultCPUGenerator();
            std::lock_guard<std::mutex> lock(generator.mutex());
            seed = generator.get<at::CPUGeneratorImpl>()->random64();
        }
        ctx->saved_data["seed"] = static_cast<int64_t>(seed);
        ctx->saved_data["p"] = p;
        return masked(x, seed, p);
    }
    static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx,
                                                    torch::autograd::variable_list gradOutputs) {
        RECORD_FUNCTION("chargpt::dropout_backward", std::vector<c10::IValue>());
        const auto seed = static_cast<uint64_t>(ctx->saved_data["seed"].toInt());
        return {masked(gradOutputs[0], seed, ctx->saved_data["p"].toDouble()), torch::Tensor()};
    }
};

}  // namespace

torch::Tensor dropout(const torch::Tensor& x, double p, bool training) {
    if (!training || p <= 0.0) return x;
    const bool supported = x.scalar_type() == torch::kFloat32 || x.scalar_type() == torch::kBFloat16;
    if (!x.device().is_cpu() || !supported) return torch::dropout(x, p, training);
    return DropoutFunction::apply(x, p);
}

}  // namespace chargpt
