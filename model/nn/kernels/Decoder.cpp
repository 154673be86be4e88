// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/nn/kernels/Decoder.h"
#include "model/nn/kernels/KernelClones.h"
#include "model/nn/kernels/Vec16.h"

#include <algorithm>
#include <cmath>

#include "model/runtime/Error.h"

namespace chargpt {

namespace {

std::vector<float> copyOf(const torch::Tensor& t) {
    auto c = t.detach().to(torch::kCPU, torch::kFloat32).contiguous();
    return std::vector<float>(c.data_ptr<float>(), c.data_ptr<float>() + c.numel());
}

// The transpose (K, N) of a linear layer's weight (N, K): the layout matMat reads.
std::vector<float> transposedCopyOf(const torch::Tensor& t) { return copyOf(t.detach().t()); }

// Y = X W + b for Wt = W^T stored (K, N) row-major, X (M, K) and Y (M, N), b
// null or N floats. Sixty-four outputs at a time, in four vectors of sixteen:
// each input value is broadcast and multiplied into a row of Wt, so no
// horizontal sum is ever needed; the M positions share each column block of
// the weights (32 KB for K = 128, held in the L1 cache while they pass).
CHARGPT_KERNEL void matMat(const float* __restrict__ Wt, const float* __restrict__ X,
                           const float* __restrict__ b, float* __restrict__ Y, int64_t M, int64_t N,
                           int64_t K) {
    using vec::Vf;
    constexpr int64_t L = vec::kLanes;
    int64_t n = 0;
    for (; n + 4 * L <= N; n += 4 * L)
        for (int64_t m = 0; m < M; ++m) {
            const float* x = X + m * K;
            Vf a0 = b ? vec::load(b + n) : Vf{}, a1 = b ? vec::load(b + n + L) : Vf{};
            Vf a2 = b ? vec::load(b + n + 2 * L) : Vf{}, a3 = b ? vec::load(b + n + 3 * L) : Vf{};
            const float* w = Wt + n;
            for (int64_t k = 0; k < K; ++k, w += N) {
                const float xv = x[k];
                a0 += xv * vec::load(w);
                a1 += xv * vec::load(w + L);
                a2 += xv * vec::load(w + 2 * L);
                a3 += xv * vec::load(w + 3 * L);
            }
            float* y = Y + m * N + n;
            vec::store(y, a0);
            vec::store(y + L, a1);
            vec::store(y + 2 * L, a2);
            vec::store(y + 3 * L, a3);
        }
    for (; n + L <= N; n += L)
        for (int64_t m = 0; m < M; ++m) {
            const float* x = X + m * K;
            Vf a = b ? vec::load(b + n) : Vf{};
            for (int64_t k = 0; k < K; ++k) a += x[k] * vec::load(Wt + k * N + n);
            vec::store(Y + m * N + n, a);
        }
    for (; n < N; ++n)
        for (int64_t m = 0; m < M; ++m) {
            const float* x = X + m * K;
            float s = b ? b[n] : 0.0f;
            for (int64_t k = 0; k < K; ++k) s += x[k] * Wt[k * N + n];
            Y[m * N + n] = s;
        }
}

// The exact (erf) GELU in place, with the erf the training kernels use
// (Vec16.h): std::erf is a scalar library call, and a position makes 512 of
// them per layer. A short tail goes through one padded vector, so every value
// is computed the same way.
CHARGPT_KERNEL void gelu(float* u, int64_t n) {
    constexpr float kInvSqrt2 = 0.70710678118654752f;
    int64_t i = 0;
    for (; i + vec::kLanes <= n; i += vec::kLanes) {
        const vec::Vf x = vec::load(u + i);
        vec::store(u + i, 0.5f * x * (1.0f + vec::erf(x * kInvSqrt2)));
    }
    if (i < n) {
        float tail[vec::kLanes] = {};
        std::copy(u + i, u + n, tail);
        const vec::Vf x = vec::load(tail);
        vec::store(tail, 0.5f * x * (1.0f + vec::erf(x * kInvSqrt2)));
        std::copy_n(tail, n - i, u + i);
    }
}

// One query of one head against its T cached keys and values (H floats each):
// out = softmax(q K^T scale) V, the exponentials by the training kernels'
// vectorisable exp (Vec16.h).
CHARGPT_KERNEL void attendOne(const float* __restrict__ q, const float* __restrict__ K,
                              const float* __restrict__ V, int64_t T, int64_t H, float scale,
                              float* __restrict__ scores, float* __restrict__ out) {
    float maxScore = -INFINITY;
    for (int64_t j = 0; j < T; ++j) {
        float s = 0.0f;
        for (int64_t d = 0; d < H; ++d) s += q[d] * K[j * H + d];
        scores[j] = s * scale;
        maxScore = std::max(maxScore, scores[j]);
    }
    float sum = 0.0f;
    for (int64_t j = 0; j < T; ++j) {
        scores[j] = vec::expNonPositive(scores[j] - maxScore);
        sum += scores[j];
    }
    const float inv = 1.0f / sum;
    std::fill_n(out, H, 0.0f);
    for (int64_t j = 0; j < T; ++j) {
        const float w = scores[j] * inv;
        for (int64_t d = 0; d < H; ++d) out[d] += w * V[j * H + d];
    }
}

// LayerNorm over C values (biased variance, eps 1e-5, as torch::nn::LayerNorm).
void layerNorm(const float* x, const float* w, const float* b, float* out, int64_t C) {
    double mean = 0.0;
    for (int64_t i = 0; i < C; ++i) mean += x[i];
    mean /= double(C);
    double var = 0.0;
    for (int64_t i = 0; i < C; ++i) var += (x[i] - mean) * (x[i] - mean);
    var /= double(C);
    const float inv = static_cast<float>(1.0 / std::sqrt(var + 1e-5));
    const float m = static_cast<float>(mean);
    for (int64_t i = 0; i < C; ++i) out[i] = (x[i] - m) * inv * w[i] + b[i];
}

}  // namespace

bool Decoder::supports(const CharGPT& model) {
    const auto& w = model->token_emb->weight;
    if (!model->config().isFull()) return false;  // a rung of the ladder: the forward's cached path decodes it
    return w.device().is_cpu() && w.scalar_type() == torch::kFloat32;
}

Decoder::Decoder(const CharGPT& model) {
    if (!supports(model)) throw Error("the decoder needs an fp32 model on the CPU.");
    const ModelConfig& c = model->config();
    C_ = c.emb_size;
    H_ = c.head_size;
    nh_ = c.n_head();
    S_ = c.sequence_len;
    V_ = c.vocab_size;
    scale_ = static_cast<float>(1.0 / std::sqrt(double(H_)));
    tokenEmb_ = copyOf(model->token_emb->weight);
    posEmb_ = copyOf(model->pos_emb->weight);
    lnw_ = copyOf(model->l->weight);
    lnb_ = copyOf(model->l->bias);
    lmW_ = transposedCopyOf(model->lm->weight);
    lmB_ = copyOf(model->lm->bias);
    for (const auto& module : *model->blocks) {
        const auto* block = module->as<BlockImpl>();
        Layer layer;
        layer.ln1w = copyOf(block->l1->weight);
        layer.ln1b = copyOf(block->l1->bias);
        layer.qkv = transposedCopyOf(block->mha->qkv->weight);
        layer.projW = transposedCopyOf(block->mha->proj->weight);
        layer.projB = copyOf(block->mha->proj->bias);
        layer.ln2w = copyOf(block->l2->weight);
        layer.ln2b = copyOf(block->l2->bias);
        layer.ff1W = transposedCopyOf(block->ff->ln1->weight);
        layer.ff1B = copyOf(block->ff->ln1->bias);
        layer.ff2W = transposedCopyOf(block->ff->ln2->weight);
        layer.ff2B = copyOf(block->ff->ln2->bias);
        layer.keys.assign(std::size_t(nh_ * S_ * H_), 0.0f);
        layer.values.assign(std::size_t(nh_ * S_ * H_), 0.0f);
        layers_.push_back(std::move(layer));
    }
    reserve(1);
    scores_.resize(std::size_t(S_));
    logits_.resize(std::size_t(V_));
}

const float* Decoder::step(int64_t token) { return feed(&token, 1); }

void Decoder::reserve(int64_t n) {
    if (int64_t(x_.size()) >= n * C_) return;
    x_.resize(std::size_t(n * C_));
    h_.resize(std::size_t(n * C_));
    qkv_.resize(std::size_t(n * 3 * C_));
    att_.resize(std::size_t(n * C_));
    hidden_.resize(std::size_t(n * 4 * C_));
}

const float* Decoder::feed(const int64_t* tokens, int64_t n) {
    if (n < 1) throw Error("the decoder was fed no characters.");
    if (length_ + n > S_) throw Error("the decoder's context is full.");
    for (int64_t t = 0; t < n; ++t)
        if (tokens[t] < 0 || tokens[t] >= V_) throw Error("a token outside the vocabulary was fed to the decoder.");
    reserve(n);
    const int64_t p0 = length_;
    float* x = x_.data();
    float* h = h_.data();
    for (int64_t t = 0; t < n; ++t) {
        const float* te = tokenEmb_.data() + tokens[t] * C_;
        const float* pe = posEmb_.data() + (p0 + t) * C_;
        for (int64_t i = 0; i < C_; ++i) x[t * C_ + i] = te[i] + pe[i];
    }

    for (Layer& L : layers_) {
        // Attention: x += proj(concat_h softmax(q_h K_h^T / sqrt(H)) V_h).
        for (int64_t t = 0; t < n; ++t) layerNorm(x + t * C_, L.ln1w.data(), L.ln1b.data(), h + t * C_, C_);
        matMat(L.qkv.data(), h, nullptr, qkv_.data(), n, 3 * C_, C_);
        for (int64_t t = 0; t < n; ++t) {
            const int64_t p = p0 + t;
            const float* row = qkv_.data() + t * 3 * C_;
            for (int64_t head = 0; head < nh_; ++head) {
                float* K = L.keys.data() + head * S_ * H_;
                float* Vv = L.values.data() + head * S_ * H_;
                std::copy_n(row + C_ + head * H_, H_, K + p * H_);
                std::copy_n(row + 2 * C_ + head * H_, H_, Vv + p * H_);
            }
        }
        for (int64_t t = 0; t < n; ++t) {
            const int64_t p = p0 + t;
            const float* q = qkv_.data() + t * 3 * C_;
            for (int64_t head = 0; head < nh_; ++head) {
                const float* K = L.keys.data() + head * S_ * H_;
                const float* Vv = L.values.data() + head * S_ * H_;
                const float* qh = q + head * H_;
                attendOne(qh, K, Vv, p + 1, H_, scale_, scores_.data(), att_.data() + t * C_ + head * H_);
            }
        }
        matMat(L.projW.data(), att_.data(), L.projB.data(), h, n, C_, C_);
        for (int64_t i = 0; i < n * C_; ++i) x[i] += h[i];

        // Feed-forward: x += W2 gelu(W1 LN(x) + b1) + b2.
        for (int64_t t = 0; t < n; ++t) layerNorm(x + t * C_, L.ln2w.data(), L.ln2b.data(), h + t * C_, C_);
        matMat(L.ff1W.data(), h, L.ff1B.data(), hidden_.data(), n, 4 * C_, C_);
        gelu(hidden_.data(), n * 4 * C_);
        matMat(L.ff2W.data(), hidden_.data(), L.ff2B.data(), h, n, C_, 4 * C_);
        for (int64_t i = 0; i < n * C_; ++i) x[i] += h[i];
    }
    // Only the last position's logits are asked for.
    layerNorm(x + (n - 1) * C_, lnw_.data(), lnb_.data(), h, C_);
    matMat(lmW_.data(), h, lmB_.data(), logits_.data(), 1, V_, C_);
    length_ += n;
    return logits_.data();
}

}  // namespace chargpt
