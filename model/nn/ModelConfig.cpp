// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/nn/ModelConfig.h"

#include <utility>

namespace chargpt {

ConfigProblem ModelConfig::validate() const {
    const std::pair<Setting, int64_t> positives[] = {{Setting::EmbSize, emb_size},
                                                     {Setting::HeadSize, head_size},
                                                     {Setting::Layers, n_layer},
                                                     {Setting::SequenceLen, sequence_len}};
    for (const auto& [setting, value] : positives)
        if (value <= 0) return {setting, Problem::NotPositive, double(value)};
    if (emb_size % head_size != 0)
        return {Setting::EmbSize, Problem::NotDivisible, double(emb_size), double(head_size)};
    if (sequence_len < 2) return {Setting::SequenceLen, Problem::TooSmall, double(sequence_len), 2.0};
    if (!(dropout >= 0.0 && dropout < 1.0)) return {Setting::Dropout, Problem::OutOfRange, dropout};
    if (vocab_size < 0 || vocab_size == 1)
        return {Setting::VocabSize, Problem::TooSmall, double(vocab_size), 2.0};
    if (vocab_size > kMaxVocabulary)
        return {Setting::VocabSize, Problem::TooLarge, double(vocab_size), double(kMaxVocabulary)};
    return {};
}

int64_t ModelConfig::parameterCount() const {
    const int64_t C = emb_size, V = vocab_size, T = sequence_len;
    const int64_t perLayer = 2 * C                                 // l1
                             + 3 * C * C                           // q, k, v of every head (no bias)
                             + C * C + C                           // proj
                             + 2 * C                               // l2
                             + C * 4 * C + 4 * C + 4 * C * C + C;  // ff
    return V * C + T * C + n_layer * perLayer + 2 * C + C * V + V;
}

}  // namespace chargpt
