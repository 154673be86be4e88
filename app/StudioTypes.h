// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The one app-only value that travels between the threads: a frozen copy of
// the model (with the copy index of its training text). Everything else the workers send is a plain value of
// widgets/StudioValues.h. Qt only: no LibTorch, so moc never sees tensors.

#include <QMetaType>

#include <memory>
#include <vector>

#include "widgets/StudioValues.h"

namespace chargpt {
struct Batch;
struct Checkpoint;
class CopyIndex;
}

// A frozen copy of the model (cloned between two steps by the training worker,
// in eval mode, never trained again) with its tokenizer and config, for the
// views that run it on another thread: it never races the optimizer. Only
// named here, so this header stays LibTorch-free.
struct FrozenModel {
    std::shared_ptr<const chargpt::Checkpoint> checkpoint;
    qint64 step = 0;
    quint64 serial = 0;  // increases with every frozen model the worker makes
    // The index of the text the model last trained on, the loaded corpus's
    // training part: null when the model did not train on the loaded corpus
    // (opened, imported, or the corpus changed since), so that no view says
    // anything false about copying.
    std::shared_ptr<const chargpt::CopyIndex> copies;
    // The batches the knock-out table measures (chargpt::ablationBatches of the
    // run's validation part), on the same terms as `copies`: null unless the
    // model trained on the loaded corpus.
    std::shared_ptr<const std::vector<chargpt::Batch>> evaluation;
    // The settings of the model copied (its shape, its context), for the views.
    chargpt::RunConfig settings;
    bool isNull() const { return !checkpoint; }
};

Q_DECLARE_METATYPE(FrozenModel)

// Registers the values above and those of StudioValues.h for queued signals.
void registerStudioTypes();
