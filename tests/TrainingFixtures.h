// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What the trainer's tests share (tst_training, tst_session, tst_checkpoint): a stop reason as
// text, and a model's weights by name, compared exactly.

#include <torch/torch.h>

#include <QString>

#include <map>
#include <string>

#include "model/nn/CharGPT.h"
#include "model/train/Trainer.h"

namespace training_fixtures {

// EndReason as its word for QCOMPARE, which would find chargpt::toString (a
// string_view) by ADL and not print the enum.
inline QString reasonText(chargpt::EndReason reason) {
    return QString::fromStdString(std::string(chargpt::toString(reason)));
}

inline std::map<std::string, torch::Tensor> weightsOf(const chargpt::CharGPT& model) {
    std::map<std::string, torch::Tensor> weights;
    for (const auto& item : model->named_parameters()) weights[item.key()] = item.value().detach().cpu().clone();
    return weights;
}

inline bool sameWeights(const std::map<std::string, torch::Tensor>& a, const std::map<std::string, torch::Tensor>& b) {
    if (a.size() != b.size()) return false;
    for (const auto& [name, tensor] : a) {
        auto other = b.find(name);
        if (other == b.end() || !torch::equal(tensor, other->second)) return false;
    }
    return true;
}

}  // namespace training_fixtures
