// SPDX-License-Identifier: GPL-3.0-or-later
// "Why this character?": a click on a character of the Surprise tab shows,
// in a window of its own beside the main one, which parts of the model and
// which earlier characters made the model write it (the inspector computes
// it, off the GUI thread).
#include "app/MainWindow.h"

#include <QDialog>
#include <QVBoxLayout>

#include "app/InspectionController.h"
#include "widgets/AttributionView.h"

void MainWindow::connectAttribution() {
    whyDialog_ = new QDialog(this);
    whyDialog_->setObjectName(QStringLiteral("whyDialog"));
    auto* layout = new QVBoxLayout(whyDialog_);
    attributionView_ = new AttributionView(whyDialog_);
    layout->addWidget(attributionView_);
    whyDialog_->resize(680, 620);
    inspection_->attachAttribution(surpriseView_, attributionView_);
    connect(inspection_, &InspectionController::attributionShown, this, [this] {
        whyDialog_->setWindowTitle(tr("Why this character?"));
        whyDialog_->show();
        whyDialog_->raise();
    });
}
