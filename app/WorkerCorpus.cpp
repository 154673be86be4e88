// SPDX-License-Identifier: GPL-3.0-or-later
// TrainingWorker's corpus: loading a corpus, its summary and samples, and the
// copy index of its training part.
#include "app/TrainingWorkerPrivate.h"

#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <string>

#include "app/ErrorMessage.h"

namespace {

constexpr int kPreviewChars = 2000;

// The Surprise view's default texts: about 600 characters from the start of
// the validation part and as many from the start of the training part, as
// `data` splits the corpus (the end-of-text between two documents shown as a
// blank line); the validation sample begins at its first new line when one
// is near, since the split falls anywhere in a line.
void fillSplitSamples(const chargpt::Dataset& data, const chargpt::CharTokenizer& vocabulary, CorpusSummary& info) {
    constexpr int64_t kSampleChars = 600;
    constexpr int kLineSearch = 120;
    auto text = [&vocabulary](const std::vector<int64_t>& tokens) {
        std::u32string characters;
        for (const int64_t id : tokens)
            characters += id == chargpt::CharTokenizer::kEndOfText ? std::u32string(U"\n\n")
                                                                    : std::u32string(1, vocabulary.characters()[id - 1]);
        return characters;
    };
    std::u32string val = text(data.tokens(chargpt::Split::Validation, kSampleChars + kLineSearch));
    const std::size_t lineEnd = val.find(U'\n');
    if (lineEnd != std::u32string::npos && lineEnd < std::size_t(kLineSearch) && lineEnd + 1 < val.size())
        val.erase(0, lineEnd + 1);
    val.resize(std::min<std::size_t>(val.size(), kSampleChars));
    std::u32string train = text(data.tokens(chargpt::Split::Train, kSampleChars));
    train.resize(std::min(train.size(), val.size()));
    info.validationSample = QString::fromStdU32String(val);
    info.trainingSample = QString::fromStdU32String(train);
}

// The summary of `corpus` as `vocabulary` reads it (characters it lacks left
// out, counted), split as a run would split it with `config`'s context and
// validation share; `data` is that split, when the text is longer than one
// context.
CorpusSummary summarize(const chargpt::Corpus& corpus, const QString& source, const chargpt::CharTokenizer& own,
                        const chargpt::CharTokenizer* model, const chargpt::RunConfig& config,
                        std::optional<chargpt::Dataset>& data) {
    const chargpt::CharTokenizer& vocabulary = model ? *model : own;
    CorpusSummary info;
    info.source = source;
    info.name = source.startsWith(QLatin1String("builtin:")) ? source : QFileInfo(source).fileName();
    info.bytes = static_cast<qint64>(corpus.byteCount());
    info.characters = static_cast<qint64>(corpus.charCount());
    info.tokens = static_cast<qint64>(corpus.tokenCount());
    info.vocabularySize = static_cast<int>(own.vocabSize());
    if (model) info.modelVocabularySize = static_cast<int>(model->vocabSize());
    try {
        data.emplace(chargpt::Dataset::ofCorpus(corpus, vocabulary, config.sequence_len, config.val_fraction,
                                                config.seed));
        info.unknownCharacters = info.tokens - data->tokenCount();
        info.trainingTokens = data->size(chargpt::Split::Train);
        info.documents = qint64(corpus.documents().size());
        if (data->validationSplit() == chargpt::ValidationSplit::Documents)
            info.validationDocuments =
                qint64(corpus.validationDocuments(config.val_fraction, config.seed).size());
        info.unigramEntropy = data->unigramEntropy();
        fillSplitSamples(*data, vocabulary, info);
    } catch (const chargpt::Error&) {
        // Shorter than one context: the settings check says so.
        info.unknownCharacters = info.tokens - static_cast<qint64>(corpus.encodeStored(vocabulary).size());
    }
    // The start of the text, as the vocabulary reads it.
    std::u32string preview;
    for (const std::u32string& document : corpus.documents()) {
        if (!preview.empty())
            preview += U"\n\n";
        for (const char32_t c : document) {
            if (preview.size() >= size_t(kPreviewChars))
                break;
            if (vocabulary.id(c) >= 0)
                preview += c;
        }
        if (preview.size() >= size_t(kPreviewChars))
            break;
    }
    info.preview = QString::fromStdU32String(preview);
    for (const std::string& warning : corpus.warnings())
        info.warnings << QString::fromStdString(warning);
    return info;
}

}  // namespace

const chargpt::CharTokenizer* TrainingWorker::Private::trainedVocabulary() const {
    // The same test as the window's (ModelSummary::trained), on what the worker holds.
    return ModelSummary::isTrained(static_cast<bool>(model), state.step, imported) ? &tokenizer : nullptr;
}

void TrainingWorker::loadCorpus(const QString& source, bool discardModel) {
    // The corpus split as a run would split it (the vocabulary of the model
    // it would train further, or its own; the last run's context and
    // validation share): for the summary's training size, unigram entropy and
    // samples, and for the copy index.
    std::optional<chargpt::Dataset> data;
    chargpt::CharTokenizer vocabulary;
    try {
        std::optional<chargpt::Corpus> corpus =
            chargpt::loadCorpusSource(QFile::encodeName(source).toStdString());
        const chargpt::CharTokenizer own = corpus->buildTokenizer();
        if (discardModel && d->model)
            forgetModel();  // only now that the text is there
        const chargpt::CharTokenizer* trained = d->trainedVocabulary();
        vocabulary = trained ? *trained : own;
        const CorpusSummary info = summarize(*corpus, source, own, trained, d->config, data);

        d->corpus = std::move(corpus);
        d->corpusSource = source;
        d->summaryVocabulary = vocabulary;
        // The model did not train on this corpus (yet).
        forgetFrozenModel();
        d->corpusCopies.reset();
        d->copiesTokens.reset();
        emit corpusLoaded(info);
    } catch (const std::exception& error) {
        emit corpusFailed(source, messageOf(error));
        return;
    }
    // After the summary, so that it is never late: the copy index of the
    // training part, ready when a generation ends. About 0.3 s a megabyte
    // (builtin:python: 1.3 s), on this thread: a start asked for meanwhile
    // waits that long. A run that splits otherwise (another vocabulary,
    // another context) indexes again when it starts.
    if (!data)
        return;
    try {
        d->indexTrainingText(*data, vocabulary);
    } catch (const std::exception&) {
        // Too large to index: generation says nothing about copying.
    }
}

void TrainingWorker::summarizeCorpusAgain() {
    if (!d->corpus)
        return;
    try {
        const chargpt::CharTokenizer own = d->corpus->buildTokenizer();
        const chargpt::CharTokenizer* trained = d->trainedVocabulary();
        const chargpt::CharTokenizer& vocabulary = trained ? *trained : own;
        if (vocabulary == d->summaryVocabulary)
            return;  // the text reads as it did
        std::optional<chargpt::Dataset> data;
        const CorpusSummary info = summarize(*d->corpus, d->corpusSource, own, trained, d->config, data);
        d->summaryVocabulary = vocabulary;
        emit corpusLoaded(info);
    } catch (const std::exception& error) {
        emit corpusFailed(d->corpusSource, messageOf(error));
    }
}
