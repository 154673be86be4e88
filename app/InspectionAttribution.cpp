// SPDX-License-Identifier: GPL-3.0-or-later
// InspectionController's part for "why this character?": a click on a
// character of the Surprise tab or of the Generate tab's output goes to the
// inspector, its answer to the attribution view (one request at a time, the
// newest click wins). The same click across the kept steps can be stopped
// (Stop, or closing the why window) like the patching lab's sweeps; the
// timeline's marks A and B say which steps the history view compares.
#include "app/InspectionController.h"

#include <QDialog>
#include <QMetaObject>

#include "app/InspectWorker.h"
#include "widgets/AttributionHistoryView.h"
#include "widgets/AttributionView.h"
#include "widgets/GenerationView.h"
#include "widgets/SurpriseView.h"
#include "widgets/Timeline.h"

void InspectionController::attachAttribution(SurpriseView* surprise, AttributionView* view) {
    attributionView_ = view;
    connect(inspector_, &InspectWorker::attributionReady, this,
            [this](const CharacterAttribution& attribution, quint64 request) {
                if (!attribution_.answered(request)) return;
                attributionView_->setAttribution(attribution);
                shown_.attribution = attribution;
                emit attributionShown();
            });
    showFailures(&InspectWorker::attributionFailed, attribution_, [this](const QString& message) {
        CharacterAttribution failed;
        failed.problem = message;
        attributionView_->setAttribution(failed);
        shown_.attribution = failed;
        emit attributionShown();
    });
    // One path for every text that asks: the Surprise tab's panes and the Generate tab's output.
    const auto ask = [this](const QStringList& characters, int index) {
        if (!hasFrozenModel()) return;
        attribution_.submit({characters, index});
        if (!historyView_) return;
        if (timeline_ && timeline_->run() && timeline_->steps().size() >= 2) {
            historyView_->setRunning(true);
            inspector_->prepareHistoryRun();
            history_.submit({characters, index, *timeline_->run(), timeline_->steps()});
        } else
            historyView_->setHistory({});
    };
    connect(surprise, &SurpriseView::characterClicked, this, ask);
    connect(generationView_, &GenerationView::characterClicked, this, ask);
}

void InspectionController::attachAttributionHistory(AttributionHistoryView* view) {
    historyView_ = view;
    connect(inspector_, &InspectWorker::attributionHistoryReady, this,
            [this](const AttributionHistory& history, quint64 request) {
                const bool wanted = history_.answered(request);
                historyView_->setRunning(history_.inFlight());
                if (!wanted) return;
                historyView_->setHistory(history);
                emit attributionHistoryShown();
            });
    connect(inspector_, &InspectWorker::attributionHistoryFailed, this,
            [this](const QString& message, quint64 request) {
                const bool wanted = history_.answered(request);
                historyView_->setRunning(history_.inFlight());
                if (!wanted) return;
                AttributionHistory failed;
                failed.problem = message;
                historyView_->setHistory(failed);
                emit attributionHistoryShown();
            });
    connect(view, &AttributionHistoryView::stopRequested, this, [this] { inspector_->stopHistory(); });
    // Closing the why window stops what it was waiting for.
    if (auto* window = qobject_cast<QDialog*>(view->window()))
        connect(window, &QDialog::finished, this, [this] {
            if (history_.inFlight()) inspector_->stopHistory();
            if (patching_.inFlight()) inspector_->stopPatching();
        });
}

void InspectionController::connectHistoryMarks() {
    const auto marks = [this] { historyView_->setMarks(timeline_->markedStep(), timeline_->chosenStep()); };
    connect(timeline_, &Timeline::markChanged, historyView_, marks);
    connect(timeline_, &Timeline::stepChosen, historyView_, marks);
    marks();
}

void InspectionController::sendHistory(const HistoryRequest& request, quint64 sequence) {
    QMetaObject::invokeMethod(
        inspector_,
        [inspector = inspector_, request, sequence] {
            inspector->computeAttributionHistory(request.characters, request.index, request.run,
                                                 request.steps, sequence);
        },
        Qt::QueuedConnection);
}

void InspectionController::sendAttribution(const AttributionRequest& request, quint64 sequence) {
    QMetaObject::invokeMethod(
        inspector_,
        [inspector = inspector_, request, sequence] {
            inspector->computeAttribution(request.characters, request.index, sequence);
        },
        Qt::QueuedConnection);
}
