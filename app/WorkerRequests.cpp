// SPDX-License-Identifier: GPL-3.0-or-later
// What other threads ask of TrainingWorker, done on its thread between two
// steps (or at once when no run is in progress): saves, frozen models of the
// model for the views, and the best weights put back.
#include "app/TrainingWorkerPrivate.h"

#include "model/io/NanoGpt.h"
#include "model/runtime/Error.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <memory>

#include "app/ErrorMessage.h"

void TrainingWorker::requestSave(const QString& path) { save(path, /*autosave=*/false); }

void TrainingWorker::requestAutosave() { save(QString(), /*autosave=*/true); }

void TrainingWorker::save(const QString& asked, bool autosave) {
    // Between two steps or while paused, by the running trainer; when no run
    // is in progress, by the queued call below (which then finds it done).
    d->control->post([this, asked, autosave] {
        // An autosave goes to the file of the run that trained the model last,
        // decided here, on the thread that knows the run.
        const QString path = autosave ? QDir(d->autosaveFolder).filePath(d->autosaveName) : asked;
        try {
            if (!d->model)
                throw chargpt::Error("there is no model to save yet: train one first.");
            if (autosave && d->autosaveName.isEmpty())
                throw chargpt::Error("the model has not trained here, so there is no run to autosave.");
            const chargpt::Checkpoint checkpoint = d->current();
            QDir().mkpath(QFileInfo(path).absolutePath());
            chargpt::saveCheckpoint(QFile::encodeName(path).toStdString(), checkpoint);
            if (!autosave)
                d->checkpointPath = QFileInfo(path).absoluteFilePath();
            if (d->library && d->recordedRun) {
                try {
                    d->library->addCheckpoint(
                        *d->recordedRun, checkpoint.step,
                        QFile::encodeName(QFileInfo(path).absoluteFilePath()).toStdString());
                } catch (const std::exception& error) {
                    emit recordingProblem(messageOf(error), false);
                }
            }
            emit saved(path, autosave);
        } catch (const std::exception& error) {
            emit saveFailed(path, messageOf(error), autosave);
        }
    });
    QMetaObject::invokeMethod(this, &TrainingWorker::processPendingSaves, Qt::QueuedConnection);
}

void TrainingWorker::requestExportNanoGpt(const QString& folder) {
    d->control->post([this, folder] {
        try {
            if (!d->model)
                throw chargpt::Error("there is no model to export yet: train one first.");
            const chargpt::Checkpoint checkpoint = d->current();
            if (const std::string problem = chargpt::nanoGptExportProblem(checkpoint.config); !problem.empty())
                throw chargpt::Error(problem);
            chargpt::exportNanoGpt(checkpoint, QFile::encodeName(folder).toStdString(), "chargpt");
            emit exported(folder);
        } catch (const std::exception& error) {
            emit exportFailed(folder, messageOf(error));
        }
    });
    QMetaObject::invokeMethod(this, &TrainingWorker::processPendingSaves, Qt::QueuedConnection);
}

void TrainingWorker::requestFrozenModel() {
    d->control->post([this] {
        try {
            const qint64 step = d->currentStep();
            if (!d->lastFrozen.isNull() && d->lastFrozen.step == step)
                emit modelFrozen(d->lastFrozen);  // the weights did not change since
            else
                emitFrozenModel(step);
        } catch (const std::exception& error) {
            emit freezeFailed(messageOf(error));
        }
    });
    QMetaObject::invokeMethod(this, &TrainingWorker::processFreezeRequest, Qt::QueuedConnection);
}

void TrainingWorker::requestRestoreBest() {
    d->control->post([this] {
        try {
            qint64 step = 0;
            if (d->session) {
                chargpt::Trainer& trainer = d->session->trainer();
                if (!trainer.restoreBest())
                    return;
                step = trainer.step();
                // The run goes on from these weights; the summary says so until its next step.
                d->state.weightsStep = trainer.weightsStep();
            } else {
                if (!d->model || !chargpt::restoreWeights(d->model, d->best))
                    return;
                d->state.weightsStep = d->best.step.value_or(-1);
                step = d->state.step;
            }
            // The views follow the weights put back.
            d->lastFrozen = FrozenModel();
            emitFrozenModel(step);
            ModelSummary info = d->modelInfo(/*withHistory=*/false);
            info.step = step;
            if (d->session) {
                info.tokensSeen = d->session->trainer().tokensSeen();
                info.bestStep = d->session->trainer().bestStep();
                info.bestValLoss = d->session->trainer().bestValLoss();
            }
            emit modelChanged(info);
        } catch (const std::exception& error) {
            emit freezeFailed(messageOf(error));
        }
    });
    QMetaObject::invokeMethod(this, &TrainingWorker::processPendingSaves, Qt::QueuedConnection);
}

// Both run the work posted while no run was in progress; during a run (this
// thread is inside train()) the trainer has done it already.
void TrainingWorker::processPendingSaves() { d->control->runPosted(); }

void TrainingWorker::processFreezeRequest() { d->control->runPosted(); }

void TrainingWorker::forgetFrozenModel() {
    d->lastFrozen = FrozenModel();
    // Whoever forgets the frozen model changes the model or the corpus:
    // until it trains on the loaded corpus, nothing is said about copying.
    d->modelCopies.reset();
    d->modelEvaluation.reset();
}

void TrainingWorker::emitFrozenModel(qint64 step) {
    FrozenModel frozen;
    frozen.step = step;
    if (d->model) {
        auto checkpoint = std::make_shared<chargpt::Checkpoint>();
        checkpoint->config = d->config;
        checkpoint->tokenizer = d->tokenizer;
        checkpoint->model = chargpt::cloneModel(d->model);
        checkpoint->model->eval();
        checkpoint->step = step;
        frozen.checkpoint = std::move(checkpoint);
        frozen.copies = d->modelCopies;
        frozen.evaluation = d->modelEvaluation;
        frozen.settings = d->config;
    }
    frozen.serial = ++d->frozenSerial;
    d->lastFrozen = frozen;
    emit modelFrozen(frozen);
}
