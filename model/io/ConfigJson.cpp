// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/io/ConfigJson.h"

#include <nlohmann/json.hpp>

#include "model/io/AtomicFile.h"

namespace chargpt {

std::string configToJson(const RunConfig& c) {
    // ordered_json keeps the keys in the order a reader expects them; doubles are
    // written in their shortest exact form and keep a ".0" (a float in Python).
    nlohmann::ordered_json config;
    config["vocab_size"] = c.vocab_size;
    config["emb_size"] = c.emb_size;
    config["head_size"] = c.head_size;
    config["n_layer"] = c.n_layer;
    config["sequence_len"] = c.sequence_len;
    config["dropout"] = c.dropout;
    config["batch_size"] = c.batch_size;
    config["learning_rate"] = c.learning_rate;
    config["min_learning_rate"] = c.min_learning_rate;
    config["weight_decay"] = c.weight_decay;
    config["beta1"] = c.beta1;
    config["beta2"] = c.beta2;
    config["grad_clip"] = c.grad_clip;
    config["warmup_steps"] = c.warmup_steps;
    config["max_steps"] = c.max_steps;
    config["time_limit_s"] = c.time_limit_s;
    config["eval_interval"] = c.eval_interval;
    config["eval_iters"] = c.eval_iters;
    config["val_fraction"] = c.val_fraction;
    config["seed"] = c.seed;
    config["bf16"] = c.bf16;
    nlohmann::ordered_json document;
    document["format"] = "chargpt-config";
    document["version"] = 1;
    document["config"] = std::move(config);
    return document.dump(2) + "\n";
}

void writeConfigJson(const std::string& path, const RunConfig& config) {
    writeFileAtomically(path, configToJson(config));
}

}  // namespace chargpt
