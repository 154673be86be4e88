// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/WhyWindow.h"

#include <QAction>
#include <QEvent>
#include <QScrollArea>
#include <QTabWidget>
#include <QVBoxLayout>

#include "widgets/AttributionHistoryView.h"
#include "widgets/AttributionView.h"
#include "widgets/PatchingLab.h"

WhyWindow::WhyWindow(QWidget* parent) : QDialog(parent) {
    setObjectName(QStringLiteral("whyDialog"));
    auto* layout = new QVBoxLayout(this);
    tabs_ = new QTabWidget(this);
    attribution_ = new AttributionView(tabs_);
    auto* scroll = new QScrollArea(tabs_);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(attribution_);
    tabs_->addTab(scroll, QString());
    history_ = new AttributionHistoryView(tabs_);
    tabs_->addTab(history_, QString());
    lab_ = new PatchingLab(tabs_);
    auto* labScroll = new QScrollArea(tabs_);  // its maps keep cells large enough to read
    labScroll->setWidgetResizable(true);
    labScroll->setFrameShape(QFrame::NoFrame);
    labScroll->setWidget(lab_);
    labPage_ = labScroll;
    tabs_->addTab(labPage_, QString());
    layout->addWidget(tabs_);
    labAction_ = new QAction(this);
    connect(labAction_, &QAction::triggered, this, &WhyWindow::showLab);
    connect(attribution_, &AttributionView::patchRequested, this,
            [this](const QString& prompt, const QString& target) {
                lab_->prepareFrom(prompt, target);
                showLab();
            });
    resize(720, 680);
    retranslateUi();
}

void WhyWindow::showAttribution() {
    if (tabs_->currentWidget() == labPage_) tabs_->setCurrentIndex(0);
    show();
    raise();
}

void WhyWindow::showLab() {
    tabs_->setCurrentWidget(labPage_);
    show();
    raise();
}

void WhyWindow::retranslateUi() {
    setWindowTitle(tr("Why this character?"));
    tabs_->setTabText(0, tr("Attribution"));
    tabs_->setTabText(1, tr("Across the kept steps"));
    tabs_->setTabText(2, tr("Patching lab"));
    labAction_->setText(tr("Activation patching lab…"));
}

void WhyWindow::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) retranslateUi();
    QDialog::changeEvent(event);
}
