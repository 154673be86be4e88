// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What TrainingWorker keeps (the corpus, the model, the run library, the copy
// index, the last frozen model), shared by the files of its jobs: the run driver
// (TrainingWorker.cpp), the requests between two steps (WorkerRequests.cpp),
// the corpus (WorkerCorpus.cpp) and the model files (WorkerModelFiles.cpp).
// Included only by them: it brings LibTorch.
#include <torch/torch.h>

#include "model/analysis/Ablation.h"
#include "model/io/Checkpoint.h"
#include "model/nn/CharGPT.h"
#include "model/record/RunLibrary.h"
#include "model/text/CharTokenizer.h"
#include "model/text/CopyIndex.h"
#include "model/text/Corpus.h"
#include "model/train/Dataset.h"
#include "model/train/Learning.h"
#include "model/train/RunConfig.h"
#include "model/train/Trainer.h"
#include "model/session/TrainingSession.h"

#include <QDir>
#include <QVector>

#include <memory>
#include <optional>
#include <vector>

#include "app/ModelBridge.h"
#include "app/TrainingWorker.h"

struct TrainingWorker::Private {
    // Touched only on the worker's thread.
    std::optional<chargpt::Corpus> corpus;
    QString corpusSource;
    // The vocabulary the corpus's summary last read it with: the trained
    // model's (trainedVocabulary()) or, without one, its own.
    chargpt::CharTokenizer summaryVocabulary;
    chargpt::CharGPT model{nullptr};
    chargpt::CharTokenizer tokenizer;
    chargpt::RunConfig config;
    // Step, tokens, history and optimizer moments of the model between runs.
    chargpt::Checkpoint state;
    QString checkpointPath;
    // Where the model's autosaves go: the folder, and the file of the run
    // that trained it last (TrainingWorker::autosaveFileName; empty until a
    // run here trains it).
    QString autosaveFolder = TrainingWorker::autosaveFolder();
    QString autosaveName;
    bool imported = false;  // the model came from a Python state_dict and has not trained here yet
    // The weights of the model's lowest validation loss so far, kept across
    // runs for Restore best (empty for a model opened, imported or new).
    chargpt::BestWeights best;
    chargpt::TrainingSession* session = nullptr;  // while train() runs
    // The run library (model/record/RunLibrary.h), opened at the first run;
    // null when it could not be (runs then train unrecorded). The run of the
    // current model it recorded last (-1: none), which its saves are added to.
    bool recordRuns = true;
    bool libraryOpened = false;
    std::shared_ptr<chargpt::RunLibrary> library;
    std::optional<qint64> recordedRun;
    // The last frozen model, so a request for the same step sends it again
    // instead of copying the weights once more.
    FrozenModel lastFrozen;
    quint64 frozenSerial = 0;
    // The copy index of the loaded corpus's training part, with the
    // vocabulary and the number of training tokens it was built for; and the
    // one the model's frozen copies carry: that same index once the model trained
    // on the loaded corpus, null otherwise.
    std::shared_ptr<const chargpt::CopyIndex> corpusCopies;
    chargpt::CharTokenizer copiesTokenizer;
    std::optional<qint64> copiesTokens;  // none without an index
    std::shared_ptr<const chargpt::CopyIndex> modelCopies;
    // The knock-out table's batches of the run's validation part, for the
    // frozen models; null when modelCopies is (the model is not the loaded
    // corpus's).
    std::shared_ptr<const std::vector<chargpt::Batch>> modelEvaluation;

    // The index of the training part of `data` (the loaded corpus in
    // `vocabulary`), built unless the one of the loaded corpus is that already.
    void indexTrainingText(const chargpt::Dataset& data, const chargpt::CharTokenizer& vocabulary) {
        const qint64 tokens = data.size(chargpt::Split::Train);
        if (corpusCopies && copiesTokenizer == vocabulary && copiesTokens == tokens)
            return;
        corpusCopies.reset();  // its memory first
        auto index = std::make_shared<chargpt::CopyIndex>(data.trainingTokens(), vocabulary);
        index->calibrate(data.tokens(chargpt::Split::Validation), vocabulary);
        corpusCopies = std::move(index);
        copiesTokenizer = vocabulary;
        copiesTokens = tokens;
    }

    // Shared with other threads: the pause and stop of every run, and the work
    // (saves, frozen models) the worker's thread does between two steps, while
    // paused, or when no run is in progress.
    const std::shared_ptr<chargpt::TrainerControl> control = std::make_shared<chargpt::TrainerControl>();

    // The model as it is now: the running trainer's state, or the last one.
    chargpt::Checkpoint current() const {
        if (session)
            return session->checkpoint();
        chargpt::Checkpoint checkpoint = state;
        checkpoint.config = config;
        checkpoint.tokenizer = tokenizer;
        checkpoint.model = model;
        return checkpoint;
    }
    // The vocabulary of a model that has trained (a run trains it further
    // rather than replacing it), or null.
    const chargpt::CharTokenizer* trainedVocabulary() const;
    qint64 currentStep() const { return session ? session->trainer().step() : state.step; }

    ModelSummary modelInfo(bool withHistory) const {
        ModelSummary info;
        info.exists = static_cast<bool>(model);
        if (!model)
            return info;
        info.settings = config;
        info.vocabularySize = static_cast<int>(config.vocab_size);
        info.parameters = config.parameterCount();
        info.step = state.step;
        info.weightsStep = state.weightsStep >= 0 ? state.weightsStep : state.step;
        info.bestStep = best.step;
        info.bestValLoss = best.valLoss;
        info.overfittingSince = chargpt::detectOverfitting(state.history).sinceStep;
        info.tokensSeen = state.tokensSeen;
        info.checkpointPath = checkpointPath;
        if (!autosaveName.isEmpty())
            info.autosavePath = QDir(autosaveFolder).filePath(autosaveName);
        info.imported = imported && state.step == 0;
        if (withHistory)
            info.history = chargpt::lossCurveOf(state.history);
        return info;
    }
};
