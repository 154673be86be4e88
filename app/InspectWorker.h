// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Runs snapshots of the model for the views (attention of the probe, a head's
// raw scores, generation) on a thread of its own, so the window never runs a
// model and the training thread only pays for copying the weights. Qt-only
// header (pimpl): moc and the widgets never see LibTorch.

#include <QObject>
#include <QString>
#include <QStringList>
#include <QVector>

#include <memory>

#include "AttentionBridge.h"
#include "AttentionData.h"
#include "StudioTypes.h"
#include "SurpriseData.h"

class InspectWorker : public QObject {
    Q_OBJECT

public:
    explicit InspectWorker(QObject* parent = nullptr);
    ~InspectWorker() override;
    static void registerTypes();

    // Thread-safe: the running generation stops before its next character.
    void stopGeneration();

public slots:
    // The model the next requests run; generation and step mode keep the one
    // they started with until they restart.
    void setSnapshot(const ModelSnapshot& snapshot);
    void computeAttention(const QString& text, quint64 request);
    void computeScores(const QString& text, int layer, int head, quint64 request);
    // Each of `texts` scored by the current snapshot (SurpriseBridge); a text
    // that cannot be scored says why in its value's problem.
    void computeSurprise(const QStringList& texts, quint64 request);
    // Streams characterGenerated until the length, end-of-text or Stop.
    void generate(const GenerationOptions& options);
    // One character; `restart` begins a new sequence from the prompt.
    void step(const GenerationOptions& options, bool restart, int layer);
    // The attention rows of the last step's character in another layer.
    void stepAttention(int layer);

signals:
    void attentionReady(const AttentionProbe& probe, qint64 step, quint64 request, double milliseconds);
    void attentionFailed(const QString& message, quint64 request);
    void scoresReady(const HeadScores& scores, qint64 step, quint64 request);
    void scoresFailed(const QString& message, quint64 request);
    void surpriseReady(const QVector<SurpriseText>& texts, qint64 step, quint64 request);
    void surpriseFailed(const QString& message, quint64 request);
    // Code-point positions of prompt characters the model does not know.
    void promptChecked(const QVector<int>& unknownPositions, const QStringList& unknownCharacters);
    void characterGenerated(const QString& character);
    // reason: "finished", "stopped" or "error" (with a message).
    void generationFinished(const QString& reason, const QString& message);
    void stepped(const GenerationStep& step);
    void stepFailed(const QString& message);
    // The spans of the generated text found verbatim in the training text:
    // before generationFinished, and after each step while cheap. Never sent
    // when the snapshot has no copy index.
    void copiesFound(const CopiedSpans& copies);

private:
    void continueGeneration(quint64 run);
    void reportCopies();

    struct Private;
    std::unique_ptr<Private> d;
};
