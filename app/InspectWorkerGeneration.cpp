// SPDX-License-Identifier: GPL-3.0-or-later
// The inspector's generation: Generate (N >= 1 samples decoded together, one loop) and Step.
#include "app/InspectWorkerPrivate.h"

void InspectWorker::prepareGeneration() { d->stopRequested = false; }

void InspectWorker::generate(const GenerationOptions& options) {
    const quint64 run = ++d->generationRun;
    try {
        d->startSampler(this, options, options.samples);
    } catch (const std::exception& error) {
        d->sampler.reset();
        emit generationFinished(GenerationEnd::Error, messageOf(error));
        return;
    }
    // One step of every sample per event, so attention requests and Stop interleave.
    QMetaObject::invokeMethod(this, [this, run] { continueGeneration(run); }, Qt::QueuedConnection);
}

void InspectWorker::continueGeneration(quint64 run) {
    if (run != d->generationRun || !d->sampler) return;
    auto end = [this](GenerationEnd reason, const QString& message) {
        d->sampler.reset();
        if (reason != GenerationEnd::Error)
            reportCopies();  // of sample 1, the output's
        emit generationFinished(reason, message);
    };
    if (d->stopRequested)
        return end(GenerationEnd::Stopped, QString());
    try {
        std::vector<chargpt::SampleStreamStep> steps;
        const bool more = d->sampler->next(steps);
        QVector<int> samples;
        QStringList characters;
        samples.reserve(qsizetype(steps.size()));
        characters.reserve(qsizetype(steps.size()));
        for (const chargpt::SampleStreamStep& s : steps) {
            if (s.sample == 0) d->generated += s.step.text;
            samples.append(int(s.sample) + 1);
            characters.append(QString::fromStdString(s.step.text));
        }
        if (!samples.isEmpty()) emit samplesGenerated(samples, characters);
        if (!more || d->sampler->finished()) return end(GenerationEnd::Finished, QString());
    } catch (const std::exception& error) {
        return end(GenerationEnd::Error, messageOf(error));
    }
    QMetaObject::invokeMethod(this, [this, run] { continueGeneration(run); }, Qt::QueuedConnection);
}

void InspectWorker::step(const GenerationOptions& options, bool restart, int layer) {
    ++d->generationRun;  // a running generation ends here
    try {
        if (restart || !d->sampler || d->sampler->samples() != 1) d->startSampler(this, options, 1);
        GenerationStep result;
        std::vector<chargpt::SampleStreamStep> steps;
        if (!d->sampler->next(steps)) {
            result.finished = true;  // end-of-text or the length reached
            emit stepped(result);
            if (d->generated.size() > kMaxStepCopyCheckBytes)
                reportCopies();  // not checked after the last steps
            return;
        }
        const chargpt::SampleStep& step = steps.front().step;
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
        result.lens = stepLens(*d->samplerModel.checkpoint, d->sampler->context(0), kStepLensPositions);
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
