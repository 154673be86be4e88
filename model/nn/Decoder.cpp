// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/nn/Decoder.h"

#include "model/runtime/Error.h"

namespace chargpt {

bool Decoder::supports(const CharGPT& model) {
    const auto& w = model->token_emb->weight;
    return w.device().is_cpu() && w.scalar_type() == torch::kFloat32;
}

Decoder::Decoder(const CharGPT& model) {
    if (!supports(model)) throw Error("the decoder needs an fp32 model on the CPU.");
    model_ = cloneModel(model);
    model_->eval();
    cache_ = model_->makeCache(1);
    token_ = torch::zeros({1, 1}, torch::kInt64);
}

const float* Decoder::step(int64_t token) {
    if (length() >= capacity()) throw Error("the decoder's context is full.");
    if (token < 0 || token >= vocabSize()) throw Error("a token outside the vocabulary was fed to the decoder.");
    c10::InferenceMode inference;  // no autograd bookkeeping at all: a step is a few dozen small operators
    token_.data_ptr<int64_t>()[0] = token;
    ForwardOptions options;
    options.cache = &cache_;
    logits_ = model_->forward(token_, options).view({-1});  // (1, 1, vocab) -> (vocab)
    return logits_.data_ptr<float>();
}

}  // namespace chargpt
