// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/nn/kernels/Decoder.h"
#include "model/nn/kernels/KernelClones.h"

#include <algorithm>
#include <cmath>

#include "model/runtime/Error.h"

namespace chargpt {

namespace {

std::vector<float> copyOf(const torch::Tensor& t) {
    auto c = t.detach().to(torch::kCPU, torch::kFloat32).contiguous();
    return std::vector<float>(c.data_ptr<float>(), c.data_ptr<float>() + c.numel());
}

// y = W x + b for W (N, K) row-major; b may be null. Four rows share each load
// of x; sixteen partial sums per row keep the loop free of a serial reduction,
// so it vectorises without -ffast-math.
CHARGPT_KERNEL void matVec(const float* __restrict__ W, const float* __restrict__ x,
                           const float* __restrict__ b, float* __restrict__ y, int64_t N, int64_t K) {
    constexpr int64_t L = 16;
    const int64_t K16 = K - K % L;
    int64_t n = 0;
    for (; n + 4 <= N; n += 4) {
        const float* w0 = W + n * K;
        const float* w1 = w0 + K;
        const float* w2 = w1 + K;
        const float* w3 = w2 + K;
        float a0[L] = {}, a1[L] = {}, a2[L] = {}, a3[L] = {};
        for (int64_t k = 0; k < K16; k += L)
            for (int64_t j = 0; j < L; ++j) {
                const float xv = x[k + j];
                a0[j] += w0[k + j] * xv;
                a1[j] += w1[k + j] * xv;
                a2[j] += w2[k + j] * xv;
                a3[j] += w3[k + j] * xv;
            }
        float s0 = 0, s1 = 0, s2 = 0, s3 = 0;
        for (int64_t j = 0; j < L; ++j) {
            s0 += a0[j];
            s1 += a1[j];
            s2 += a2[j];
            s3 += a3[j];
        }
        for (int64_t k = K16; k < K; ++k) {
            s0 += w0[k] * x[k];
            s1 += w1[k] * x[k];
            s2 += w2[k] * x[k];
            s3 += w3[k] * x[k];
        }
        y[n] = s0 + (b ? b[n] : 0.0f);
        y[n + 1] = s1 + (b ? b[n + 1] : 0.0f);
        y[n + 2] = s2 + (b ? b[n + 2] : 0.0f);
        y[n + 3] = s3 + (b ? b[n + 3] : 0.0f);
    }
    for (; n < N; ++n) {
        const float* w = W + n * K;
        float s = 0;
        for (int64_t k = 0; k < K; ++k) s += w[k] * x[k];
        y[n] = s + (b ? b[n] : 0.0f);
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
    lmW_ = copyOf(model->lm->weight);
    lmB_ = copyOf(model->lm->bias);
    for (const auto& module : *model->blocks) {
        const auto* block = module->as<BlockImpl>();
        Layer layer;
        layer.ln1w = copyOf(block->l1->weight);
        layer.ln1b = copyOf(block->l1->bias);
        layer.qkv = copyOf(block->mha->qkv->weight);
        layer.projW = copyOf(block->mha->proj->weight);
        layer.projB = copyOf(block->mha->proj->bias);
        layer.ln2w = copyOf(block->l2->weight);
        layer.ln2b = copyOf(block->l2->bias);
        layer.ff1W = copyOf(block->ff->ln1->weight);
        layer.ff1B = copyOf(block->ff->ln1->bias);
        layer.ff2W = copyOf(block->ff->ln2->weight);
        layer.ff2B = copyOf(block->ff->ln2->bias);
        layer.keys.assign(std::size_t(nh_ * S_ * H_), 0.0f);
        layer.values.assign(std::size_t(nh_ * S_ * H_), 0.0f);
        layers_.push_back(std::move(layer));
    }
    x_.resize(std::size_t(C_));
    h_.resize(std::size_t(C_));
    qkv_.resize(std::size_t(3 * C_));
    att_.resize(std::size_t(C_));
    hidden_.resize(std::size_t(4 * C_));
    scores_.resize(std::size_t(S_));
    logits_.resize(std::size_t(V_));
}

const float* Decoder::step(int64_t token) {
    if (length_ >= S_) throw Error("the decoder's context is full.");
    if (token < 0 || token >= V_) throw Error("a token outside the vocabulary was fed to the decoder.");
    const int64_t p = length_;
    const float* te = tokenEmb_.data() + token * C_;
    const float* pe = posEmb_.data() + p * C_;
    float* x = x_.data();
    float* h = h_.data();
    for (int64_t i = 0; i < C_; ++i) x[i] = te[i] + pe[i];

    for (Layer& L : layers_) {
        // Attention: x += proj(concat_h softmax(q_h K_h^T / sqrt(H)) V_h).
        layerNorm(x, L.ln1w.data(), L.ln1b.data(), h, C_);
        matVec(L.qkv.data(), h, nullptr, qkv_.data(), 3 * C_, C_);
        const float* q = qkv_.data();
        for (int64_t head = 0; head < nh_; ++head) {
            float* K = L.keys.data() + head * S_ * H_;
            float* Vv = L.values.data() + head * S_ * H_;
            std::copy_n(qkv_.data() + C_ + head * H_, H_, K + p * H_);
            std::copy_n(qkv_.data() + 2 * C_ + head * H_, H_, Vv + p * H_);
            const float* qh = q + head * H_;
            float maxScore = -INFINITY;
            for (int64_t j = 0; j <= p; ++j) {
                float s = 0.0f;
                for (int64_t d = 0; d < H_; ++d) s += qh[d] * K[j * H_ + d];
                scores_[j] = s * scale_;
                maxScore = std::max(maxScore, scores_[j]);
            }
            float sum = 0.0f;
            for (int64_t j = 0; j <= p; ++j) sum += scores_[j] = std::exp(scores_[j] - maxScore);
            float* out = att_.data() + head * H_;
            std::fill_n(out, H_, 0.0f);
            for (int64_t j = 0; j <= p; ++j) {
                const float w = scores_[j] / sum;
                for (int64_t d = 0; d < H_; ++d) out[d] += w * Vv[j * H_ + d];
            }
        }
        matVec(L.projW.data(), att_.data(), L.projB.data(), h, C_, C_);
        for (int64_t i = 0; i < C_; ++i) x[i] += h[i];

        // Feed-forward: x += W2 gelu(W1 LN(x) + b1) + b2, with the exact (erf) GELU.
        layerNorm(x, L.ln2w.data(), L.ln2b.data(), h, C_);
        matVec(L.ff1W.data(), h, L.ff1B.data(), hidden_.data(), 4 * C_, C_);
        for (float& u : hidden_) u = 0.5f * u * (1.0f + std::erf(u * 0.70710678118654752f));
        matVec(L.ff2W.data(), hidden_.data(), L.ff2B.data(), h, C_, 4 * C_);
        for (int64_t i = 0; i < C_; ++i) x[i] += h[i];
    }
    layerNorm(x, lnw_.data(), lnb_.data(), h, C_);
    matVec(lmW_.data(), h, lmB_.data(), logits_.data(), V_, C_);
    ++length_;
    return logits_.data();
}

}  // namespace chargpt
