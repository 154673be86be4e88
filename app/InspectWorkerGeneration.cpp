// SPDX-License-Identifier: GPL-3.0-or-later
// The inspector's generation: Generate (one sample or several decoded together) and Step.
#include "app/InspectWorkerPrivate.h"

void InspectWorker::prepareGeneration() { d->stopRequested = false; }

void InspectWorker::generate(const GenerationOptions& options) {
    const quint64 run = ++d->generationRun;
    try {
        d->startSampler(this, options, true);
    } catch (const std::exception& error) {
        d->sampler.reset();
        d->batch.reset();
        emit generationFinished(GenerationEnd::Error, messageOf(error));
        return;
    }
    // One character per event, so attention requests and Stop interleave.
    QMetaObject::invokeMethod(this, [this, run] { continueGeneration(run); }, Qt::QueuedConnection);
}

void InspectWorker::continueGeneration(quint64 run) {
    if (run != d->generationRun)
        return;
    if (d->batch) {
        continueSamples(run);
        return;
    }
    if (!d->sampler)
        return;
    if (d->stopRequested) {
        d->sampler.reset();
        reportCopies();
        emit generationFinished(GenerationEnd::Stopped, QString());
        return;
    }
    try {
        chargpt::SampleStep step;
        if (!d->sampler->next(step)) {
            d->sampler.reset();
            reportCopies();
            emit generationFinished(GenerationEnd::Finished, QString());
            return;
        }
        d->generated += step.text;
        emit characterGenerated(QString::fromStdString(step.text));
        if (d->sampler->finished()) {
            d->sampler.reset();
            reportCopies();
            emit generationFinished(GenerationEnd::Finished, QString());
            return;
        }
    } catch (const std::exception& error) {
        d->sampler.reset();
        emit generationFinished(GenerationEnd::Error, messageOf(error));
        return;
    }
    QMetaObject::invokeMethod(this, [this, run] { continueGeneration(run); }, Qt::QueuedConnection);
}

void InspectWorker::continueSamples(quint64 run) {
    auto end = [this](GenerationEnd reason, const QString& message) {
        d->batch.reset();
        if (reason != GenerationEnd::Error)
            reportCopies();  // of sample 1, the output's
        emit generationFinished(reason, message);
    };
    if (d->stopRequested)
        return end(GenerationEnd::Stopped, QString());
    try {
        std::vector<chargpt::SampleStreamStep> steps;
        const bool more = d->batch->next(steps);
        QVector<int> others;
        QStringList characters;
        for (const chargpt::SampleStreamStep& s : steps) {
            if (s.sample == 0) {
                d->generated += s.step.text;
                emit characterGenerated(QString::fromStdString(s.step.text));
            } else {
                others.append(int(s.sample) + 1);
                characters.append(QString::fromStdString(s.step.text));
            }
        }
        if (!others.isEmpty())
            emit otherSamplesGenerated(others, characters);
        if (!more || d->batch->finished())
            return end(GenerationEnd::Finished, QString());
    } catch (const std::exception& error) {
        return end(GenerationEnd::Error, messageOf(error));
    }
    // One step of every sample per event, so attention requests and Stop interleave.
    QMetaObject::invokeMethod(this, [this, run] { continueGeneration(run); }, Qt::QueuedConnection);
}

void InspectWorker::step(const GenerationOptions& options, bool restart, int layer) {
    ++d->generationRun;  // a running generation ends here
    try {
        if (restart || !d->sampler)
            d->startSampler(this, options);
        GenerationStep result;
        chargpt::SampleStep step;
        if (!d->sampler->next(step)) {
            result.finished = true;  // end-of-text or the length reached
            emit stepped(result);
            if (d->generated.size() > kMaxStepCopyCheckBytes)
                reportCopies();  // not checked after the last steps
            return;
        }
        result.character = QString::fromStdString(step.text);
        result.probability = step.probability;
        d->generated += step.text;
        for (std::size_t i = 0; i < step.top.size(); ++i) {
            result.candidates.append(QString::fromStdString(step.top[i].text));
            result.probabilities.append(step.top[i].probability);
            if (step.top[i].token == step.token)
                result.picked = static_cast<int>(i);
        }
        result.layer = layer;
        result.attentionRows = d->attentionRows(layer);
        result.lens = stepLens(*d->samplerSnapshot.checkpoint, d->sampler->context(), kStepLensPositions);
        result.finished = d->sampler->finished();
        d->lastStep = result;
        d->hasLastStep = true;
        emit stepped(result);
        if (d->generated.size() <= kMaxStepCopyCheckBytes || result.finished)
            reportCopies();
    } catch (const std::exception& error) {
        d->sampler.reset();
        emit stepFailed(messageOf(error));
    }
}

void InspectWorker::stepAttention(int layer) {
    if (!d->sampler || !d->hasLastStep)
        return;
    try {
        GenerationStep result = d->lastStep;
        result.layer = layer;
        result.attentionRows = d->attentionRows(layer);
        result.attentionOnly = true;
        emit stepped(result);
    } catch (const std::exception& error) {
        emit stepFailed(messageOf(error));
    }
}
