// SPDX-License-Identifier: GPL-3.0-or-later
// InspectionController's part for "why this character?": a click on a
// character of the Surprise tab goes to the inspector, its answer to the
// attribution view (one request at a time, the newest click wins).
#include "app/InspectionController.h"

#include <QMetaObject>

#include "app/InspectWorker.h"
#include "widgets/AttributionView.h"
#include "widgets/SurpriseView.h"

void InspectionController::attachAttribution(SurpriseView* surprise, AttributionView* view) {
    attributionView_ = view;
    connect(inspector_, &InspectWorker::attributionReady, this,
            [this](const CharacterAttribution& attribution, quint64 request) {
                if (!attribution_.answered(request)) return;
                attributionView_->setAttribution(attribution);
                emit attributionShown();
            });
    connect(inspector_, &InspectWorker::attributionFailed, this, [this](const QString& message, quint64 request) {
        if (!attribution_.answered(request)) return;
        CharacterAttribution failed;
        failed.problem = message;
        attributionView_->setAttribution(failed);
        emit attributionShown();
    });
    connect(surprise, &SurpriseView::characterClicked, this, [this](const QStringList& characters, int index) {
        if (hasSnapshot_) attribution_.submit({characters, index});
    });
}

void InspectionController::sendAttribution(const AttributionRequest& request, quint64 sequence) {
    QMetaObject::invokeMethod(
        inspector_,
        [inspector = inspector_, request, sequence] {
            inspector->computeAttribution(request.characters, request.index, sequence);
        },
        Qt::QueuedConnection);
}
