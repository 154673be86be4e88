// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The one app-only value that travels between the threads: a frozen copy of
// the model. Everything else the workers send is a plain value of
// widgets/StudioValues.h. Qt only: no LibTorch, so moc never sees tensors.

#include <QMetaType>

#include <memory>

#include "StudioValues.h"

namespace chargpt {
struct Checkpoint;
}

// A frozen copy of the model (cloned between two steps by the training worker,
// in eval mode, never trained again) with its tokenizer and config, for the
// views that run it on another thread: it never races the optimizer. Only
// named here, so this header stays LibTorch-free.
struct ModelSnapshot {
    std::shared_ptr<const chargpt::Checkpoint> checkpoint;
    qint64 step = 0;
    quint64 serial = 0;  // increases with every snapshot the worker makes
    bool isNull() const { return !checkpoint; }
};

Q_DECLARE_METATYPE(ModelSnapshot)

// Registers the values above and those of StudioValues.h for queued signals.
void registerStudioTypes();
