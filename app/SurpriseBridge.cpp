// SPDX-License-Identifier: GPL-3.0-or-later
// LibTorch and the model first: Qt's `slots` and friends must not reach them.
#include <torch/torch.h>

#include <string>
#include <string_view>
#include <vector>

#include "model/analysis/Ablation.h"
#include "model/analysis/Surprise.h"
#include "model/io/Checkpoint.h"
#include "model/runtime/Error.h"

#include "app/SurpriseBridge.h"

namespace {

chargpt::KnockOut knockOutOf(const KnockoutPart& part) {
    const chargpt::AblationPart ablated = part.kind == KnockoutKind::Head        ? chargpt::AblationPart::Head
                                          : part.kind == KnockoutKind::Attention ? chargpt::AblationPart::Attention
                                                                                 : chargpt::AblationPart::FeedForward;
    return chargpt::knockOutOf(ablated, part.layer, part.head);
}

}  // namespace

SurpriseText surpriseTextOf(const chargpt::Checkpoint& checkpoint, std::u32string_view codePoints,
                            const chargpt::SurpriseResult& scored) {
    SurpriseText result;
    result.step = checkpoint.step;
    result.vocabularySize = static_cast<int>(checkpoint.tokenizer.vocabSize());
    // Each token's text once: the guesses of every character share them.
    std::vector<QString> names(static_cast<std::size_t>(checkpoint.tokenizer.vocabSize()));
    auto name = [&](int64_t token) -> const QString& {
        QString& cached = names[static_cast<std::size_t>(token)];
        if (cached.isNull()) cached = QString::fromStdString(checkpoint.tokenizer.tokenText(token));
        return cached;
    };

    result.characters.resize(static_cast<qsizetype>(codePoints.size()));
    for (std::size_t i = 0; i < codePoints.size(); ++i) {
        SurpriseChar& c = result.characters[static_cast<qsizetype>(i)];
        const char32_t point = codePoints[i];
        c.character = QString::fromUcs4(&point, 1);
        c.known = false;
    }
    for (const chargpt::SurpriseCharacter& s : scored.characters) {
        SurpriseChar& c = result.characters[static_cast<qsizetype>(s.position)];
        c.known = true;
        c.bits = static_cast<float>(s.bits);
        c.rank = static_cast<int>(s.rank);
        for (int g = 0; g < s.guesses; ++g) {
            c.guesses.append(name(s.guessTokens[static_cast<std::size_t>(g)]));
            c.probabilities.append(s.guessProbabilities[static_cast<std::size_t>(g)]);
        }
    }
    result.meanBits = scored.meanBits;
    result.scored = static_cast<int>(scored.scored);
    result.unknown = static_cast<int>(scored.unknown.size());
    return result;
}

SurpriseText computeSurpriseText(const chargpt::Checkpoint& checkpoint, const QString& text,
                                 const KnockoutPart* without, const chargpt::Checkpoint* against) {
    if (text.isEmpty()) {
        SurpriseText result;
        result.step = checkpoint.step;
        result.vocabularySize = static_cast<int>(checkpoint.tokenizer.vocabSize());
        return result;
    }
    if (!checkpoint.model) throw chargpt::Error("the checkpoint holds no model.");
    const std::u32string codePoints = text.toStdU32String();
    SurpriseText result = surpriseTextOf(
        checkpoint, codePoints, chargpt::computeSurprise(checkpoint.model, checkpoint.tokenizer, codePoints));
    if (against) {
        if (!against->model) throw chargpt::Error("the weights to compare with hold no model.");
        const chargpt::SurpriseResult then = chargpt::computeSurprise(against->model, against->tokenizer, codePoints);
        // Positions are the text's: the same characters, whichever model read them.
        for (const chargpt::SurpriseCharacter& s : then.characters)
            result.characters[static_cast<qsizetype>(s.position)].withoutBits = static_cast<float>(s.bits);
        result.comparedStep = against->step;
        result.withoutMeanBits = then.meanBits;
    } else if (without) {
        addKnockedOut(result, checkpoint, codePoints, *without);
    }
    return result;
}

void addKnockedOut(SurpriseText& result, const chargpt::Checkpoint& checkpoint,
                   std::u32string_view codePoints, const KnockoutPart& without) {
    const chargpt::KnockOut knockOut = knockOutOf(without);
    const chargpt::SurpriseResult knocked =
        chargpt::computeSurprise(checkpoint.model, checkpoint.tokenizer, codePoints, &knockOut);
    // The same characters in the same order: only the model differs.
    for (const chargpt::SurpriseCharacter& s : knocked.characters)
        result.characters[static_cast<qsizetype>(s.position)].withoutBits = static_cast<float>(s.bits);
    result.without = knockoutPartName(without);
    result.withoutMeanBits = knocked.meanBits;
}
