// SPDX-License-Identifier: GPL-3.0-or-later
// InspectionController's part for the activation patching lab: Run sends the
// prompts to the inspector, which sweeps them off the GUI thread and reports
// its progress; Stop ends the sweeps after their current pass.
#include "app/InspectionController.h"

#include <QCoreApplication>
#include <QMetaObject>

#include "app/InspectWorker.h"
#include "widgets/PatchingLab.h"

void InspectionController::attachPatching(PatchingLab* lab) {
    patchingLab_ = lab;
    lab->setPresetSource(insideText_);
    if (contextLength_ > 0) lab->setContext(contextLength_);
    connect(this, &InspectionController::frozenModelArrived, lab, [this] {
        if (contextLength_ > 0) patchingLab_->setContext(contextLength_);
    });
    connect(inspector_, &InspectWorker::patchingProgress, this, [this](int done, int total, quint64 request) {
        if (patching_.inFlight() && request == patching_.lastSequence())
            patchingLab_->setProgress(done, total);
    });
    connect(inspector_, &InspectWorker::patchingReady, this,
            [this](const PatchingResult& result, quint64 request) {
                const bool wanted = patching_.answered(request);
                patchingLab_->setRunning(patching_.inFlight());
                if (!wanted) return;
                patchingLab_->setResult(result);
                shown_.patching = result;
                emit patchingShown();
            });
    connect(inspector_, &InspectWorker::patchingFailed, this,
            [this](const QString& message, quint64 request) {
                const bool wanted = patching_.answered(request);
                patchingLab_->setRunning(patching_.inFlight());
                if (!wanted) return;
                patchingLab_->showProblem(
                    QCoreApplication::translate("MainWindow", "No patching: %1").arg(message));
                emit patchingShown();
            });
    connect(lab, &PatchingLab::runRequested, this, [this](const PatchingPrompts& prompts) {
        if (!hasFrozenModel()) {
            patchingLab_->showProblem(QCoreApplication::translate(
                "MainWindow", "There is no model yet: train one or open a checkpoint."));
            return;
        }
        patchingLab_->setRunning(true);
        inspector_->preparePatchingRun();
        patching_.submit(prompts);
    });
    connect(lab, &PatchingLab::stopRequested, this, [this] { inspector_->stopPatching(); });
}

void InspectionController::setInsideText(const QString& text) {
    insideText_ = text;  // the Inside page's heads are scored on it, the lab's presets drawn from it
    if (patchingLab_) patchingLab_->setPresetSource(text);
}

void InspectionController::sendPatching(const PatchingPrompts& prompts, quint64 sequence) {
    QMetaObject::invokeMethod(
        inspector_,
        [inspector = inspector_, prompts, sequence] { inspector->computePatching(prompts, sequence); },
        Qt::QueuedConnection);
}
