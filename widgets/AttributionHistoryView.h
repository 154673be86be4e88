// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QVector>
#include <QWidget>

#include "widgets/AttributionData.h"

class QCustomPlot;
class QLabel;

// The why window's time machine: for the clicked character, its logit and
// the share of the parts that matter most at any kept step (a line each,
// against the step), so a head "switching on" shows as its line rising.
class AttributionHistoryView : public QWidget {
    Q_OBJECT

public:
    explicit AttributionHistoryView(QWidget* parent = nullptr);

    void setHistory(const AttributionHistory& history);
    const AttributionHistory& history() const { return history_; }
    // The indexes into history().parts drawn, largest peak |share| first (at most kLines).
    QVector<int> shownParts() const;
    QString summary() const;
    QCustomPlot* plot() const { return plot_; }

    static constexpr int kLines = 6;

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslateUi();
    void draw();

    AttributionHistory history_;
    QLabel* summary_ = nullptr;
    QCustomPlot* plot_ = nullptr;
};
