// SPDX-License-Identifier: GPL-3.0-or-later
// The ladder's floors (model/train/Ladder.h), apart from its rungs: they need
// the dataset, which the fuzz build's library leaves out.
#include "model/text/Corpus.h"
#include "model/train/Dataset.h"
#include "model/train/Ladder.h"

namespace chargpt {

LossFloors ladderFloors(const Dataset& data, int64_t vocabSize) {
    return lossFloors(data.storedTokens(Split::Validation), std::size_t(data.size(Split::Validation)), vocabSize);
}

LossFloors ladderFloors(const Corpus& corpus, int64_t sequenceLen, double valFraction, uint64_t seed) {
    const CharTokenizer tokenizer = corpus.buildTokenizer();
    return ladderFloors(Dataset::ofCorpus(corpus, tokenizer, sequenceLen, valFraction, seed),
                        tokenizer.vocabSize());
}

}  // namespace chargpt
