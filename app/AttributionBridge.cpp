// SPDX-License-Identifier: GPL-3.0-or-later
#include <torch/torch.h>

#include "model/analysis/Attribution.h"
#include "model/io/Checkpoint.h"
#include "model/runtime/Error.h"

#include "app/AttributionBridge.h"

// The widgets' kinds are the model's parts, in the same order.
static_assert(int(AttributionBar::TokenEmbedding) == int(chargpt::AttributionPart::TokenEmbedding) &&
              int(AttributionBar::FeedForward) == int(chargpt::AttributionPart::FeedForward) &&
              int(AttributionBar::HeadBias) == int(chargpt::AttributionPart::HeadBias));

CharacterAttribution attributionOf(const chargpt::Checkpoint& checkpoint, const QStringList& characters, int index) {
    if (index < 0 || index >= characters.size())
        throw chargpt::Error("character " + std::to_string(index) + " is outside the text of " +
                             std::to_string(characters.size()) + " characters.");
    const chargpt::CharTokenizer& tokenizer = checkpoint.tokenizer;
    std::vector<int64_t> tokens;  // the known characters before it
    for (int i = 0; i < index; ++i) {
        const std::u32string code = characters[i].toStdU32String();
        const int64_t id = code.size() == 1 ? tokenizer.id(code[0]) : -1;
        if (id >= 0) tokens.push_back(id);
    }
    if (tokens.empty())
        throw chargpt::Error("the model read nothing before this character: click one after the first it knows.");
    const auto context = static_cast<std::size_t>(checkpoint.config.sequence_len);
    if (tokens.size() > context) tokens.erase(tokens.begin(), tokens.end() - static_cast<std::ptrdiff_t>(context));
    const std::u32string clicked = characters[index].toStdU32String();
    const int64_t chosen = clicked.size() == 1 ? tokenizer.id(clicked[0]) : -1;
    const int64_t position = static_cast<int64_t>(tokens.size()) - 1;
    const chargpt::Attribution a = chargpt::attribute(checkpoint.model, tokens, position, chosen);

    const auto text = [&tokenizer](int64_t id) { return QString::fromStdString(tokenizer.tokenText(id)); };
    CharacterAttribution out;
    for (const int64_t id : a.inputs) out.characters.append(text(id));
    out.chosen = text(a.chosen);
    out.runnerUp = text(a.runnerUp);
    out.chosenIsTop = a.chosenIsTop;
    out.logit = a.logit;
    out.margin = a.margin();
    out.probability = a.probability;
    out.gap = a.logitGap();
    out.step = checkpoint.step;
    for (const chargpt::AttributionRow& row : a.rows) {
        AttributionBar bar;
        bar.kind = static_cast<AttributionBar::Kind>(static_cast<int>(row.part));
        bar.layer = static_cast<int>(row.layer);
        bar.head = static_cast<int>(row.head);
        bar.logit = row.logit;
        bar.margin = row.margin;
        out.bars.append(bar);
    }
    for (const double v : a.gradientTimesInput) out.gradientTimesInput.append(v);
    return out;
}
