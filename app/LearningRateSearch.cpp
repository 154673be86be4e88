// SPDX-License-Identifier: GPL-3.0-or-later
// LibTorch before Qt: Qt's `slots` macro would break LibTorch's headers.
#include "model/train/Trainer.h"

#include "app/LearningRateSearch.h"
#include "app/WorkerThread.h"

#include "model/runtime/Runtime.h"
#include "model/text/BuiltinCorpora.h"
#include "model/text/Corpus.h"

#include <QFile>
#include <QPointer>

#include <exception>

LearningRateSearch::LearningRateSearch(QObject* parent) : QObject(parent) {
    worker_ = new QObject;
    startWorkerThread(thread_, worker_, QStringLiteral("lr-find"), WorkerKind::Compute);
}

LearningRateSearch::~LearningRateSearch() {
    if (control_)
        control_->stop();
    endWorkerThread(thread_);
}

void LearningRateSearch::stop() {
    if (control_)
        control_->stop();
}

void LearningRateSearch::find(const chargpt::RunConfig& settings, const QString& source) {
    if (running_)
        return;
    running_ = true;
    control_ = std::make_shared<chargpt::TrainerControl>();
    // Plain standard values into the thread; the news comes back queued to
    // this object, on the GUI thread, while it lives.
    const std::string path = QFile::encodeName(source).toStdString();
    QPointer<LearningRateSearch> self(this);
    QMetaObject::invokeMethod(worker_, [self, path, settings, control = control_] {
        chargpt::LearningRateFinding finding;
        QString why;
        try {
            chargpt::LearningRateSweep sweep;
            sweep.control = control;
            const chargpt::Corpus corpus = chargpt::loadCorpusSource(path);
            finding = chargpt::findLearningRate(settings, corpus, sweep, [&](int64_t step, double rate, double loss) {
                QMetaObject::invokeMethod(self, [self, step, rate, loss] {
                    if (self) emit self->stepped(step, rate, loss);
                }, Qt::QueuedConnection);
            });
        } catch (const std::exception& error) {
            why = QString::fromUtf8(error.what());
        }
        const bool stopped = control->stopRequested();
        QMetaObject::invokeMethod(self, [self, finding, stopped, why] {
            if (!self)
                return;
            self->running_ = false;
            emit self->finished(finding, stopped, why);
        }, Qt::QueuedConnection);
    }, Qt::QueuedConnection);
}
