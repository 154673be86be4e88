// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The n-gram floors of the corpus a run trains on (model/train/NgramFloors.h),
// measured on a thread of their own at low priority: the Python library takes
// about four seconds of one core, which neither the window nor the training
// waits for. The Training tab's loss plot and the Ladder tab's chart ask it
// alike; the last few corpora measured are remembered; requests are measured
// in turn, and a measurement in progress is abandoned at once when this object
// goes (the window closes).

#include <QObject>
#include <QPair>
#include <QString>
#include <QThread>
#include <QVector>

#include <atomic>
#include <memory>

class NgramFloorsMeasure : public QObject {
    Q_OBJECT

public:
    explicit NgramFloorsMeasure(QObject* parent = nullptr);
    // Abandons what is measured, ends the thread.
    ~NgramFloorsMeasure() override;

    // The floors of `source` ("builtin:...", a file or a folder) in its own
    // vocabulary, split as a run of `sequenceLen`, `valFraction` and `seed`
    // splits it (0: the default settings'; the seed draws a folder's
    // validation documents): measured answers once; the same source and
    // split again answers from memory.
    void measure(const QString& source, qint64 sequenceLen = 0, double valFraction = 0.0, quint64 seed = 0);

signals:
    // The validation loss in nats of the n-gram models, n = 1, 2, ...; empty
    // with `why` when they could not be measured. The split as asked for
    // (the default's made explicit).
    void measured(const QString& source, const QVector<double>& floorsNats, const QString& why,
                  qint64 sequenceLen, double valFraction, quint64 seed);

private:
    QThread thread_;
    QObject* worker_ = nullptr;  // lives on thread_
    std::shared_ptr<std::atomic<bool>> stop_ = std::make_shared<std::atomic<bool>>(false);
    // What the floors depend on: the source and its split.
    struct Key {
        QString source;
        qint64 sequenceLen = 0;
        double valFraction = 0.0;
        quint64 seed = 0;
        bool operator==(const Key& o) const {
            return source == o.source && sequenceLen == o.sequenceLen && valFraction == o.valFraction &&
                   seed == o.seed;
        }
    };
    static constexpr int kKept = 4;               // corpora remembered
    QVector<Key> asked_;                          // on their way
    QVector<QPair<Key, QVector<double>>> known_;  // the newest last
};
