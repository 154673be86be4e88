// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The n-gram floors of the corpus a run trains on (model/train/NgramFloors.h),
// measured on a thread of their own at low priority: the Python library takes
// about four seconds of one core, which neither the window nor the training
// waits for. The last corpus measured is remembered; requests are measured in
// turn, and a measurement in progress is abandoned at once when this object
// goes (the window closes).

#include <QObject>
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
    // vocabulary, split as a run of the default settings splits it: measured
    // answers once; the same source again answers from memory.
    void measure(const QString& source);

signals:
    // The validation loss in nats of the n-gram models, n = 1, 2, ...; empty
    // with `why` when they could not be measured.
    void measured(const QString& source, const QVector<double>& floorsNats, const QString& why);

private:
    QThread thread_;
    QObject* worker_ = nullptr;  // lives on thread_
    std::shared_ptr<std::atomic<bool>> stop_ = std::make_shared<std::atomic<bool>>(false);
    QString asked_;    // the source asked for last
    QString known_;    // the source of the floors kept
    QVector<double> knownFloors_;
};
