// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/nn/ConfigProblem.h"

namespace chargpt {

// The architecture of one CharGPT model: what the network's shapes follow. The
// defaults are nanoGPT's 4-layer CPU model; training settings are apart
// (model/train/TrainConfig.h), and a run's whole configuration is
// model/train/RunConfig.h.
struct ModelConfig {
    int64_t vocab_size = 0;  // 0 until a tokenizer sets it
    int64_t emb_size = 128;  // C
    int64_t head_size = 32;  // H; heads = C / H
    int64_t n_layer = 4;
    int64_t sequence_len = 64;  // context T
    double dropout = 0.0;

    // The parts the network has: all of them, the book's CharGPT, unless a
    // rung of the architecture ladder (model/train/Ladder.h) leaves some out.
    // A model that lacks any of them may have no layers at all (n_layer 0:
    // the token embedding and the head, a bigram model). Files keep a switch
    // only when it is off, so a file without them, as every file written
    // before they existed, holds the whole model.
    bool positions = true;             // position embeddings added to the token embeddings
    bool scaled_attention = true;      // attention scores divided by sqrt(head_size)
    bool attention_projection = true;  // the linear layer after the heads
    bool feed_forward = true;          // each layer's 4x GELU feed-forward
    bool residual = true;              // residual connections, each half of a layer with its pre-norm LayerNorm
    bool final_norm = true;            // the LayerNorm before the head

    // How the arithmetic of a model trained elsewhere differs from the book's
    // (model/io/PyTorchInterop.h imports nanoGPT's, minGPT's and the lecture's
    // gpt.py's). The defaults are the book's CharGPT; files keep each only when
    // it differs, as the parts above. Every forward honours them: CharGPT's,
    // and the decoder (kernels/Decoder), which leaves a model that differs to
    // the forward's cached path.
    enum Activation : int64_t { GeluErf = 0, GeluTanh = 1, Relu = 2 };
    int64_t activation = GeluErf;  // of the feed-forward: exact GELU; minGPT's tanh GELU; the lecture's ReLU
    bool qkv_bias = false;         // q, k and v have biases (nanoGPT's and minGPT's c_attn)
    bool biases = true;            // the LayerNorms, the projection and the feed-forward have biases (nanoGPT bias=False: none)
    bool head_bias = true;         // the head has a bias (nanoGPT and minGPT: none)
    bool tied_head = false;        // the head's weight is the token embedding (nanoGPT's weight tying)

    // Whether every part is there (the switches above all on).
    bool isFull() const {
        return positions && scaled_attention && attention_projection && feed_forward && residual && final_norm;
    }
    // Every part switched on: the whole model.
    void setFull() { positions = scaled_attention = attention_projection = feed_forward = residual = final_norm = true; }
    // Whether the arithmetic is the book's (the five settings above at their defaults).
    bool isBookArithmetic() const {
        return activation == GeluErf && !qkv_bias && biases && head_bias && !tied_head;
    }
    // How it differs from the book's, for messages and `chargpt info`:
    // "ReLU feed-forward, head tied to the token embedding"; "" for the book's.
    std::string arithmeticDifferences() const;
    // The same as phrases marked for the translators (context "ModelConfig"),
    // which the window shows translated; none for the book's.
    std::vector<const char*> arithmeticDifferenceList() const;
    // The book's arithmetic: the five settings above at their defaults.
    void setBookArithmetic() {
        activation = GeluErf;
        qkv_bias = tied_head = false;
        biases = head_bias = true;
    }
    // nanoGPT's GPT (bias=True): exact GELU, biases everywhere but the head,
    // which is the token embedding. A model of these settings exports to
    // nanoGPT (model/io/NanoGpt.h).
    void setNanoGptArithmetic() {
        activation = GeluErf;
        qkv_bias = biases = tied_head = true;
        head_bias = false;
    }
    // "exact GELU", "tanh GELU", "ReLU".
    static const char* activationName(int64_t activation);

    // The parts the model lacks, for messages: "no position embeddings, no
    // feed-forward"; "" for the whole model. A model without layers says
    // "no layers" instead of naming their parts.
    std::string missingParts() const;

    // The number of heads, the one place it is worked out (0 without a head size).
    int64_t n_head() const { return head_size > 0 ? emb_size / head_size : 0; }
    // Whether a model of `other`'s settings has this one's shapes (the
    // vocabulary apart): the weights of one fit the other.
    bool sameArchitecture(const ModelConfig& other) const {
        return emb_size == other.emb_size && head_size == other.head_size && n_layer == other.n_layer &&
               sequence_len == other.sequence_len && positions == other.positions &&
               scaled_attention == other.scaled_attention && attention_projection == other.attention_projection &&
               feed_forward == other.feed_forward && residual == other.residual && final_norm == other.final_norm &&
               activation == other.activation && qkv_bias == other.qkv_bias && biases == other.biases &&
               head_bias == other.head_bias && tied_head == other.tied_head;
    }

    // None when a model of this shape can be built, else the first setting that
    // is wrong. A vocab_size of 0 is accepted (not known yet). A model without
    // layers must not switch off parts of layers it does not have.
    ConfigProblem validate() const;

    // Trainable parameters for the current vocab_size.
    int64_t parameterCount() const;

    // The memory that running this model over its whole context takes beyond
    // its weights and the activations of its layers: the key/value cache of one
    // sample and one layer's attention scores and weights over the whole
    // context. For what a file claims: a small file can describe a model whose
    // context alone costs gigabytes. (The weights have their own checks: the
    // file must hold them.)
    double contextMemoryBytes() const;
    // The most contextMemoryBytes() a model read from a file may claim, and the
    // most the attention maps of one pass may take. The largest preset needs a
    // few megabytes, a context of 4,096 with 8 heads and
    // 12 layers of width 512 about 1.3 GB; a context of 16,384 with 4 heads, 8.6 GB.
    static constexpr double kMaxContextMemoryBytes = 4.0 * 1024 * 1024 * 1024;
    // Empty when contextMemoryBytes() is within kMaxContextMemoryBytes, else
    // why not: "its settings (context 16384, 1 layer of 4 heads of 8) need
    // about 8.6 GB beyond their weights to run over the whole context; a model
    // read from a file may take up to 4.3 GB for that."
    std::string contextMemoryProblem() const;

    // The largest shapes a model may have, whichever file it comes from (a
    // checkpoint, a state_dict) and whatever the settings ask; within them, the
    // memory a shape needs is what decides (contextMemoryProblem, the settings'
    // assessment).
    static constexpr int64_t kMaxVocabulary = 65536;
    static constexpr int64_t kMaxLayers = 1024;
    static constexpr int64_t kMaxHeads = 4096;
    static constexpr int64_t kMaxWidth = 16384;
    static constexpr int64_t kMaxContext = 65536;
};

// "1 layer", "4 layers": a count and its noun, for messages.
std::string counted(int64_t n, const char* noun);

}  // namespace chargpt
