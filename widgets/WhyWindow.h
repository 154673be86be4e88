// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDialog>

class AttributionHistoryView;
class AttributionView;
class PatchingLab;
class QAction;
class QTabWidget;

// "Why this character?" in a window of its own beside the main one: the
// attribution of a clicked character (AttributionView), the same across the
// run's kept steps (AttributionHistoryView) and the activation patching lab
// (PatchingLab), one tab each. The attribution's Patch button
// opens the lab on its characters.
class WhyWindow : public QDialog {
    Q_OBJECT

public:
    explicit WhyWindow(QWidget* parent = nullptr);

    AttributionView* attributionView() const { return attribution_; }
    PatchingLab* patchingLab() const { return lab_; }
    // The lab's tab (the lab in a scroll area).
    QWidget* labPage() const { return labPage_; }
    AttributionHistoryView* historyView() const { return history_; }
    QTabWidget* tabs() const { return tabs_; }
    // Opens the window on the patching lab (for a menu).
    QAction* labAction() const { return labAction_; }

public slots:
    void showAttribution();
    void showLab();

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslateUi();

    QTabWidget* tabs_ = nullptr;
    AttributionView* attribution_ = nullptr;
    PatchingLab* lab_ = nullptr;
    QWidget* labPage_ = nullptr;
    AttributionHistoryView* history_ = nullptr;
    QAction* labAction_ = nullptr;
};
