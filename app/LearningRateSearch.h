// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The learning-rate finder of the Training tab (model/session/LearningRateFinder.h)
// on a thread of its own at low priority: a new model of a copy of the
// settings swept on the loaded corpus, read again from its source, so that
// the model the window holds and the run it trains are never touched. Each
// step is told as it comes and the finding at the end; Stop ends the sweep
// between two steps, and the window closing abandons it.

#include <QObject>
#include <QString>
#include <QThread>

#include <memory>

#include "model/session/LearningRateFinder.h"

class LearningRateSearch : public QObject {
    Q_OBJECT

public:
    explicit LearningRateSearch(QObject* parent = nullptr);
    // Stops the sweep in progress and ends the thread.
    ~LearningRateSearch() override;

    // Sweeps `settings` on `source` ("builtin:...", a file or a folder).
    // Ignored while a sweep runs.
    void find(const chargpt::RunConfig& settings, const QString& source);
    void stop();
    bool running() const { return running_; }

signals:
    void stepped(qint64 step, double rate, double loss);
    // `why` empty: the sweep ended (`stopped`: by Stop), with what it found.
    void finished(const chargpt::LearningRateFinding& finding, bool stopped, const QString& why);

private:
    QThread thread_;
    QObject* worker_ = nullptr;  // lives on thread_
    std::shared_ptr<chargpt::TrainerControl> control_;
    bool running_ = false;
};
