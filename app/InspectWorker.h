// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Runs frozen models for the views (attention of the probe, a head's
// raw scores, generation) on a thread of its own, so the window never runs a
// model and the training thread only pays for copying the weights. Qt-only
// header (pimpl): moc and the widgets never see LibTorch.

#include <QObject>
#include <QString>
#include <QStringList>
#include <QVector>

#include <chrono>
#include <memory>
#include <optional>

#include "app/AttentionBridge.h"
#include "app/StudioTypes.h"
#include "widgets/AttentionData.h"
#include "widgets/AttributionData.h"
#include "widgets/InsideData.h"
#include "widgets/PatchingData.h"
#include "widgets/SurpriseData.h"

class InspectWorker : public QObject {
    Q_OBJECT

public:
    explicit InspectWorker(QObject* parent = nullptr);
    ~InspectWorker() override;
    static void registerTypes();
    // The most kept steps computeAttributionHistory measures.
    static constexpr int kHistorySteps = 24;

    // Thread-safe: the running generation stops before its next character.
    void stopGeneration();
    // Thread-safe: call it before queuing generate(), so that a Stop made after
    // it stops that generation even before the inspector begins it.
    void prepareGeneration();
    // Thread-safe: a knock-out table in progress stops after its current pass.
    void stopKnockout();
    // Thread-safe: the patching sweeps in progress stop after their current
    // pass. Thread-safe too: preparePatchingRun before queuing computePatching,
    // so that a Stop made after it stops that run even before it begins.
    void stopPatching();
    void preparePatchingRun();
    // The same for computeAttributionHistory: it stops before its next kept
    // step and fails saying so.
    void stopHistory();
    void prepareHistoryRun();
    // Thread-safe: the time spent so far computing what the views show while a
    // model trains (attention, scores, surprise, the Inside page): what
    // InspectionPace paces.
    std::chrono::nanoseconds busyTime() const;

public slots:
    // The model the next requests run; generation and step mode keep the one
    // they started with until they restart.
    void setFrozenModel(const FrozenModel& frozen);
    // Reads the weights that run `run` of the run library keeps at `step`
    // (through this thread's own connection) and answers keptLoaded with them
    // as a frozen model, or keptFailed saying why: kept weights that are missing,
    // damaged or not of the run's architecture is never loaded. The views go
    // on with the current frozen model until the controller hands them this one.
    void loadKept(qint64 run, qint64 step, quint64 request);
    // The attention of the current frozen model on `text`; with `against`, that of
    // step A on the same text too (AttentionProbe::compared), when A's weights
    // can be read.
    void computeAttention(const QString& text, const std::optional<KeptStep>& against, quint64 request);
    void computeScores(const QString& text, int layer, int head, quint64 request);
    // Each of the request's texts scored by the current frozen model
    // (SurpriseBridge), and again without its part when it names one; a text
    // that cannot be scored says why in its value's problem.
    void computeSurprise(const SurpriseRequest& what, quint64 request);
    // The Inside page's frame of the current frozen model (InsideBridge): the lens
    // of `probe`, the heads' scores on `text`, the characters' map aligned to
    // the previous frame; with `against`, where each character was at that
    // step A (read as loadKept reads, kept while A stays).
    void computeInside(const QString& probe, const QString& text, const std::optional<KeptStep>& against,
                       quint64 request);
    // Why the current frozen model wrote character `index` of `characters`
    // (AttributionBridge): attributionReady, or attributionFailed saying why not.
    void computeAttribution(const QStringList& characters, int index, quint64 request);
    // The same at each of `steps` that run `run` keeps (at most
    // kHistorySteps of them, spread evenly; a step whose weights cannot be
    // read is left out): attributionHistoryReady, or attributionHistoryFailed.
    void computeAttributionHistory(const QStringList& characters, int index, qint64 run,
                                   const QVector<qint64>& steps, quint64 request);
    // The patching lab's sweeps of the current frozen model (PatchingBridge),
    // reporting patchingProgress: patchingReady, or patchingFailed saying why
    // (also when stopped).
    void computePatching(const PatchingPrompts& prompts, quint64 request);
    // The knock-out table of the current frozen model on its evaluation batches
    // (reporting knockoutProgress), or knockoutFailed when it has none.
    void computeKnockout(quint64 request);
    // Streams samplesGenerated, one step of options.samples (1 or more)
    // samples decoded together at a time, until the length, end-of-text or Stop.
    void generate(const GenerationOptions& options);
    // One character; `restart` begins a new sequence from the prompt.
    void step(const GenerationOptions& options, bool restart, int layer);
    // The attention rows of the last step's character in another layer.
    void stepAttention(int layer);

signals:
    void keptLoaded(const FrozenModel& frozen, quint64 request);
    void keptFailed(const QString& message, quint64 request);
    void attentionReady(const AttentionProbe& probe, qint64 step, quint64 request, double milliseconds);
    void attentionFailed(const QString& message, quint64 request);
    void scoresReady(const HeadScores& scores, qint64 step, quint64 request);
    void scoresFailed(const QString& message, quint64 request);
    void surpriseReady(const QVector<SurpriseText>& texts, qint64 step, quint64 request);
    void surpriseFailed(const QString& message, quint64 request);
    void insideReady(const InsideFrame& frame, quint64 request);
    void insideFailed(const QString& message, quint64 request);
    void attributionReady(const CharacterAttribution& attribution, quint64 request);
    void attributionFailed(const QString& message, quint64 request);
    void attributionHistoryReady(const AttributionHistory& history, quint64 request);
    void attributionHistoryFailed(const QString& message, quint64 request);
    void patchingProgress(int done, int total, quint64 request);
    void patchingReady(const PatchingResult& result, quint64 request);
    void patchingFailed(const QString& message, quint64 request);
    void knockoutProgress(int done, int total, quint64 request);
    void knockoutReady(const Knockout& knockout, quint64 request);
    void knockoutFailed(const QString& message, quint64 request);
    // Code-point positions of prompt characters the model does not know.
    void promptChecked(const QVector<int>& unknownPositions, const QStringList& unknownCharacters);
    // One step of Generate: the new character of each sample still running
    // (their numbers from 1, in order; sample 1 is the output's), one per sample.
    void samplesGenerated(const QVector<int>& samples, const QStringList& characters);
    // `message` says why for GenerationEnd::Error.
    void generationFinished(GenerationEnd reason, const QString& message);
    void stepped(const GenerationStep& step);
    void stepFailed(const QString& message);
    // The spans of the generated text found verbatim in the training text:
    // before generationFinished, and after each step while cheap. Never sent
    // when the frozen model has no copy index.
    void copiesFound(const CopiedSpans& copies);

private:
    void continueGeneration(quint64 run);
    void reportCopies();

    struct Private;
    std::unique_ptr<Private> d;
};
