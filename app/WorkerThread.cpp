// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/WorkerThread.h"

#include "model/runtime/Runtime.h"

void startWorkerThread(QThread& thread, QObject* worker, const QString& name, WorkerKind kind) {
    worker->moveToThread(&thread);
    QObject::connect(&thread, &QThread::finished, worker, &QObject::deleteLater);
    // Queued to the worker's thread: the priority is the thread's own.
    if (kind == WorkerKind::Compute)
        QObject::connect(&thread, &QThread::started, worker, [] { chargpt::lowerComputePriority(); });
    thread.setObjectName(name);
    thread.start();
}

void endWorkerThread(QThread& thread) {
    if (!thread.isRunning()) return;
    thread.quit();
    thread.wait();
}
