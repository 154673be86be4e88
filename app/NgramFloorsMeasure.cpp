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

void NgramFloorsMeasure::measure(const QString& source) {
    if (source == known_) {
        emit measured(source, knownFloors_, QString());
        return;
    }
    if (source == asked_)
        return;  // on its way
    asked_ = source;
    // Plain standard values into the thread; the answer comes back queued to
    // this object, on the GUI thread.
    const std::string path = QFile::encodeName(source).toStdString();
    QMetaObject::invokeMethod(worker_, [this, path, source, stop = stop_] {
        QVector<double> floors;
        QString why;
        try {
            const chargpt::RunConfig split;  // the default settings' context and validation share
            const chargpt::NgramFloors measured =
                chargpt::ngramFloors(chargpt::loadCorpusSource(path), split.sequence_len, split.val_fraction, 5, stop.get());
            for (const chargpt::NgramFloor& f : measured.floors)
                floors.append(f.loss);
        } catch (const std::exception& error) {
            why = QString::fromUtf8(error.what());
        }
        if (stop->load())
            return;  // this object is going: nothing to tell
        QMetaObject::invokeMethod(this, [this, source, floors, why] {
            if (why.isEmpty()) {
                known_ = source;
                knownFloors_ = floors;
            }
            if (asked_ == source)
                asked_.clear();
            emit measured(source, floors, why);
        }, Qt::QueuedConnection);
    }, Qt::QueuedConnection);
}
