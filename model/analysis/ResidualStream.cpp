// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/analysis/ResidualStream.h"

#include <limits>

#include "model/analysis/Inputs.h"

namespace chargpt {

double ResidualStream::attentionShare(int64_t layer) const {
    double attention = 0.0, feedForward = 0.0;
    for (int64_t p = 0; p < positions; ++p) {
        attention += attentionWrites[static_cast<std::size_t>(layer * positions + p)];
        feedForward += feedForwardWrites[static_cast<std::size_t>(layer * positions + p)];
    }
    const double both = attention + feedForward;
    return both > 0.0 ? attention / both : std::numeric_limits<double>::quiet_NaN();
}

namespace {
// The norm of each position's vector of every tensor (1, T, C), appended row by row.
void appendNorms(std::vector<double>& to, const std::vector<torch::Tensor>& tensors) {
    for (const torch::Tensor& t : tensors) {
        const torch::Tensor n = t[0].to(torch::kCPU, torch::kFloat64).norm(2, /*dim=*/-1).contiguous();  // (T)
        const double* v = n.data_ptr<double>();
        to.insert(to.end(), v, v + n.numel());
    }
}
}  // namespace

ResidualStream residualStream(const CharGPT& modelHolder, const std::vector<int64_t>& tokens,
                              const KnockOut* knockOut) {
    analysis::checkInput(modelHolder, tokens, "the text");
    CharGPT model = modelHolder;  // a handle to the same module
    torch::NoGradGuard noGrad;
    std::vector<torch::Tensor> residuals, attention, feedForward;
    ForwardOptions options;
    options.dropout = false;
    options.residuals = &residuals;
    options.attentionWrites = &attention;
    options.feedForwardWrites = &feedForward;
    options.knockOut = knockOut;
    model->forward(analysis::inputTensor(model, tokens), options);
    ResidualStream stream;
    stream.layers = static_cast<int64_t>(attention.size());
    stream.positions = static_cast<int64_t>(tokens.size());
    appendNorms(stream.norms, residuals);
    appendNorms(stream.attentionWrites, attention);
    appendNorms(stream.feedForwardWrites, feedForward);
    return stream;
}

}  // namespace chargpt
