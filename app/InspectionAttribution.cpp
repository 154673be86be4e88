// SPDX-License-Identifier: GPL-3.0-or-later
// InspectionController's part for "why this character?": a click on a
// character of the Surprise tab or of the Generate tab's output goes to the
// inspector, its answer to the attribution view (one request at a time, the
// newest click wins).
#include "app/InspectionController.h"

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
                emit attributionShown();
            });
    showFailures(&InspectWorker::attributionFailed, attribution_, [this](const QString& message) {
        CharacterAttribution failed;
        failed.problem = message;
        attributionView_->setAttribution(failed);
        emit attributionShown();
    });
    // One path for every text that asks: the Surprise tab's panes and the Generate tab's output.
    const auto ask = [this](const QStringList& characters, int index) {
        if (!hasSnapshot_) return;
        attribution_.submit({characters, index});
        if (!historyView_) return;
        if (timeline_ && timeline_->run() >= 0 && timeline_->steps().size() >= 2)
            history_.submit({characters, index, timeline_->run(), timeline_->steps()});
        else
            historyView_->setHistory({});
    };
    connect(surprise, &SurpriseView::characterClicked, this, ask);
    connect(generationView_, &GenerationView::characterClicked, this, ask);
}

void InspectionController::attachAttributionHistory(AttributionHistoryView* view) {
    historyView_ = view;
    connect(inspector_, &InspectWorker::attributionHistoryReady, this,
            [this](const AttributionHistory& history, quint64 request) {
                if (!history_.answered(request)) return;
                historyView_->setHistory(history);
                emit attributionHistoryShown();
            });
    showFailures(&InspectWorker::attributionHistoryFailed, history_, [this](const QString& message) {
        AttributionHistory failed;
        failed.problem = message;
        historyView_->setHistory(failed);
        emit attributionHistoryShown();
    });
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
