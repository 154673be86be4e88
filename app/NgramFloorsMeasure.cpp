// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/NgramFloorsMeasure.h"
#include "app/WorkerThread.h"

#include "model/runtime/Runtime.h"
#include "model/text/BuiltinCorpora.h"
#include "model/text/Corpus.h"
#include "model/train/NgramFloors.h"
#include "model/train/RunConfig.h"

#include <QFile>

#include <exception>

NgramFloorsMeasure::NgramFloorsMeasure(QObject* parent) : QObject(parent) {
    worker_ = new QObject;
    startWorkerThread(thread_, worker_, QStringLiteral("floors"), WorkerKind::Compute);
}

NgramFloorsMeasure::~NgramFloorsMeasure() {
    stop_->store(true);
    endWorkerThread(thread_);
}

void NgramFloorsMeasure::measure(const QString& source, qint64 sequenceLen, double valFraction,
                                 quint64 seed) {
    const chargpt::RunConfig defaults;  // the default settings' context, validation share and seed
    const Key key{source, sequenceLen > 0 ? sequenceLen : qint64(defaults.sequence_len),
                  valFraction > 0.0 ? valFraction : defaults.val_fraction, seed > 0 ? seed : defaults.seed};
    for (const auto& [kept, floors] : known_) {
        if (kept == key) {
            emit measured(source, floors, QString(), key.sequenceLen, key.valFraction, key.seed);
            return;
        }
    }
    if (asked_.contains(key)) return;  // on its way
    asked_.append(key);
    // Plain standard values into the thread; the answer comes back queued to
    // this object, on the GUI thread.
    const std::string path = QFile::encodeName(source).toStdString();
    const int64_t context = key.sequenceLen;
    const double share = key.valFraction;
    const uint64_t seedOfSplit = key.seed;
    QMetaObject::invokeMethod(
        worker_,
        [this, path, key, context, share, seedOfSplit, stop = stop_] {
            QVector<double> floors;
            QString why;
            try {
                const chargpt::NgramFloors measured = chargpt::ngramFloors(
                    chargpt::loadCorpusSource(path), context, share, seedOfSplit, 5, stop.get());
                for (const chargpt::NgramFloor& f : measured.floors) floors.append(f.loss);
            } catch (const std::exception& error) {
                why = QString::fromUtf8(error.what());
            }
            if (stop->load()) return;  // this object is going: nothing to tell
            QMetaObject::invokeMethod(
                this,
                [this, key, floors, why] {
                    if (why.isEmpty()) {
                        known_.append({key, floors});
                        if (known_.size() > kKept) known_.removeFirst();
                    }
                    asked_.removeAll(key);
                    emit measured(key.source, floors, why, key.sequenceLen, key.valFraction, key.seed);
                },
                Qt::QueuedConnection);
        },
        Qt::QueuedConnection);
}
