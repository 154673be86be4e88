// SPDX-License-Identifier: GPL-3.0-or-later
// TrainingWorker's model files: opening a checkpoint, importing a PyTorch
// state_dict, and forgetting the model.
#include "app/TrainingWorkerPrivate.h"

#include "model/io/PyTorchInterop.h"
#include "model/runtime/Error.h"

#include <QFile>
#include <QFileInfo>

#include <string>
#include <utility>

#include "app/ErrorMessage.h"

void TrainingWorker::resetModel() {
    forgetModel();
    summarizeCorpusAgain();  // with the text's own vocabulary
}

void TrainingWorker::forgetModel() {
    forgetFrozenModel();
    d->best = chargpt::BestWeights();
    d->model = chargpt::CharGPT(nullptr);
    d->state = chargpt::Checkpoint();
    d->checkpointPath.clear();
    d->imported = false;
    d->recordedRun.reset();  // a model no run here recorded
    d->autosaveName.clear();
    emit modelChanged(d->modelInfo(false));
}

void TrainingWorker::openCheckpoint(const QString& path, const std::optional<RunRow>& run) {
    try {
        if (run && !QFileInfo::exists(path))
            throw chargpt::Error(runsModelGone(*run).toStdString());
        chargpt::Checkpoint checkpoint = chargpt::loadCheckpoint(QFile::encodeName(path).toStdString());
        if (run) {
            const QString why = notTheRunsModel(checkpoint.config, checkpoint.step, *run);
            if (!why.isEmpty())
                throw chargpt::Error(why.toStdString());
        }
        // Only now that everything loaded does the current model go.
        forgetFrozenModel();
        d->model = checkpoint.model;
        d->tokenizer = checkpoint.tokenizer;
        d->config = checkpoint.config;
        d->state = std::move(checkpoint);
        d->checkpointPath = QFileInfo(path).absoluteFilePath();
        d->imported = false;
        d->recordedRun.reset();  // a model no run here recorded
        d->autosaveName.clear();
        d->best = chargpt::BestWeights();  // a checkpoint keeps one set of weights
        summarizeCorpusAgain();  // read with the model's vocabulary before the model is shown
        emit checkpointOpened(d->modelInfo(/*withHistory=*/true));
    } catch (const std::exception& error) {
        // A model of nanoGPT, minGPT or the lecture's code opens like our own
        // (Open, a recent file, a file dropped): the window imports it.
        bool foreign = false;
        try {
            foreign = !run && chargpt::recognizeForeignModel(QFile::encodeName(path).toStdString()).has_value();
        } catch (const std::exception&) {
        }
        if (foreign)
            emit foreignModelFound(path);
        else
            emit checkpointFailed(path, messageOf(error));
    }
}

void TrainingWorker::importStateDict(const QString& path, VocabularySource vocabularyFrom, const QString& vocabularySource,
                                     const chargpt::RunConfig& settings) {
    try {
        chargpt::CharTokenizer vocabulary;
        std::string described;
        if (vocabularyFrom == VocabularySource::LoadedCorpus) {
            if (!d->corpus)
                throw chargpt::Error("there is no corpus loaded to take the vocabulary from.");
            vocabulary = d->corpus->buildTokenizer();
            described = "the loaded corpus (" + d->corpus->name() + ")";
        } else if (vocabularyFrom == VocabularySource::CorpusText) {
            vocabulary = chargpt::vocabularyFromCorpus(QFile::encodeName(vocabularySource).toStdString());
            described = "the corpus " + vocabularySource.toStdString();
        } else {
            vocabulary = chargpt::readVocabularyFile(QFile::encodeName(vocabularySource).toStdString());
            described = "the vocabulary file " + vocabularySource.toStdString();
        }
        chargpt::RunConfig training = settings;
        training.vocab_size = 0;
        chargpt::Checkpoint checkpoint =
            chargpt::importStateDict(QFile::encodeName(path).toStdString(), vocabulary, described, training);
        forgetFrozenModel();
        d->model = checkpoint.model;
        d->tokenizer = checkpoint.tokenizer;
        d->config = checkpoint.config;
        d->state = std::move(checkpoint);
        d->checkpointPath.clear();
        d->imported = true;
        d->recordedRun.reset();  // a model no run here recorded
        d->autosaveName.clear();
        d->best = chargpt::BestWeights();
        summarizeCorpusAgain();  // read with the model's vocabulary before the model is shown
        emit modelImported(d->modelInfo(/*withHistory=*/true), path);
    } catch (const std::exception& error) {
        emit importFailed(path, messageOf(error));
    }
}
