// SPDX-License-Identifier: GPL-3.0-or-later
// The inspector: the views' requests on the current model, on a thread of its own.
#include "app/InspectWorkerPrivate.h"


InspectWorker::InspectWorker(QObject* parent) : QObject(parent), d(std::make_unique<Private>()) {}

InspectWorker::~InspectWorker() = default;

void InspectWorker::registerTypes() {
    qRegisterMetaType<FrozenModel>();
    qRegisterMetaType<AttentionProbe>();
    qRegisterMetaType<HeadScores>();
    qRegisterMetaType<GenerationStep>();
    qRegisterMetaType<GenerationOptions>();
    qRegisterMetaType<GenerationEnd>();
    qRegisterMetaType<SurpriseText>();
    qRegisterMetaType<QVector<SurpriseText>>();
    qRegisterMetaType<CopiedSpans>();
    qRegisterMetaType<InsideFrame>();
    qRegisterMetaType<Knockout>();
    qRegisterMetaType<CharacterAttribution>();
    qRegisterMetaType<AttributionHistory>();
    qRegisterMetaType<PatchingPrompts>();
    qRegisterMetaType<PatchingResult>();
}

void InspectWorker::reportCopies() {
    if (d->samplerModel.isNull() || !d->samplerModel.copies) return;
    chargpt::CopyCheck check;
    try {
        check = d->samplerModel.copies->check(std::string_view(d->generated));
    } catch (const std::exception&) {
        return;  // not UTF-8 (never from the sampler): nothing to say
    }
    CopiedSpans copies;
    for (const chargpt::CopyCheck::Span& span : check.spans) {
        copies.starts.append(int(span.start));
        copies.lengths.append(int(span.length));
    }
    copies.share = check.share();
    copies.minimumLength = d->samplerModel.copies->minLength();
    emit copiesFound(copies);
}

void InspectWorker::stopGeneration() { d->stopRequested = true; }

std::chrono::nanoseconds InspectWorker::busyTime() const { return std::chrono::nanoseconds(d->busyNanoseconds.load()); }

void InspectWorker::setFrozenModel(const FrozenModel& frozen) { d->frozen = frozen; }

void InspectWorker::loadKept(qint64 run, qint64 step, quint64 request) {
    try {
        emit keptLoaded(d->readKept(run, step), request);
    } catch (const std::exception& error) {
        emit keptFailed(QStringLiteral("run %1, step %2: %3").arg(run).arg(step).arg(messageOf(error)), request);
    }
}

void InspectWorker::computeAttention(const QString& text, const std::optional<KeptStep>& against,
                                     quint64 request) {
    const BusyClock busy(d->busyNanoseconds);
    try {
        QElapsedTimer timer;
        timer.start();
        AttentionProbe probe = ::computeAttention(d->checkpoint(), text);
        if (against) {
            // Step A's weights that cannot be read leave it uncompared (the
            // Surprise tab says why).
            try {
                const chargpt::Checkpoint& then = d->comparedWeights(*against);
                const AttentionProbe before = ::computeAttention(then, text);
                if (before.text == probe.text && before.attention.layers.size() == probe.attention.layers.size()) {
                    // One figure a head crosses to the window, not a second set of matrices.
                    for (qsizetype l = 0; l < probe.attention.layers.size(); ++l) {
                        QVector<double> layer;
                        const QVector<AttentionMatrix>& now = probe.attention.layers[l].heads;
                        const QVector<AttentionMatrix>& earlier = before.attention.layers[l].heads;
                        for (qsizetype h = 0; h < now.size() && h < earlier.size(); ++h)
                            layer.append(attentionChange(now[h], earlier[h]));
                        probe.changes.append(layer);
                    }
                    probe.comparedStep = then.step;
                }
            } catch (const chargpt::Error&) {
            }
        }
        emit attentionReady(probe, d->frozen.step, request, timer.nsecsElapsed() / 1e6);
    } catch (const std::exception& error) {
        emit attentionFailed(messageOf(error), request);
    }
}

void InspectWorker::computeScores(const QString& text, int layer, int head, quint64 request) {
    const BusyClock busy(d->busyNanoseconds);
    try {
        const HeadScores scores = computeHeadScores(d->checkpoint(), text, layer, head);
        emit scoresReady(scores, d->frozen.step, request);
    } catch (const std::exception& error) {
        emit scoresFailed(messageOf(error), request);
    }
}

void InspectWorker::computeSurprise(const SurpriseRequest& what, quint64 request) {
    const BusyClock busy(d->busyNanoseconds);
    try {
        const chargpt::Checkpoint& checkpoint = d->checkpoint();
        const chargpt::Checkpoint* against = what.against ? &d->comparedWeights(*what.against) : nullptr;
        const KnockoutPart* without = what.without && !against ? &*what.without : nullptr;
        QVector<SurpriseText> results;
        results.reserve(what.texts.size());
        for (const QString& text : what.texts) {
            try {
                results.append(computeSurpriseText(checkpoint, text, without, against));
            } catch (const chargpt::Error& error) {
                SurpriseText failed;
                failed.step = checkpoint.step;
                failed.problem = messageOf(error);
                results.append(failed);
            }
        }
        emit surpriseReady(results, d->frozen.step, request);
    } catch (const std::exception& error) {
        emit surpriseFailed(messageOf(error), request);
    }
}

void InspectWorker::computeAttribution(const QStringList& characters, int index, quint64 request) {
    const BusyClock busy(d->busyNanoseconds);
    try {
        emit attributionReady(attributionOf(d->checkpoint(), characters, index), request);
    } catch (const std::exception& error) {
        emit attributionFailed(messageOf(error), request);
    }
}

void InspectWorker::computeAttributionHistory(const QStringList& characters, int index, qint64 run,
                                              const QVector<qint64>& steps, quint64 request) {
    try {
        QVector<qint64> picked;  // at most kHistorySteps, the first and the last among them
        for (int i = 0; i < kHistorySteps && i < steps.size(); ++i) {
            const qint64 step = steps.size() <= kHistorySteps
                                    ? steps[i]
                                    : steps[int(qint64(i) * (steps.size() - 1) / (kHistorySteps - 1))];
            if (picked.isEmpty() || picked.last() != step) picked.append(step);
        }
        QVector<qint64> measured;
        QVector<CharacterAttribution> each;
        for (const qint64 step : picked) {
            if (d->historyStopRequested.load()) throw chargpt::Error("the measuring was stopped.");
            FrozenModel kept;
            try {
                kept = d->readKept(run, step);
            } catch (const chargpt::Error&) {
                continue;  // not kept (the live model's newest step) or unreadable: left out
            }
            each.append(attributionOf(*kept.checkpoint, characters, index));
            measured.append(step);
        }
        emit attributionHistoryReady(historyOf(measured, each), request);
    } catch (const std::exception& error) {
        emit attributionHistoryFailed(messageOf(error), request);
    }
}

void InspectWorker::stopHistory() { d->historyStopRequested = true; }

void InspectWorker::prepareHistoryRun() { d->historyStopRequested = false; }

void InspectWorker::stopPatching() { d->patchingStopRequested = true; }

void InspectWorker::preparePatchingRun() { d->patchingStopRequested = false; }

void InspectWorker::computePatching(const PatchingPrompts& prompts, quint64 request) {
    try {
        QElapsedTimer sinceProgress;
        sinceProgress.start();
        const PatchingResult result = patchingOf(d->checkpoint(), prompts, [&](int done, int total) {
            if (sinceProgress.elapsed() >= 100 || done == total) {
                emit patchingProgress(done, total, request);
                sinceProgress.restart();
            }
            return !d->patchingStopRequested.load();
        });
        emit patchingReady(result, request);
    } catch (const std::exception& error) {
        emit patchingFailed(messageOf(error), request);
    }
}

void InspectWorker::computeInside(const QString& probe, const QString& text, const std::optional<KeptStep>& against,
                                  quint64 request) {
    const BusyClock busy(d->busyNanoseconds);
    try {
        // Step A's weights that cannot be read leave the map uncompared (the
        // Surprise tab says why).
        const chargpt::Checkpoint* then = nullptr;
        if (against) {
            try {
                then = &d->comparedWeights(*against);
            } catch (const chargpt::Error&) {
            }
        }
        const InsideFrame frame = computeInsideFrame(d->checkpoint(), probe, text, d->mapAlignment, then);
        emit insideReady(frame, request);
    } catch (const std::exception& error) {
        emit insideFailed(messageOf(error), request);
    }
}

void InspectWorker::stopKnockout() { d->knockoutStopRequested = true; }

void InspectWorker::computeKnockout(quint64 request) {
    d->knockoutStopRequested = false;
    try {
        const chargpt::Checkpoint& checkpoint = d->checkpoint();
        if (!d->frozen.evaluation || d->frozen.evaluation->empty())
            throw chargpt::Error("the model has no validation text to measure on: train it on the loaded corpus first.");
        QElapsedTimer sinceProgress;
        sinceProgress.start();
        const Knockout knockout =
            ::computeKnockout(checkpoint, *d->frozen.evaluation, [&](int done, int total) {
                if (sinceProgress.elapsed() >= 100 || done == total) {
                    emit knockoutProgress(done, total, request);
                    sinceProgress.restart();
                }
                return !d->knockoutStopRequested.load();
            });
        if (d->knockoutStopRequested)
            throw chargpt::Error("the knock-out was stopped.");
        emit knockoutReady(knockout, request);
    } catch (const std::exception& error) {
        emit knockoutFailed(messageOf(error), request);
    }
}
