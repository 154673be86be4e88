// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// How each worker of the window gets its thread: one call moves the worker
// there, names the thread (as debuggers and `top -H` show it), sets its
// priority and starts it; the worker is deleted when the thread ends. One
// call ends it. The controllers that own the threads cancel their worker's
// long work before they end it.

#include <QObject>
#include <QString>
#include <QThread>

// What a worker's thread does. Compute runs the model or counts over the text
// (training, inspection, the filmstrip's samples, the learning-rate finder,
// the n-gram floors): it runs at a lower priority (chargpt::lowerComputePriority),
// so that the window and the user's other programs come first. Reading reads
// and writes the run library, briefly, at the usual priority.
enum class WorkerKind { Compute, Reading };

void startWorkerThread(QThread& thread, QObject* worker, const QString& name, WorkerKind kind);

// Asks the thread's event loop to end and waits for it; nothing when it does not run.
void endWorkerThread(QThread& thread);
