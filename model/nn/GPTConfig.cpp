// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/nn/GPTConfig.h"

#include "model/runtime/Runtime.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace chargpt {

std::string GPTConfig::validate() const {
    std::ostringstream why;
    auto positive = [&](const char* name, int64_t value) {
        if (value <= 0 && why.tellp() == 0) why << name << " must be positive (it is " << value << ").";
    };
    positive("emb_size", emb_size);
    positive("head_size", head_size);
    positive("n_layer", n_layer);
    positive("sequence_len", sequence_len);
    positive("batch_size", batch_size);
    positive("eval_iters", eval_iters);
    positive("eval_interval", eval_interval);
    if (why.tellp() != 0) return why.str();

    if (emb_size % head_size != 0)
        return "emb_size (" + std::to_string(emb_size) + ") must be divisible by head_size (" +
               std::to_string(head_size) + ").";
    if (sequence_len < 2)
        return "sequence_len must be at least 2 (it is " + std::to_string(sequence_len) + ").";
    if (!(dropout >= 0.0 && dropout < 1.0))
        return "dropout must be in [0, 1) (it is " + std::to_string(dropout) + ").";
    if (!(learning_rate > 0.0) || !std::isfinite(learning_rate))
        return "learning rate must be a positive number.";
    if (!(min_learning_rate >= 0.0) || min_learning_rate > learning_rate)
        return "the minimum learning rate must be between 0 and the learning rate.";
    if (!(weight_decay >= 0.0) || !std::isfinite(weight_decay))
        return "weight decay must be zero or positive.";
    if (!(beta1 >= 0.0 && beta1 < 1.0) || !(beta2 >= 0.0 && beta2 < 1.0))
        return "AdamW betas must be in [0, 1).";
    if (!(grad_clip >= 0.0) || !std::isfinite(grad_clip))
        return "gradient clipping must be zero (off) or positive.";
    if (warmup_steps < 0) return "warm-up steps must be zero or positive.";
    if (max_steps < 0) return "the number of steps must be zero or positive.";
    if (!(time_limit_s >= 0.0) || !std::isfinite(time_limit_s))
        return "the time limit must be zero (none) or a positive number of seconds.";
    if (max_steps == 0 && time_limit_s == 0.0)
        return "set a number of steps or a time limit, or training would never end.";
    if (!(val_fraction > 0.0 && val_fraction < 1.0))
        return "the validation fraction must be between 0 and 1.";
    if (vocab_size < 0 || vocab_size == 1)
        return "vocab_size must be at least 2 (end-of-text and one character).";
    if (vocab_size > kMaxVocabulary)
        return "the vocabulary has " + std::to_string(vocab_size) +
               " entries; at most " + std::to_string(kMaxVocabulary) + " are supported.";
    return {};
}

int64_t GPTConfig::parameterCount() const {
    const int64_t C = emb_size, V = vocab_size, T = sequence_len;
    const int64_t perLayer = 2 * C          // l1
                             + 3 * C * C    // q, k, v of every head (no bias)
                             + C * C + C    // proj
                             + 2 * C        // l2
                             + C * 4 * C + 4 * C + 4 * C * C + C;  // ff
    return V * C + T * C + n_layer * perLayer + 2 * C + C * V + V;
}

double GPTConfig::trainingMemoryBytes() const {
    // Per layer about 20 (B,T,C) tensors and three (B,heads,T,T) attention maps,
    // and the logits with their softmax.
    const double B = double(batch_size), T = double(sequence_len), C = double(emb_size), L = double(n_layer);
    const double heads = std::max(1.0, double(n_head()));
    const double V = double(std::max<int64_t>(vocab_size, 1));
    const double parameters = V * C + T * C +
                              L * (2 * C + 3 * C * C + C * C + C + 2 * C + C * 4 * C + 4 * C + 4 * C * C + C) +
                              2 * C + C * V + V;
    const double floats = 4.0 * parameters + L * (20.0 * B * T * C + 3.0 * B * heads * T * T) + 3.0 * B * T * V;
    return floats * 4.0;
}

std::string GPTConfig::memoryProblem(double availableBytes) const {
    const double need = trainingMemoryBytes();
    if (!(availableBytes > 0.0) || need <= availableBytes) return {};
    auto gib = [](double bytes) {
        std::ostringstream s;
        s.setf(std::ios::fixed);
        if (bytes < double(1 << 30)) {
            s.precision(0);
            s << bytes / double(1 << 20) << " MiB";
        } else {
            s.precision(bytes < 10.0 * (1 << 30) ? 1 : 0);
            s << bytes / double(1 << 30) << " GiB";
        }
        return s.str();
    };
    return "training with these settings needs about " + gib(need) + " of memory and this machine has " +
           gib(availableBytes) + ": lower the batch size, context length, width or number of layers.";
}

std::optional<GPTConfig> GPTConfig::preset(const std::string& name) {
    GPTConfig c;
    if (name == "fast") {
        // The most a 2-core CPU learns in about two minutes. Measured on
        // tinyshakespeare with a 120 s limit (bf16): fewer, wider-batched steps
        // of a shallower model beat the 4-layer nanoGPT recipe (2 layers: val
        // 1.58; 3 layers: 1.66; 4 layers: 1.71; the recipe's batch 12 and lr
        // 1e-3: 1.86 in fp32), because in that time more updates count for more
        // than depth. A large learning rate decayed almost to zero pays too.
        c.n_layer = 2;
        c.batch_size = 32;
        c.learning_rate = 5e-3;
        c.min_learning_rate = 1e-5;
        c.warmup_steps = 50;
        c.max_steps = 3000;
        c.bf16 = cpuHasFastBf16();
        return c;
    }
    if (name == "book") {
        c.emb_size = 128;
        c.head_size = 8;
        c.n_layer = 12;
        c.sequence_len = 64;
        c.dropout = 0.4;
        c.batch_size = 64;
        c.learning_rate = 1e-3;
        c.max_steps = 5000;
        return c;
    }
    if (name == "tiny") {
        c.emb_size = 32;
        c.head_size = 8;
        c.n_layer = 2;
        c.sequence_len = 16;
        c.batch_size = 16;
        c.learning_rate = 3e-3;
        c.min_learning_rate = 3e-4;
        c.warmup_steps = 10;
        c.max_steps = 300;
        c.eval_interval = 50;
        c.eval_iters = 4;
        return c;
    }
    return std::nullopt;
}

std::vector<std::string> GPTConfig::presetNames() { return {"book", "fast", "tiny"}; }

}  // namespace chargpt
