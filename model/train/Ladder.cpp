// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/train/Ladder.h"

#include "model/runtime/Error.h"

namespace chargpt {

const LadderRung* ladderRung(std::string_view name) {
    for (const LadderRung& rung : kLadder)
        if (name == rung.name) return &rung;
    return nullptr;
}

RunConfig ladderSettings(int number) {
    if (number < 1 || number > kLadderRungs)
        throw Error("the ladder has rungs 1 to " + std::to_string(kLadderRungs) + ", not " + std::to_string(number) +
                    ".");
    // Rung 7 is the fast preset's model; the rungs below take parts away from it.
    RunConfig c = ladderTraining();
    c.bf16 = RunConfig::preset("fast")->bf16;
    c.preset_name = kLadder[number - 1].name;
    c.fitEvaluations();
    if (number <= 6) c.final_norm = false;
    if (number == 1) {  // no positions and no layers (whose switches then stay on): a bigram model
        c.positions = false;
        c.n_layer = 0;
        return c;
    }
    if (number <= 6) c.n_layer = 1;
    if (number <= 5) c.residual = false;
    if (number <= 4) c.feed_forward = false;
    if (number <= 3) {  // one head as wide as the model, its output as it is
        c.head_size = c.emb_size;
        c.attention_projection = false;
    }
    if (number == 3) c.scaled_attention = false;
    return c;
}

}  // namespace chargpt
