// SPDX-License-Identifier: GPL-3.0-or-later
// "Why this character?": a click on a character of the Surprise tab or on a
// generated one in the Generate tab shows, in a window of its own beside the
// main one, which parts of the model and which earlier characters made the
// model write it; the same window's patching lab (also in the Training menu)
// patches a clean run into a corrupted one. The inspector computes both, off
// the GUI thread.
#include "app/MainWindow.h"

#include <QMenu>

#include "app/InspectionController.h"
#include "widgets/AttributionView.h"
#include "widgets/WhyWindow.h"

void MainWindow::connectAttribution() {
    attributionView_ = whyWindow_->attributionView();
    inspection_->attachAttribution(surpriseView_, attributionView_);
    inspection_->attachAttributionHistory(whyWindow_->historyView());
    inspection_->attachPatching(whyWindow_->patchingLab());
    connect(inspection_, &InspectionController::attributionShown, whyWindow_, &WhyWindow::showAttribution);
    trainingMenu_->addAction(whyWindow_->labAction());
}
