// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Makes filmstrips (model/generate/Filmstrip) on a thread of its own, for the
// Filmstrip tab: sampling every step a run keeps takes seconds for the book's
// model, and neither the window nor the inspector (whose views follow the
// timeline meanwhile) waits for it. Qt-only header (pimpl): moc and the
// widgets never see LibTorch.

#include <QObject>
#include <QString>
#include <atomic>
#include <memory>

#include "widgets/FilmstripData.h"

class FilmstripWorker : public QObject {
    Q_OBJECT

public:
    explicit FilmstripWorker(QObject* parent = nullptr);
    ~FilmstripWorker() override;
    static void registerTypes();

    // Thread-safe: the strip in progress stops before its next character.
    // Thread-safe too: prepareStrip before queuing make(), so that a Stop made
    // after it stops that strip even before it begins (the inspector's idiom).
    void stopStrip();
    void prepareStrip();

public slots:
    // Samples every step run `run` keeps (through this thread's own connection
    // to the run library): started once the prompt is read, a row after each
    // step, then finished; failed when the strip cannot be made at all.
    void make(qint64 run, const FilmstripAsk& ask, quint64 request);

signals:
    // The strip's heading (no rows), the count of steps it will have, and the
    // prompt characters the models do not know ("'x' 'y'"; empty when none).
    void started(const FilmstripSamples& heading, int steps, const QString& leftOut, quint64 request);
    void rowReady(const FilmstripRow& row, quint64 request);
    void finished(bool stopped, quint64 request);
    void failed(const QString& message, quint64 request);

private:
    std::atomic<bool> stopRequested_{false};
    struct Private;
    std::unique_ptr<Private> d;
};
