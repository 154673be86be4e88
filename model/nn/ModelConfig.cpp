// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/nn/ModelConfig.h"

#include <cstdio>
#include <string>
#include <utility>

#include "model/runtime/TranslateNoop.h"

namespace chargpt {

ConfigProblem ModelConfig::validate() const {
    const std::pair<Setting, int64_t> positives[] = {{Setting::EmbSize, emb_size},
                                                     {Setting::HeadSize, head_size},
                                                     {Setting::Layers, n_layer},
                                                     {Setting::SequenceLen, sequence_len}};
    for (const auto& [setting, value] : positives)
        if (value <= 0 && !(setting == Setting::Layers && value == 0 && !isFull()))  // a bigram has no layers
            return {setting, Problem::NotPositive, double(value)};
    if (n_layer == 0 && !(scaled_attention && attention_projection && feed_forward && residual))
        return {Setting::Parts, Problem::PartsWithoutLayers};
    if (activation < GeluErf || activation > Relu) return {Setting::Parts, Problem::OutOfRange, double(activation)};
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
    const int64_t b = biases ? 1 : 0;                  // a bias of the LayerNorms, proj and ff
    const int64_t norm = residual ? (1 + b) * C : 0;  // a pre-norm LayerNorm
    const int64_t perLayer = norm                                                            // l1
                             + 3 * C * C + (qkv_bias ? 3 * C : 0)                            // q, k, v of every head
                             + (attention_projection ? C * C + b * C : 0)                    // proj
                             + (feed_forward ? norm : 0)                                     // l2
                             + (feed_forward ? C * 4 * C + b * 4 * C + 4 * C * C + b * C : 0);  // ff
    return V * C + (positions ? T * C : 0) + n_layer * perLayer + (final_norm ? (1 + b) * C : 0) +
           (tied_head ? 0 : C * V) + (head_bias ? V : 0);
}

const char* ModelConfig::activationName(int64_t activation) {
    switch (activation) {
        case GeluErf: return "exact GELU";
        case GeluTanh: return "tanh GELU";
        case Relu: return "ReLU";
    }
    return "an unknown activation";
}

std::vector<const char*> ModelConfig::arithmeticDifferenceList() const {
    std::vector<const char*> list;
    if (activation == GeluTanh) list.push_back(CHARGPT_TRANSLATE_NOOP("ModelConfig", "tanh GELU feed-forward"));
    if (activation == Relu) list.push_back(CHARGPT_TRANSLATE_NOOP("ModelConfig", "ReLU feed-forward"));
    if (activation != GeluErf && activation != GeluTanh && activation != Relu)
        list.push_back(CHARGPT_TRANSLATE_NOOP("ModelConfig", "unknown feed-forward activation"));
    if (qkv_bias) list.push_back(CHARGPT_TRANSLATE_NOOP("ModelConfig", "biases on q, k and v"));
    if (!biases) list.push_back(CHARGPT_TRANSLATE_NOOP("ModelConfig", "no biases in the LayerNorms and linear layers"));
    if (!head_bias) list.push_back(CHARGPT_TRANSLATE_NOOP("ModelConfig", "head without bias"));
    if (tied_head) list.push_back(CHARGPT_TRANSLATE_NOOP("ModelConfig", "head tied to the token embedding"));
    return list;
}

std::string ModelConfig::arithmeticDifferences() const {
    std::string text;
    for (const char* difference : arithmeticDifferenceList()) text += (text.empty() ? "" : ", ") + std::string(difference);
    return text;
}

std::string ModelConfig::missingParts() const {
    std::string parts;
    auto lacks = [&parts](bool has, const char* what) {
        if (!has) parts += (parts.empty() ? "no " : ", no ") + std::string(what);
    };
    lacks(positions, "position embeddings");
    if (n_layer == 0) {
        lacks(false, "layers");
    } else {
        lacks(scaled_attention, "scaling of the attention scores");
        lacks(attention_projection, "attention projection");
        lacks(feed_forward, "feed-forward");
        lacks(residual, "residual connections or their LayerNorms");
    }
    lacks(final_norm, "final LayerNorm");
    return parts;
}

double ModelConfig::contextMemoryBytes() const {
    const double C = double(emb_size), S = double(sequence_len), L = double(n_layer), heads = double(n_head());
    const double cache = 4.0 * 2.0 * L * S * C;          // keys and values of every layer
    const double attention = 4.0 * 2.0 * heads * S * S;  // one layer's scores and weights
    return cache + attention;
}

namespace {
std::string gigabytes(double bytes) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f GB", bytes / 1e9);
    return text;
}
}  // namespace

std::string counted(int64_t n, const char* noun) {
    return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

std::string ModelConfig::contextMemoryProblem() const {
    const double bytes = contextMemoryBytes();
    if (bytes <= kMaxContextMemoryBytes) return {};
    return "its settings (context " + std::to_string(sequence_len) + ", " + counted(n_layer, "layer") + " of " +
           counted(n_head(), "head") + " of " + std::to_string(head_size) + ") need about " + gigabytes(bytes) +
           " beyond their weights to run over the whole context; a model read from a file may take up to " +
           gigabytes(kMaxContextMemoryBytes) + " for that.";
}

}  // namespace chargpt
